//! The records a player reads outside a game: personal bests per board (the mode select) and
//! versus matches (the profile).

use minotty_engine::{ModeKind, RulesetId};

/// A personal best on one board, as its board shows it (`0:41.674`, `12,345`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModeBest {
    pub mode: ModeKind,
    pub ruleset: RulesetId,
    pub best: String,
}

/// A versus match of the profile's recent list, from the player's seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecentMatch {
    pub id: i64,
    /// "battle" or "race".
    pub kind: String,
    pub ended_at: i64,
    /// e.g. "won vs bob", "lost to bob", "2nd of 3"
    pub result: String,
    /// e.g. "+14 rating", "unranked", "left"
    pub outcome: String,
}
