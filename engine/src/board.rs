//! The playfield: 10 columns, 20 visible rows and a 20-row buffer above them.
//!
//! Row 0 is the top of the buffer and row [`HEIGHT`]` - 1` the bottom of the visible field
//! (`y` grows downwards, as in [`crate::piece`]). Occupancy is kept as one bit mask per row, so
//! collision and line checks are a few integer operations; the kind of each cell is kept beside
//! it for drawing.

use crate::piece::{Piece, Placed};

/// Columns of the board.
pub const WIDTH: usize = 10;
/// Visible rows.
pub const VISIBLE_HEIGHT: usize = 20;
/// Hidden rows above the visible field.
pub const BUFFER_HEIGHT: usize = 20;
/// All rows.
pub const HEIGHT: usize = VISIBLE_HEIGHT + BUFFER_HEIGHT;

const FULL_ROW: u16 = (1 << WIDTH) - 1;

/// What one board cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Cell {
    #[default]
    Empty,
    Block(Piece),
    Garbage,
}

impl Cell {
    fn encode(self) -> u8 {
        match self {
            Cell::Empty => 0,
            Cell::Block(p) => p as u8 + 1,
            Cell::Garbage => 8,
        }
    }

    fn decode(b: u8) -> Cell {
        match b {
            0 => Cell::Empty,
            1..=7 => Cell::Block(Piece::ALL[b as usize - 1]),
            _ => Cell::Garbage,
        }
    }
}

/// The stack of locked cells.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    rows: [u16; HEIGHT],
    kinds: [[u8; WIDTH]; HEIGHT],
}

impl Default for Board {
    fn default() -> Self {
        Board {
            rows: [0; HEIGHT],
            kinds: [[0; WIDTH]; HEIGHT],
        }
    }
}

impl std::fmt::Debug for Board {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "Board {{")?;
        for line in self.to_ascii() {
            writeln!(f, "  {line}")?;
        }
        write!(f, "}}")
    }
}

impl Board {
    /// An empty board.
    pub fn new() -> Board {
        Board::default()
    }

    /// Builds a board from ASCII rows aligned to the bottom of the field: `.` or space is empty,
    /// `#` or `G` is garbage, a piece letter is a block of that piece. Lines beyond the width
    /// are ignored, and so are rows beyond the board's height (the topmost ones).
    pub fn from_ascii(lines: &[&str]) -> Board {
        let mut board = Board::new();
        let skip = lines.len().saturating_sub(HEIGHT);
        let top = HEIGHT - (lines.len() - skip);
        for (i, line) in lines.iter().skip(skip).enumerate() {
            for (x, c) in line.chars().take(WIDTH).enumerate() {
                let cell = match c {
                    '.' | ' ' | '_' => Cell::Empty,
                    '#' | 'G' | 'g' | 'X' | 'x' => Cell::Garbage,
                    c => Piece::from_letter(c).map_or(Cell::Garbage, Cell::Block),
                };
                board.set(x, top + i, cell);
            }
        }
        board
    }

    /// The rows from the highest non-empty one down to the bottom, as ASCII (`.` empty,
    /// `#` garbage, piece letters). An empty board gives no rows.
    pub fn to_ascii(&self) -> Vec<String> {
        let first = (0..HEIGHT).find(|&y| self.rows[y] != 0).unwrap_or(HEIGHT);
        (first..HEIGHT)
            .map(|y| {
                (0..WIDTH)
                    .map(|x| match self.cell(x, y) {
                        Cell::Empty => '.',
                        Cell::Garbage => '#',
                        Cell::Block(p) => p.letter(),
                    })
                    .collect()
            })
            .collect()
    }

    /// The cell at column `x`, row `y` (row 0 is the top of the buffer). Outside the board: empty.
    pub fn cell(&self, x: usize, y: usize) -> Cell {
        if x < WIDTH && y < HEIGHT {
            Cell::decode(self.kinds[y][x])
        } else {
            Cell::Empty
        }
    }

    /// Sets one cell; coordinates outside the board are ignored.
    pub fn set(&mut self, x: usize, y: usize, cell: Cell) {
        if x >= WIDTH || y >= HEIGHT {
            return;
        }
        self.kinds[y][x] = cell.encode();
        if cell == Cell::Empty {
            self.rows[y] &= !(1 << x);
        } else {
            self.rows[y] |= 1 << x;
        }
    }

    /// Whether `(x, y)` is a wall, the floor, or an occupied cell. Above the buffer is open.
    pub fn is_solid(&self, x: i8, y: i8) -> bool {
        if x < 0 || x >= WIDTH as i8 || y >= HEIGHT as i8 {
            return true;
        }
        y >= 0 && self.rows[y as usize] & (1 << x) != 0
    }

    /// Whether a piece can be at this placement.
    #[inline]
    pub fn fits(&self, placed: &Placed) -> bool {
        let f = placed.piece.footprint(placed.rotation);
        let left = placed.x + f.left;
        if left < 0 || placed.x + f.right >= WIDTH as i8 {
            return false;
        }
        let top = placed.y + f.top;
        for (i, &mask) in f.masks[..usize::from(f.rows)].iter().enumerate() {
            let y = top + i as i8;
            if y >= HEIGHT as i8 || (y >= 0 && self.rows[y as usize] & (mask << left) != 0) {
                return false;
            }
        }
        true
    }

