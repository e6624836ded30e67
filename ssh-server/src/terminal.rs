//! The player's terminal as the server sees it: ratatui draws into an in-memory ANSI backend
//! sized from the PTY request and window changes; what a draw produces is one byte string.

use ratatui::backend::{Backend, ClearType, WindowSize};
use ratatui::buffer::{Buffer, Cell};
use ratatui::layout::{Position, Rect, Size};
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

/// Larger windows are drawn at this size (absurd sizes cost memory and bandwidth).
pub const MAX_COLS: u16 = 500;
pub const MAX_ROWS: u16 = 200;
/// A screen's buffer keeps room for this many cells when its window shrinks (a 100x40
/// screen's); beyond four times what it needs, it gives the rest back.
const KEEP_CELLS: usize = 4_000;
/// The size assumed when a client reports 0 (unknown).
pub const DEFAULT_SIZE: (u16, u16) = (80, 24);

/// Enter the alternate screen, hide the cursor, turn off autowrap, clear, then ask for the kitty
/// keyboard flags followed by the primary device attributes (every terminal answers the latter).
pub const ENTER: &[u8] = b"\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[0m\x1b[H\x1b[2J\x1b[?u\x1b[c";
/// Push kitty keyboard flags 1 + 2 + 8: disambiguate, report event types, all keys as escapes.
pub const KITTY_PUSH: &[u8] = b"\x1b[>11u";
const KITTY_POP: &[u8] = b"\x1b[<u";
const LEAVE: &[u8] = b"\x1b[?2026l\x1b[0m\x1b[?7h\x1b[?25h\x1b[?1049l";
const SYNC_BEGIN: &[u8] = b"\x1b[?2026h";
const SYNC_END: &[u8] = b"\x1b[?2026l";

/// The bytes that give the client its terminal back: keyboard mode popped (when pushed),
/// attributes reset, autowrap on, cursor shown, alternate screen left.
pub fn leave_sequence(kitty_pushed: bool) -> Vec<u8> {
    let mut out = Vec::with_capacity(32);
    if kitty_pushed {
        out.extend_from_slice(KITTY_POP);
    }
    out.extend_from_slice(LEAVE);
    out
}

/// Frames shorter than this are sent without synchronized-output brackets: they fit in one
/// SSH packet and one read of the client's terminal, which draws them whole anyway, and the
/// 16 bytes of brackets were a tenth of what a game sends (key answers, a falling piece).
pub const SYNC_MIN: usize = 256;

/// Wraps a frame in synchronized output so the terminal shows it whole (a frame under
/// [`SYNC_MIN`] bytes goes bare), after `prefix` (control sequences that must not be part of
/// the frame).
pub fn frame_bytes(prefix: &[u8], frame: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(prefix.len() + frame.len() + 16);
    out.extend_from_slice(prefix);
    if frame.len() >= SYNC_MIN {
        out.extend_from_slice(SYNC_BEGIN);
        out.extend_from_slice(frame);
        out.extend_from_slice(SYNC_END);
    } else {
        out.extend_from_slice(frame);
    }
    out
}

/// What the client says about its terminal through SSH environment requests (`SendEnv`):
/// `COLORTERM`, `TERM_PROGRAM` and `LANG`, and nothing else. Each value is at most
/// [`TermEnv::MAX_VALUE`] bytes of printable ASCII, so a connection holds at most a few
/// hundred bytes of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermEnv {
    pub colorterm: Option<String>,
    pub term_program: Option<String>,
    pub lang: Option<String>,
}

impl TermEnv {
    pub const MAX_VALUE: usize = 64;

    /// Keeps `name=value` when it is one of the three and the value is short printable ASCII;
    /// whether it was kept (the channel request's answer).
    pub fn accept(&mut self, name: &str, value: &str) -> bool {
        let slot = match name {
            "COLORTERM" => &mut self.colorterm,
            "TERM_PROGRAM" => &mut self.term_program,
            "LANG" => &mut self.lang,
            _ => return false,
        };
        let printable = value.bytes().all(|b| b == b' ' || b.is_ascii_graphic());
        if value.len() > Self::MAX_VALUE || !printable {
            return false;
        }
        *slot = Some(value.to_owned());
        true
    }

