//! The games a profile's charts are drawn from, as the store reads them and `minotty play`
//! keeps them.

use minotty_engine::{ModeKind, RulesetId, Stats};

use crate::{GameId, UnixMs};

/// A ranked game as the personal-best chart needs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RankedGame {
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    pub ended_at: UnixMs,
    /// Only the figures boards rank by: time, score, lines, pieces, longest combo.
    pub stats: Stats,
}

/// A game as the pieces-per-second chart needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PaceGame {
    pub id: GameId,
    pub mode: ModeKind,
    pub pieces: u32,
    pub time_ms: u64,
}
