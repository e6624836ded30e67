//! Rotation systems and their kick tables.
//!
//! The tables below are written exactly as in the rules seed, in SRS's usual convention where
//! `+y` points **up**. The board's `y` grows downwards, so every offset is converted once, at
//! compile time, by negating its `y` ([`to_board`]). The tests in `tests/kicks.rs` pin both the
//! raw tables and well-known kick cases (for example the T-spin triple kick) on real boards.

use crate::piece::{Piece, Rotation, Turn};

/// A kick offset `(dx, dy)`.
pub type Kick = (i8, i8);

/// How pieces rotate and which alternative positions they try when the plain rotation is blocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RotationSystem {
    /// The Super Rotation System with the seed's kick tables, plus TETR.IO's SRS+ 180° kicks.
    #[default]
    Super,
    /// Plain rotation about the same centres with no kicks at all and no 180° turns: a rotation
    /// either fits where it is or does not happen.
    Classic,
    /// The tetrs seed's Ocular rotation system (placeholder until the rotation branch lands).
    Ocular,
}

impl RotationSystem {
    /// The offsets to try, in order, in board coordinates (`+y` down). Empty when the turn is not
    /// available at all.
    pub fn kicks(self, piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
        match self {
            RotationSystem::Super | RotationSystem::Ocular => srs_kicks(piece, from, turn),
            RotationSystem::Classic => match turn {
                Turn::Half => &[],
                _ => &[(0, 0)],
            },
        }
    }
}

/// The SRS (+ SRS+ 180°) kicks in board coordinates.
pub fn srs_kicks(piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
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

const NO_KICK: [Kick; 1] = [(0, 0)];

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

const JLSTZ_CW: [[Kick; 5]; 4] = to_board(seed_tables::JLSTZ_CW);
const JLSTZ_CCW: [[Kick; 5]; 4] = to_board(seed_tables::JLSTZ_CCW);
const I_CW: [[Kick; 5]; 4] = to_board(seed_tables::I_CW);
const I_CCW: [[Kick; 5]; 4] = to_board(seed_tables::I_CCW);
const HALF: [[Kick; 6]; 4] = to_board(seed_tables::HALF);
