//! [`Shown`]: what the client's screen shows, kept per session in 8 bytes a cell (ratatui's
//! `Cell` takes 40: a 24-byte string, the colours, an underline colour and flags). A symbol of
//! at most four UTF-8 bytes (every character the UI draws: letters, blocks, box drawing, wide
//! CJK) is kept in the cell; a longer grapheme (a name with combining marks, an emoji sequence)
//! in a map by position, which holds at most one entry a cell. A cell's colours and modifiers
//! are an index into the screen's table of the styles it shows (a screen has a few dozen),
//! which holds at most [`MAX_STYLES`].

use std::collections::HashMap;

use ratatui::buffer::Cell;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier};

/// Bytes a symbol may have to be kept in its cell.
const INLINE: usize = 4;
/// The length byte of a cell whose symbol is in [`Shown::long`].
const LONG: u8 = u8::MAX;
/// Styles a screen's table holds; a screen that shows more at once keeps the rest as
/// [`UNKNOWN`] (written again by every frame, which is correct, only longer).
const MAX_STYLES: usize = 256;
/// The style index of a cell whose style is not in the table: it equals no cell.
const UNKNOWN: u16 = u16::MAX;

/// Colours and modifiers.
type Style = (Color, Color, Modifier);
/// The terminal's own colours (index 0 of every table).
const PLAIN: Style = (Color::Reset, Color::Reset, Modifier::empty());

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
    /// Its index in [`Shown::styles`].
    style: u16,
}

impl ShownCell {
    /// A blank in the terminal's own colours (what a cleared screen shows).
    pub(super) const EMPTY: ShownCell = ShownCell {
        bytes: [b' ', 0, 0, 0],
        len: 1,
        skip: false,
        style: 0,
    };
}

/// The client's screen: its cells row by row over `area` (where it is in the window).
#[derive(Debug)]
pub(super) struct Shown {
    pub(super) area: Rect,
    pub(super) cells: Vec<ShownCell>,
    /// The symbols longer than [`INLINE`] bytes, by cell index.
    long: HashMap<usize, Box<str>>,
    /// The styles the cells refer to; [`PLAIN`] first.
    styles: Vec<Style>,
    /// Styles added (or refused) since the table was last rebuilt: it is rebuilt only once
    /// this many are, so that a screen of more styles than it holds costs a rebuild every
    /// [`MAX_STYLES`] cells written, not one for each.
    since_rebuild: usize,
}

/// Two screens are equal when every cell shows the same (whatever their tables' order).
impl PartialEq for Shown {
    fn eq(&self, other: &Shown) -> bool {
        self.area == other.area
            && self.cells.len() == other.cells.len()
            && (0..self.cells.len()).all(|i| {
                let (a, b) = (self.cells[i], other.cells[i]);
                a.skip == b.skip
                    && self.symbol(i) == other.symbol(i)
                    && self.style(i).is_some()
                    && self.style(i) == other.style(i)
            })
    }
}

impl Shown {
    pub(super) fn new(area: Rect) -> Shown {
        Shown {
            area,
            cells: vec![ShownCell::EMPTY; area.area() as usize],
            long: HashMap::new(),
            styles: vec![PLAIN],
            since_rebuild: 0,
        }
    }

    /// Cell `i`'s colours and modifiers (none for a style the table could not hold).
    pub(super) fn style(&self, i: usize) -> Option<Style> {
        let c = self.cells.get(i)?;
        self.styles.get(usize::from(c.style)).copied()
    }

    /// The index of `style` in the table, added if new; when the table is full, it is first
    /// rebuilt from the styles the cells show, and [`UNKNOWN`] if it is full of those.
    fn style_index(&mut self, style: Style) -> u16 {
        if let Some(i) = self.styles.iter().position(|s| *s == style) {
            return u16::try_from(i).unwrap_or(UNKNOWN);
        }
        self.since_rebuild += 1;
        if self.styles.len() >= MAX_STYLES && self.since_rebuild >= MAX_STYLES {
            self.compact_styles();
            self.since_rebuild = 0;
        }
        if self.styles.len() >= MAX_STYLES {
            return UNKNOWN;
        }
        self.styles.push(style);
        u16::try_from(self.styles.len() - 1).unwrap_or(UNKNOWN)
    }

