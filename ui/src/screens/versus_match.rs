//! A versus match on screen: the player's board at full size with the incoming-garbage meter,
//! hold and next, their numbers; the opponents' boards at full size when they fit, else as
//! half-block minis, else as braille micros. Spectators see every player's board.

use minotty_engine::EndReason;
use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::figures::pps;
use crate::screens::opponent_board::{draw_full, status};
use crate::screens::versus_watch;
use crate::session::{Effects, GameSession, clear_name};
use crate::settings::Settings;
use crate::text::{StackStr, clock, sfmt};
use crate::theme::Theme;
use crate::widgets::board::{BOARD_H, BOARD_W, BoardView, Scale, board_size, cells_area};
use crate::widgets::garbage_meter;
use crate::widgets::mini_board::{self, FULL_H, FULL_W, MICRO_H, MICRO_W, MINI_H, MINI_W};
use crate::widgets::piece_box::{BOX_W, HoldView, NextView};
use minotty_protocol::OpponentView;
use minotty_protocol::{MatchStart, RoomLimit};

/// The player's block: meter, board, a gap, hold/next and numbers.
const OWN_W: u16 = 1 + BOARD_W + 1 + BOX_W;
/// Rows of the boards (the header above and the key hint below make 24).
const ROWS_H: u16 = BOARD_H;

/// A match being played or watched.
#[derive(Debug)]
pub struct Match {
    pub start: MatchStart,
    /// Front-end time the match start arrived (the countdown runs from here).
    pub started_at: u64,
    /// The room's limit, when known (a time limit shows as time left).
    pub limit: RoomLimit,
    /// The player's own game (`None` when spectating).
    pub session: Option<GameSession>,
    /// Everyone else's boards and numbers (spectators: every player).
    pub opponents: Vec<OpponentView>,
    /// The "forfeit?" prompt is open (the game keeps running).
    pub forfeit_prompt: bool,
    /// Front-end time of the last board snapshot sent.
    pub last_board: Option<u64>,
    /// The falling piece moved since the last snapshot.
    pub board_due: bool,
    pub finished_sent: bool,
}

impl Match {
    /// The countdown digit a spectator sees (players see their own game's).
    pub fn countdown(&self, now: u64) -> Option<u64> {
        let end = self.started_at + self.start.countdown_ms;
        (now < end).then(|| (end - now).div_ceil(1000).max(1))
    }

    /// When a spectator's countdown next changes.
    pub fn countdown_wakeup(&self, now: u64) -> Option<u64> {
        let end = self.started_at + self.start.countdown_ms;
        (now < end).then(|| end - (end - now - 1) / 1000 * 1000)
    }
}

/// How the opponents' boards are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// 22 x 22 framed, with a garbage meter.
    Full,
    /// 10 x 10 half blocks under a name row.
    Mini,
    /// 5 x 5 braille under a name row.
    Micro,
}

impl Tier {
    /// The cell one board takes in the grid, gaps included.
    fn cell(self) -> (u16, u16) {
        match self {
            Tier::Full => (1 + FULL_W + 1, FULL_H),
            // The meter, the board, a gap.
            Tier::Mini => (1 + MINI_W + 1, MINI_H + 1),
            // The meter, the board and room for its status, a gap.
            Tier::Micro => (1 + MICRO_W + 2, MICRO_H + 1),
        }
    }
}

/// The largest tier that fits `n` boards in `w` x `h`, with its columns and rows.
pub fn layout(n: usize, w: u16, h: u16) -> (Tier, u16, u16) {
    let fit = |tier: Tier| {
        let (cw, ch) = tier.cell();
        let cols = (w + 1) / cw;
        let rows = h / ch;
        (tier, cols, rows)
    };
    for tier in [Tier::Full, Tier::Mini] {
        let (t, cols, rows) = fit(tier);
        if usize::from(cols) * usize::from(rows) >= n {
            let cols = cols.min(n as u16).max(1);
            return (t, cols, rows);
        }
    }
    let (t, cols, rows) = fit(Tier::Micro);
    (t, cols.min(n as u16).max(1), rows)
}

/// Draws a match.
#[derive(Debug)]
pub struct MatchView<'a> {
    pub game: &'a Match,
    pub settings: &'a Settings,
    pub player: &'a str,
    /// Front-end time now.
    pub now: u64,
}

