//! Combo mode's start: the three residual cells its 4-wide well starts with, chosen from the
//! first two pieces so that both can keep the combo (each clears a line) without hold.
//!
//! Up to ruleset version 3 the well always started as [`LAYOUTS`]`[0]` (two cells on the floor
//! at the left, one above the leftmost), and 12 of the 42 starts a 7-bag deals (for example
//! I then S, or L then O) could not be kept past the first piece. From version 4 the start is
//! `LAYOUTS[TABLE[first][second]]`: the usual one wherever it can be kept, else its mirror, or
//! another three-cell start. The pieces and the queue are dealt as before; only the cells
//! differ, so a game stays determined by its seed. `bots/tests/combo_start.rs` checks every
//! entry with the real game's moves.

use crate::piece::Piece;

/// Residual cells as (column from the well's left, row from the floor).
pub(super) const LAYOUTS: [[(u8, usize); 3]; 5] = [
    // #...
    // ##..
    [(0, 0), (1, 0), (0, 1)],
    // ...#
    // ..##
    [(2, 0), (3, 0), (3, 1)],
    // ..##
    // ...#
    [(3, 0), (2, 1), (3, 1)],
    // #.##
    [(0, 0), (2, 0), (3, 0)],
    // ##.#
    [(0, 0), (1, 0), (3, 0)],
];

/// The layout of each first piece (row) and second piece (column), in [`Piece::ALL`]'s order:
/// the first of [`LAYOUTS`] that both keep. A 7-bag never deals the same piece twice at the
/// start; where a pair of one piece can be kept at all, its entry keeps it too (O then O
/// cannot be kept on any of them).
const TABLE: [[u8; 7]; 7] = [
    // I  O  T  S  Z  J  L
    [0, 0, 0, 1, 0, 0, 0], // I
    [0, 0, 0, 0, 0, 0, 0], // O
    [0, 2, 0, 0, 1, 0, 0], // T
    [1, 3, 1, 0, 1, 1, 1], // S
    [0, 4, 0, 0, 2, 0, 0], // Z
    [0, 0, 0, 0, 0, 0, 0], // J
    [0, 1, 0, 1, 0, 0, 0], // L
];

/// The residual cells of a combo start whose first two pieces are `first` and `second`.
pub(super) fn combo_start_cells(first: Piece, second: Piece) -> [(u8, usize); 3] {
    LAYOUTS[usize::from(TABLE[first as usize][second as usize])]
}
