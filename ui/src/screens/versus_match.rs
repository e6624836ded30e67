//! A versus match on screen: the player's board with the incoming-garbage meter, hold and
//! next, their numbers ([`versus_own`]); the opponents' boards at full size when they fit
//! (scaled by whole cells where there is room), else as half-block minis, else as braille
//! micros ([`versus_layout`]). Spectators see every player's board.

use std::borrow::Cow;

use minotty_engine::versus::{MatchKind, teams};
use minotty_engine::{Game, GameConfig, Handling, RulesetId, Tuning};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::screens::versus_climb;
use crate::screens::versus_layout::{Tier, draw_others, plan};
use crate::screens::versus_own;
use crate::screens::versus_watch::{self, Watch};
use crate::session::GameSession;
use crate::settings::{BoardSize, Settings};
use crate::text::sfmt;
use crate::theme::Theme;
use crate::widgets::board::Scale;
use minotty_protocol::{MatchStart, NEXT_SHOWN, OpponentView, RoomLimit};

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

    /// Milliseconds of play since GO by the front end's clock (`None` before it).
    pub fn elapsed(&self, now: u64) -> Option<u64> {
        let go = self.started_at + self.start.countdown_ms;
        (now >= go).then(|| now - go)
    }

    /// The player's team in a match of teams.
    pub fn own_team(&self) -> Option<u8> {
        self.start
            .you
            .and_then(|y| self.start.teams.get(y))
            .copied()
    }

    /// With teams, each board's name marked: a teammate's `+name`, another team's `B name`
    /// (a spectator sees every team's letter); a free-for-all's as they are.
    pub fn marked<'a>(&self, shown: Cow<'a, [OpponentView]>) -> Cow<'a, [OpponentView]> {
        if self.start.teams.is_empty() {
            return shown;
        }
        let mine = self.own_team();
        let mut list = shown.into_owned();
        for o in &mut list {
            let Some(&t) = self.start.teams.get(o.seat) else {
                continue;
            };
            o.name = if Some(t) == mine {
                format!("+{}", o.name)
            } else {
                format!("{} {}", teams::letter(t), o.name)
            };
        }
        Cow::Owned(list)
    }

    /// The next pieces every player sees before their first lock: the match's seed deals
    /// the same queue to all, so a spectator can show it before anyone reports theirs.
    pub fn opening_next(&self) -> [u8; NEXT_SHOWN] {
        let config = GameConfig {
            ruleset: RulesetId::Standard,
            mode: self.start.mode.clone(),
            handling: Handling::default(),
            tuning: Tuning::default(),
        };
        let mut game = Game::new(config, self.start.seed);
        game.update(0, None);
        minotty_protocol::progress_of(&game).next
    }

    /// The boards to show: the ones reported, or until the first report, an empty board for
    /// each player in the match start (so the layout does not jump when they arrive). A
    /// player who has not locked a piece yet shows the opening queue.
    pub fn shown(&self) -> Cow<'_, [OpponentView]> {
        let unreported =
            |o: &OpponentView| o.progress.pieces == 0 && o.progress.next == [0; NEXT_SHOWN];
        let playing = self.session.is_some();
        if !self.opponents.is_empty() && (playing || !self.opponents.iter().any(unreported)) {
            return Cow::Borrowed(&self.opponents);
        }
        let next = if playing {
            [0; NEXT_SHOWN]
        } else {
            self.opening_next()
        };
        let mut list = if self.opponents.is_empty() {
            let seats = self.start.players.iter().enumerate();
            seats
                .filter(|(i, _)| Some(*i) != self.start.you)
                .map(|(seat, name)| OpponentView::at_start(seat, name.clone()))
                .collect()
        } else {
            self.opponents.clone()
        };
        for o in list.iter_mut().filter(|o| !playing && unreported(o)) {
            o.progress.next = next;
        }
        Cow::Owned(list)
    }

    /// When a spectator's countdown next changes.
    pub fn countdown_wakeup(&self, now: u64) -> Option<u64> {
        let end = self.started_at + self.start.countdown_ms;
        (now < end).then(|| end - (end - now - 1) / 1000 * 1000)
    }
}

/// Draws a match.
#[derive(Debug)]
pub struct MatchView<'a> {
    pub game: &'a Match,
    pub settings: &'a Settings,
    pub player: &'a str,
    /// Front-end time now.
    pub now: u64,
    /// The player's climb, when this match is a run of one.
    pub climb: Option<&'a minotty_protocol::ClimbView>,
}

