//! [`Shown`]: what the client's screen shows, kept per session in 16 bytes a cell (ratatui's
//! `Cell` takes 40: a 24-byte string, the colours, an underline colour and flags). A symbol of
//! at most four UTF-8 bytes (every character the UI draws: letters, blocks, box drawing, wide
//! CJK) is kept in the cell; a longer grapheme (a name with combining marks, an emoji sequence)
//! in a map by position, which holds at most one entry a cell.

use std::collections::HashMap;

use ratatui::buffer::Cell;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};

/// Bytes a symbol may have to be kept in its cell.
const INLINE: usize = 4;
/// The length byte of a cell whose symbol is in [`Shown::long`].
const LONG: u8 = u8::MAX;

/// Whether the diff is told to skip `cell` (ratatui's flag, which nothing here sets; kept so
/// that a cell compares as ratatui's would).
#[allow(deprecated)]
fn skips(cell: &Cell) -> bool {
    cell.skip
}

/// One cell as the client shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ShownCell {
    bytes: [u8; INLINE],
    len: u8,
    skip: bool,
    modifier: Modifier,
    fg: Color,
    bg: Color,
}

impl ShownCell {
    /// Its colours and modifiers.
    #[cfg(test)]
    pub(super) fn style(self) -> (Color, Color, Modifier) {
        (self.fg, self.bg, self.modifier)
    }

    /// A blank in the terminal's own colours (what a cleared screen shows).
    pub(super) const EMPTY: ShownCell = ShownCell {
        bytes: [b' ', 0, 0, 0],
        len: 1,
        skip: false,
        modifier: Modifier::empty(),
        fg: Color::Reset,
        bg: Color::Reset,
    };
}

/// The client's screen: its cells row by row over `area` (where it is in the window).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Shown {
    pub(super) area: Rect,
    pub(super) cells: Vec<ShownCell>,
    /// The symbols longer than [`INLINE`] bytes, by cell index.
    long: HashMap<usize, Box<str>>,
}

impl Shown {
    pub(super) fn new(area: Rect) -> Shown {
        Shown {
            area,
            cells: vec![ShownCell::EMPTY; area.area() as usize],
            long: HashMap::new(),
        }
    }

    /// Cell `i`'s symbol.
    pub(super) fn symbol(&self, i: usize) -> &str {
        match self.cells.get(i) {
            Some(c) if c.len == LONG => self.long.get(&i).map_or(" ", |s| s),
            Some(c) => std::str::from_utf8(&c.bytes[..usize::from(c.len)]).unwrap_or(" "),
            None => " ",
        }
    }

    /// Whether cell `i` shows `cell` (its symbol, colours, modifiers; no underline colour,
    /// which nothing draws).
    pub(super) fn same(&self, i: usize, cell: &Cell) -> bool {
        self.cells.get(i).is_some_and(|c| {
            let symbol = cell.symbol().as_bytes();
            c.fg == cell.fg
                && c.bg == cell.bg
                && c.modifier == cell.modifier
                && c.skip == skips(cell)
                && if c.len == LONG {
                    self.long.get(&i).is_some_and(|s| s.as_bytes() == symbol)
                } else {
                    c.bytes.get(..usize::from(c.len)) == Some(symbol)
                }
        })
    }

    /// Cell `i` shows `cell` from now on.
    pub(super) fn set(&mut self, i: usize, cell: &Cell) {
        let Some(c) = self.cells.get_mut(i) else {
            return;
        };
        let symbol = cell.symbol();
        let mut bytes = [0; INLINE];
        let len = if symbol.len() <= INLINE {
            bytes[..symbol.len()].copy_from_slice(symbol.as_bytes());
            if c.len == LONG {
                self.long.remove(&i);
            }
            u8::try_from(symbol.len()).unwrap_or(0)
        } else {
            self.long.insert(i, symbol.into());
            LONG
        };
        *c = ShownCell {
            bytes,
            len,
            skip: skips(cell),
            modifier: cell.modifier,
            fg: cell.fg,
            bg: cell.bg,
        };
    }

    /// Every cell blank, over `area` (the memory kept: see `RemoteTerminal::resize`).
    pub(super) fn clear_to(&mut self, area: Rect, keep_cells: usize) {
        let cells = area.area() as usize;
        self.cells.clear();
        self.long.clear();
        if self.cells.capacity() > cells.max(keep_cells) * 4 {
            self.cells.shrink_to(cells);
            self.long.shrink_to_fit();
        }
        // Grown to the size exactly (not doubled): at most the drawn area's cells.
        self.cells.reserve_exact(cells);
        self.cells.resize(cells, ShownCell::EMPTY);
        self.area = area;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(symbol: &str, fg: Color) -> Cell {
        let mut c = Cell::EMPTY;
        c.set_symbol(symbol).set_fg(fg);
        c
    }

    #[test]
    fn a_cell_is_sixteen_bytes() {
        assert_eq!(std::mem::size_of::<ShownCell>(), 16);
        assert!(std::mem::size_of::<Cell>() > 2 * std::mem::size_of::<ShownCell>());
    }

    #[test]
    fn cells_keep_short_and_long_symbols() {
        let mut s = Shown::new(Rect::new(0, 0, 4, 1));
        assert!(s.same(0, &Cell::EMPTY));
        for (i, symbol) in ["a", "漢", "👍🏽", "e\u{301}\u{302}\u{303}"]
            .into_iter()
            .enumerate()
        {
            let c = cell(symbol, Color::Red);
            assert!(!s.same(i, &c));
            s.set(i, &c);
            assert!(s.same(i, &c), "{symbol}");
            assert_eq!(s.symbol(i), symbol);
            assert!(!s.same(i, &cell(symbol, Color::Blue)));
        }
        assert_eq!(s.long.len(), 2, "the two longer than four bytes");
        // A long symbol replaced by a short one leaves the map.
        s.set(2, &cell("b", Color::Reset));
        assert_eq!(s.symbol(2), "b");
        assert_eq!(s.long.len(), 1);
        s.clear_to(Rect::new(0, 0, 4, 1), 16);
        assert!(s.long.is_empty());
        assert!((0..4).all(|i| s.same(i, &Cell::EMPTY)));
    }
}
