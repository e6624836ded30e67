//! Small drawing primitives that never panic, whatever the sizes: every write is clipped to the
//! given area and to the buffer. They take `&str`, so drawing allocates nothing of its own.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Span;

use crate::text::StackStr;
use crate::theme::Theme;

/// The display width of `s` in columns.
pub fn width(s: &str) -> u16 {
    u16::try_from(Span::raw(s).width()).unwrap_or(u16::MAX)
}

/// Writes `s` at `(x, y)`, clipped to `clip` and the buffer. Returns the column after the text.
pub fn put(buf: &mut Buffer, clip: Rect, x: u16, y: u16, s: &str, style: Style) -> u16 {
    let clip = clip.intersection(buf.area);
    if y < clip.top() || y >= clip.bottom() || x < clip.left() || x >= clip.right() {
        return x;
    }
    if s.is_ascii() {
        return put_ascii(buf, clip, x, y, s, style);
    }
    let max = usize::from(clip.right() - x);
    buf.set_stringn(x, y, s, max, style).0
}

/// [`put`] for ASCII text, which is most of what screens write: each printable character is
/// one grapheme one cell wide and control characters are left out, as `set_stringn` does, but
/// without its grapheme segmentation (a server's frames spent about 6% of their time there).
/// `clip` is already within the buffer and `(x, y)` inside it.
fn put_ascii(buf: &mut Buffer, clip: Rect, x: u16, y: u16, s: &str, style: Style) -> u16 {
    let mut x = x;
    for byte in s.bytes().filter(|b| !b.is_ascii_control()) {
        if x >= clip.right() {
            break;
        }
        if let Some(cell) = buf.cell_mut((x, y)) {
            cell.set_char(char::from(byte)).set_style(style);
        }
        x += 1;
    }
    x
}

/// Like [`put`] for text whose every character is one cell wide (the board glyphs: "██",
/// " ·", "[]", "▀"...): one character per cell, without the grapheme segmentation that
/// `set_stringn` does. Boards draw hundreds of these per frame.
pub fn put_narrow(buf: &mut Buffer, clip: Rect, x: u16, y: u16, s: &str, style: Style) -> u16 {
    let clip = clip.intersection(buf.area);
    if y < clip.top() || y >= clip.bottom() || x < clip.left() || x >= clip.right() {
        return x;
    }
    let mut x = x;
    for ch in s.chars() {
        if x >= clip.right() {
            break;
        }
        if let Some(cell) = buf.cell_mut((x, y)) {
            cell.set_char(ch).set_style(style);
        }
        x += 1;
    }
    x
}

/// Writes `s` centred horizontally in `area` on row `y`.
pub fn put_centered(buf: &mut Buffer, area: Rect, y: u16, s: &str, style: Style) {
    let x = area.x + area.width.saturating_sub(width(s)) / 2;
    put(buf, area, x, y, s, style);
}

/// Writes `s` so that it ends at the right edge of `area`, on row `y`.
/// A key hint on the last line of a dialog's inner area, dimmed.
pub fn hint(buf: &mut Buffer, inner: Rect, s: &str, theme: Theme) {
    put_centered(buf, inner, inner.bottom().saturating_sub(1), s, theme.dim());
}

pub fn put_right(buf: &mut Buffer, area: Rect, y: u16, s: &str, style: Style) {
    let x = area.right().saturating_sub(width(s)).max(area.x);
    put(buf, area, x, y, s, style);
}

/// A `label ........ value` row across `area` on row `y`.
pub fn put_row(buf: &mut Buffer, area: Rect, y: u16, label: &str, value: &str, styles: [Style; 2]) {
    put(buf, area, area.x, y, label, styles[0]);
    put_right(buf, area, y, value, styles[1]);
}

/// `label ........ value` rows one under the other from the top of `area`, labels dim.
pub fn put_rows<const N: usize>(
    buf: &mut Buffer,
    area: Rect,
    rows: &[(&str, StackStr<N>)],
    theme: Theme,
) {
    for (i, (label, value)) in rows.iter().enumerate() {
        let y = area.y + i as u16;
        put_row(
            buf,
            area,
            y,
            label,
            value.as_str(),
            [theme.dim(), theme.text()],
        );
    }
}