    /// Whether the terminal says it shows 24-bit colour (`COLORTERM=truecolor` or `24bit`).
    pub fn truecolor(&self) -> bool {
        self.colorterm
            .as_deref()
            .is_some_and(|v| v.eq_ignore_ascii_case("truecolor") || v.eq_ignore_ascii_case("24bit"))
    }
}

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

/// A ratatui terminal whose output is collected in memory.
///
/// A frame is rendered into a buffer of the thread's ([`SCRATCH`]), then compared with what
/// the client shows (`shown`, the session's one screen-sized buffer), which takes the changes
/// as they are found. The diff computes a unicode width only for cells that changed (ratatui's
/// own computes one for every cell of every frame: that was a quarter of the server's CPU under
/// load). Frames never place a cursor.
///
/// Why the scratch buffer is the thread's: a 100x40 buffer is 4,000 cells of 48 bytes, about
/// 190 KiB. With a render buffer of its own per session, every frame cleared, filled and read
/// one buffer and read and swapped another, cold in memory for any of hundreds of sessions:
/// clearing and comparing were a third of the server's CPU in a versus load. The thread's
/// buffer stays in cache; a session holds only `shown`.
#[derive(Debug)]
pub struct RemoteTerminal {
    backend: AnsiBackend,
    /// What the client's screen shows.
    shown: Buffer,
}

thread_local! {
    /// The buffer frames are rendered into on this thread, reused by every session that draws
    /// here (its `content` keeps the capacity of the largest screen drawn).
    static SCRATCH: std::cell::RefCell<Buffer> = std::cell::RefCell::new(Buffer::empty(Rect::ZERO));
}

impl RemoteTerminal {
    pub fn new(cols: u16, rows: u16) -> RemoteTerminal {
        let area = Rect::new(0, 0, cols, rows);
        RemoteTerminal {
            backend: AnsiBackend::new(area.as_size()),
            shown: Buffer::empty(area),
        }
    }

    pub fn size(&self) -> (u16, u16) {
        (self.backend.size.width, self.backend.size.height)
    }

    /// Resizes the drawing area; the next draw repaints everything. The screen's buffer is
    /// reused: a new size allocates only when it is larger than any drawn before, and a much
    /// smaller one gives the memory back.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        let area = Rect::new(0, 0, cols, rows);
        self.backend.size = area.as_size();
        self.backend.forget_state();
        // Clears the client's screen (attributes reset), which is what an empty buffer shows.
        if let Err(never) = self.backend.clear() {
            match never {}
        }
        let cells = area.area() as usize;
        let content = &mut self.shown.content;
        content.clear();
        if content.capacity() > cells.max(KEEP_CELLS) * 4 {
            content.shrink_to(cells);
        }
        content.resize(cells, Cell::EMPTY);
        self.shown.area = area;
    }

    /// Cells the screen's buffer can hold without allocating, and where it is (a test shows
    /// that resizing did not move it).
    pub fn capacity(&self) -> (usize, *const Cell) {
        (self.shown.content.capacity(), self.shown.content.as_ptr())
    }

    /// Draws a frame: `render` fills the screen's area of a cleared buffer; only the cells that
    /// changed since the last frame are written.
    pub fn draw(&mut self, render: impl FnOnce(Rect, &mut Buffer)) {
        let area = self.shown.area;
        SCRATCH.with_borrow_mut(|next| {
            if next.area == area {
                next.reset();
            } else {
                next.area = area;
                next.content.clear();
                next.content.resize(area.area() as usize, Cell::EMPTY);
            }
            render(area, next);
            let mut changed = take_changes(&mut self.shown, next);
            group_by_style(&mut changed, self.backend.style);
            fill_gaps(&mut changed, next);
            if let Err(never) = self.backend.draw(changed.into_iter()) {
                match never {}
            }
        });
    }

    /// The bytes produced since the last call.
    pub fn take_output(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.backend.out)
    }
}

