//! Versus rules that sit above single games: a room's settings ([`RoomSettings`]), who an
//! attack goes to, who knocked out whom, when a match is over and the final placements
//! ([`over`]). [`Router`] is pure
//! bookkeeping used both by a server's room task and by [`Match`], a deterministic simulation
//! of several games in one process (tests, bots, replays of whole matches).

pub mod over;
pub mod presets;
mod router;
pub mod series;
mod settings;
mod sim;

pub use router::{MatchKind, PlayerView, Router, Targeting};
pub use series::{Series, SeriesSettings};
pub use settings::{RACE_LINES, RoomLimit, RoomSettings};
pub use sim::{Match, MatchEvent};
