//! The incoming-garbage meter beside the player's board: one column, filled from the bottom
//! with a cell per queued line. Lines that can rise now are red, lines still delayed yellow.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::settings::Graphics;
use crate::theme::Theme;

/// Draws the meter in `area` (its bottom row is the bottom of the board's cells).
pub fn draw(buf: &mut Buffer, area: Rect, ready: u32, waiting: u32, theme: Theme) {
    let glyph = if theme.graphics == Graphics::Unicode {
        "█"
    } else {
        "#"
    };
    let total = ready.saturating_add(waiting);
    let height = u32::from(area.height);
    for i in 0..total.min(height) {
        let y = area.bottom().saturating_sub(1).saturating_sub(i as u16);
        let style = if i < ready {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn fills_from_the_bottom() {
        let theme = Theme::new(&Settings::default());
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 6));
        draw(&mut buf, Rect::new(0, 0, 1, 6), 1, 2, theme);
        let rows = crate::testutil::lines(&buf);
        assert_eq!(rows, [" ", " ", " ", "█", "█", "█"]);
        assert_eq!(buf[(0, 5)].fg, theme.bad().fg.unwrap_or_default());
        assert_eq!(buf[(0, 3)].fg, theme.accent().fg.unwrap_or_default());
        let mut buf = Buffer::empty(Rect::new(0, 0, 1, 4));
        draw(&mut buf, Rect::new(0, 0, 1, 4), 9, 0, theme);
        assert_eq!(crate::testutil::lines(&buf), ["+", "█", "█", "█"]);
    }
}
