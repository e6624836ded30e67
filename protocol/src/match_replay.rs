//! A stored versus match's replay, as its viewer is sent it: every seat's game, in seat order,
//! each verified by the server (as solo games are) or shown as missing or unverified.

use minotty_engine::Replay;
use minotty_engine::versus::{MatchKind, RoomSettings};

/// Seats of a match at most (a room's largest size): a match replay holds at most this many
/// games, each of at most `MAX_INPUTS` inputs.
pub const MAX_MATCH_SEATS: usize = 8;

/// Which stored match a viewer asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MatchRef {
    /// By its id (the profile, `ssh HOST replay mN`).
    Id(i64),
    /// The one just played, by the room and seed of its `MatchStart` (the results screen: it
    /// has no id until the server stored it).
    Played { room: String, seed: u32 },
}

/// One seat's game.
#[derive(Clone, Debug, PartialEq)]
pub enum SeatFilm {
    /// Verified by the server: played back.
    Verified(Box<Replay>),
    /// No replay arrived (the player's session ended before their game did).
    Missing,
    /// The replay did not hold up (of another seed, does not play, fewer lines than claimed):
    /// why. Not played.
    Unverified(String),
}

/// One seat of a stored match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSeat {
    pub name: String,
    /// 1 = winner.
    pub place: u32,
    pub forfeited: bool,
    pub film: SeatFilm,
}

/// A stored match with every seat's game.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReplay {
    pub id: i64,
    pub kind: MatchKind,
    pub ranked: bool,
    pub ended_at: i64,
    /// In seat order, at most [`MAX_MATCH_SEATS`].
    pub seats: Vec<MatchSeat>,
    /// The room's settings the match was played under (`None`: stored before they were).
    pub settings: Option<RoomSettings>,
}
