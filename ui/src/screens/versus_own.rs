//! The player's own block on the versus match screen: the incoming-garbage meter, the board
//! (at the scale the match screen picked), and beside it hold, next, the player's numbers and
//! the text of their last clear. Nothing the match screen asks or says covers the board while
//! the game runs: the clear text and the forfeit question sit in the column beside it.

use minotty_engine::EndReason;
use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::figures::pps;
use crate::session::{Effects, GameSession, clear_name};
use crate::settings::Settings;
use crate::text::{StackStr, clock, sfmt};
use crate::theme::Theme;
use crate::widgets::board::{BoardView, Scale, cells_area};
use crate::widgets::garbage_meter;
use crate::widgets::mini_board::full_size;
use crate::widgets::piece_box::{HoldView, NextView, box_w};
use minotty_protocol::RoomLimit;

/// The own block's size with the board at `scale` and the side boxes `n` times 1x: the meter,
/// the board, a gap, the side column (the Electronika 60 well takes the gaps).
pub fn size(scale: Scale, n: u16) -> (u16, u16) {
    let (bw, bh) = full_size(scale);
    (1 + bw + 1 + box_w(n), bh)
}

/// How many times 1x the side boxes are beside a board at `scale`: as the board.
pub fn side_times(scale: Scale) -> u16 {
    scale.times()
}

/// What the block shows of the match around the player's game.
#[derive(Clone, Copy, Debug)]
pub struct Around {
    pub kind: MatchKind,
    pub limit: RoomLimit,
    /// The "forfeit?" question is asked (the game keeps running).
    pub forfeit_prompt: bool,
    /// Opponents still playing.
    pub alive: usize,
    /// The preview the room fixes (`None`: the player's own).
    pub preview: Option<u8>,
}

/// The rows the forfeit question takes in the side column.
const QUESTION_H: u16 = 6;

/// Draws the player's block into `r` (see [`size`]).
pub(crate) fn draw(
    buf: &mut Buffer,
    r: Rect,
    (m, s): (Around, &GameSession),
    settings: &Settings,
    theme: Theme,
    scale: Scale,
) {
    let game = s.game();
    let t = s.game_time();
    // Versus lays its boards out for blocks: the compact renderers are the solo screens'.
    let theme = Theme {
        renderer: crate::settings::Renderer::Blocks,
        ..theme
    };
    let n = side_times(scale);
    let wide = u16::from(theme.electronika());
    let (bw, bh) = crate::widgets::board::board_size(theme, scale);
    let board_at = Rect::new(r.x + 1 - wide, r.y, bw, bh).intersection(r);
    BoardView {
        game,
        fx: s.effects(),
        t,
        theme,
        ghost: settings.ghost,
        trail: settings.drop_trail,
        hidden: false,
        blind: false,
        scale,
    }
    .render(board_at, buf);
    let cells = cells_area(board_at, theme, scale);
    let (ready, waiting) = game.garbage().pending();
    let meter = Rect::new(r.x, cells.y, 1, cells.height).intersection(r);
    garbage_meter::draw_scaled(buf, meter, (ready, waiting), scale.times(), theme);

    let side_x = r.x + 1 + full_size(scale).0 + 1;
    let side = Rect::new(side_x, r.y, box_w(n), r.height).intersection(r);
    let hold_at = Rect::new(side.x, side.y, box_w(n), HoldView::height(n)).intersection(side);
    HoldView {
        piece: game.hold_piece(),
        used: !game.can_hold(),
        theme,
        hidden: false,
    }
    .render_scaled(hold_at, buf, n);
    let count = usize::from(m.preview.unwrap_or(settings.preview)).min(3);
    let compact = theme.half_blocks() && n == 1;
    let next_h = NextView::height_scaled(count, compact, n);
    let next_at = Rect::new(side.x, hold_at.bottom(), box_w(n), next_h).intersection(side);
    NextView {
        game,
        count,
        theme,
        hidden: false,
        compact,
    }
    .render_scaled(next_at, buf, n);

    let rows = numbers(m, s);
    let nums_y = next_at.bottom() + 1;
    let nums = Rect::new(
        side.x,
        nums_y,
        side.width,
        side.bottom().saturating_sub(nums_y),
    );
    let below = Rect::new(
        side.x,
        nums_y + rows.len() as u16,
        side.width,
        side.bottom().saturating_sub(nums_y + rows.len() as u16),
    )
    .intersection(side);
    if m.forfeit_prompt && !s.is_over() {
        // The question stands where the numbers were: the board and its spawn rows show, and
        // the game goes on under the player's keys while it is asked.
        let at = Rect::new(side.x, nums_y.saturating_sub(1), side.width, QUESTION_H);
        let inner = draw::frame(
            buf,
            at.intersection(side),
            theme,
            "FORFEIT?",
            theme.accent(),
        );
        draw::clear(buf, inner);
        let lines = [
            ("Give up?", theme.text()),
            ("y yes n no", theme.accent()),
            ("the game", theme.dim()),
            ("goes on", theme.dim()),
        ];
        for (i, (text, style)) in lines.into_iter().enumerate() {
            draw::put(buf, inner, inner.x, inner.y + i as u16, text, style);
        }
    } else {
        draw::put_rows(buf, nums, &rows, theme);
        let gap = u16::from(below.height > 3);
        let text_at = Rect::new(below.x, below.y + gap, below.width, below.height);
        clear_text(buf, text_at.intersection(below), m, s, theme);
    }
    overlay(buf, cells, m, s, theme);
}