    /// Rows `placed` can fall before it rests: the distance at which [`Board::fits`] would first
    /// fail going down, checked a row of the piece at a time with bit masks (the hot path of
    /// hard drops and ghosts). 0 when the placement is off the sides.
    pub fn drop_distance(&self, placed: &Placed) -> i8 {
        let f = placed.piece.footprint(placed.rotation);
        let left = placed.x + f.left;
        if left < 0 || placed.x + f.right >= WIDTH as i8 {
            return 0;
        }
        let top = placed.y + f.top;
        let masks = &f.masks[..usize::from(f.rows)];
        let mut d = 0i8;
        loop {
            let next = d + 1;
            for (i, &mask) in masks.iter().enumerate() {
                let y = top + i as i8 + next;
                if y >= HEIGHT as i8 || (y >= 0 && self.rows[y as usize] & (mask << left) != 0) {
                    return d;
                }
            }
            d = next;
        }
    }

    /// The occupancy bit mask of a row (bit `x` is column `x`).
    pub fn row_mask(&self, y: usize) -> u16 {
        self.rows.get(y).copied().unwrap_or(FULL_ROW)
    }

    /// Whether no cell is occupied.
    pub fn is_empty(&self) -> bool {
        self.rows.iter().all(|&r| r == 0)
    }

    /// Writes a piece's cells into the board.
    pub fn lock(&mut self, placed: &Placed) {
        for (x, y) in placed.cells() {
            if x >= 0 && y >= 0 {
                self.set(x as usize, y as usize, Cell::Block(placed.piece));
            }
        }
    }

    /// A bit mask of the full rows (bit `y` is row `y`).
    pub fn full_rows(&self) -> u64 {
        let mut mask = 0u64;
        for (y, &row) in self.rows.iter().enumerate() {
            if row == FULL_ROW {
                mask |= 1 << y;
            }
        }
        mask
    }

    /// Removes the rows in `mask` and lets everything above them fall.
    pub fn clear_rows(&mut self, mask: u64) {
        if mask == 0 {
            return;
        }
        let mut write = HEIGHT;
        for read in (0..HEIGHT).rev() {
            if mask & (1 << read) != 0 {
                continue;
            }
            write -= 1;
            if write != read {
                self.rows[write] = self.rows[read];
                self.kinds[write] = self.kinds[read];
            }
        }
        for y in 0..write {
            self.rows[y] = 0;
            self.kinds[y] = [0; WIDTH];
        }
    }

    /// Pushes `lines` rows of garbage with a hole in column `hole` in from the bottom.
    /// Returns `true` when occupied cells were pushed out over the top of the buffer.
    pub fn push_garbage(&mut self, lines: usize, hole: usize) -> bool {
        let mask = FULL_ROW & !(1 << hole.min(WIDTH - 1));
        self.push_rows(lines, |_| mask)
    }

    /// Pushes `lines` rows of garbage with a hole `size` columns wide from column `hole` in
    /// from the bottom (the hole is kept inside the board and a row keeps one block).
    /// Returns `true` when occupied cells were pushed out over the top of the buffer.
    pub fn push_garbage_hole(&mut self, lines: usize, hole: usize, size: usize) -> bool {
        let size = size.clamp(1, WIDTH - 1);
        let hole = hole.min(WIDTH - size);
        let holes = ((1u16 << size) - 1) << hole;
        let mask = FULL_ROW & !holes;
        self.push_rows(lines, |_| mask)
    }

    /// Pushes `lines` rows in from the bottom; `row(i)` gives the occupancy of the `i`-th new
    /// row counted from the top of the new rows. New cells are garbage.
    /// Returns `true` when occupied cells were pushed out over the top of the buffer.
    pub fn push_rows(&mut self, lines: usize, mut row: impl FnMut(usize) -> u16) -> bool {
        let lines = lines.min(HEIGHT);
        let overflow = self.rows[..lines].iter().any(|&r| r != 0);
        self.rows.copy_within(lines.., 0);
        self.kinds.copy_within(lines.., 0);
        for i in 0..lines {
            let y = HEIGHT - lines + i;
            let mask = row(i) & FULL_ROW;
            self.rows[y] = mask;
            for x in 0..WIDTH {
                self.kinds[y][x] = if mask & (1 << x) != 0 {
                    Cell::Garbage.encode()
                } else {
                    0
                };
            }
        }
        overflow
    }

    /// How many rows from the bottom contain at least one garbage cell, counted contiguously.
    pub fn garbage_rows_at_bottom(&self) -> usize {
        (0..HEIGHT)
            .rev()
            .take_while(|&y| self.kinds[y].contains(&Cell::Garbage.encode()))
            .count()
    }

    /// Whether row `y` holds any garbage cell.
    pub fn row_has_garbage(&self, y: usize) -> bool {
        y < HEIGHT && self.kinds[y].contains(&Cell::Garbage.encode())
    }

    /// The height of the stack: rows from the bottom up to and including the highest block.
    pub fn stack_height(&self) -> usize {
        (0..HEIGHT)
            .find(|&y| self.rows[y] != 0)
            .map_or(0, |y| HEIGHT - y)
    }
}
