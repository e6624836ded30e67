//! Other players' boards, drawn from the snapshots the room relays ([`BoardSnapshot`]): at full
//! size (two columns a cell, framed, like the player's own board), as half-block minis (one
//! character a cell wide, two cells a character high: 10 x 10) and as braille micros (2 x 4
//! cells a character: 5 x 5) when many boards share a small terminal.

use minotty_engine::Piece;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};

use crate::draw;
use crate::settings::Graphics;
use crate::theme::Theme;
use crate::widgets::board::{Scale, split};
use minotty_protocol::BoardSnapshot;

/// Board columns and visible rows of a snapshot.
pub const COLS: usize = 10;
pub const ROWS: usize = 20;
/// A full-size board, frame included.
pub const FULL_W: u16 = 22;
pub const FULL_H: u16 = 22;
/// A half-block mini board (no frame).
pub const MINI_W: u16 = 10;
pub const MINI_H: u16 = 10;
/// A braille micro board (no frame).
pub const MICRO_W: u16 = 5;
pub const MICRO_H: u16 = 5;

/// The cell at column `x`, row `y` (0 = top) of a snapshot; rows it lacks are empty.
pub fn cell(board: &BoardSnapshot, x: usize, y: usize) -> u8 {
    board
        .rows
        .get(y)
        .and_then(|r| r.get(x))
        .copied()
        .unwrap_or(0)
}

/// The colour of a snapshot cell (`None` for empty).
pub fn cell_color(theme: Theme, v: u8) -> Option<Color> {
    match v {
        0 => None,
        1..=7 => Some(theme.piece_color(Piece::ALL[usize::from(v - 1)])),
        _ => theme.garbage().fg,
    }
}

fn empty_color(theme: Theme) -> Color {
    theme.empty_style().fg.unwrap_or(Color::DarkGray)
}

/// A full-size board's size at `scale`, frame included (1x: [`FULL_W`] x [`FULL_H`]).
pub fn full_size(scale: Scale) -> (u16, u16) {
    let k = scale.k();
    (COLS as u16 * k + 2, ROWS as u16 * k / 2 + 2)
}

/// How a snapshot is framed at full size: `title` in its top edge, `footer` in its bottom
/// edge, the frame in `style`.
#[derive(Clone, Copy, Debug)]
pub struct Framing<'a> {
    pub title: &'a str,
    pub footer: &'a str,
    pub style: Style,
}

/// Draws a snapshot at full size at `scale` with a frame at the top-left of `area` (clipped
/// to it). Cells are stretched as the player's own board's are: each glyph's characters `k / 2`
/// times, on `k / 2` rows, an empty cell's dot once at its bottom right.
pub fn full(
    buf: &mut Buffer,
    area: Rect,
    board: &BoardSnapshot,
    theme: Theme,
    framing: Framing<'_>,
    scale: Scale,
) {
    let (w, h) = full_size(scale);
    let rect = Rect::new(area.x, area.y, w, h).intersection(area);
    let inner = draw::frame(buf, rect, theme, framing.title, framing.style);
    let n = scale.k() / 2;
    for y in 0..ROWS {
        for x in 0..COLS {
            let look = cell_color(theme, cell(board, x, y));
            let sx = inner.x.saturating_add(x as u16 * 2 * n);
            let sy = inner.y.saturating_add(y as u16 * n);
            for dy in 0..n {
                for dx in 0..2 * n {
                    let (ch, style) = match look {
                        Some(c) => {
                            let (left, right) = split(theme.block());
                            (if dx < n { left } else { right }, Style::new().fg(c))
                        }
                        None if dy + 1 == n && dx + 1 == 2 * n => {
                            (split(theme.empty()).1, theme.empty_style())
                        }
                        None => (" ", theme.empty_style()),
                    };
                    let at = (sx.saturating_add(dx), sy.saturating_add(dy));
                    draw::put_narrow(buf, inner, at.0, at.1, ch, style);
                }
            }
        }
    }
    if !framing.footer.is_empty() && rect.height == h {
        let bottom = Rect::new(
            rect.x + 1,
            rect.bottom() - 1,
            rect.width.saturating_sub(2),
            1,
        );
        draw::put_centered(buf, bottom, bottom.y, framing.footer, framing.style);
    }
}

