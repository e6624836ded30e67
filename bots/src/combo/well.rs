//! The contents of combo mode's 4-wide well as a small bit mask, and the boards it stands for.

use minotty_engine::board::{Board, Cell, HEIGHT, WIDTH};

/// Columns of the well.
pub const WELL_WIDTH: usize = 4;
/// The well's leftmost board column (the well is centred, as `StartBoard::Well` builds it).
pub const WELL_LEFT: usize = (WIDTH - WELL_WIDTH) / 2;
/// Rows a [`Well`] can describe, counted from the floor.
pub const WELL_ROWS: usize = 16;

/// The cells inside the well: bit `4 * row + column`, row 0 on the floor, column 0 the well's
/// leftmost. Everything outside the well is wall, as in combo mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Well(pub u64);

impl Well {
    /// Combo mode's start: two cells on the floor at the left and one on the leftmost.
    pub const START: Well = Well(0b0001_0011);

    /// Whether the cell at `column` (0-3), `row` (0 = floor) is filled.
    pub fn filled(self, column: usize, row: usize) -> bool {
        column < WELL_WIDTH && row < WELL_ROWS && self.0 & (1 << (4 * row + column)) != 0
    }

    /// How many cells are filled.
    pub fn cells(self) -> u32 {
        self.0.count_ones()
    }

    /// Rows from the floor up to the highest filled cell.
    pub fn height(self) -> usize {
        (64 - self.0.leading_zeros() as usize).div_ceil(4)
    }

    /// A combo board holding this well: walls on all rows outside the well's columns.
    pub fn board(self) -> Board {
        let mut board = Board::new();
        for y in 0..HEIGHT {
            for x in (0..WELL_LEFT).chain(WELL_LEFT + WELL_WIDTH..WIDTH) {
                board.set(x, y, Cell::Garbage);
            }
        }
        for row in 0..WELL_ROWS {
            for column in 0..WELL_WIDTH {
                if self.filled(column, row) {
                    board.set(WELL_LEFT + column, HEIGHT - 1 - row, Cell::Garbage);
                }
            }
        }
        board
    }

    /// The well of a combo board: `None` unless every cell outside the well's columns is filled
    /// and the well's cells lie within [`WELL_ROWS`] of the floor.
    pub fn of_board(board: &Board) -> Option<Well> {
        let walls = ((1u16 << WIDTH) - 1) & !(((1u16 << WELL_WIDTH) - 1) << WELL_LEFT);
        if (0..HEIGHT).any(|y| board.row_mask(y) & walls != walls) {
            return None;
        }
        Well::inside(board)
    }

    /// The cells in the well's columns, whatever the walls hold: `None` when a cell lies
    /// [`WELL_ROWS`] or more above the floor.
    pub fn inside(board: &Board) -> Option<Well> {
        let mut bits = 0u64;
        for y in 0..HEIGHT {
            let inside = u64::from((board.row_mask(y) >> WELL_LEFT) & 0b1111);
            let from_floor = HEIGHT - 1 - y;
            if inside != 0 {
                if from_floor >= WELL_ROWS {
                    return None;
                }
                bits |= inside << (4 * from_floor);
            }
        }
        Some(Well(bits))
    }

    /// The well as text, top row first: `#` filled, `.` empty (for tests and messages).
    pub fn to_ascii(self) -> Vec<String> {
        (0..self.height().max(1))
            .rev()
            .map(|row| {
                (0..WELL_WIDTH)
                    .map(|c| if self.filled(c, row) { '#' } else { '.' })
                    .collect()
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_well_round_trips_through_its_board() {
        for bits in [0u64, Well::START.0, 0b1000_1000_1000, 0b0110_0000_1001] {
            let well = Well(bits);
            assert_eq!(Well::of_board(&well.board()), Some(well));
        }
        assert_eq!(Well::START.to_ascii(), vec!["#...", "##.."]);
        assert_eq!(Well::of_board(&Board::new()), None, "no walls, no well");
    }
}
