//! The piece in play and its lock-delay state. Public as `crate::game::Active`; kept apart
//! from [`Game`](crate::Game) because a snapshot holds it while a game is made from snapshots.

use crate::piece::Placed;
use crate::ruleset::Time;

/// The piece in play and its locking state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Active {
    pub placed: Placed,
    /// The lowest row (largest `y`) the piece has reached.
    pub lowest: i8,
    /// When the piece locks if it stays on the ground; `None` while it can fall.
    pub lock_at: Option<Time>,
    /// Lock resets used since the piece last reached a new lowest row.
    pub resets: u8,
    /// Set when the last successful action was a rotation: `(kick index, was last kick)`.
    pub rotated: Option<(u8, bool)>,
    /// Hard-dropped and waiting for the hard drop delay: it no longer moves.
    pub dropped: bool,
}
