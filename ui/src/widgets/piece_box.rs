//! Framed boxes that show pieces: the hold box and the next queue.

use minotty_engine::{Game, Piece, Rotation};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;

use crate::draw;
use crate::theme::Theme;

/// Width of a piece box, frame included (four cells of two columns, a margin each side).
pub const BOX_W: u16 = 12;

/// Draws `piece` in its spawn orientation, centred across `at` from its top row, clipped to
/// `at`.
pub fn draw_piece(buf: &mut Buffer, at: Rect, piece: Piece, glyph: &str, style: Style) {
    let (x, y, width) = (at.x, at.y, at.width);
    let cells = piece.cells(Rotation::North);
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let max_x = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let cols = ((max_x - min_x + 1) as u16) * 2;
    let left = x.saturating_add(width.saturating_sub(cols) / 2);
    for (cx, cy) in cells {
        let sx = left.saturating_add(((cx - min_x) as u16) * 2);
        let sy = y.saturating_add((cy - min_y) as u16);
        draw::put_narrow(buf, at, sx, sy, glyph, style);
    }
}

/// The hold box.
#[derive(Debug)]
pub struct HoldView {
    pub piece: Option<Piece>,
    /// Hold was used for the current piece: the held piece shows greyed.
    pub used: bool,
    pub theme: Theme,
    pub hidden: bool,
}

impl HoldView {
    pub const HEIGHT: u16 = 4;
}

impl Widget for &HoldView {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let rect = Rect::new(area.x, area.y, BOX_W, HoldView::HEIGHT).intersection(area);
        let inner = draw::frame(buf, rect, self.theme, "HOLD", self.theme.dim());
        if let Some(p) = self.piece.filter(|_| !self.hidden) {
            let style = if self.used {
                self.theme.dim()
            } else {
                self.theme.piece(p)
            };
            draw_piece(buf, inner, p, self.theme.piece_block(p), style);
        }
    }
}

/// The next queue, soonest first.
#[derive(Debug)]
pub struct NextView<'a> {
    pub game: &'a Game,
    pub count: usize,
    pub theme: Theme,
    pub hidden: bool,
}

impl NextView<'_> {
    /// The height of the box for `count` pieces (each two rows, one row between).
    pub fn height(count: usize) -> u16 {
        (count as u16).saturating_mul(3).saturating_add(1)
    }
}

impl Widget for &NextView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if self.count == 0 {
            return;
        }
        let rect =
            Rect::new(area.x, area.y, BOX_W, NextView::height(self.count)).intersection(area);
        let inner = draw::frame(buf, rect, self.theme, "NEXT", self.theme.dim());
        if self.hidden {
            return;
        }
        for (i, p) in self.game.preview().take(self.count).enumerate() {
            let y = inner.y.saturating_add(i as u16 * 3);
            let at = Rect::new(inner.x, y, inner.width, 2).intersection(inner);
            draw_piece(buf, at, p, self.theme.piece_block(p), self.theme.piece(p));
        }
    }
}
