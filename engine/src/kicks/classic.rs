//! [`RotationSystem::Classic`](super::RotationSystem::Classic): the tetrs seed's right-handed,
//! kick-less NES rotation. Each turn has exactly one offset, the piece's own centre of rotation
//! expressed as a move of our 4×4 box (see the module doc of [`super`] for the conversion):
//!
//! - T, J, L turn about the same centre as in SRS, so their quarter turns are `(0, 0)`.
//! - I, S and Z have two looks. From a horizontal look, either direction gives the same vertical
//!   cells (right of centre, as on the NES, hence "right-handed"), and back.
//! - O never moves.
//! - A half turn keeps the bottom-left corner of the tight bounding box where it is (tetrs tries
//!   no alternative): the piece turns over inside the rows and columns it already spans.
//!
//! Four quarter turns the same way, or two half turns, bring every piece back to where it began.

use super::{Kick, turn_index};
use crate::piece::{Piece, Rotation, Turn};

#[inline]
pub(super) fn kicks(piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
    core::slice::from_ref(&TABLE[piece as usize][from as usize][turn_index(turn)])
}

/// [`RotationSystem::ClassicL`](super::RotationSystem::ClassicL): the left-handed variant (as
/// on the Game Boy): the same turns, but the vertical looks of I, S and Z stand one column
/// further left, left of centre. Every offset into a vertical look of theirs moves one
/// column less to the right, every offset out of one a column more; T, J, L and O, and every
/// turn between two horizontal or two vertical looks, are the right-handed ones.
#[inline]
pub(super) fn kicks_left(piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
    core::slice::from_ref(&TABLE_L[piece as usize][from as usize][turn_index(turn)])
}

/// Where a turn ends: `from` turned clockwise (0), counter-clockwise (1) or by half (2).
const fn to_orientation(from: usize, turn: usize) -> usize {
    match turn {
        0 => (from + 1) % 4,
        1 => (from + 3) % 4,
        _ => (from + 2) % 4,
    }
}

/// The column a look of I, S or Z stands in, left-handed, against right-handed: East and West
/// one to the left.
const fn left_shift(orientation: usize) -> i8 {
    if orientation % 2 == 1 { -1 } else { 0 }
}

static TABLE_L: [[[Kick; 3]; 4]; 7] = left_handed();

const fn left_handed() -> [[[Kick; 3]; 4]; 7] {
    let mut table = TABLE;
    // I, S and Z in `Piece` order.
    let pieces = [0, 3, 4];
    let mut p = 0;
    while p < pieces.len() {
        let mut from = 0;
        while from < 4 {
            let mut turn = 0;
            while turn < 3 {
                let to = to_orientation(from, turn);
                table[pieces[p]][from][turn].0 += left_shift(to) - left_shift(from);
                turn += 1;
            }
            from += 1;
        }
        p += 1;
    }
    table
}

/// `TABLE[piece][from][turn]`: pieces in `Piece` order, orientations North, East, South, West,
/// and for each the offset of a clockwise, a counter-clockwise and a half turn.
#[rustfmt::skip]
static TABLE: [[[Kick; 3]; 4]; 7] = [
    // Per piece: [cw, ccw, half] from North, East, South, West.
    /* I */ [[(0, -1), (1, -1), (0, -1)], [(0, 0), (0, 1), (1, 0)], [(1, 0), (0, 0), (0, 1)], [(-1, 1), (-1, 0), (-1, 0)]],
    /* O */ [[(0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (0, 0)], [(0, 0), (0, 0), (0, 0)]],
    /* T */ [[(0, 0), (0, 0), (0, -1)], [(0, 0), (0, 0), (1, 0)], [(0, 0), (0, 0), (0, 1)], [(0, 0), (0, 0), (-1, 0)]],
    /* S */ [[(0, -1), (1, -1), (0, -1)], [(0, 0), (0, 1), (1, 0)], [(1, 0), (0, 0), (0, 1)], [(-1, 1), (-1, 0), (-1, 0)]],
    /* Z */ [[(0, -1), (1, -1), (0, -1)], [(0, 0), (0, 1), (1, 0)], [(1, 0), (0, 0), (0, 1)], [(-1, 1), (-1, 0), (-1, 0)]],
    /* J */ [[(0, 0), (0, 0), (0, -1)], [(0, 0), (0, 0), (1, 0)], [(0, 0), (0, 0), (0, 1)], [(0, 0), (0, 0), (-1, 0)]],
    /* L */ [[(0, 0), (0, 0), (0, -1)], [(0, 0), (0, 0), (1, 0)], [(0, 0), (0, 0), (0, 1)], [(0, 0), (0, 0), (-1, 0)]],
];
