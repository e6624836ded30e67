//! Ranked seasons (`minotty_domain::ranked::Season`, calendar quarters) and the rated
//! population that letter ranks are computed from.
//!
//! A season's board (`season_ratings`, migration 0018) lists the players who finished a rated
//! series in it, by the rating after their latest series of the season; ties share a rank and
//! are listed by player id. It is written with the all-time rating, in
//! [`Store::record_match`]'s transaction.

use minotty_domain::ranked::{LETTER_MAX_DEVIATION, PLACEMENT_SERIES, Season};
use minotty_engine::rating::Rating;
use std::sync::Arc;

use sqlx::{Any, Transaction};

use super::leaderboard::MAX_PAGE;
use super::ratings::{RatingEntry, entry};
use super::{Page, PlayerId, Store, StoreError, UnixMs, from_db};

/// How long the cached rated population serves letter ranks before it is read again.
pub const POPULATION_FRESH_MS: UnixMs = 60_000;

/// The rated population as last read, and when (letter ranks are computed from it).
pub(crate) type PopulationCache = Arc<std::sync::Mutex<Option<(UnixMs, Arc<Vec<f64>>)>>>;

/// The most ratings [`Store::rated_population`] reads: the rated players who played most
/// recently (8 bytes each: at most 800 KB).
pub const MAX_POPULATION: u32 = 100_000;

/// The season's rated players with the columns `ratings::entry` reads (rank = 1 + how many
/// of them are rated higher), a literal so statements stay constant.
macro_rules! season_select {
    () => {
        "SELECT r.player_id, p.name, r.rating, r.deviation, r.volatility, r.games, r.wins, \
         r.last_match_at, \
         (SELECT a.games FROM ratings a WHERE a.player_id = r.player_id) AS all_games, \
         (SELECT COUNT(*) FROM season_ratings b WHERE b.season = $1 AND b.rating > r.rating) \
         AS better \
         FROM season_ratings r JOIN players p ON p.id = r.player_id \
         WHERE r.season = $1"
    };
}

/// The player's rating after a rated series won or lost at `at`, on the board of the season
/// `at` falls in (within the match's transaction).
pub(crate) async fn rate_in_season(
    tx: &mut Transaction<'static, Any>,
    player: PlayerId,
    after: Rating,
    won: bool,
    at: UnixMs,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO season_ratings (season, player_id, rating, deviation, volatility, games, \
         wins, last_match_at) VALUES ($1, $2, $3, $4, $5, 1, $6, $7) \
         ON CONFLICT (season, player_id) DO UPDATE SET rating = excluded.rating, \
         deviation = excluded.deviation, volatility = excluded.volatility, \
         games = season_ratings.games + 1, wins = season_ratings.wins + excluded.wins, \
         last_match_at = excluded.last_match_at",
    )
    .bind(Season::of(at).0)
    .bind(player.0)
    .bind(after.rating)
    .bind(after.deviation)
    .bind(after.volatility)
    .bind(i64::from(won))
    .bind(at)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

impl Store {
    /// A page of `season`'s board.
    pub async fn season_board(
        &self,
        season: Season,
        page: Page,
    ) -> Result<Vec<RatingEntry>, StoreError> {
        let rows = sqlx::query(concat!(
            season_select!(),
            " ORDER BY r.rating DESC, r.player_id LIMIT $2 OFFSET $3"
        ))
        .bind(season.0)
        .bind(i64::from(page.limit.min(MAX_PAGE)))
        .bind(i64::from(page.offset))
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(entry).collect()
    }

    /// The player's line on `season`'s board (their season record), if they are on it.
    pub async fn season_rank_of(
        &self,
        player: PlayerId,
        season: Season,
    ) -> Result<Option<RatingEntry>, StoreError> {
        let row = sqlx::query(concat!(season_select!(), " AND r.player_id = $2"))
            .bind(season.0)
            .bind(player.0)
            .fetch_optional(&self.reader)
            .await?;
        row.as_ref().map(entry).transpose()
    }

    /// How many players `season`'s board has.
    pub async fn season_board_size(&self, season: Season) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM season_ratings WHERE season = $1")
            .bind(season.0)
            .fetch_one(&self.reader)
            .await?;
        from_db(n, "season size")
    }

    /// The ratings of the rated population (placed, deviation at most
    /// `LETTER_MAX_DEVIATION`), ascending: at most [`MAX_POPULATION`], those who played most
    /// recently.
    pub async fn rated_population(&self) -> Result<Vec<f64>, StoreError> {
        let mut ratings: Vec<f64> = sqlx::query_scalar(
            "SELECT rating FROM ratings WHERE games >= $1 AND deviation <= $2 \
             ORDER BY last_match_at DESC, player_id LIMIT $3",
        )
        .bind(i64::from(PLACEMENT_SERIES))
        .bind(LETTER_MAX_DEVIATION)
        .bind(i64::from(MAX_POPULATION))
        .fetch_all(&self.reader)
        .await?;
        ratings.retain(|r| !r.is_nan());
        ratings.sort_by(f64::total_cmp);
        Ok(ratings)
    }

    /// [`Store::rated_population`], read again only when the copy read before `now` is older
    /// than [`POPULATION_FRESH_MS`] (the letter ranks of a board page and a profile).
    pub async fn rated_population_cached(&self, now: UnixMs) -> Result<Arc<Vec<f64>>, StoreError> {
        let lock = |c: &PopulationCache| {
            c.lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .clone()
        };
        if let Some((at, ratings)) = lock(&self.population)
            && now.saturating_sub(at) < POPULATION_FRESH_MS
            && now >= at
        {
            return Ok(ratings);
        }
        let ratings = Arc::new(self.rated_population().await?);
        *self
            .population
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some((now, Arc::clone(&ratings)));
        Ok(ratings)
    }
}