/// Writes `s` from row `y` in `area`, wrapped at spaces to the area's width. Returns the number
/// of rows used.
pub fn wrapped(buf: &mut Buffer, area: Rect, y: u16, s: &str, style: Style) -> u16 {
    let max = area.width;
    if max == 0 {
        return 0;
    }
    let mut row = 0u16;
    let mut x = 0u16;
    for word in s.split(' ').filter(|w| !w.is_empty()) {
        let w = width(word);
        if x > 0 && x + 1 + w > max {
            row += 1;
            x = 0;
        }
        let at = y.saturating_add(row);
        if x > 0 {
            put(buf, area, area.x + x, at, " ", style);
            x += 1;
        }
        put(buf, area, area.x.saturating_add(x), at, word, style);
        x = x.saturating_add(w);
    }
    row + 1
}

/// Fills `area` with blanks.
pub fn clear(buf: &mut Buffer, area: Rect) {
    let area = area.intersection(buf.area);
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            if let Some(cell) = buf.cell_mut((x, y)) {
                cell.reset();
            }
        }
    }
}

/// Draws a frame around `area` with an optional title in its top edge, and returns the inside.
pub fn frame(buf: &mut Buffer, area: Rect, theme: Theme, title: &str, style: Style) -> Rect {
    if area.width < 2 || area.height < 2 {
        return Rect::new(area.x, area.y, 0, 0);
    }
    let b = theme.border();
    let (left, right) = (area.left(), area.right() - 1);
    let (top, bottom) = (area.top(), area.bottom() - 1);
    for x in left + 1..right {
        put(buf, area, x, top, b.horizontal, style);
        put(buf, area, x, bottom, b.horizontal, style);
    }
    for y in top + 1..bottom {
        put(buf, area, left, y, b.vertical, style);
        put(buf, area, right, y, b.vertical, style);
    }
    put(buf, area, left, top, b.top_left, style);
    put(buf, area, right, top, b.top_right, style);
    put(buf, area, left, bottom, b.bottom_left, style);
    put(buf, area, right, bottom, b.bottom_right, style);
    if !title.is_empty() && area.width > 4 {
        let inner = Rect::new(left + 1, top, area.width - 2, 1);
        let x = left + 1 + (area.width - 2).saturating_sub(width(title) + 2) / 2;
        let x = put(buf, inner, x, top, " ", style);
        let x = put(buf, inner, x, top, title, style.patch(theme.title()));
        put(buf, inner, x, top, " ", style);
    }
    inner(area)
}

/// The inside of a framed area.
pub fn inner(area: Rect) -> Rect {
    Rect::new(
        area.x.saturating_add(1),
        area.y.saturating_add(1),
        area.width.saturating_sub(2),
        area.height.saturating_sub(2),
    )
}

/// A `w` x `h` rectangle centred in `area` (shrunk to fit).
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// A framed, cleared box `w` x `h` centred in `area`; returns its inside.
pub fn dialog(buf: &mut Buffer, area: Rect, w: u16, h: u16, theme: Theme, title: &str) -> Rect {
    let rect = centered(area, w, h);
    clear(buf, rect);
    frame(buf, rect, theme, title, theme.accent())
}

