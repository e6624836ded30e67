//! The size a session draws at: what the client reports, with 0 (unknown) and absurd sizes
//! mapped to sane ones.

/// Larger windows are drawn at this size (absurd sizes cost memory and bandwidth).
pub const MAX_COLS: u16 = 500;
pub const MAX_ROWS: u16 = 200;
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
}