/// Draws a snapshot as a 10 x 10 half-block mini board at the top-left of `area`.
pub fn mini(buf: &mut Buffer, area: Rect, board: &BoardSnapshot, theme: Theme) {
    let unicode = theme.graphics == Graphics::Unicode;
    let empty = empty_color(theme);
    for row in 0..ROWS / 2 {
        for x in 0..COLS {
            let top = cell_color(theme, cell(board, x, 2 * row));
            let bottom = cell_color(theme, cell(board, x, 2 * row + 1));
            let (glyph, style) = if unicode {
                let style = Style::new()
                    .fg(top.unwrap_or(empty))
                    .bg(bottom.unwrap_or(empty));
                ("▀", style)
            } else {
                let glyph = match (top.is_some(), bottom.is_some()) {
                    (true, true) => "#",
                    (true, false) => "'",
                    (false, true) => ".",
                    (false, false) => " ",
                };
                let color = top.or(bottom).unwrap_or(empty);
                (glyph, Style::new().fg(color))
            };
            let sx = area.x.saturating_add(x as u16);
            let sy = area.y.saturating_add(row as u16);
            draw::put_narrow(buf, area, sx, sy, glyph, style);
        }
    }
}

/// Braille dot bits of the 2 x 4 cells of one character, by (column, row).
const DOTS: [[u32; 4]; 2] = [[0x01, 0x02, 0x04, 0x40], [0x08, 0x10, 0x20, 0x80]];

/// Draws a snapshot as a 5 x 5 braille micro board at the top-left of `area`.
pub fn micro(buf: &mut Buffer, area: Rect, board: &BoardSnapshot, theme: Theme) {
    let unicode = theme.graphics == Graphics::Unicode;
    let empty = empty_color(theme);
    for cy in 0..ROWS / 4 {
        for cx in 0..COLS / 2 {
            let mut bits = 0u32;
            let mut color = None;
            for (dx, col) in DOTS.iter().enumerate() {
                for (dy, bit) in col.iter().enumerate() {
                    let v = cell(board, cx * 2 + dx, cy * 4 + dy);
                    if v != 0 {
                        bits |= bit;
                        color = color.or(cell_color(theme, v));
                    }
                }
            }
            let ch = if unicode {
                char::from_u32(0x2800 + bits).unwrap_or(' ')
            } else if bits != 0 {
                '#'
            } else {
                '.'
            };
            let mut tmp = [0u8; 4];
            let glyph = ch.encode_utf8(&mut tmp);
            let style = Style::new().fg(color.unwrap_or(empty));
            let sx = area.x.saturating_add(cx as u16);
            let sy = area.y.saturating_add(cy as u16);
            draw::put_narrow(buf, area, sx, sy, glyph, style);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    fn board() -> BoardSnapshot {
        let mut rows = vec![[0u8; 10]; 20];
        rows[19] = [8, 8, 8, 8, 8, 8, 8, 8, 8, 0];
        rows[18][0] = 1;
        BoardSnapshot { rows }
    }

    #[test]
    fn sizes_are_clipped_and_cells_read() {
        let theme = Theme::new(&Settings::default());
        let b = board();
        assert_eq!(cell(&b, 9, 19), 0);
        assert_eq!(cell(&b, 0, 19), 8);
        assert_eq!(cell(&BoardSnapshot { rows: vec![] }, 3, 3), 0);
        let mut buf = Buffer::empty(Rect::new(0, 0, 8, 3));
        let area = buf.area;
        let framing = Framing {
            title: "x",
            footer: "y",
            style: theme.dim(),
        };
        full(&mut buf, area, &b, theme, framing, Scale::ONE);
        mini(&mut buf, area, &b, theme);
        micro(&mut buf, area, &b, theme);
        let mut buf = Buffer::empty(Rect::new(0, 0, 10, 10));
        let area = buf.area;
        mini(&mut buf, area, &b, theme);
        let last = crate::testutil::lines(&buf)[9].clone();
        assert_eq!(last, "▀".repeat(10));
        assert_eq!(buf[(0, 9)].bg, theme.garbage().fg.unwrap_or(Color::Reset));
        let mut buf = Buffer::empty(Rect::new(0, 0, 5, 5));
        micro(&mut buf, Rect::new(0, 0, 5, 5), &b, theme);
        // The bottom-right character holds the hole: only its left column's bottom rows.
        assert_eq!(buf[(4, 4)].symbol(), "\u{2840}");
    }
}
