//! The size a session draws at: what the client reports, with 0 (unknown) and absurd sizes
//! mapped to sane ones.

/// Larger windows are drawn at this size (absurd sizes cost memory and bandwidth).
pub const MAX_COLS: u16 = 500;
pub const MAX_ROWS: u16 = 200;
/// The largest area a session draws: the largest screen the UI lays out. The widest is a
/// spectator's view of a full room (eight players, each board with its hold, next and numbers
/// beside it: 8 x 37 columns, less the last gap), the tallest a solo game at the largest
/// scale (3x, 64 rows). A larger window shows this area centred (`remote.rs`), so a session
/// holds at most 295 x 64 = 18,880 cells, not the 100,000 of a 500x200 window.
pub const DRAW_COLS: u16 = 295;
pub const DRAW_ROWS: u16 = 64;
/// The size assumed when a client reports 0 (unknown).
pub const DEFAULT_SIZE: (u16, u16) = (80, 24);

/// Turns a reported window size into the size drawn: 0 means unknown, huge is clamped.
pub fn clamp_size(cols: u32, rows: u32) -> (u16, u16) {
    let clamp = |v: u32, max: u16, default: u16| {
        if v == 0 {
            default
        } else {
            u16::try_from(v).unwrap_or(max).min(max)
        }
    };
    (
        clamp(cols, MAX_COLS, DEFAULT_SIZE.0),
        clamp(rows, MAX_ROWS, DEFAULT_SIZE.1),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terminal::RemoteTerminal;
    use ratatui::widgets::{Paragraph, Widget};

    #[test]
    fn sizes_are_clamped() {
        assert_eq!(clamp_size(0, 0), DEFAULT_SIZE);
        assert_eq!(clamp_size(100, 40), (100, 40));
        assert_eq!(clamp_size(100_000, u32::MAX), (MAX_COLS, MAX_ROWS));
        let mut term = RemoteTerminal::new(1, 1);
        term.draw(|area, buf| Paragraph::new("wide text").render(area, buf));
    }

    #[test]
    fn the_cap_holds_the_uis_largest_screens() {
        // Eight players: the most a room seats (`versus/room.rs` clamps to 2..=8).
        let (w, h) = minotty_ui::largest_layout(8);
        assert!(w <= DRAW_COLS && h <= DRAW_ROWS, "{w}x{h}");
        // ...and no more than it needs.
        assert_eq!((w, h), (DRAW_COLS, DRAW_ROWS));
    }
}
