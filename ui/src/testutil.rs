//! Helpers for tests that read drawn frames.

use ratatui::buffer::Buffer;

/// The symbols of each row of a buffer, as strings (wide characters appear once).
pub fn lines(buf: &Buffer) -> Vec<String> {
    let area = buf.area;
    (area.top()..area.bottom())
        .map(|y| {
            (area.left()..area.right())
                .filter_map(|x| buf.cell((x, y)).map(|c| c.symbol().to_string()))
                .collect()
        })
        .collect()
}
