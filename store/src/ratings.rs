//! Ranked 1v1 ratings (Glicko-2) per account and the versus leaderboard.
//!
//! A rating changes only with a stored ranked match ([`Store::record_match`] writes the match
//! and both ratings in one transaction). The board of a period lists the players who played a
//! ranked match in it, by their current rating; ties share a rank and are listed by player id.

use minotty_engine::rating::Rating;
use sqlx::Row;
use sqlx::any::AnyRow;

use super::leaderboard::MAX_PAGE;
use super::{Page, Period, PlayerId, PlayerName, Store, StoreError, UnixMs, from_db};

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
    /// Rated series of all time (what placement counts): `games` itself on the all-time
    /// boards, more than a season's `games` on a season's board.
    pub all_games: u32,
}

/// A player's stored rating and record.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StoredRating {
    pub rating: Rating,
    pub games: u32,
    pub wins: u32,
    pub last_match_at: UnixMs,
}

/// The rated players who played a ranked match since `$1`, with the columns [`entry`] reads
/// (rank = 1 + how many of them are rated higher), a literal so statements stay constant.
macro_rules! board_select {
    () => {
        "SELECT r.player_id, p.name, r.rating, r.deviation, r.volatility, r.games, r.wins, \
         r.last_match_at, r.games AS all_games, \
         (SELECT COUNT(*) FROM ratings b WHERE b.last_match_at >= $1 AND b.rating > r.rating) \
         AS better \
         FROM ratings r JOIN players p ON p.id = r.player_id \
         WHERE r.last_match_at >= $1"
    };
}

impl Store {
    /// A page of the versus board: players by rating, counting those who played a ranked
    /// match in the `period` that `now` falls in.
    pub async fn rating_board(
        &self,
        period: Period,
        now: UnixMs,
        page: Page,
    ) -> Result<Vec<RatingEntry>, StoreError> {
        let start = period.start(now);
        let rows = sqlx::query(concat!(
            board_select!(),
            " ORDER BY r.rating DESC, r.player_id LIMIT $2 OFFSET $3"
        ))
        .bind(start)
        .bind(i64::from(page.limit.min(MAX_PAGE)))
        .bind(i64::from(page.offset))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(entry).collect()
    }

    /// The player's own line on the versus board, if they are on it.
    pub async fn rating_rank_of(
        &self,
        player: PlayerId,
        period: Period,
        now: UnixMs,
    ) -> Result<Option<RatingEntry>, StoreError> {
        let start = period.start(now);
        let row = sqlx::query(concat!(board_select!(), " AND r.player_id = $2"))
            .bind(start)
            .bind(player.0)
            .fetch_optional(&self.reader)
            .await?;
        row.as_ref().map(entry).transpose()
    }

    /// How many players the versus board of `period` has.
    pub async fn rating_board_size(&self, period: Period, now: UnixMs) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ratings WHERE last_match_at >= $1")
            .bind(period.start(now))
            .fetch_one(&self.reader)
            .await?;
        from_db(n, "board size")
    }

    /// The player's rating and record, `None` before their first ranked match.
    pub async fn rating_of(&self, player: PlayerId) -> Result<Option<StoredRating>, StoreError> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, games, wins, last_match_at \
             FROM ratings WHERE player_id = $1",
        )
        .bind(player.0)
        .fetch_optional(&self.reader)
        .await?;
        row.map(|row| stored(&row)).transpose()
    }
}

fn stored(row: &AnyRow) -> Result<StoredRating, StoreError> {
    Ok(StoredRating {
        rating: Rating {
            rating: row.try_get("rating")?,
            deviation: row.try_get("deviation")?,
            volatility: row.try_get("volatility")?,
        },
        games: from_db(row.try_get("games")?, "games")?,
        wins: from_db(row.try_get("wins")?, "wins")?,
        last_match_at: row.try_get("last_match_at")?,
    })
}

pub(crate) fn entry(row: &AnyRow) -> Result<RatingEntry, StoreError> {
    let s = stored(row)?;
    let better: i64 = row.try_get("better")?;
    Ok(RatingEntry {
        rank: from_db::<u64>(better, "rank")? + 1,
        player: PlayerId(row.try_get("player_id")?),
        name: super::name_from_db(row.try_get("name")?)?,
        rating: s.rating.rating,
        deviation: s.rating.deviation,
        volatility: s.rating.volatility,
        games: s.games,
        wins: s.wins,
        last_match_at: s.last_match_at,
        all_games: from_db(row.try_get("all_games")?, "games")?,
    })
}