/// The player's numbers: time (or time left), lines, and attack in a battle, pace.
fn numbers(m: Around, s: &GameSession) -> Vec<(&'static str, StackStr<24>)> {
    let game = s.game();
    let stats = game.stats();
    let minutes_ms = game.now().max(1);
    let apm = u64::from(stats.sent) * 60_000 * 10 / minutes_ms;
    let (lines, time) = match (m.kind, m.limit) {
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
    let mut rows = match m.kind {
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
    // A room with stock: the extra lives left.
    if game.config().mode.lives > 0 {
        rows.push(("LIVES", sfmt!(24; "{}", game.lives_left())));
    }
    rows
}

/// The last clear's text ("DOUBLE +1", "T-SPIN MINI SINGLE", "B2B", "3 COMBO") in `at`
/// beside the board, wrapped at spaces, as solo shows it beside its board.
fn clear_text(buf: &mut Buffer, at: Rect, m: Around, s: &GameSession, theme: Theme) {
    let t = s.game_time();
    let Some((c, piece)) = s.effects().action(t).filter(|_| !s.is_over()) else {
        return;
    };
    let name = clear_name(c, piece);
    let text = if c.attack > 0 && m.kind == MatchKind::Battle {
        sfmt!(64; "{} +{}", name.as_str(), c.attack)
    } else {
        sfmt!(64; "{}", name.as_str())
    };
    let rows = draw::wrapped(buf, at, at.y, text.as_str(), theme.accent());
    let more = match (c.b2b, c.combo) {
        (false, 0) => return,
        (true, 0) => sfmt!(32; "B2B"),
        (false, k) => sfmt!(32; "{} COMBO", k),
        (true, k) => sfmt!(32; "B2B {} COMBO", k),
    };
    draw::wrapped(buf, at, at.y + rows, more.as_str(), theme.accent());
}

/// What is drawn over the board: the final word once the game is over, the countdown and GO.
fn overlay(buf: &mut Buffer, cells: Rect, m: Around, s: &GameSession, theme: Theme) {
    let t = s.game_time();
    if let Some((reason, won)) = s.game().outcome() {
        let alive = m.alive;
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
    } else if let Some(n) = s.countdown() {
        let inner = draw::dialog(buf, cells, 8, 3, theme, "");
        let digit = sfmt!(8; "{}", n);
        draw::put_centered(buf, inner, inner.y, digit.as_str(), theme.accent());
    } else if Effects::go(t) {
        let inner = draw::dialog(buf, cells, 8, 3, theme, "");
        draw::put_centered(buf, inner, inner.y, "GO!", theme.accent());
    }
}
