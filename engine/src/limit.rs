//! Limits: what ends a game when one of its stats reaches a value. Public as
//! `crate::mode::{Limit, Stat}`; kept apart from [`Mode`](crate::Mode) because game events
//! name the stat that ended a game.

/// A quantity that a limit watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Stat {
    /// Game time in ms.
    Time,
    Lines,
    Pieces,
    Score,
    Level,
    /// Rows holding garbage that were cleared.
    GarbageCleared,
}

/// A condition that ends the game when `stat` reaches `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limit {
    pub stat: Stat,
    pub value: u64,
    /// Whether reaching it is a win (a goal) or a loss.
    pub win: bool,
}