impl Widget for &MatchView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(self.settings);
        let m = self.game;
        // As tall as the boards need (up to two rows of mini-boards), centred vertically.
        let avail = area.height.saturating_sub(2).min(ROWS_H + 16);
        let n = m.opponents.len().max(1);
        let others_w = match &m.session {
            Some(_) => area.width.saturating_sub(OWN_W + 1),
            None => area.width,
        };
        let (tier, cols, _) = layout(n, others_w, avail);
        let grid_h = u16::try_from(n)
            .unwrap_or(u16::MAX)
            .div_ceil(cols.max(1))
            .saturating_mul(tier.cell().1);
        let own_h = if m.session.is_some() { ROWS_H } else { 0 };
        let h = (grid_h.max(own_h).min(avail) + 2).min(area.height);
        let top = area.y + (area.height - h) / 2;
        let rows_h = h.saturating_sub(2);
        // The grid of the others' boards in the rows they got (the same tier and columns).
        let (tier, cols, rows) = layout(n, others_w, rows_h);
        let (cw, _) = tier.cell();
        let kind = match m.start.kind {
            MatchKind::Battle => "Battle",
            MatchKind::Race => "Race",
        };
        let x = draw::put(buf, area, area.x + 1, top, "VERSUS", theme.accent());
        let sep = sfmt!(8; " {} ", theme.dot());
        let x = draw::put(buf, area, x, top, sep.as_str(), theme.dim());
        let x = draw::put(buf, area, x, top, kind, theme.title());
        if m.start.ranked {
            let x = draw::put(buf, area, x, top, sep.as_str(), theme.dim());
            draw::put(buf, area, x, top, "ranked", theme.dim());
        }
        let boards_y = top + 1;
        let others = m.opponents.as_slice();
        let footer_y = top + h - 1;
        // The others' boards in `at`, and who this screen is for at the top right.
        let boards = |buf: &mut Buffer, at: Rect| {
            draw_others(buf, at, others, (tier, cols, rows), m.start.kind, theme);
        };
        let corner = |buf: &mut Buffer, who: &str| {
            let right = Rect::new(area.x, top, area.width.saturating_sub(1), 1);
            draw::put_right(buf, right, top, who, theme.dim());
        };
        match &m.session {
            Some(s) => {
                let opp_w = if others.is_empty() { 0 } else { cols * cw };
                let total = OWN_W + 1 + opp_w;
                let x0 = area.x + area.width.saturating_sub(total) / 2;
                let own = Rect::new(x0, boards_y, OWN_W, ROWS_H).intersection(area);
                self.own(buf, own, s, theme);
                let opp_area = Rect::new(
                    x0 + OWN_W + 1,
                    boards_y,
                    area.right().saturating_sub(x0 + OWN_W + 1),
                    rows_h,
                );
                boards(buf, opp_area);
                corner(buf, self.player);
                if m.start.kind == MatchKind::Battle && others.len() > 1 {
                    let at_you = others
                        .iter()
                        .filter(|o| o.alive && o.target.is_some() && o.target == m.start.you)
                        .count();
                    if at_you > 0 {
                        let text = sfmt!(32; "{} attacking you", at_you);
                        draw::put_centered(buf, area, top, text.as_str(), theme.bad());
                    }
                }
                let hint = if s.game().outcome().is_some_and(|(_, won)| won) {
                    "Finished: waiting for the others   Esc leave"
                } else if s.is_over() {
                    "KO: watching the others   Esc leave"
                } else if m.forfeit_prompt {
                    "y forfeit   n keep playing"
                } else {
                    "Esc forfeit   Ctrl+C quit"
                };
                draw::put_centered(buf, area, footer_y, hint, theme.dim());
            }
            None => {
                let total = cols * cw;
                let x0 = area.x + area.width.saturating_sub(total) / 2;
                let opp_area = Rect::new(x0, boards_y, area.right().saturating_sub(x0), rows_h);
                if others.is_empty() {
                    draw::put_centered(
                        buf,
                        area,
                        boards_y + 10,
                        "Waiting for the boards...",
                        theme.dim(),
                    );
                }
                if versus_watch::fits(others.len(), area.width, rows_h) {
                    // Room beside the boards: each player's hold, next and numbers too.
                    versus_watch::draw(buf, area, boards_y, others, m.start.kind, theme);
                } else {
                    boards(buf, opp_area);
                }
                if let Some(n) = m.countdown(self.now) {
                    let inner = draw::dialog(buf, area, 8, 3, theme, "");
                    let digit = sfmt!(8; "{}", n);
                    draw::put_centered(buf, inner, inner.y, digit.as_str(), theme.accent());
                }
                corner(buf, "spectating");
                draw::put_centered(buf, area, footer_y, "Watching   Esc leave", theme.dim());
            }
        }
    }
}

