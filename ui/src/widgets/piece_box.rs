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

/// Width of a piece box whose pieces are drawn `n` times 1x (cells of `2n` columns by `n`
/// rows, as the board's at that scale): `BOX_W` at 1x.
pub fn box_w(n: u16) -> u16 {
    8 * n + 4
}

/// Draws `piece` in its spawn orientation, centred across `at` from its top row, clipped to
/// `at`.
pub fn draw_piece(buf: &mut Buffer, at: Rect, piece: Piece, glyph: &'static str, style: Style) {
    draw_piece_scaled(buf, at, piece, glyph, style, 1);
}

/// [`draw_piece`] with cells `n` times 1x: each cell's two-column glyph stretched over `2n`
/// columns (each character `n` times, `[]` becoming `[[]]`) on `n` rows, like the board's.
pub fn draw_piece_scaled(
    buf: &mut Buffer,
    at: Rect,
    piece: Piece,
    glyph: &'static str,
    style: Style,
    n: u16,
) {
    let n = n.max(1);
    let (x, y, width) = (at.x, at.y, at.width);
    let cells = piece.cells(Rotation::North);
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let max_x = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let cols = ((max_x - min_x + 1) as u16) * 2 * n;
    let left = x.saturating_add(width.saturating_sub(cols) / 2);
    let cut = glyph.char_indices().nth(1).map_or(glyph.len(), |(i, _)| i);
    let halves = [
        glyph.get(..cut).unwrap_or(glyph),
        glyph.get(cut..).unwrap_or(""),
    ];
    for (cx, cy) in cells {
        let sx = left.saturating_add(((cx - min_x) as u16) * 2 * n);
        let sy = y.saturating_add((cy - min_y) as u16 * n);
        for dy in 0..n {
            for dx in 0..2 * n {
                let ch = halves[usize::from(dx >= n)];
                let (px, py) = (sx.saturating_add(dx), sy.saturating_add(dy));
                draw::put_narrow(buf, at, px, py, ch, style);
            }
        }
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

    /// The box's height with its piece `n` times 1x.
    pub fn height(n: u16) -> u16 {
        2 * n.max(1) + 2
    }

    /// Draws the box ([`box_w`] by [`HoldView::height`]) with its piece `n` times 1x.
    pub fn render_scaled(&self, area: Rect, buf: &mut Buffer, n: u16) {
        let rect = Rect::new(area.x, area.y, box_w(n), HoldView::height(n)).intersection(area);
        let inner = draw::frame(buf, rect, self.theme, "HOLD", self.theme.dim());
        if let Some(p) = self.piece.filter(|_| !self.hidden) {
            let style = if self.used {
                self.theme.dim()
            } else {
                self.theme.piece(p)
            };
            draw_piece_scaled(buf, inner, p, self.theme.piece_block(p), style, n);
        }
    }
}

impl Widget for &HoldView {
    fn render(self, area: Rect, buf: &mut Buffer) {
        self.render_scaled(area, buf, 1);
    }
}

/// Draws `piece` at half size on one row: a column per cell and a half block per cell row
/// (`▀`, `▄`, `█` for both), centred across `at`. A 4x2 piece takes four columns of one row.
pub fn draw_piece_small(buf: &mut Buffer, at: Rect, piece: Piece, style: Style) {
    let cells = piece.cells(Rotation::North);
    let min_x = cells.iter().map(|c| c.0).min().unwrap_or(0);
    let max_x = cells.iter().map(|c| c.0).max().unwrap_or(0);
    let min_y = cells.iter().map(|c| c.1).min().unwrap_or(0);
    let cols = (max_x - min_x + 1) as u16;
    let left = at.x.saturating_add(at.width.saturating_sub(cols) / 2);
    for cx in min_x..=max_x {
        let top = cells.contains(&(cx, min_y));
        let bottom = cells.contains(&(cx, min_y + 1));
        let glyph = match (top, bottom) {
            (true, true) => "█",
            (true, false) => "▀",
            (false, true) => "▄",
            (false, false) => continue,
        };
        let sx = left.saturating_add((cx - min_x) as u16);
        draw::put_narrow(buf, at, sx, at.y, glyph, style);
    }
}

/// The next queue, soonest first.
#[derive(Debug)]
pub struct NextView<'a> {
    pub game: &'a Game,
    pub count: usize,
    pub theme: Theme,
    pub hidden: bool,
    /// The first piece full size, the others at half size on a row each (two rows apart). A
    /// new piece shifts the whole queue up by one: small pieces make that frame about half
    /// the bytes. Only for themes that draw half blocks ([`Theme::half_blocks`]).
    pub compact: bool,
}

impl NextView<'_> {
    /// The height of the box for `count` pieces: full size, each two rows and one row
    /// between; compact, the first so and the others one row and one row between.
    pub fn height(count: usize, compact: bool) -> u16 {
        let count = count as u16;
        if compact && count > 1 {
            count.saturating_mul(2).saturating_add(2)
        } else {
            count.saturating_mul(3).saturating_add(1)
        }
    }
}

