//! Rotation systems and their kick tables.
//!
//! A rotation system answers one question: when the piece `piece`, facing `from`, is turned by
//! `turn`, which offsets `(dx, dy)` should be tried, in order, for the new orientation? The game
//! takes the first offset at which the rotated piece fits (`game/actions.rs`). Every list is
//! plain data in the board's own frame: `x` grows to the right, `y` grows **downwards**, and an
//! offset moves the top-left corner of the piece's 4×4 box (see [`crate::piece`]).
//!
//! Four systems are provided:
//!
//! - [`RotationSystem::Super`] (`kicks/srs.rs`): the rules seed's SRS tables, written there with
//!   `+y` up and converted once by negating `y`, plus TETR.IO's SRS+ 180° kicks. The O piece never
//!   moves.
//! - [`RotationSystem::Classic`] (`kicks/classic.rs`): the tetrs seed's "Classic" system, the
//!   right-handed variant of the kick-less rotation of NES Tetris. Every turn has exactly one
//!   offset: the piece's own centre of rotation. I, S and Z have only two distinct looks (as on
//!   the NES), so turning them either way from a given orientation lands on the same cells. A half
//!   turn keeps the bottom-left corner of the piece's tight bounding box in place and happens only
//!   if it fits there.
//! - [`RotationSystem::ClassicL`] (`kicks/classic.rs`): its left-handed variant (the Game
//!   Boy's): the vertical I, S and Z stand left of centre; every other turn is Classic's.
//! - [`RotationSystem::Ocular`] (`kicks/ocular.rs`): the tetrs seed's own system, built by
//!   *looking* at every piece and orientation and listing the most natural landing spots first
//!   (principles in the tetrs README, section "Ocular Rotation System", kept in
//!   `shared/seeds/000_d3890d36c76d8e54.txt`). It is mirror-symmetric: mirroring the board mirrors
//!   every rotation, and orientations that look alike behave alike. Its lists are not SRS-like:
//!   the first entry is not always `(0, 0)`, so a kick index of 0 does not mean "no kick".
//!
//! # Where the Classic and Ocular numbers come from
//!
//! The facts are the tetrs engine's (`piece_rotation.rs` and `Tetromino::minos` in its `lib.rs`).
//! There, `y` points *up*, a piece's position is the bottom-left corner of its *tight* bounding
//! box in the current orientation, and a kick moves that corner. tetrs also writes several lists
//! once and derives others by mirroring (Z from S, J from L, T's right turns from its left turns,
//! every right turn of O and I from the left one). Here every list is written out in full, for
//! every piece, orientation and direction including 180°, already converted to our frame:
//!
//! For a tetrs kick `(kx, ky)` turning from orientation `o` to `o2`, let `minx(o)` and `maxy(o)`
//! be the smallest `x` and largest `y` (board frame, `y` down) of our cells `Piece::cells(o)`.
//! Then our offset is
//!
//! ```text
//! (kx + minx(o) - minx(o2),  -ky + maxy(o) - maxy(o2))
//! ```
//!
//! because tetrs's corner sits at our box corner plus `(minx, maxy)`, and its `y` axis is ours
//! reversed. `tests/kicks.rs` re-states tetrs's shapes and kick lists in its own frame and checks,
//! for every kick of both systems, that our offset covers exactly the cells tetrs's rule covers;
//! `tests/kicks_ocular.rs` and `tests/kicks_classic.rs` pin every list and show them on boards.

use crate::piece::{Piece, Rotation, Turn};

mod classic;
mod ocular;
mod srs;

pub use srs::{seed_tables, to_board};

/// A kick offset `(dx, dy)` in board coordinates (`+y` down).
pub type Kick = (i8, i8);

/// How pieces rotate and which alternative positions they try when the plain rotation is blocked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RotationSystem {
    /// Super Rotation System: the rules seed's tables plus SRS+ 180° kicks.
    #[default]
    Super,
    /// The right-handed variant of the classic, kick-less rotation system used in NES Tetris
    /// (tetrs seed), with 180° turns when they fit.
    Classic,
    /// The tetrs seed's own symmetric "Ocular" rotation system.
    Ocular,
    /// The left-handed Classic (the Game Boy's): I, S and Z stand left of centre when
    /// vertical. After every older system, so that its codes keep their values.
    ClassicL,
}

impl RotationSystem {
    /// Every rotation system.
    pub const ALL: [RotationSystem; 4] = [
        RotationSystem::Super,
        RotationSystem::Classic,
        RotationSystem::Ocular,
        RotationSystem::ClassicL,
    ];

    /// The display name: "Super", "Classic" or "Ocular".
    pub fn name(self) -> &'static str {
        match self {
            RotationSystem::Super => "Super",
            RotationSystem::Classic => "Classic",
            RotationSystem::Ocular => "Ocular",
            RotationSystem::ClassicL => "ClassicL",
        }
    }

    /// The stable lower-case identifier: "super", "classic" or "ocular".
    pub fn id(self) -> &'static str {
        match self {
            RotationSystem::Super => "super",
            RotationSystem::Classic => "classic",
            RotationSystem::Ocular => "ocular",
            RotationSystem::ClassicL => "classicl",
        }
    }

    /// Parses an [`id`](Self::id) or a [`name`](Self::name), ignoring ASCII case.
    /// The system with identifier `s` (any case); `classicr`, tetro-tui's name for the
    /// right-handed Classic, is Classic.
    pub fn parse(s: &str) -> Option<RotationSystem> {
        if s.eq_ignore_ascii_case("classicr") {
            return Some(RotationSystem::Classic);
        }
        RotationSystem::ALL
            .into_iter()
            .find(|r| r.id().eq_ignore_ascii_case(s))
    }

    /// The offsets to try, in order, in board coordinates (`+y` down). Never empty: every system
    /// offers every turn, even if only at one position.
    #[inline]
    pub fn kicks(self, piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
        match self {
            RotationSystem::Super => srs::kicks(piece, from, turn),
            RotationSystem::Classic => classic::kicks(piece, from, turn),
            RotationSystem::ClassicL => classic::kicks_left(piece, from, turn),
            RotationSystem::Ocular => ocular::kicks(piece, from, turn),
        }
    }
}

impl RotationSystem {
    /// [`kicks`](Self::kicks), or, with `ocular_repeated_kick` (a version 1 ruleset playing
    /// Ocular), the tetrs engine's L/J data with its repeated kick (see `kicks/ocular.rs`).
    #[inline]
    pub(crate) fn kicks_of_version(
        self,
        ocular_repeated_kick: bool,
        piece: Piece,
        from: Rotation,
        turn: Turn,
    ) -> &'static [Kick] {
        if self == RotationSystem::Ocular && ocular_repeated_kick {
            return ocular::kicks_v1(piece, from, turn);
        }
        self.kicks(piece, from, turn)
    }
}

/// The column of a turn in the `[Cw, Ccw, Half]` tables of the submodules.
const fn turn_index(turn: Turn) -> usize {
    match turn {
        Turn::Cw => 0,
        Turn::Ccw => 1,
        Turn::Half => 2,
    }
}
