//! [`RotationSystem::Ocular`](super::RotationSystem::Ocular): the tetrs seed's own rotation
//! system, every list written out in full in the board frame (see the module doc of [`super`]
//! for the conversion from tetrs's frame, and the tetrs README's "Ocular Rotation System" for the
//! reasoning behind each kick).
//!
//! Notes on the data, all as in tetrs:
//!
//! - O "rolls": a clockwise turn first tries one column right, then right and down, right and up,
//!   and finally staying put; counter-clockwise mirrors that to the left.
//! - I, S and Z behave the same from both of their equal-looking orientations, and which way they
//!   are turned decides on which side of the old position they land.
//! - Half turns of I and O keep their cells; S and Z first try a diagonal step down.
//! - Where this data differs from tetrs's: L's North clockwise list (and so J's North
//!   counter-clockwise one) holds at index 2 the position `(1, 0)` (J: `(-1, 0)`), one of the
//!   four where the new piece overlaps the old in two cells, which the seed says L/J rotations
//!   always incorporate. tetrs's data repeats the first kick there instead and so misses it;
//!   version 1 of the rulesets played that data ([`kicks_v1`]), which replays recorded under it
//!   still use. Every other index keeps tetrs's numbering.

use super::{Kick, turn_index};
use crate::piece::{Piece, Rotation, Turn};

#[inline]
pub(super) fn kicks(piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
    TABLE[piece as usize][from as usize][turn_index(turn)]
}

/// The lists of version 1 (the tetrs engine's data): as [`kicks`], but L North clockwise and J
/// North counter-clockwise try their first kick again at index 2.
#[inline]
pub(super) fn kicks_v1(piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
    match (piece, from, turn) {
        (Piece::L, Rotation::North, Turn::Cw) => {
            &[(0, 0), (0, -1), (0, 0), (1, -1), (-1, 0), (-1, -1)]
        }
        (Piece::J, Rotation::North, Turn::Ccw) => {
            &[(0, 0), (0, -1), (0, 0), (-1, -1), (1, 0), (1, -1)]
        }
        _ => kicks(piece, from, turn),
    }
}

