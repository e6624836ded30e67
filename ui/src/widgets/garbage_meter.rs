//! The incoming-garbage meter beside the player's board: one column, filled from the bottom
//! with a cell per queued line. Lines that can rise now are red, lines still delayed yellow.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::settings::Graphics;
use crate::theme::Theme;

/// Draws the meter in `area` (its bottom row is the bottom of the board's cells) beside a
/// board whose cells are `rows` rows tall (1 at 1x, 2 at 2x): each line `rows` rows, so the
/// meter stands as high as the garbage will.
pub fn draw_scaled(
    buf: &mut Buffer,
    area: Rect,
    (ready, waiting): (u32, u32),
    rows: u16,
    theme: Theme,
) {
    let per = u32::from(rows.max(1));
    let glyph = if theme.graphics == Graphics::Unicode {
        "█"
    } else {
        "#"
    };
    let total = ready.saturating_add(waiting).saturating_mul(per);
    let height = u32::from(area.height);
    for i in 0..total.min(height) {
        let y = area.bottom().saturating_sub(1).saturating_sub(i as u16);
        let style = if i / per < ready {
            theme.bad()
        } else {
            theme.accent()
        };
        // More lines than rows: the top cell says so.
        let g = if i + 1 == height && total > height {
            "+"
        } else {
            glyph
        };
        draw::put_narrow(buf, area, area.x, y, g, style);
    }
}

/// The meter beside a board drawn smaller (a half-block mini board shows two rows a cell, a
/// braille micro board four): `per_cell` lines a cell, the last cell partly filled, so it
/// stands as high as the rising garbage will. `lines` all waiting, in one colour.
pub fn draw_compact(buf: &mut Buffer, area: Rect, lines: u32, per_cell: u32, theme: Theme) {
    let per_cell = per_cell.max(1);
    let unicode = theme.graphics == Graphics::Unicode;
    let height = u32::from(area.height);
    let cells = lines.div_ceil(per_cell);
    for i in 0..cells.min(height) {
        let y = area.bottom().saturating_sub(1).saturating_sub(i as u16);
        let filled = lines.saturating_sub(i * per_cell).min(per_cell);
        let g = if i + 1 == height && cells > height {
            "+"
        } else if filled == per_cell {
            if unicode { "█" } else { "#" }
        } else if !unicode {
            "_"
        } else {
            // A part of a cell, in quarters (at least one).
            ["▂", "▄", "▆", "█"][((filled * 4 / per_cell).max(1) - 1) as usize]
        };
        draw::put_narrow(buf, area, area.x, y, g, theme.accent());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn fills_from_the_bottom() {
        let theme = Theme::new(&Settings::default());
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 6));
        draw_scaled(&mut buf, Rect::new(0, 0, 1, 6), (1, 2), 1, theme);
        let rows = crate::testutil::lines(&buf);
        assert_eq!(rows, [" ", " ", " ", "█", "█", "█"]);
        assert_eq!(buf[(0, 5)].fg, theme.bad().fg.unwrap_or_default());
        assert_eq!(buf[(0, 3)].fg, theme.accent().fg.unwrap_or_default());
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 4));
        draw_scaled(&mut buf, Rect::new(0, 0, 1, 4), (9, 0), 1, theme);
        assert_eq!(crate::testutil::lines(&buf), ["+", "█", "█", "█"]);
        // Beside a 2x board a line is two rows: one ready line, then one waiting.
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 6));
        draw_scaled(&mut buf, Rect::new(0, 0, 1, 6), (1, 1), 2, theme);
        assert_eq!(crate::testutil::lines(&buf), [" ", " ", "█", "█", "█", "█"]);
        assert_eq!(buf[(0, 4)].fg, theme.bad().fg.unwrap_or_default());
        assert_eq!(buf[(0, 3)].fg, theme.accent().fg.unwrap_or_default());
    }

    #[test]
    fn a_compact_meter_stands_as_high_as_the_garbage_will_on_a_smaller_board() {
        let theme = Theme::new(&Settings::default());
        let draw_it = |lines: u32, per_cell: u32| {
            let mut buf = Buffer::empty(Rect::new(0, 0, 1, 5));
            draw_compact(&mut buf, Rect::new(0, 0, 1, 5), lines, per_cell, theme);
            crate::testutil::lines(&buf)
        };
        assert_eq!(draw_it(0, 2), [" "; 5]);
        assert_eq!(draw_it(3, 2), [" ", " ", " ", "▄", "█"]);
        assert_eq!(draw_it(5, 4), [" ", " ", " ", "▂", "█"]);
        assert_eq!(draw_it(11, 2), ["+", "█", "█", "█", "█"]);
        let ascii = Theme::new(&Settings {
            graphics: Graphics::Ascii,
            ..Settings::default()
        });
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 3));
        draw_compact(&mut buf, Rect::new(0, 0, 1, 3), 3, 2, ascii);
        assert_eq!(crate::testutil::lines(&buf), [" ", "_", "#"]);
    }
}
