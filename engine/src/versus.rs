//! Versus rules that sit above single games: a room's settings ([`RoomSettings`]), who an
//! attack goes to, who knocked out whom, and the final placements. [`Router`] is pure
//! bookkeeping used both by a server's room task and by [`Match`], a deterministic simulation
//! of several games in one process (tests, bots, replays of whole matches).

mod router;
mod settings;
mod sim;

pub use router::{MatchKind, PlayerView, Router, Targeting};
pub use settings::{RoomLimit, RoomSettings};
pub use sim::{Match, MatchEvent};