impl Widget for &MatchView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(self.settings);
        let m = self.game;
        let max = match self.settings.board_size {
            BoardSize::One => Scale::ONE,
            BoardSize::Auto => Scale::MAX,
        };
        let avail = area.height.saturating_sub(2);
        let others = m.marked(m.shown());
        let others = others.as_ref();
        let n = others.len().max(1);
        let (scale, (tier, cols, _)) = match &m.session {
            Some(_) => plan(n, area.width, avail, max),
            None => (
                Scale::ONE,
                crate::screens::versus_layout::layout(n, area.width, avail, max),
            ),
        };
        let watch_scale = versus_watch::scale_for(n, area.width, avail, max);
        let grid_h = u16::try_from(n)
            .unwrap_or(u16::MAX)
            .div_ceil(cols.max(1))
            .saturating_mul(tier.cell().1);
        let own_h = match &m.session {
            Some(_) => versus_own::size(scale, versus_own::side_times(scale)).1,
            None => watch_scale.map_or(0, versus_watch::height),
        };
        let h = (grid_h.max(own_h).min(avail) + 2).min(area.height);
        let top = area.y + (area.height - h) / 2;
        let rows_h = h.saturating_sub(2);
        let (cw, _) = tier.cell();
        let rows = rows_h / tier.cell().1.max(1);
        let kind = match m.start.kind {
            MatchKind::Battle => "Battle",
            MatchKind::Race => "Race",
        };
        let sep = sfmt!(8; " {} ", theme.dot());
        let x = if let Some(climb) = self.climb {
            let x = draw::put(buf, area, area.x + 1, top, "CLIMB", theme.accent());
            let x = draw::put(buf, area, x, top, sep.as_str(), theme.dim());
            draw::put(
                buf,
                area,
                x,
                top,
                versus_climb::title(climb).as_str(),
                theme.title(),
            )
        } else {
            let x = draw::put(buf, area, area.x + 1, top, "VERSUS", theme.accent());
            let x = draw::put(buf, area, x, top, sep.as_str(), theme.dim());
            draw::put(buf, area, x, top, kind, theme.title())
        };
        if m.start.ranked {
            let x = draw::put(buf, area, x, top, sep.as_str(), theme.dim());
            draw::put(buf, area, x, top, "ranked", theme.dim());
        }
        if let Some(t) = m.own_team() {
            let x = draw::put(buf, area, x, top, sep.as_str(), theme.dim());
            let team = sfmt!(16; "team {}", teams::letter(t));
            draw::put(buf, area, x, top, team.as_str(), theme.accent());
        }
        let boards_y = top + 1;
        let footer_y = top + h - 1;
        let corner = |buf: &mut Buffer, who: &str| {
            let right = Rect::new(area.x, top, area.width.saturating_sub(1), 1);
            draw::put_right(buf, right, top, who, theme.dim());
        };
        let grid = (tier, cols, rows);
        match &m.session {
            Some(s) => {
                let (own_w, own_h) = versus_own::size(scale, versus_own::side_times(scale));
                let opp_w = if others.is_empty() { 0 } else { cols * cw };
                let total = own_w + 1 + opp_w;
                let x0 = area.x + area.width.saturating_sub(total) / 2;
                let own = Rect::new(x0, boards_y, own_w, own_h).intersection(area);
                let around = versus_own::Around {
                    kind: m.start.kind,
                    limit: m.limit,
                    forfeit_prompt: m.forfeit_prompt,
                    alive: m.opponents.iter().filter(|o| o.alive).count(),
                    preview: m.start.game.preview(),
                };
                versus_own::draw(buf, own, (around, s), self.settings, theme, scale);
                let opp_x = x0 + own_w + 1;
                let opp_area =
                    Rect::new(opp_x, boards_y, area.right().saturating_sub(opp_x), rows_h);
                draw_others(buf, opp_area, others, grid, m.start.kind, theme);
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
                let climb_line = self
                    .climb
                    .filter(|_| !m.forfeit_prompt || s.is_over())
                    .map(|c| match versus_climb::ended(c) {
                        Some(line) if s.is_over() => line,
                        _ if s.is_over() => sfmt!(120; "Topped out at {} m   Esc leave", c.height),
                        _ => versus_climb::climbing(c),
                    });
                let hint = if let Some(line) = &climb_line {
                    line.as_str()
                } else if s.game().outcome().is_some_and(|(_, won)| won) {
                    "Finished: waiting for the others   Esc leave"
                } else if s.is_over() {
                    "KO: watching the others   Esc leave"
                } else if m.forfeit_prompt {
                    "FORFEIT?  y forfeit   n keep playing   (the game goes on)"
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
                    let y = boards_y + rows_h / 2;
                    draw::put_centered(buf, area, y, "Waiting for the boards...", theme.dim());
                }
                let boards = if let Some(scale) = watch_scale {
                    // Room beside the boards: each player's hold, next and numbers too.
                    let watch = Watch {
                        scale,
                        elapsed_ms: m.elapsed(self.now),
                    };
                    versus_watch::draw_with(buf, area, boards_y, others, m.start.kind, theme, watch)
                } else {
                    draw_others(buf, opp_area, others, grid, m.start.kind, theme)
                };
                if let Some(n) = m.countdown(self.now) {
                    countdown(
                        buf,
                        &boards,
                        tier == Tier::Micro && watch_scale.is_none(),
                        n,
                        theme,
                    );
                }
                corner(buf, "spectating");
                draw::put_centered(buf, area, footer_y, "Watching   Esc leave", theme.dim());
            }
        }
    }
}

/// A spectator's countdown digit: over each board, as each player sees it over theirs (over
/// all of them at once when they are braille micros, too small for the box).
fn countdown(buf: &mut Buffer, boards: &[Rect], together: bool, n: u64, theme: Theme) {
    let digit = sfmt!(8; "{}", n);
    let mut put = |at: Rect| {
        let inner = draw::dialog(buf, at, 8, 3, theme, "");
        draw::put_centered(buf, inner, inner.y, digit.as_str(), theme.accent());
    };
    if together {
        if let Some(all) = boards.iter().copied().reduce(|a, b| a.union(b)) {
            put(all);
        }
    } else {
        boards.iter().copied().for_each(put);
    }
}