/// `TABLE[piece][from][turn]`: pieces in `Piece` order (I, O, T, S, Z, J, L), orientations North,
/// East, South, West, and for each the lists of a clockwise, a counter-clockwise and a half turn.
#[rustfmt::skip]
static TABLE: [[[&[Kick]; 3]; 4]; 7] = [
    // I
    [
        // North: clockwise, counter-clockwise, half turn
        [
            &[(0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1), (0, -2), (1, -2), (-1, -1), (-1, 0)],
            &[(0, -1), (0, 0), (0, 1), (-1, -1), (-1, 0), (-1, 1), (0, -2), (-1, -2), (1, -1), (1, 0)],
            &[(0, -1)],
        ],
        // East: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (2, 0), (1, 1), (2, 1), (0, 0), (0, 1), (-1, 0), (-1, 1)],
            &[(0, 1), (-1, 1), (0, 2), (-1, 2), (1, 1), (1, 2), (2, 1), (2, 2)],
            &[(1, 0)],
        ],
        // South: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (1, -1), (2, -1), (0, 0), (0, 1)],
            &[(-1, 0), (-1, 1), (-1, 2), (-2, 0), (-2, 1), (-2, 2), (-1, -1), (-2, -1), (0, 0), (0, 1)],
            &[(0, 1)],
        ],
        // West: clockwise, counter-clockwise, half turn
        [
            &[(0, 1), (1, 1), (0, 2), (1, 2), (-1, 1), (-1, 2), (-2, 1), (-2, 2)],
            &[(-1, 0), (-2, 0), (-1, 1), (-2, 1), (0, 0), (0, 1), (1, 0), (1, 1)],
            &[(-1, 0)],
        ],
    ],
    // O
    [
        // North: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (1, 1), (1, -1), (0, 0)],
            &[(-1, 0), (-1, 1), (-1, -1), (0, 0)],
            &[(0, 0)],
        ],
        // East: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (1, 1), (1, -1), (0, 0)],
            &[(-1, 0), (-1, 1), (-1, -1), (0, 0)],
            &[(0, 0)],
        ],
        // South: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (1, 1), (1, -1), (0, 0)],
            &[(-1, 0), (-1, 1), (-1, -1), (0, 0)],
            &[(0, 0)],
        ],
        // West: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (1, 1), (1, -1), (0, 0)],
            &[(-1, 0), (-1, 1), (-1, -1), (0, 0)],
            &[(0, 0)],
        ],
    ],
    // T
    [
        // North: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)],
            &[(0, 0), (0, -1), (-1, 0), (1, 0), (-1, 1), (1, -1)],
            &[(0, 0), (0, -1)],
        ],
        // East: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (1, 0), (0, 1), (1, 1), (-1, 1), (0, -1), (1, -1)],
            &[(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (0, -1)],
            &[(0, 0), (1, 0), (0, 1)],
        ],
        // South: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (-1, 0)],
            &[(0, 0), (-1, 0), (0, 1), (-1, 1), (0, 2), (1, 0)],
            &[(0, 0), (0, 1), (0, 2)],
        ],
        // West: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (0, 1), (-1, 0), (-1, 1), (0, 2), (0, -1)],
            &[(0, 0), (-1, 0), (0, 1), (-1, 1), (1, 1), (0, -1), (-1, -1)],
            &[(0, 0), (-1, 0), (0, 1)],
        ],
    ],
    // S
    [
        // North: clockwise, counter-clockwise, half turn
        [
            &[(0, -1), (0, 0), (0, -2), (-1, -1), (-1, 0)],
            &[(0, -1), (0, 0), (1, -1), (-1, 0)],
            &[(-1, 0), (0, -1)],
        ],
        // East: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (0, 0), (1, 1), (2, 0), (1, -1), (0, -1)],
            &[(0, 1), (1, 1), (0, 2), (0, 0), (1, 0)],
            &[(2, 1), (1, 0)],
        ],
        // South: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (1, 1), (1, -1), (0, 0), (0, 1)],
            &[(-1, 0), (-1, 1), (0, 0), (-2, 1)],
            &[(-1, 2), (0, 1)],
        ],
        // West: clockwise, counter-clockwise, half turn
        [
            &[(0, 1), (-1, 1), (0, 2), (1, 1), (0, 0), (-1, 0)],
            &[(-1, 0), (0, 0), (-1, 1), (-1, -1), (0, -1)],
            &[(0, 1), (-1, 0)],
        ],
    ],
    // Z
    [
        // North: clockwise, counter-clockwise, half turn
        [
            &[(0, -1), (0, 0), (-1, -1), (1, 0)],
            &[(0, -1), (0, 0), (0, -2), (1, -1), (1, 0)],
            &[(1, 0), (0, -1)],
        ],
        // East: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (0, 0), (1, 1), (1, -1), (0, -1)],
            &[(0, 1), (1, 1), (0, 2), (-1, 1), (0, 0), (1, 0)],
            &[(0, 1), (1, 0)],
        ],
        // South: clockwise, counter-clockwise, half turn
        [
            &[(1, 0), (1, 1), (0, 0), (2, 1)],
            &[(-1, 0), (-1, 1), (-1, -1), (0, 0), (0, 1)],
            &[(1, 2), (0, 1)],
        ],
        // West: clockwise, counter-clockwise, half turn
        [
            &[(0, 1), (-1, 1), (0, 2), (0, 0), (-1, 0)],
            &[(-1, 0), (0, 0), (-1, 1), (-2, 0), (-1, -1), (0, -1)],
            &[(-2, 1), (-1, 0)],
        ],
    ],
    // J
    [
        // North: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (-1, -1)],
            &[(0, 0), (0, -1), (-1, 0), (-1, -1), (1, 0), (1, -1)],
            &[(0, 0), (-1, 0), (1, 0), (0, -1), (-1, -1)],
        ],
        // East: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (1, 0), (0, -1), (-1, 0), (1, -1), (-1, -1), (0, 1), (1, 1)],
            &[(0, 0), (1, 0), (0, 1), (1, 1), (0, -1), (1, -1)],
            &[(0, 0), (1, 0), (0, 1), (0, -1), (1, -1)],
        ],
        // South: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (1, 0), (0, 1), (1, 1), (1, -1), (0, -1)],
            &[(0, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0), (0, -1)],
            &[(0, 0), (0, 1), (1, 0), (1, 1)],
        ],
        // West: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (0, 1), (1, 0), (1, 1), (-1, 1), (-1, 0)],
            &[(0, 0), (-1, 0), (-1, 1), (0, 1), (-1, -1), (0, -1)],
            &[(0, 0), (0, 1), (-1, 0), (-1, 1)],
        ],
    ],
    // L
    [
        // North: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (0, -1), (1, 0), (1, -1), (-1, 0), (-1, -1)],
            &[(0, 0), (1, 0), (0, 1), (1, 1), (0, -1), (1, -1)],
            &[(0, 0), (1, 0), (-1, 0), (0, -1), (1, -1)],
        ],
        // East: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (1, 0), (1, 1), (0, 1), (1, -1), (0, -1)],
            &[(0, 0), (0, 1), (-1, 0), (-1, 1), (1, 1), (1, 0)],
            &[(0, 0), (0, 1), (1, 0), (1, 1)],
        ],
        // South: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)],
            &[(0, 0), (-1, 0), (0, 1), (-1, 1), (-1, -1), (0, -1)],
            &[(0, 0), (0, 1), (-1, 0), (-1, 1)],
        ],
        // West: clockwise, counter-clockwise, half turn
        [
            &[(0, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (-1, -1)],
            &[(0, 0), (-1, 0), (0, -1), (1, 0), (-1, -1), (1, -1), (0, 1), (-1, 1)],
            &[(0, 0), (-1, 0), (0, 1), (0, -1), (-1, -1)],
        ],
    ],
];