/// The cells of `next` to write to the client, with their positions, and `shown` made equal
/// to `next` (each cell that differs copied over, in the same pass). A wide character covers
/// the cells after it; when a wide character is replaced, the cells it covered are rewritten.
fn take_changes<'a>(shown: &mut Buffer, next: &'a Buffer) -> Vec<(u16, u16, &'a Cell)> {
    let width = usize::from(next.area.width.max(1));
    let len = next.content.len().min(shown.content.len());
    let mut out = Vec::new();
    let mut repaint_until = 0;
    // Cells covered by a wide character written this frame.
    let mut covered_until = 0;
    // Whether the cell before was the same in both before this frame.
    let mut previous_same = true;
    for i in 0..len {
        let (Some(new), Some(old)) = (next.content.get(i), shown.content.get_mut(i)) else {
            break;
        };
        let same = new == &*old;
        // Widths are computed for changed cells only (most cells of a frame are unchanged).
        let mut old_width = 0;
        if !same {
            old_width = old.symbol().width();
            old.clone_from(new);
        }
        let previous_was_same = std::mem::replace(&mut previous_same, same);
        if i < covered_until || i >= repaint_until && same {
            continue;
        }
        // The cell after an unchanged wide character is covered by it: writing there would
        // break the character on the client.
        if i % width != 0
            && i >= repaint_until
            && previous_was_same
            && next
                .content
                .get(i - 1)
                .is_some_and(|c| c.symbol().width() > 1)
        {
            continue;
        }
        let x = u16::try_from(i % width).unwrap_or(u16::MAX);
        let y = u16::try_from(i / width).unwrap_or(u16::MAX);
        out.push((
            next.area.x.saturating_add(x),
            next.area.y.saturating_add(y),
            new,
        ));
        let new_width = new.symbol().width().max(1);
        // An old wide character that starts under the new cell and reaches past it is erased
        // whole by the client when part of it is overwritten: the cells it covered beyond the
        // new cell are written again. (Cells after `i` are not updated yet: their old widths.)
        for k in 0..new_width {
            let old_width = if k == 0 {
                old_width
            } else {
                shown.content.get(i + k).map_or(0, |c| c.symbol().width())
            };
            if k + old_width > new_width {
                repaint_until = repaint_until.max(i + k + old_width);
            }
        }
        covered_until = i + new_width;
    }
    out
}

/// Orders changed cells by style (the style the client has now first, then the others in
/// order of first appearance, positions in order within a style). Every cell is written at an
/// explicit position, so the order is free, and a style switch (about 13 bytes) costs more
/// than the cell it colours: a moving piece and its ghost alternate piece and grid colours
/// cell by cell, which this turns into one switch each, and a frame whose changes include the
/// style the last frame ended with starts without a switch.
fn group_by_style(cells: &mut [(u16, u16, &Cell)], current: Option<(Color, Color, Modifier)>) {
    let mut styles: Vec<(Color, Color, Modifier)> = Vec::new();
    if let Some(style) = current
        && cells
            .iter()
            .any(|(_, _, c)| (c.fg, c.bg, c.modifier) == style)
    {
        styles.push(style);
    }
    for (_, _, c) in cells.iter() {
        let style = (c.fg, c.bg, c.modifier);
        if !styles.contains(&style) {
            styles.push(style);
        }
    }
    if styles.len() > 1 {
        cells.sort_by_key(|(_, _, c)| styles.iter().position(|s| *s == (c.fg, c.bg, c.modifier)));
    }
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

/// Between two changed cells on a row, in the same style, unchanged cells of that style are
/// written again instead of skipped when that is shorter than `CSI n C` (a gap of one to three
/// narrow cells, e.g. the unchanged digit between two that changed).
fn fill_gaps<'a>(cells: &mut Vec<(u16, u16, &'a Cell)>, next: &'a Buffer) {
    let mut out: Vec<(u16, u16, &'a Cell)> = Vec::with_capacity(cells.len() + 8);
    let style = |c: &Cell| (c.fg, c.bg, c.modifier);
    for (i, &(x, y, cell)) in cells.iter().enumerate() {
        if i > 0
            && let Some(&(px, py, prev)) = out.last()
        {
            let end = px.saturating_add(u16::try_from(prev.symbol().width().max(1)).unwrap_or(1));
            if py == y && x > end && x - end <= 3 && style(prev) == style(cell) {
                // The gap's cells, looked at in place (no allocation on the frame path).
                let gap = || (end..x).map(|gx| (gx, next.cell((gx, y))));
                let fits = gap().all(|(_, c)| {
                    c.is_some_and(|c| c.symbol().width() == 1 && style(c) == style(cell))
                });
                let bytes: usize = gap().filter_map(|(_, c)| c).map(|c| c.symbol().len()).sum();
                let skip = 3 + if x - end == 1 { 0 } else { 1 };
                if fits && bytes < skip {
                    out.extend(gap().filter_map(|(gx, c)| c.map(|c| (gx, y, c))));
                }
            }
        }
        out.push((x, y, cell));
    }
    *cells = out;
}

