//! A spectator's view of a match where the boards fit at full size with room beside them
//! (two players at 80x24): each player's board with its incoming-garbage meter, and beside it
//! their hold, their next pieces and their numbers, as a player sees their own. The boards
//! are scaled by whole cells where the screen has room (2x at 200x60).

use minotty_engine::Piece;
use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::figures::pps;
use crate::screens::opponent_board::draw_full;
use crate::screens::race_results::RACE_LINES;
use crate::text::{StackStr, clock, sfmt};
use crate::theme::Theme;
use crate::widgets::board::Scale;
use crate::widgets::mini_board::{FULL_W, full_size};
use crate::widgets::piece_box::{BOX_W, HoldView, box_w, draw_piece_scaled, draw_piece_small};
use minotty_protocol::{NEXT_SHOWN, OpponentView};

/// One player's block: the meter, the board, a gap, the panel, a gap.
pub const BLOCK_W: u16 = 1 + FULL_W + 1 + BOX_W + 1;
/// The next box: a piece a row, a row between, in a frame.
const NEXT_H: u16 = 2 + 2 * NEXT_SHOWN as u16 - 1;

/// One player's block width with the board at `scale` (the panel's pieces as large).
fn block_w(scale: Scale) -> u16 {
    1 + full_size(scale).0 + 1 + box_w(scale.times()) + 1
}

/// The next box's height with its pieces `n` times 1x: at 1x a piece a row at half size,
/// else each `2n` rows; a row between.
fn next_h(n: u16) -> u16 {
    if n <= 1 {
        NEXT_H
    } else {
        2 + NEXT_SHOWN as u16 * (2 * n + 1) - 1
    }
}

/// The blocks' height at `scale`.
pub fn height(scale: Scale) -> u16 {
    full_size(scale).1
}

/// Whether `n` players' blocks fit in `w` x `h` at `scale`.
fn fits_at(n: usize, w: u16, h: u16, scale: Scale) -> bool {
    n > 0 && (n as u32) * u32::from(block_w(scale)) <= u32::from(w) + 1 && h >= height(scale)
}

/// The largest scale (at most `max`) at which `n` players' blocks fit in `w` x `h`.
pub fn scale_for(n: usize, w: u16, h: u16, max: Scale) -> Option<Scale> {
    Scale::offered().find(|&s| s <= max && fits_at(n, w, h, s))
}

/// What a spectator's view adds to the reported boards.
#[derive(Clone, Copy, Debug)]
pub struct Watch {
    /// The boards' scale.
    pub scale: Scale,
    /// Play time since GO by the spectator's clock: a race's TIME runs on it between the
    /// players' reports (a report never shows less than it says).
    pub elapsed_ms: Option<u64>,
}

/// A piece as [`minotty_protocol::Progress`] codes it.
fn piece(v: u8) -> Option<Piece> {
    Piece::ALL.get(usize::from(v).wrapping_sub(1)).copied()
}

/// Draws every player's block side by side at `watch`'s scale, centred across `area`, from
/// row `y`, the clock running on `watch`'s; returns the boards' cells.
pub fn draw_with(
    buf: &mut Buffer,
    area: Rect,
    y: u16,
    players: &[OpponentView],
    kind: MatchKind,
    theme: Theme,
    watch: Watch,
) -> Vec<Rect> {
    let n = players.len() as u16;
    let bw = block_w(watch.scale);
    let (fw, fh) = full_size(watch.scale);
    let total = (n * bw).saturating_sub(1);
    let x0 = area.x + area.width.saturating_sub(total) / 2;
    let mut boards = Vec::new();
    for (i, o) in players.iter().enumerate() {
        let x = x0 + i as u16 * bw;
        let at = Rect::new(x, y, 1 + fw, fh).intersection(area);
        draw_full(buf, (at, area), o, kind, theme, watch.scale);
        boards.push(crate::draw::inner(Rect::new(x + 1, y, fw, fh)).intersection(area));
        let panel = Rect::new(x + 1 + fw + 1, y, box_w(watch.scale.times()), fh);
        let panel = (panel.intersection(area), watch.scale.times());
        let running = o.alive && o.place.is_none();
        let time = watch.elapsed_ms.filter(|_| running).unwrap_or(0);
        draw_panel(buf, panel, o, kind, theme, time.max(o.progress.time_ms));
    }
    boards
}

/// Hold, next and the numbers of one player, down `panel`.
fn draw_panel(
    buf: &mut Buffer,
    (panel, n): (Rect, u16),
    o: &OpponentView,
    kind: MatchKind,
    theme: Theme,
    time_ms: u64,
) {
    let p = &o.progress;
    let w = box_w(n);
    let hold = Rect::new(panel.x, panel.y, w, HoldView::height(n)).intersection(panel);
    HoldView {
        piece: piece(p.hold),
        used: false,
        theme,
        hidden: false,
    }
    .render_scaled(hold, buf, n);
    let next = Rect::new(panel.x, hold.bottom(), w, next_h(n)).intersection(panel);
    let inner = draw::frame(buf, next, theme, "NEXT", theme.dim());
    for (i, v) in p.next.iter().enumerate() {
        let Some(piece) = piece(*v) else { continue };
        let style = theme.piece(piece);
        if n <= 1 {
            let at = Rect::new(inner.x, inner.y + 2 * i as u16, inner.width, 1);
            draw_piece_small(buf, at.intersection(inner), piece, style);
        } else {
            let at = Rect::new(
                inner.x,
                inner.y + (2 * n + 1) * i as u16,
                inner.width,
                2 * n,
            );
            let glyph = theme.piece_block(piece);
            draw_piece_scaled(buf, at.intersection(inner), piece, glyph, style, n);
        }
    }
    let time = ("TIME", sfmt!(24; "{}", clock(time_ms).as_str()));
    let pace = ("PPS", sfmt!(24; "{}", pps(p.pieces, p.time_ms).as_str()));
    let rows: Vec<(&str, StackStr<24>)> = match kind {
        MatchKind::Race => vec![
            time,
            ("LINES", sfmt!(24; "{}/{}", p.lines, RACE_LINES)),
            ("PIECES", sfmt!(24; "{}", p.pieces)),
            pace,
        ],
        MatchKind::Battle => {
            let apm = (u64::from(p.attack_sent) * 600_000)
                .checked_div(p.time_ms)
                .unwrap_or(0);
            vec![
                ("LINES", sfmt!(24; "{}", p.lines)),
                ("SENT", sfmt!(24; "{}", p.attack_sent)),
                ("RECV", sfmt!(24; "{}", p.garbage_received)),
                ("APM", sfmt!(24; "{}.{}", apm / 10, apm % 10)),
                pace,
            ]
        }
    };
    let nums = Rect::new(
        panel.x,
        next.bottom() + 1,
        w,
        panel.bottom().saturating_sub(next.bottom() + 1),
    )
    .intersection(panel);
    draw::put_rows(buf, nums, &rows, theme);
}
