//! What a game reports from each update: everything a front end draws or a server routes.

use crate::piece::{Piece, Placed, Rotation, Turn};
use crate::ruleset::Time;
use crate::scoring::Spin;

/// One thing that happened, at game time `time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Event {
    pub time: Time,
    pub kind: EventKind,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EndReason {
    /// A new piece overlapped the stack where it spawns.
    BlockOut,
    /// A piece locked wholly above the visible field.
    LockOut,
    /// Garbage pushed blocks out over the top of the buffer.
    TopOut,
    /// A limit of the mode was reached (its goal, or a losing limit).
    Limit(crate::limit::Stat),
    /// A lock cleared nothing in a mode that ends then (combo).
    ComboBroken,
    /// The player gave up.
    Forfeit,
    /// The game recorded [`crate::input::MAX_INPUTS`] inputs (a flood of keys, not a game): it
    /// ends as a loss and never ranks.
    InputLimit,
}

/// The details of a lock that cleared rows (or a zero-line T-spin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Clear {
    /// Bit `y` set for each cleared row `y`.
    pub rows: u64,
    pub lines: u8,
    pub spin: Spin,
    /// `0` for the first clear of a chain, then `1, 2, ...`.
    pub combo: u16,
    /// Whether this clear continued a back-to-back chain (and got its bonus).
    pub b2b: bool,
    pub perfect: bool,
    /// Points for the clear itself (level multiplier and back-to-back included) plus the combo
    /// bonus.
    pub score: u32,
    /// Lines of attack before cancelling.
    pub attack: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum EventKind {
    /// A new active piece appeared.
    Spawn {
        piece: Piece,
        rotation: Rotation,
    },
    /// The active piece moved by a player's shift or soft drop.
    Move {
        dx: i8,
        dy: i8,
    },
    /// Gravity moved the active piece down by `rows`.
    Fall {
        rows: u8,
    },
    /// The active piece rotated using kick number `kick` of its table (under Super and Classic,
    /// 0 is the plain rotation; Ocular's first kick may already move the piece).
    Rotate {
        turn: Turn,
        to: Rotation,
        kick: u8,
    },
    /// The active piece went to hold; `out` is the piece that came out of it, if any.
    Hold {
        held: Piece,
        out: Option<Piece>,
    },
    /// A hard drop moved the piece down `rows` before locking.
    HardDrop {
        from: Placed,
        rows: u8,
    },
    /// The active piece locked at `at`.
    Lock {
        at: Placed,
        spin: Spin,
    },
    /// A lock cleared rows (or was a zero-line T-spin).
    LineClear(Clear),
    /// Incoming garbage joined the queue; it can rise from `ready_at` on.
    GarbageQueued {
        lines: u8,
        ready_at: Time,
    },
    /// Queued garbage became able to rise.
    GarbageReady {
        lines: u8,
    },
    /// The player's attack cancelled this many queued lines.
    GarbageCancelled {
        lines: u8,
    },
    /// Garbage rose into the board with its hole in column `hole`.
    GarbageRisen {
        lines: u8,
        hole: u8,
    },
    /// Attack left over after cancelling, to send to an opponent.
    AttackSent {
        lines: u8,
    },
    LevelUp {
        level: u32,
    },
    /// Puzzle mode: stage `stage` (1-based) was set up for attempt `attempt` (1-based, at most
    /// [`crate::puzzle::MAX_ATTEMPTS`]); its name is [`crate::puzzle::stage`]`(stage).name`.
    PuzzleStage {
        stage: u8,
        attempt: u8,
    },
    /// Puzzle mode: stage `stage` ended with an empty board.
    StageCleared {
        stage: u8,
    },
    /// Descent: the piece collected the gem at column `x`, row `y`.
    GemCollected {
        x: u8,
        y: u8,
    },
    /// Descent: the view scrolled one row (the board and the piece moved up); `depth` rows so
    /// far.
    Scroll {
        depth: u32,
    },
    GameOver {
        reason: EndReason,
        won: bool,
    },
    /// A top-out with a life left (a versus room's stock): the board and the garbage waiting
    /// are gone, the next piece comes after [`crate::game::RESPAWN_DELAY`]; `left` lives remain.
    Respawn {
        left: u8,
    },
}

/// The running totals of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Stats {
    /// Game time (ms).
    pub time: Time,
    pub level: u32,
    pub lines: u32,
    pub pieces: u32,
    pub score: u64,
    pub garbage_cleared: u32,
    /// Longest combo index reached (a chain of n clears is combo n - 1).
    pub max_combo: u32,
    /// Longest back-to-back chain (number of consecutive qualifying clears after the first).
    pub max_b2b: u32,
    pub singles: u32,
    pub doubles: u32,
    pub triples: u32,
    pub tetrises: u32,
    pub tspins: u32,
    pub perfect_clears: u32,
    /// Attack lines produced (before cancelling) and lines actually sent.
    pub attack: u32,
    pub sent: u32,
    pub garbage_received: u32,
    /// Pieces locked, by type, indexed in `Piece::ALL` order (I, O, T, S, Z, J, L); they add
    /// up to `pieces`. Missing from stats stored before it existed (read as zeros).
    #[cfg_attr(feature = "serde", serde(default))]
    pub by_piece: [u32; 7],
}

impl Stats {
    /// The pieces of type `piece` locked so far.
    pub fn locked(&self, piece: crate::Piece) -> u32 {
        self.by_piece[piece as usize]
    }
}
