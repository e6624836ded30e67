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