/// A ratatui backend that writes ANSI escape sequences into a buffer and knows its size from
/// the SSH client (never from the server's own terminal).
#[derive(Debug)]
struct AnsiBackend {
    out: Vec<u8>,
    size: Size,
    /// Where the client's cursor is, when known.
    cursor: Option<Position>,
    /// The SGR state the client has, when known.
    style: Option<(Color, Color, Modifier)>,
    last_cursor: Position,
    /// Reused for the relative move that `go_to` weighs against an absolute one.
    scratch: Vec<u8>,
}

/// The bytes of `CSI <y+1>;<x+1>H` (`CSI <y+1>H` in the first column).
fn absolute_move_len(x: u16, y: u16) -> usize {
    let row = 3 + digits(u32::from(y) + 1);
    if x == 0 {
        row
    } else {
        row + 1 + digits(u32::from(x) + 1)
    }
}

/// Appends a move from `at` to `to` made of carriage return, backspace and cursor up, down,
/// forward and back (`CSI n A/B/C/D`, the count left out when it is 1).
fn relative_move(out: &mut Vec<u8>, at: Position, to: Position) {
    use std::io::Write;
    let csi = |out: &mut Vec<u8>, n: u16, f: u8| {
        out.extend_from_slice(b"\x1b[");
        if n != 1 {
            let _ = write!(out, "{n}");
        }
        out.push(f);
    };
    if to.y > at.y {
        csi(out, to.y - at.y, b'B');
    } else if to.y < at.y {
        csi(out, at.y - to.y, b'A');
    }
    if to.x > at.x {
        csi(out, to.x - at.x, b'C');
    } else if to.x < at.x {
        // Back to the first column and forward, or straight back: whichever is shorter.
        let back = 3 + if at.x - to.x == 1 {
            0
        } else {
            digits(u32::from(at.x - to.x))
        };
        let cr = 1 + match to.x {
            0 => 0,
            1 => 3,
            n => 3 + digits(u32::from(n)),
        };
        // Backspace moves one column left (never past the first, never wrapping): a byte a
        // column, shorter than `CSI n D` for up to three columns.
        let backspaces = usize::from(at.x - to.x);
        if cr <= back && cr < backspaces {
            out.push(b'\r');
            if to.x > 0 {
                csi(out, to.x, b'C');
            }
        } else if backspaces <= back {
            out.extend(std::iter::repeat_n(b'\x08', backspaces));
        } else {
            csi(out, at.x - to.x, b'D');
        }
    }
}

/// The decimal digits of `v`.
fn digits(v: u32) -> usize {
    v.checked_ilog10().map_or(1, |d| d as usize + 1)
}

impl AnsiBackend {
    fn new(size: Size) -> AnsiBackend {
        AnsiBackend {
            out: Vec::with_capacity(16 * 1024),
            size,
            cursor: None,
            style: None,
            last_cursor: Position::ORIGIN,
            scratch: Vec::with_capacity(16),
        }
    }

    fn forget_state(&mut self) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::Stylize;
    use ratatui::widgets::{Paragraph, Widget};

    /// What a real terminal emulator shows after `bytes`.
    fn screen(term: &RemoteTerminal, bytes: &[u8]) -> Screen {
        let (cols, rows) = term.size();
        let nz = |v: u16| std::num::NonZeroU16::new(v).expect("not zero");
        let mut parser = vt100::Parser::new(nz(rows), nz(cols), 0);
        parser.process(bytes);
        Screen { parser, cols }
    }

    struct Screen {
        parser: vt100::Parser,
        cols: u16,
    }

