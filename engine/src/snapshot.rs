//! Snapshots: the whole state of a game at one moment, to resume it later as a custom game
//! ([`crate::StartBoard::Snapshot`]).
//!
//! A [`Snapshot`] holds the board's cells, the piece in play with its lock-delay state (lowest
//! row, lock resets used, the lock timer, timer lock down's ground time, the last rotation for
//! spin detection), or the line clear in progress, the hold and whether it was used for this
//! piece, the queue, the generator's full running state (so the pieces after the preview come
//! out the same), what refills the board after a clear (cheese rows left, combo walls), the
//! garbage stream, combo and back-to-back, and the stats.
//!
//! Clock: a game resumed from a snapshot goes on at the snapshot's game time, with every timer
//! where it was (the next gravity step, the lock timer, a line clear's end), so the same inputs
//! at the same times play the same game as the original did. What is not in a snapshot: held
//! buttons and auto-shift (the resumed game starts with every button released), incoming
//! garbage (solo games have none), and the mode's limits and level rule (the custom game's
//! own apply).
//!
//! Binary form: `b"MTSN"`, a format byte, then the fields as bytes and LEB128 varints; the
//! board as its non-empty rows from the bottom, two cells a byte. A whole snapshot is at most
//! [`MAX_BYTES`] bytes; [`Snapshot::from_bytes`] refuses anything longer before reading it,
//! checks every value (a piece that does not fit, a generator state that could not arise) and
//! never panics. The serde form is the same bytes. Both are written and read in
//! `codec/snapshot.rs`.

use crate::active::Active;
use crate::board::Board;
use crate::event::Stats;
use crate::generator::PieceSource;
use crate::piece::{Piece, Placed};
use crate::preset::ModeKind;
use crate::rng::SplitMix;
use crate::ruleset::{RulesetId, Time, Tuning};

/// The largest binary snapshot. A full board takes 200 bytes and everything else well under
/// 200; the bound leaves room and is what stores may rely on.
pub const MAX_BYTES: usize = 1024;
/// The most pieces a snapshot's queue may hold (a game keeps seven).
pub const MAX_QUEUE: usize = 16;

/// What a board gets after a clear: nothing, new cheese rows (up to `visible` on the board),
/// or the walls of a combo well `width` columns wide.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Refill {
    #[default]
    Nothing,
    Cheese {
        visible: u32,
    },
    Well {
        width: u8,
    },
}

/// Where the game was when the snapshot was taken: a piece in play, or rows being cleared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SnapshotPhase {
    Falling {
        active: Active,
        /// When gravity last moved the piece (the next step is due one interval later); under
        /// the rules seed's accumulator, the time its count runs from (the last step it
        /// counted less its count), which during a line clear pause with the piece in play is
        /// the pause's last step, after the snapshot's time.
        last_fall: Time,
        /// Timer lock down's ground bookkeeping (unused under extended lock down).
        on_ground: bool,
        touchdown: Option<Time>,
        liftoff: Option<Time>,
        ground_left: u32,
    },
    /// Rows `rows` (bit `y` for row `y`) are being cleared; the next piece spawns at `until`.
    Clearing { until: Time, rows: u64 },
}

/// Why snapshot bytes were refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SnapshotError {
    /// More than [`MAX_BYTES`] bytes.
    TooLarge { len: usize },
    /// Not a snapshot, cut short, or a value that could not arise in a game.
    Malformed(&'static str),
}

impl std::fmt::Display for SnapshotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SnapshotError::TooLarge { len } => {
                write!(f, "snapshot of {len} bytes, more than {MAX_BYTES}")
            }
            SnapshotError::Malformed(what) => write!(f, "malformed snapshot: {what}"),
        }
    }
}

impl std::error::Error for SnapshotError {}

/// A game's whole state at one moment (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Snapshot {
    pub(crate) ruleset: RulesetId,
    pub(crate) tuning: Tuning,
    pub(crate) mode: ModeKind,
    pub(crate) time: Time,
    pub(crate) board: Board,
    pub(crate) phase: SnapshotPhase,
    pub(crate) hold: Option<Piece>,
    pub(crate) hold_used: bool,
    pub(crate) queue: Vec<Piece>,
    pub(crate) source: PieceSource,
    pub(crate) rng: SplitMix,
    pub(crate) refill: Refill,
    pub(crate) cheese_left: u32,
    /// Combo index, -1 without a chain.
    pub(crate) combo: i32,
    pub(crate) b2b: bool,
    pub(crate) b2b_chain: u32,
    pub(crate) stats: Stats,
}

impl Snapshot {
    /// The ruleset the game was played under (a resumed game should use it too).
    pub fn ruleset(&self) -> RulesetId {
        self.ruleset
    }

    /// The tuning the game was played with.
    pub fn tuning(&self) -> Tuning {
        self.tuning
    }

    /// The mode the snapshot was taken in.
    pub fn mode(&self) -> ModeKind {
        self.mode
    }

    /// The game time it was taken at; a resumed game goes on from it.
    pub fn time(&self) -> Time {
        self.time
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The piece in play, or `None` when the snapshot was taken during a line clear.
    pub fn active(&self) -> Option<Placed> {
        match self.phase {
            SnapshotPhase::Falling { active, .. } => Some(active.placed),
            SnapshotPhase::Clearing { .. } => None,
        }
    }

    pub fn phase(&self) -> &SnapshotPhase {
        &self.phase
    }

    pub fn hold(&self) -> Option<Piece> {
        self.hold
    }

    /// Whether hold was already used for the piece in play.
    pub fn hold_used(&self) -> bool {
        self.hold_used
    }

    /// The next pieces, soonest first.
    pub fn queue(&self) -> &[Piece] {
        &self.queue
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    /// The running combo index, `None` without a chain.
    pub fn combo(&self) -> Option<u32> {
        u32::try_from(self.combo).ok()
    }

    pub fn back_to_back(&self) -> bool {
        self.b2b
    }
}