impl NextView<'_> {
    /// The box's height for `count` pieces `n` times 1x (each `2n` rows, one row between);
    /// at 1x, [`NextView::height`].
    pub fn height_scaled(count: usize, compact: bool, n: u16) -> u16 {
        if n <= 1 {
            return NextView::height(count, compact);
        }
        (count as u16).saturating_mul(2 * n + 1).saturating_add(1)
    }

    /// Draws the queue with its pieces `n` times 1x (never compact above 1x).
    pub fn render_scaled(&self, area: Rect, buf: &mut Buffer, n: u16) {
        if n <= 1 {
            return self.render(area, buf);
        }
        if self.count == 0 {
            return;
        }
        let height = NextView::height_scaled(self.count, false, n);
        let rect = Rect::new(area.x, area.y, box_w(n), height).intersection(area);
        let inner = draw::frame(buf, rect, self.theme, "NEXT", self.theme.dim());
        if self.hidden {
            return;
        }
        for (i, p) in self.game.preview().take(self.count).enumerate() {
            let y = inner.y.saturating_add(i as u16 * (2 * n + 1));
            let at = Rect::new(inner.x, y, inner.width, 2 * n).intersection(inner);
            let (glyph, style) = (self.theme.piece_block(p), self.theme.piece(p));
            draw_piece_scaled(buf, at, p, glyph, style, n);
        }
    }
}

impl Widget for &NextView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if self.count == 0 {
            return;
        }
        let rect = Rect::new(
            area.x,
            area.y,
            BOX_W,
            NextView::height(self.count, self.compact),
        )
        .intersection(area);
        let inner = draw::frame(buf, rect, self.theme, "NEXT", self.theme.dim());
        if self.hidden {
            return;
        }
        for (i, p) in self.game.preview().take(self.count).enumerate() {
            let i = i as u16;
            if self.compact && i > 0 {
                let y = inner.y.saturating_add(1 + i * 2);
                let at = Rect::new(inner.x, y, inner.width, 1).intersection(inner);
                draw_piece_small(buf, at, p, self.theme.piece(p));
            } else {
                let y = inner.y.saturating_add(i * 3);
                let at = Rect::new(inner.x, y, inner.width, 2).intersection(inner);
                draw_piece(buf, at, p, self.theme.piece_block(p), self.theme.piece(p));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use minotty_engine::GameConfig;

    use super::*;
    use crate::settings::Settings;
    use crate::testutil::lines;

    /// Each piece at half size, drawn by hand: a column per cell, `▀` the top row only, `▄`
    /// the bottom row only, `█` both.
    fn small(piece: Piece) -> &'static str {
        match piece {
            Piece::I => "▀▀▀▀",
            Piece::O => "██",
            Piece::T => "▄█▄",
            Piece::S => "▄█▀",
            Piece::Z => "▀█▄",
            Piece::J => "█▄▄",
            Piece::L => "▄▄█",
        }
    }

    fn queue(compact: bool, seed: u32) -> (Vec<Piece>, Vec<String>) {
        let mut game = Game::new(GameConfig::default(), seed);
        game.update(0, None);
        let view = NextView {
            game: &game,
            count: 5,
            theme: Theme::new(&Settings::default()),
            hidden: false,
            compact,
        };
        let mut buf = Buffer::empty(Rect::new(0, 0, BOX_W, 20));
        view.render(buf.area, &mut buf);
        (game.preview().take(5).collect(), lines(&buf))
    }

    #[test]
    fn the_compact_queue_shows_the_first_piece_full_size_and_the_rest_at_half() {
        assert_eq!(NextView::height(5, true), 12);
        assert_eq!(NextView::height(5, false), 16);
        assert_eq!(NextView::height(1, true), NextView::height(1, false));
        for seed in 0..20 {
            let (pieces, rows) = queue(true, seed);
            // Frame, first piece on two rows (two columns a cell), a row between, then a small
            // piece every other row, and the bottom frame right after the last.
            assert!(rows[1].contains("██"), "{rows:#?}");
            assert_eq!(rows[3].trim_matches(['│', ' ']), "");
            for (i, &p) in pieces.iter().enumerate().skip(1) {
                let row = &rows[2 + 2 * i];
                assert_eq!(
                    row.trim_matches(['│', ' ']),
                    small(p),
                    "seed {seed} {i}: {rows:#?}"
                );
            }
            assert!(rows[11].starts_with('└'), "{rows:#?}");
            assert!(rows[12].trim().is_empty(), "{rows:#?}");
        }
    }

    #[test]
    fn the_full_queue_draws_every_piece_full_size() {
        let (_, rows) = queue(false, 3);
        for i in 0..5 {
            assert!(rows[1 + 3 * i].contains("██"), "{rows:#?}");
        }
        assert!(rows[15].starts_with('└'), "{rows:#?}");
        assert!(!rows.concat().contains(['▀', '▄']));
    }
}
