//! [`AnsiBackend`]: the ratatui backend that writes a frame's cells as ANSI escape sequences
//! (cursor moves, SGR styles) into memory.

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Size};
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

use super::cursor::{absolute_move_len, relative_move};

/// A ratatui backend that writes ANSI escape sequences into a buffer and knows its size from
/// the SSH client (never from the server's own terminal).
#[derive(Debug)]
pub(super) struct AnsiBackend {
    pub(super) out: Vec<u8>,
    pub(super) size: Size,
    /// Where the client's cursor is, when known.
    cursor: Option<Position>,
    /// The SGR state the client has, when known.
    pub(super) style: Option<(Color, Color, Modifier)>,
    last_cursor: Position,
    /// Reused for the relative move that `go_to` weighs against an absolute one.
    scratch: Vec<u8>,
}

/// Modifiers that show on a blank cell.
const VISIBLE_ON_BLANK: Modifier = Modifier::REVERSED
    .union(Modifier::UNDERLINED)
    .union(Modifier::CROSSED_OUT)
    .union(Modifier::HIDDEN);

/// Whether `cell` is a blank that looks the same in `style` as in its own: a space shows only
/// its background (and the modifiers in [`VISIBLE_ON_BLANK`]), so the foreground, bold or dim
/// need no switch.
fn blank_fits(cell: &Cell, style: Option<(Color, Color, Modifier)>) -> bool {
    cell.symbol() == " "
        && !cell.modifier.intersects(VISIBLE_ON_BLANK)
        && style.is_some_and(|(_, bg, m)| bg == cell.bg && !m.intersects(VISIBLE_ON_BLANK))
}

impl AnsiBackend {
    pub(super) fn new(size: Size) -> AnsiBackend {
        AnsiBackend {
            out: Vec::with_capacity(16 * 1024),
            size,
            cursor: None,
            style: None,
            last_cursor: Position::ORIGIN,
            scratch: Vec::with_capacity(16),
        }
    }

    pub(super) fn forget_state(&mut self) {
        self.cursor = None;
        self.style = None;
    }

    fn move_to(&mut self, x: u16, y: u16) {
        use std::io::Write;
        let _ = if x == 0 {
            write!(self.out, "\x1b[{}H", u32::from(y) + 1)
        } else {
            write!(self.out, "\x1b[{};{}H", u32::from(y) + 1, u32::from(x) + 1)
        };
        self.cursor = Some(Position { x, y });
        self.last_cursor = Position { x, y };
    }

    /// Moves the cursor to (x, y) with the fewest bytes: nothing when it is there, else the
    /// shorter of an absolute move and a relative one (`CR`, cursor up/down/forward/back).
    /// Most changes in a frame are a few cells or rows from the previous one (a piece, its
    /// ghost), where a relative move is about half the bytes of an absolute one. Relative
    /// moves never scroll (`CSI B` stops at the last row; no line feed is ever sent).
    fn go_to(&mut self, x: u16, y: u16) {
        let target = Position { x, y };
        let Some(at) = self.cursor else {
            self.move_to(x, y);
            return;
        };
        if at == target {
            return;
        }
        let mut rel = std::mem::take(&mut self.scratch);
        rel.clear();
        relative_move(&mut rel, at, target);
        let abs_len = absolute_move_len(x, y);
        if rel.len() < abs_len {
            self.out.extend_from_slice(&rel);
            self.cursor = Some(target);
            self.last_cursor = target;
        } else {
            self.move_to(x, y);
        }
        self.scratch = rel;
    }

    fn set_style(&mut self, fg: Color, bg: Color, modifier: Modifier) {
        // Only the foreground differs from a plain style the client already has: change just
        // that (most switches in a game frame are between a piece colour and the grid's).
        if modifier.is_empty() && matches!(self.style, Some((_, b, m)) if b == bg && m.is_empty()) {
            self.out.extend_from_slice(b"\x1b[");
            if fg == Color::Reset {
                self.out.extend_from_slice(b"39");
            } else {
                let start = self.out.len();
                push_color(&mut self.out, fg, false);
                // push_color writes ";<sgr>": drop the separator.
                self.out.remove(start);
            }
            self.out.push(b'm');
            self.style = Some((fg, bg, modifier));
            return;
        }
        self.out.extend_from_slice(b"\x1b[0");
        for (flag, code) in [
            (Modifier::BOLD, "1"),
            (Modifier::DIM, "2"),
            (Modifier::ITALIC, "3"),
            (Modifier::UNDERLINED, "4"),
            (Modifier::SLOW_BLINK, "5"),
            (Modifier::RAPID_BLINK, "6"),
            (Modifier::REVERSED, "7"),
            (Modifier::HIDDEN, "8"),
            (Modifier::CROSSED_OUT, "9"),
        ] {
            if modifier.contains(flag) {
                self.out.push(b';');
                self.out.extend_from_slice(code.as_bytes());
            }
        }
        push_color(&mut self.out, fg, false);
        push_color(&mut self.out, bg, true);
        self.out.push(b'm');
        self.style = Some((fg, bg, modifier));
    }
}

