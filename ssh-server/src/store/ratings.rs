//! Ranked 1v1 ratings (Glicko-2) per account and the versus leaderboard.
//!
//! PLACEHOLDER signatures agreed between the accounts and versus work: the versus work fills
//! the bodies in (migration, queries, tests).

use super::{Page, Period, PlayerId, PlayerName, Store, StoreError, UnixMs};

/// One line of the versus leaderboard: a player's current rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingEntry {
    pub rank: u64,
    pub player: PlayerId,
    pub name: PlayerName,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: u32,
    pub wins: u32,
    pub last_match_at: UnixMs,
}

impl Store {
    /// A page of the versus board: players by rating, counting those who played a ranked
    /// match in the `period` that `now` falls in.
    pub async fn rating_board(
        &self,
        _period: Period,
        _now: UnixMs,
        _page: Page,
    ) -> Result<Vec<RatingEntry>, StoreError> {
        Ok(Vec::new())
    }

    /// The player's own line on the versus board, if they are on it.
    pub async fn rating_rank_of(
        &self,
        _player: PlayerId,
        _period: Period,
        _now: UnixMs,
    ) -> Result<Option<RatingEntry>, StoreError> {
        Ok(None)
    }

    /// How many players the versus board of `period` has.
    pub async fn rating_board_size(
        &self,
        _period: Period,
        _now: UnixMs,
    ) -> Result<u64, StoreError> {
        Ok(0)
    }
}
