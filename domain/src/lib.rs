//! # minotty-domain
//!
//! minotty's pure domain rules, below the server, the UI and `minotty play` alike: the
//! validated names and identities ([`PlayerName`], [`DisplayName`], [`KeyFingerprint`],
//! [`RoomCode`], [`PlayerId`], [`GameId`], [`AccountRef`]), the one text policy ([`text`]), which ruleset each
//! mode plays and ranks under (one table, [`modes`]), ranking ([`ranking`]), leaderboard
//! periods ([`period`]), the judge of a finished game ([`judge`]), a client's address as every
//! limit keys it ([`ClientAddr`], [`AddressKey`]) and the one token bucket ([`TokenBucket`]).
//!
//! No IO, no clock, no threads, no randomness: every function is a function of its arguments.

pub mod account;
pub mod address;
pub mod budget;
pub mod chart_games;
pub mod fingerprint;
pub mod ids;
pub mod judge;
pub mod modes;
pub mod names;
pub mod outcome;
pub mod period;
pub mod player_name;
pub mod ranked;
pub mod ranking;
pub mod room_code;
pub mod seat_judge;
pub mod seat_rules;
pub mod snapshots;
pub mod text;

pub use account::AccountRef;
pub use address::{AddressKey, ClientAddr};
pub use budget::TokenBucket;
pub use chart_games::{PaceGame, RankedGame};
pub use fingerprint::KeyFingerprint;
pub use ids::{GameId, PlayerId, UnixMs};
pub use judge::{Rejected, Verdict, judge, verify_replay};
pub use modes::{has_board, home_ruleset, profile_boards, ranked_modes, ruleset_modes};
pub use names::DisplayName;
pub use outcome::outcome_text;
pub use period::{Period, civil_date};
pub use player_name::{NameError, PlayerName};
pub use ranked::Season;
pub use ranking::{Unranked, achieved, bucket_floor, eligible, rank_key};
pub use room_code::RoomCode;
pub use seat_judge::{SeatCheck, SeatClaims, judge_replay, judge_seat, resimulate};
pub use seat_rules::{MatchRules, judge_seat_under};
pub use snapshots::{MAX_LABEL_CHARS, MAX_SNAPSHOTS, snapshot_label};