impl MatchView<'_> {
    /// The player's own block in `r` (OWN_W x ROWS_H).
    fn own(&self, buf: &mut Buffer, r: Rect, s: &GameSession, theme: Theme) {
        let game = s.game();
        let t = s.game_time();
        // The Electronika 60 well is two columns wider than a frame: it takes the gaps.
        let wide = u16::from(theme.electronika());
        let (bw, bh) = board_size(theme, Scale::ONE);
        let board_at = Rect::new(r.x + 1 - wide, r.y, bw, bh).intersection(r);
        BoardView {
            game,
            fx: s.effects(),
            t,
            theme,
            ghost: self.settings.ghost,
            trail: self.settings.drop_trail,
            hidden: false,
            scale: Scale::ONE,
        }
        .render(board_at, buf);
        let cells = cells_area(board_at, theme, Scale::ONE);
        let (ready, waiting) = game.garbage().pending();
        let meter = Rect::new(r.x, cells.y, 1, cells.height).intersection(r);
        garbage_meter::draw(buf, meter, ready, waiting, theme);

        let side_x = r.x + 1 + BOARD_W + 1;
        let hold_at = Rect::new(side_x, r.y, BOX_W, HoldView::HEIGHT).intersection(r);
        HoldView {
            piece: game.hold_piece(),
            used: !game.can_hold(),
            theme,
            hidden: false,
        }
        .render(hold_at, buf);
        let count = usize::from(self.settings.preview).min(3);
        let next_at = Rect::new(
            side_x,
            r.y + HoldView::HEIGHT,
            BOX_W,
            NextView::height(count, theme.half_blocks()),
        )
        .intersection(r);
        NextView {
            game,
            count,
            theme,
            hidden: false,
            compact: theme.half_blocks(),
        }
        .render(next_at, buf);

        let stats = game.stats();
        let minutes_ms = game.now().max(1);
        let apm = u64::from(stats.sent) * 60_000 * 10 / minutes_ms;
        let (lines, time) = match (self.game.start.kind, self.game.limit) {
            (MatchKind::Race, _) => (sfmt!(24; "{}/40", stats.lines), ("TIME", game.now())),
            (MatchKind::Battle, RoomLimit::Lines(n)) => {
                (sfmt!(24; "{}/{}", stats.lines, n), ("TIME", game.now()))
            }
            (MatchKind::Battle, RoomLimit::Seconds(secs)) => (
                sfmt!(24; "{}", stats.lines),
                ("LEFT", (u64::from(secs) * 1000).saturating_sub(game.now())),
            ),
            (MatchKind::Battle, RoomLimit::None) => {
                (sfmt!(24; "{}", stats.lines), ("TIME", game.now()))
            }
        };
        let time = (time.0, sfmt!(24; "{}", clock(time.1).as_str()));
        let pps = (
            "PPS",
            sfmt!(24; "{}", pps(stats.pieces, game.now()).as_str()),
        );
        // A race sends nothing: its numbers are time, lines and pace, none of attack.
        let rows: Vec<(&str, StackStr<24>)> = match self.game.start.kind {
            MatchKind::Race => vec![
                time,
                ("LINES", lines),
                ("PIECES", sfmt!(24; "{}", stats.pieces)),
                pps,
            ],
            MatchKind::Battle => vec![
                time,
                ("LINES", lines),
                ("SENT", sfmt!(24; "{}", stats.sent)),
                ("RECV", sfmt!(24; "{}", stats.garbage_received)),
                ("APM", sfmt!(24; "{}.{}", apm / 10, apm % 10)),
                pps,
            ],
        };
        let nums_y = next_at.bottom() + 1;
        let nums = Rect::new(side_x, nums_y, BOX_W, r.bottom().saturating_sub(nums_y));
        draw::put_rows(buf, nums, &rows, theme);
        self.overlay(buf, cells, s, theme);
    }

    fn overlay(&self, buf: &mut Buffer, cells: Rect, s: &GameSession, theme: Theme) {
        let m = self.game;
        let t = s.game_time();
        if let Some((reason, won)) = s.game().outcome() {
            let alive = m.opponents.iter().filter(|o| o.alive).count();
            let inner = draw::dialog(buf, cells, 18, 6, theme, "");
            let (head, style) = match (won, reason) {
                (true, _) => ("FINISHED!", theme.good()),
                (false, EndReason::Forfeit) => ("FORFEITED", theme.bad()),
                _ => ("KO", theme.bad()),
            };
            draw::put_centered(buf, inner, inner.y, head, style);
            draw::put_centered(buf, inner, inner.y + 1, "watching", theme.text());
            let left = sfmt!(24; "{} still playing", alive);
            draw::put_centered(buf, inner, inner.y + 3, left.as_str(), theme.dim());
        } else if m.forfeit_prompt {
            let inner = draw::dialog(buf, cells, 18, 6, theme, "FORFEIT?");
            draw::put_centered(buf, inner, inner.y, "Give up the", theme.text());
            draw::put_centered(buf, inner, inner.y + 1, "match?", theme.text());
            draw::put_centered(buf, inner, inner.y + 3, "y yes   n no", theme.accent());
        } else if let Some(n) = s.countdown() {
            let inner = draw::dialog(buf, cells, 8, 3, theme, "");
            let digit = sfmt!(8; "{}", n);
            draw::put_centered(buf, inner, inner.y, digit.as_str(), theme.accent());
        } else if Effects::go(t) {
            let inner = draw::dialog(buf, cells, 8, 3, theme, "");
            draw::put_centered(buf, inner, inner.y, "GO!", theme.accent());
        }
        if let Some((c, piece)) = s.effects().action(t).filter(|_| !s.is_over()) {
            let name = clear_name(c, piece);
            let text = if c.attack > 0 && m.start.kind == MatchKind::Battle {
                sfmt!(40; "{} +{}", name.as_str(), c.attack)
            } else {
                sfmt!(40; "{}", name.as_str())
            };
            draw::put_centered(buf, cells, cells.y, text.as_str(), theme.accent());
        }
    }
}