    impl Screen {
        /// Row `y`, a blank for every empty cell (wide characters once).
        fn line(&self, y: u16) -> String {
            let s = self.parser.screen();
            (0..self.cols)
                .filter_map(|x| s.cell(y, x))
                .filter(|c| !c.is_wide_continuation())
                .map(|c| match c.contents() {
                    "" => " ",
                    t => t,
                })
                .collect()
        }
    }

    #[test]
    fn draws_and_then_sends_only_changes() {
        let mut term = RemoteTerminal::new(20, 3);
        term.draw(|area, buf| Paragraph::new("hello █ world").render(area, buf));
        let first = term.take_output();
        assert_eq!(screen(&term, &first).line(0), "hello █ world       ");

        term.draw(|area, buf| Paragraph::new("hello █ World").render(area, buf));
        let second = term.take_output();
        assert!(second.len() < 40, "{:?}", String::from_utf8_lossy(&second));
        assert!(String::from_utf8_lossy(&second).contains('W'));
        assert_eq!(
            screen(&term, &[first, second].concat()).line(0),
            "hello █ World       "
        );
    }

    #[test]
    fn changes_are_written_grouped_by_style() {
        let mut term = RemoteTerminal::new(12, 1);
        term.draw(|area, buf| {
            let line =
                ratatui::text::Line::from(vec!["a".red(), "b".blue(), "c".red(), "d".blue()]);
            Paragraph::new(line).render(area, buf)
        });
        let out = String::from_utf8(term.take_output()).unwrap();
        // The first switch resets everything; the second changes only the foreground.
        assert_eq!(out.matches("\x1b[0;31m").count(), 1, "{out:?}");
        assert_eq!(out.matches("\x1b[34m").count(), 1, "{out:?}");
        assert!(!out.contains("\x1b[0;34m"), "{out:?}");
        assert_eq!(screen(&term, out.as_bytes()).line(0), "abcd        ");
    }

    #[test]
    fn further_along_a_row_the_cursor_moves_forward_not_absolutely() {
        let mut term = RemoteTerminal::new(20, 2);
        term.draw(|area, buf| Paragraph::new("a    b\nc").render(area, buf));
        let out = String::from_utf8(term.take_output()).unwrap();
        // "a", 4 unchanged blanks skipped forward, "b", then row 2 by the shortest move
        // (carriage return and down: 4 bytes against 4 for `CSI 2 H`, absolute wins ties).
        assert!(out.contains("a\x1b[4Cb"), "{out:?}");
        assert!(out.ends_with("\x1b[2Hc"), "{out:?}");
        assert_eq!(
            screen(&term, out.as_bytes()).line(0),
            "a    b              "
        );
        assert_eq!(
            screen(&term, out.as_bytes()).line(1),
            "c                   "
        );
    }

    #[test]
    fn a_short_move_left_is_backspaces() {
        let mut term = RemoteTerminal::new(20, 3);
        term.draw(|area, buf| Paragraph::new("\n          ab").render(area, buf));
        let first = term.take_output();
        // The cursor is after "b" (column 12); "x" goes to column 10: two backspaces (2 bytes)
        // rather than `CSI 2 D` (4), `CR CSI 10 C` (6) or `CSI 2;11 H` (8).
        term.draw(|area, buf| Paragraph::new("\n          xb").render(area, buf));
        let out = String::from_utf8(term.take_output()).unwrap();
        assert_eq!(out, "\x08\x08x");
        let shown = screen(&term, &[first, out.into_bytes()].concat());
        assert_eq!(shown.line(1), "          xb        ");
    }

    #[test]
    fn a_frame_starts_in_the_style_the_client_has() {
        let mut term = RemoteTerminal::new(12, 1);
        let line = |a: &'static str, b: &'static str| {
            ratatui::text::Line::from(vec![a.red(), " ".into(), b.blue()])
        };
        term.draw(|area, buf| Paragraph::new(line("a", "b")).render(area, buf));
        let first = term.take_output();
        assert!(String::from_utf8_lossy(&first).ends_with("\x1b[34mb"));
        // Both change: the blue one is written first, with no switch, then the red one.
        term.draw(|area, buf| Paragraph::new(line("c", "d")).render(area, buf));
        let out = String::from_utf8(term.take_output()).unwrap();
        assert_eq!(out.matches("\x1b[").count(), 1, "{out:?}");
        assert!(out.starts_with("\x08d"), "{out:?}");
        assert!(out.contains("\x1b[31mc"), "{out:?}");
        assert_eq!(
            screen(&term, &[first, out.into_bytes()].concat()).line(0),
            "c d         "
        );
    }