/// A menu of items starting at row `y` in `area`, centred, the selected one highlighted.
pub fn menu<'a>(
    buf: &mut Buffer,
    area: Rect,
    y: u16,
    items: impl IntoIterator<Item = &'a str>,
    selected: usize,
    theme: Theme,
) {
    for (i, item) in items.into_iter().enumerate() {
        let row = y.saturating_add(i as u16);
        let style = if i == selected {
            theme.selected()
        } else {
            theme.text()
        };
        let w = width(item) + 4;
        let x = area.x + area.width.saturating_sub(w) / 2;
        let x = put(buf, area, x, row, "  ", style);
        let x = put(buf, area, x, row, item, style);
        put(buf, area, x, row, "  ", style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::Settings;

    #[test]
    fn drawing_outside_never_panics() {
        let theme = Theme::new(&Settings::default());
        let mut buf = Buffer::empty(Rect::new(5, 5, 10, 3));
        let everywhere = Rect::new(0, 0, u16::MAX, u16::MAX);
        put(&mut buf, everywhere, 0, 0, "nope", Style::new());
        put(&mut buf, everywhere, 14, 6, "edge", Style::new());
        put(&mut buf, everywhere, 5, 7, "界界界界界界", Style::new());
        put_centered(&mut buf, everywhere, 6, "centre", Style::new());
        frame(&mut buf, everywhere, theme, "title", Style::new());
        frame(&mut buf, Rect::new(3, 3, 1, 1), theme, "t", Style::new());
        dialog(&mut buf, Rect::new(5, 5, 10, 3), 40, 40, theme, "d");
        clear(&mut buf, everywhere);
        assert_eq!(centered(Rect::new(0, 0, 0, 0), 5, 5), Rect::new(0, 0, 0, 0));
    }

    /// The ASCII path writes what ratatui's `set_stringn` writes, cell for cell, and ends at
    /// the same column: printable text, control characters (`\r\n` is one grapheme), clipped
    /// on either side and past the buffer.
    #[test]
    fn ascii_text_draws_what_set_stringn_draws() {
        let texts = [
            "",
            "a",
            "Hello, world!",
            "a\tb",
            "line\r\nnext",
            "\x1b[31mred",
            "tail\x7f",
            "  spaced  ",
            "\u{0}\u{1f}~",
            "0123456789abcdef",
        ];
        let style = Style::new().fg(ratatui::style::Color::Cyan);
        let area = Rect::new(1, 1, 9, 2);
        for text in texts {
            for clip in [area, Rect::new(3, 1, 4, 2), Rect::new(0, 0, 40, 40)] {
                for (x, y) in [(1, 1), (4, 2), (8, 1), (9, 2)] {
                    let mut ours = Buffer::empty(area);
                    let mut theirs = ours.clone();
                    let end = put(&mut ours, clip, x, y, text, style);
                    let clip = clip.intersection(area);
                    let expected_end = if clip.contains(ratatui::layout::Position { x, y }) {
                        let max = usize::from(clip.right() - x);
                        theirs.set_stringn(x, y, text, max, style).0
                    } else {
                        x
                    };
                    assert_eq!(ours, theirs, "{text:?} at {x},{y} in {clip:?}");
                    assert_eq!(end, expected_end, "{text:?} at {x},{y} in {clip:?}");
                }
            }
        }
    }

    #[test]
    fn put_narrow_draws_what_put_draws() {
        let glyphs = [
            "██", "[]", "░░", "::", " ·", " .", "▀", "#", "'", ".", " ", "⣿",
        ];
        let style = Style::new().fg(ratatui::style::Color::Red);
        for glyph in glyphs {
            for (clip, x, y) in [
                (Rect::new(0, 0, 6, 2), 0, 0),
                (Rect::new(0, 0, 6, 2), 5, 1),
                (Rect::new(2, 0, 3, 2), 1, 0),
                (Rect::new(2, 0, 3, 2), 4, 1),
                (Rect::new(0, 0, 6, 2), 3, 2),
            ] {
                let mut a = Buffer::empty(Rect::new(0, 0, 6, 2));
                let mut b = a.clone();
                let end_a = put(&mut a, clip, x, y, glyph, style);
                let end_b = put_narrow(&mut b, clip, x, y, glyph, style);
                assert_eq!(a, b, "{glyph:?} at {x},{y} in {clip:?}");
                assert_eq!(end_a, end_b, "{glyph:?} at {x},{y} in {clip:?}");
            }
        }
    }

    #[test]
    fn a_frame_with_title() {
        let theme = Theme::new(&Settings::default());
        let mut buf = Buffer::empty(Rect::new(0, 0, 12, 3));
        let area = buf.area;
        let inside = frame(&mut buf, area, theme, "HOLD", Style::new());
        assert_eq!(inside, Rect::new(1, 1, 10, 1));
        assert_eq!(
            crate::testutil::lines(&buf),
            ["┌── HOLD ──┐", "│          │", "└──────────┘"]
        );
    }
}