    /// Keeps only the styles that cells show, renumbered.
    fn compact_styles(&mut self) {
        let mut used = vec![false; self.styles.len()];
        used[0] = true;
        for c in &self.cells {
            if let Some(u) = used.get_mut(usize::from(c.style)) {
                *u = true;
            }
        }
        let mut renumber = vec![UNKNOWN; self.styles.len()];
        let mut kept = Vec::with_capacity(self.styles.len());
        for (i, style) in self.styles.iter().enumerate() {
            if used[i] {
                renumber[i] = u16::try_from(kept.len()).unwrap_or(UNKNOWN);
                kept.push(*style);
            }
        }
        for c in &mut self.cells {
            c.style = renumber
                .get(usize::from(c.style))
                .copied()
                .unwrap_or(UNKNOWN);
        }
        self.styles = kept;
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
            self.styles
                .get(usize::from(c.style))
                .is_some_and(|s| *s == (cell.fg, cell.bg, cell.modifier))
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
        if i >= self.cells.len() {
            return;
        }
        let style = self.style_index((cell.fg, cell.bg, cell.modifier));
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
            style,
        };
    }

    /// Every cell blank, over `area` (the memory kept: see `RemoteTerminal::resize`).
    pub(super) fn clear_to(&mut self, area: Rect, keep_cells: usize) {
        let cells = area.area() as usize;
        self.cells.clear();
        self.long.clear();
        self.styles.clear();
        self.styles.push(PLAIN);
        self.since_rebuild = 0;
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
    fn a_cell_is_eight_bytes() {
        assert_eq!(std::mem::size_of::<ShownCell>(), 8);
        assert!(std::mem::size_of::<Cell>() >= 5 * std::mem::size_of::<ShownCell>());
    }

    /// A screen that shows more styles than its table holds stays right: the table is rebuilt
    /// from what the cells show, and beyond that a cell's style is unknown (it equals nothing,
    /// so the next frame writes it again).
    #[test]
    fn the_style_table_is_bounded_and_stays_right() {
        let n = MAX_STYLES + 40;
        let mut s = Shown::new(Rect::new(0, 0, u16::try_from(n).unwrap_or(u16::MAX), 1));
        let rgb = |i: usize| Color::Rgb((i % 256) as u8, (i / 256) as u8, 7);
        for i in 0..n {
            s.set(i, &cell("x", rgb(i)));
        }
        assert!(s.styles.len() <= MAX_STYLES);
        for i in 0..n {
            let c = cell("x", rgb(i));
            if s.same(i, &c) {
                assert_eq!(s.style(i).map(|st| st.0), Some(rgb(i)));
            } else {
                assert!(s.style(i).is_none(), "cell {i}: an unknown style");
            }
        }
        assert!((0..MAX_STYLES - 1).all(|i| s.same(i, &cell("x", rgb(i)))));
        // Overwritten with one style, the old ones go at a rebuild; cells that were
        // written while the table was full are written again by the next frame (they equal
        // nothing), as the diff does.
        for _frame in 0..2 {
            let red = cell("y", Color::Red);
            for i in 0..n {
                if !s.same(i, &red) {
                    s.set(i, &red);
                }
            }
        }
        s.set(0, &cell("z", rgb(9_999)));
        assert!(s.styles.len() <= MAX_STYLES, "{} styles", s.styles.len());
        assert!((1..n).all(|i| s.same(i, &cell("y", Color::Red))));
        assert!(s.same(0, &cell("z", rgb(9_999))));
    }

    #[test]
    fn screens_equal_whatever_the_order_of_their_styles() {
        let area = Rect::new(0, 0, 2, 1);
        let (mut a, mut b) = (Shown::new(area), Shown::new(area));
        a.set(0, &cell("a", Color::Red));
        a.set(1, &cell("b", Color::Blue));
        b.set(1, &cell("b", Color::Blue));
        b.set(0, &cell("a", Color::Red));
        assert_eq!(a, b);
        b.set(1, &cell("b", Color::Green));
        assert_ne!(a, b);
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