    #[test]
    fn colours_and_modifiers_become_sgr() {
        let mut term = RemoteTerminal::new(10, 1);
        term.draw(|area, buf| Paragraph::new("x".red().on_blue().bold()).render(area, buf));
        let out = String::from_utf8(term.take_output()).unwrap();
        assert!(out.contains("\x1b[0;1;31;44mx"), "{out:?}");
    }

    #[test]
    fn resize_repaints_everything_at_the_new_size() {
        let mut term = RemoteTerminal::new(10, 2);
        term.draw(|area, buf| Paragraph::new("abc").render(area, buf));
        term.take_output();
        term.resize(30, 5);
        assert_eq!(term.size(), (30, 5));
        term.draw(|area, buf| Paragraph::new("abc").render(area, buf));
        let out = term.take_output();
        assert!(String::from_utf8_lossy(&out).contains("abc"));
        term.resize(5, 2);
        term.draw(|area, buf| Paragraph::new("abcdefgh").render(area, buf));
        let out = term.take_output();
        assert_eq!(screen(&term, &out).line(0), "abcde");
    }

    #[test]
    fn wide_characters_are_replaced_cleanly() {
        let mut term = RemoteTerminal::new(10, 1);
        term.draw(|area, buf| Paragraph::new("a界b").render(area, buf));
        let out = String::from_utf8(term.take_output()).unwrap();
        assert!(out.contains("a界b"), "{out:?}");
        term.draw(|area, buf| Paragraph::new("axyb").render(area, buf));
        let out = String::from_utf8(term.take_output()).unwrap();
        assert!(out.contains('x') && out.contains('y'), "{out:?}");
        assert!(!out.contains('a') && !out.contains('b'), "{out:?}");
    }

    #[test]
    fn terminals_of_different_sizes_share_the_thread_buffer_cleanly() {
        let mut wide = RemoteTerminal::new(30, 4);
        let mut small = RemoteTerminal::new(8, 2);
        let (mut wide_bytes, mut small_bytes) = (Vec::new(), Vec::new());
        for (w, s) in [
            ("first wide", "one"),
            ("second", "two"),
            ("third wide", "3"),
        ] {
            wide.draw(|area, buf| Paragraph::new(w).render(area, buf));
            wide_bytes.extend(wide.take_output());
            small.draw(|area, buf| Paragraph::new(s).render(area, buf));
            small_bytes.extend(small.take_output());
            assert_eq!(screen(&wide, &wide_bytes).line(0).trim_end(), w);
            assert_eq!(screen(&small, &small_bytes).line(0).trim_end(), s);
            assert_eq!(screen(&wide, &wide_bytes).line(1).trim_end(), "");
        }
        // Nothing changed: nothing written, whatever the other drew in between.
        small.draw(|area, buf| Paragraph::new("3").render(area, buf));
        wide.draw(|area, buf| Paragraph::new("third wide").render(area, buf));
        assert!(wide.take_output().is_empty());
        assert!(small.take_output().is_empty());
    }

    #[test]
    fn an_unchanged_frame_writes_nothing() {
        let mut term = RemoteTerminal::new(30, 5);
        let draw = |area, buf: &mut Buffer| Paragraph::new("same".bold()).render(area, buf);
        term.draw(draw);
        assert!(!term.take_output().is_empty());
        term.draw(draw);
        assert!(term.take_output().is_empty());
    }

