//! [`RotationSystem::Super`](super::RotationSystem::Super): the rules seed's SRS tables, written
//! exactly as in the seed (`+y` up) and converted to the board's `+y` down at compile time by
//! [`to_board`], plus TETR.IO's SRS+ 180° kicks. The O piece never moves.

use super::Kick;
use crate::piece::{Piece, Rotation, Turn};

/// The SRS (+ SRS+ 180°) kicks in board coordinates.
#[inline]
pub(super) fn kicks(piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
    let i = from as usize;
    match (piece, turn) {
        (Piece::O, _) => &NO_KICK,
        (Piece::I, Turn::Cw) => &I_CW[i],
        (Piece::I, Turn::Ccw) => &I_CCW[i],
        (_, Turn::Cw) => &JLSTZ_CW[i],
        (_, Turn::Ccw) => &JLSTZ_CCW[i],
        (_, Turn::Half) => &HALF[i],
    }
}

static NO_KICK: [Kick; 1] = [(0, 0)];

/// The rules seed's JLSTZ table, `+y` up, keyed by transition.
pub mod seed_tables {
    use super::Kick;

    /// N→E, E→S, S→W, W→N.
    pub const JLSTZ_CW: [[Kick; 5]; 4] = [
        [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
        [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    ];
    /// N→W, E→N, S→E, W→S.
    pub const JLSTZ_CCW: [[Kick; 5]; 4] = [
        [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)],
        [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)],
        [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)],
        [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)],
    ];
    /// N→E, E→S, S→W, W→N.
    pub const I_CW: [[Kick; 5]; 4] = [
        [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
        [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
        [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
        [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
    ];
    /// N→W, E→N, S→E, W→S.
    pub const I_CCW: [[Kick; 5]; 4] = [
        [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)],
        [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)],
        [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)],
        [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)],
    ];
    /// TETR.IO SRS+ 180° kicks: N→S, E→W, S→N, W→E. Used for every piece but O.
    pub const HALF: [[Kick; 6]; 4] = [
        [(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)],
        [(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],
        [(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)],
        [(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)],
    ];
}

/// Converts a table from SRS's `+y` up convention to the board's `+y` down.
pub const fn to_board<const N: usize>(table: [[Kick; N]; 4]) -> [[Kick; N]; 4] {
    let mut out = table;
    let mut r = 0;
    while r < 4 {
        let mut k = 0;
        while k < N {
            out[r][k].1 = -table[r][k].1;
            k += 1;
        }
        r += 1;
    }
    out
}

static JLSTZ_CW: [[Kick; 5]; 4] = to_board(seed_tables::JLSTZ_CW);
static JLSTZ_CCW: [[Kick; 5]; 4] = to_board(seed_tables::JLSTZ_CCW);
static I_CW: [[Kick; 5]; 4] = to_board(seed_tables::I_CW);
static I_CCW: [[Kick; 5]; 4] = to_board(seed_tables::I_CCW);
static HALF: [[Kick; 6]; 4] = to_board(seed_tables::HALF);
