//! A spectator's view of a match where the boards fit at full size with room beside them
//! (two players at 80x24): each player's board with its incoming-garbage meter, and beside it
//! their hold, their next pieces and their numbers, as a player sees their own.

use minotty_engine::Piece;
use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::figures::pps;
use crate::screens::opponent_board::draw_full;
use crate::screens::race_results::RACE_LINES;
use crate::text::{StackStr, clock, sfmt};
use crate::theme::Theme;
use crate::widgets::mini_board::{FULL_H, FULL_W};
use crate::widgets::piece_box::{BOX_W, HoldView, draw_piece_small};
use minotty_protocol::{NEXT_SHOWN, OpponentView};

/// One player's block: the meter, the board, a gap, the panel, a gap.
pub const BLOCK_W: u16 = 1 + FULL_W + 1 + BOX_W + 1;
/// The next box: a piece a row, a row between, in a frame.
const NEXT_H: u16 = 2 + 2 * NEXT_SHOWN as u16 - 1;

/// Whether `n` players' blocks fit in `w` x `h`.
pub fn fits(n: usize, w: u16, h: u16) -> bool {
    n > 0 && (n as u32) * u32::from(BLOCK_W) <= u32::from(w) + 1 && h >= FULL_H
}

/// A piece as [`minotty_protocol::Progress`] codes it.
fn piece(v: u8) -> Option<Piece> {
    Piece::ALL.get(usize::from(v).wrapping_sub(1)).copied()
}

/// Draws every player's block side by side, centred across `area`, from row `y`.
pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    y: u16,
    players: &[OpponentView],
    kind: MatchKind,
    theme: Theme,
) {
    let n = players.len() as u16;
    let total = (n * BLOCK_W).saturating_sub(1);
    let x0 = area.x + area.width.saturating_sub(total) / 2;
    for (i, o) in players.iter().enumerate() {
        let x = x0 + i as u16 * BLOCK_W;
        let at = Rect::new(x, y, 1 + FULL_W, FULL_H).intersection(area);
        draw_full(buf, at, area, o, kind, theme);
        let panel = Rect::new(x + 1 + FULL_W + 1, y, BOX_W, FULL_H).intersection(area);
        draw_panel(buf, panel, o, kind, theme);
    }
}

/// Hold, next and the numbers of one player, down `panel`.
fn draw_panel(buf: &mut Buffer, panel: Rect, o: &OpponentView, kind: MatchKind, theme: Theme) {
    let p = &o.progress;
    let hold = Rect::new(panel.x, panel.y, BOX_W, HoldView::HEIGHT).intersection(panel);
    HoldView {
        piece: piece(p.hold),
        used: false,
        theme,
        hidden: false,
    }
    .render(hold, buf);
    let next = Rect::new(panel.x, hold.bottom(), BOX_W, NEXT_H).intersection(panel);
    let inner = draw::frame(buf, next, theme, "NEXT", theme.dim());
    for (i, v) in p.next.iter().enumerate() {
        let Some(piece) = piece(*v) else { continue };
        let at = Rect::new(inner.x, inner.y + 2 * i as u16, inner.width, 1).intersection(inner);
        draw_piece_small(buf, at, piece, theme.piece(piece));
    }
    let time = ("TIME", sfmt!(24; "{}", clock(p.time_ms).as_str()));
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
        BOX_W,
        panel.bottom().saturating_sub(next.bottom() + 1),
    )
    .intersection(panel);
    draw::put_rows(buf, nums, &rows, theme);
}
