//! What the Live screen is told: the games being played now and the frames of one watched.

use minotty_engine::versus::MatchKind;
use minotty_engine::{ModeKind, RulesetId};

#[cfg(doc)]
use super::Request;
use super::{BoardSnapshot, OpponentView};

/// One game being played now, as the Live screen lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveEntry {
    /// The directory's id (what [`Request::WatchLive`] names).
    pub id: u64,
    pub kind: LiveKind,
    /// The players (one for a solo game), as others see them (guests as `~name`).
    pub players: Vec<String>,
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    /// A solo game's numbers at its last piece.
    pub stats: LiveStats,
    /// People watching it now.
    pub watchers: u32,
}

/// A solo game or a versus match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveKind {
    Solo,
    /// Watched through the room's spectator seat, by the entry's id:
    /// [`Request::SpectateLive`] (never by the room's code, which the list does not tell).
    Match {
        kind: MatchKind,
    },
}

/// A solo game's running numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LiveStats {
    pub score: u64,
    pub lines: u32,
    pub level: u32,
    pub pieces: u32,
    /// Game time in ms.
    pub time_ms: u64,
}

/// A watched versus match at one moment: every player's board and numbers, as its room's
/// spectators see them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveMatchFrame {
    pub id: u64,
    pub kind: MatchKind,
    pub boards: Vec<OpponentView>,
}

/// A watched solo game at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiveFrame {
    pub id: u64,
    pub player: String,
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    /// The visible board with the falling piece.
    pub board: BoardSnapshot,
    pub stats: LiveStats,
    /// The next pieces (engine `Piece` order + 1, as in [`BoardSnapshot`]), at most 5.
    pub next: Vec<u8>,
    /// The held piece (same coding; 0: none).
    pub hold: u8,
}