/// Draws the other players' boards in a grid.
fn draw_others(
    buf: &mut Buffer,
    area: Rect,
    others: &[OpponentView],
    (tier, cols, rows): (Tier, u16, u16),
    kind: MatchKind,
    theme: Theme,
) {
    let (cw, ch) = tier.cell();
    let capacity = usize::from(cols) * usize::from(rows);
    for (i, o) in others.iter().take(capacity).enumerate() {
        let col = i as u16 % cols.max(1);
        let row = i as u16 / cols.max(1);
        let at = Rect::new(area.x + col * cw, area.y + row * ch, cw, ch).intersection(area);
        let st = status(o, kind);
        let name_style = if o.alive { theme.text() } else { theme.bad() };
        match tier {
            Tier::Full => draw_full(buf, at, area, o, kind, theme),
            Tier::Mini | Tier::Micro => {
                let name = Rect::new(at.x, at.y, cw.saturating_sub(1), 1).intersection(area);
                draw::put(buf, name, name.x, name.y, &o.name, name_style);
                // The incoming-garbage meter at the left, as beside a full board.
                let (bh, per_cell) = if tier == Tier::Mini {
                    (MINI_H, 2)
                } else {
                    (MICRO_H, 4)
                };
                let meter = Rect::new(at.x, at.y + 1, 1, bh).intersection(area);
                garbage_meter::draw_compact(
                    buf,
                    meter,
                    o.progress.pending_garbage,
                    per_cell,
                    theme,
                );
                let b =
                    Rect::new(at.x + 1, at.y + 1, cw.saturating_sub(2), ch - 1).intersection(area);
                if tier == Tier::Mini {
                    mini_board::mini(buf, b, &o.board, theme);
                } else {
                    mini_board::micro(buf, b, &o.board, theme);
                }
                let w = if tier == Tier::Mini {
                    MINI_W
                } else {
                    MICRO_W + 1
                };
                let line = Rect::new(b.x, b.y, w, 1).intersection(area);
                let style = if o.alive { theme.accent() } else { theme.bad() };
                draw::put_right(buf, line, line.y, st.as_str(), style);
            }
        }
    }
    if others.len() > capacity {
        let more = sfmt!(16; "+{} more", others.len() - capacity);
        draw::put_right(
            buf,
            area,
            area.bottom().saturating_sub(1),
            more.as_str(),
            theme.dim(),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_shrink_with_room() {
        // 60 x 24: one opponent beside the player's block at full size.
        assert_eq!(layout(1, 60 - OWN_W - 1, 22).0, Tier::Full);
        assert_eq!(layout(5, 60 - OWN_W - 1, 22).0, Tier::Micro);
        assert_eq!(layout(3, 60 - OWN_W - 1, 22).0, Tier::Mini);
        let (t, cols, rows) = layout(7, 60 - OWN_W - 1, 22);
        assert!(usize::from(cols * rows) >= 7, "{t:?} {cols} {rows}");
        assert_eq!(layout(5, 120 - OWN_W - 1, 38).0, Tier::Mini);
        assert_eq!(layout(2, 60, 22).0, Tier::Full);
    }
}