    #[test]
    fn only_three_short_printable_environment_variables_are_kept() {
        let mut env = TermEnv::default();
        for (name, value, kept) in [
            ("COLORTERM", "truecolor", true),
            ("TERM_PROGRAM", "WezTerm", true),
            ("LANG", "en_US.UTF-8", true),
            ("LD_PRELOAD", "/tmp/x.so", false),
            ("PATH", "/bin", false),
            ("lang", "C", false),
            ("LANG", "a\x1b[31m", false),
            ("LANG", "a\nb", false),
            ("LANG", "é", false),
            ("TERM_PROGRAM", &"x".repeat(TermEnv::MAX_VALUE + 1), false),
        ] {
            assert_eq!(env.accept(name, value), kept, "{name}={value:?}");
        }
        assert_eq!(
            env.lang.as_deref(),
            Some("en_US.UTF-8"),
            "a refused value keeps the old"
        );
        assert!(env.truecolor());
        for (v, yes) in [
            ("24bit", true),
            ("TrueColor", true),
            ("256", false),
            ("", false),
        ] {
            let env = TermEnv {
                colorterm: Some(v.to_owned()),
                ..TermEnv::default()
            };
            assert_eq!(env.truecolor(), yes, "{v}");
        }
    }

    #[test]
    fn sizes_are_clamped() {
        assert_eq!(clamp_size(0, 0), DEFAULT_SIZE);
        assert_eq!(clamp_size(100, 40), (100, 40));
        assert_eq!(clamp_size(100_000, u32::MAX), (MAX_COLS, MAX_ROWS));
        let mut term = RemoteTerminal::new(1, 1);
        term.draw(|area, buf| Paragraph::new("wide text").render(area, buf));
    }

    #[test]
    fn leaving_restores_the_terminal() {
        let leave = leave_sequence(true);
        assert!(leave.starts_with(b"\x1b[<u"));
        assert!(leave.ends_with(b"\x1b[?25h\x1b[?1049l"));
        assert!(!leave_sequence(false).starts_with(b"\x1b[<u"));
        assert_eq!(frame_bytes(b"p", b""), b"p");
        // A small frame goes bare; a large one inside synchronized output.
        assert_eq!(frame_bytes(b"p", b"f"), b"pf");
        let big = vec![b'x'; SYNC_MIN];
        let wrapped = frame_bytes(b"", &big);
        assert!(wrapped.starts_with(b"\x1b[?2026h") && wrapped.ends_with(b"\x1b[?2026l"));
        assert_eq!(wrapped.len(), SYNC_MIN + 16);
    }
}

/// Every frame the encoder writes, fed to a real terminal emulator (`vt100`), must leave the
/// screen showing exactly the buffer drawn: symbols, colours and attributes, across frames
/// that change a few cells or everything, with wide characters and blanks.
#[cfg(test)]
mod emulated {
    use super::*;
    use proptest::prelude::*;
    use ratatui::style::Style;

    const SYMBOLS: [&str; 8] = [" ", "·", "█", "░", "a", "7", "▮", "漢"];
    const COLORS: [Color; 5] = [
        Color::Reset,
        Color::Indexed(238),
        Color::Indexed(46),
        Color::Red,
        Color::Rgb(1, 2, 3),
    ];

    fn vt_color(c: Color) -> vt100::Color {
        match c {
            Color::Reset => vt100::Color::Default,
            Color::Indexed(i) => vt100::Color::Idx(i),
            Color::Red => vt100::Color::Idx(1),
            Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
            other => panic!("not in the palette: {other:?}"),
        }
    }

    /// A frame: per row, runs of (symbol, fg, bg, bold, reversed, length).
    type Frame = Vec<Vec<(usize, usize, usize, bool, bool, u16)>>;

    fn frames(cols: u16, rows: u16) -> impl Strategy<Value = Vec<Frame>> {
        let run = (
            0..SYMBOLS.len(),
            0..COLORS.len(),
            0..2usize,
            any::<bool>(),
            any::<bool>(),
            1..4u16,
        );
        let row = proptest::collection::vec(run, 0..(cols as usize));
        proptest::collection::vec(proptest::collection::vec(row, rows as usize), 1..6)
    }

    fn draw(buf: &mut Buffer, frame: &Frame, keep: &[bool]) {
        for (y, runs) in frame.iter().enumerate() {
            if keep.get(y).copied().unwrap_or(false) {
                continue;
            }
            let mut x = 0u16;
            for &(sym, fg, bg, bold, rev, len) in runs {
                let mut style = Style::default().fg(COLORS[fg]).bg(COLORS[bg * 2]);
                if bold {
                    style = style.add_modifier(Modifier::BOLD);
                }
                if rev {
                    style = style.add_modifier(Modifier::REVERSED);
                }
                let text = SYMBOLS[sym].repeat(usize::from(len));
                let width = buf.area.width;
                if x >= width {
                    break;
                }
                let (nx, _) = buf.set_stringn(x, y as u16, &text, usize::from(width - x), style);
                x = nx;
            }
        }
    }