/// Appends `;<sgr>` for a foreground or background colour (nothing for the default).
fn push_color(out: &mut Vec<u8>, color: Color, background: bool) {
    use std::io::Write;
    let base: u8 = if background { 40 } else { 30 };
    let bright: u8 = if background { 100 } else { 90 };
    let _ = match color {
        Color::Reset => Ok(()),
        Color::Black => write!(out, ";{}", base),
        Color::Red => write!(out, ";{}", base + 1),
        Color::Green => write!(out, ";{}", base + 2),
        Color::Yellow => write!(out, ";{}", base + 3),
        Color::Blue => write!(out, ";{}", base + 4),
        Color::Magenta => write!(out, ";{}", base + 5),
        Color::Cyan => write!(out, ";{}", base + 6),
        Color::Gray => write!(out, ";{}", base + 7),
        Color::DarkGray => write!(out, ";{}", bright),
        Color::LightRed => write!(out, ";{}", bright + 1),
        Color::LightGreen => write!(out, ";{}", bright + 2),
        Color::LightYellow => write!(out, ";{}", bright + 3),
        Color::LightBlue => write!(out, ";{}", bright + 4),
        Color::LightMagenta => write!(out, ";{}", bright + 5),
        Color::LightCyan => write!(out, ";{}", bright + 6),
        Color::White => write!(out, ";{}", bright + 7),
        Color::Indexed(i) => write!(out, ";{};5;{}", base + 8, i),
        Color::Rgb(r, g, b) => write!(out, ";{};2;{};{};{}", base + 8, r, g, b),
    };
}

impl Backend for AnsiBackend {
    type Error = std::convert::Infallible;

    fn draw<'a, I>(&mut self, content: I) -> Result<(), Self::Error>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        for (x, y, cell) in content {
            if x >= self.size.width || y >= self.size.height {
                continue;
            }
            self.go_to(x, y);
            if self.style != Some((cell.fg, cell.bg, cell.modifier))
                && !blank_fits(cell, self.style)
            {
                self.set_style(cell.fg, cell.bg, cell.modifier);
            }
            let symbol = cell.symbol();
            self.out.extend_from_slice(symbol.as_bytes());
            let width = u16::try_from(symbol.width()).unwrap_or(1);
            let next = x.saturating_add(width);
            // Past the last column the terminal's cursor position is ambiguous (pending wrap).
            self.cursor = (width > 0 && next < self.size.width).then_some(Position { x: next, y });
        }
        Ok(())
    }

    fn hide_cursor(&mut self) -> Result<(), Self::Error> {
        self.out.extend_from_slice(b"\x1b[?25l");
        Ok(())
    }

    fn show_cursor(&mut self) -> Result<(), Self::Error> {
        self.out.extend_from_slice(b"\x1b[?25h");
        Ok(())
    }

    fn get_cursor_position(&mut self) -> Result<Position, Self::Error> {
        Ok(self.cursor.unwrap_or(self.last_cursor))
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> Result<(), Self::Error> {
        let p = position.into();
        self.move_to(p.x, p.y);
        Ok(())
    }

    fn clear(&mut self) -> Result<(), Self::Error> {
        self.clear_region(ClearType::All)
    }

    fn clear_region(&mut self, clear_type: ClearType) -> Result<(), Self::Error> {
        // Cleared cells take the current background: reset it first.
        self.out.extend_from_slice(b"\x1b[0m");
        self.style = Some((Color::Reset, Color::Reset, Modifier::empty()));
        self.out.extend_from_slice(match clear_type {
            ClearType::All => b"\x1b[2J",
            ClearType::AfterCursor => b"\x1b[J",
            ClearType::BeforeCursor => b"\x1b[1J",
            ClearType::CurrentLine => b"\x1b[2K",
            ClearType::UntilNewLine => b"\x1b[K",
        });
        Ok(())
    }

    fn size(&self) -> Result<Size, Self::Error> {
        Ok(self.size)
    }

    fn window_size(&mut self) -> Result<WindowSize, Self::Error> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> Result<(), Self::Error> {
        Ok(())
    }
}