    fn check(term: &RemoteTerminal, parser: &vt100::Parser) -> Result<(), TestCaseError> {
        let screen = parser.screen();
        let shown = &term.shown;
        for y in 0..shown.area.height {
            let mut x = 0;
            while x < shown.area.width {
                let want = &shown[(x, y)];
                let got = screen.cell(y, x).expect("in the screen");
                fn blank(t: &str) -> &str {
                    if t == " " { "" } else { t }
                }
                prop_assert_eq!(
                    blank(got.contents()),
                    blank(want.symbol()),
                    "symbol at ({}, {})",
                    x,
                    y
                );
                let rev = want.modifier.contains(Modifier::REVERSED);
                prop_assert_eq!(got.inverse(), rev, "reverse at ({}, {})", x, y);
                prop_assert_eq!(got.bgcolor(), vt_color(want.bg), "bg at ({}, {})", x, y);
                // A blank's foreground and bold do not show (unless reversed).
                if want.symbol() != " " || rev {
                    prop_assert_eq!(got.fgcolor(), vt_color(want.fg), "fg at ({}, {})", x, y);
                    prop_assert_eq!(
                        got.bold(),
                        want.modifier.contains(Modifier::BOLD),
                        "bold at ({}, {})",
                        x,
                        y
                    );
                }
                x += u16::try_from(want.symbol().width().max(1)).unwrap_or(1);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn the_emulated_screen_shows_every_frame_exactly(
            frames in frames(23, 6),
            keep in proptest::collection::vec(proptest::collection::vec(any::<bool>(), 6), 6),
        ) {
            let (cols, rows) = (23u16, 6u16);
            let mut term = RemoteTerminal::new(cols, rows);
            let nz = |v: u16| std::num::NonZeroU16::new(v).expect("not zero");
            let mut parser = vt100::Parser::new(nz(rows), nz(cols), 0);
            parser.process(ENTER);
            let mut last: Option<&Frame> = None;
            for (i, frame) in frames.iter().enumerate() {
                // Some rows keep the previous frame's content: small changes between frames.
                let keep_rows = keep.get(i).cloned().unwrap_or_default();
                term.draw(|_, buf| {
                    if let Some(prev) = last {
                        draw(buf, prev, &[]);
                    }
                    draw(buf, frame, &keep_rows);
                });
                last = Some(frame);
                parser.process(&frame_bytes(&[], &term.take_output()));
                check(&term, &parser)?;
            }
        }
    }

    /// Every pair of frames of three cells (blank, narrow, wide; plain or reversed) on a
    /// 4-column screen: wide characters that half overlap old ones, and their covered cells.
    #[test]
    fn every_pair_of_small_frames_with_wide_characters_shows_exactly() {
        let symbols = [" ", "a", "漢"];
        let styles = [
            Style::default(),
            Style::default().add_modifier(Modifier::REVERSED),
        ];
        let nz = |v: u16| std::num::NonZeroU16::new(v).expect("not zero");
        let frames: Vec<Vec<(usize, usize)>> = (0..6usize.pow(3))
            .map(|mut n| {
                (0..3)
                    .map(|_| {
                        let v = n % 6;
                        n /= 6;
                        (v / 2, v % 2)
                    })
                    .collect()
            })
            .collect();
        for a in &frames {
            for b in &frames {
                let mut term = RemoteTerminal::new(4, 1);
                let mut parser = vt100::Parser::new(nz(1), nz(4), 0);
                parser.process(ENTER);
                for frame in [a, b] {
                    term.draw(|_, buf| {
                        let mut x = 0u16;
                        for &(sym, style) in frame {
                            if x >= 4 {
                                break;
                            }
                            let n = usize::from(4 - x);
                            x = buf.set_stringn(x, 0, symbols[sym], n, styles[style]).0;
                        }
                    });
                    parser.process(&frame_bytes(&[], &term.take_output()));
                }
                if let Err(e) = check(&term, &parser) {
                    panic!("{a:?} then {b:?}: {e}");
                }
            }
        }
    }
}
