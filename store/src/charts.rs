//! What the profile's charts read: a player's latest ranked games (their personal bests over
//! time, folded by `crate::charts`) and their latest games' pieces and time (pieces per
//! second). Both statements are standard SQL (SQLite and PostgreSQL alike).

use minotty_domain::chart_games::{PaceGame, RankedGame};
use minotty_engine::Stats;
use sqlx::Row;

use super::games::{mode_of, ruleset_of};
use super::{GameId, PlayerId, Store, StoreError, from_db};

impl Store {
    /// `player`'s latest `limit` ranked games, oldest first.
    pub async fn ranked_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<RankedGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT mode, ruleset, ended_at, time_ms, score, lines, pieces, max_combo FROM \
             (SELECT id, mode, ruleset, ended_at, time_ms, score, lines, pieces, max_combo \
             FROM games WHERE player_id = $1 AND verdict = 'ranked' \
             ORDER BY ended_at DESC, id DESC LIMIT $2) AS latest \
             ORDER BY ended_at, id",
        )
        .bind(player.0)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                let int = |name: &str| -> Result<i64, StoreError> { Ok(row.try_get(name)?) };
                Ok(RankedGame {
                    mode: mode_of(row)?,
                    ruleset: ruleset_of(row)?,
                    ended_at: int("ended_at")?,
                    stats: Stats {
                        time: from_db(int("time_ms")?, "time_ms")?,
                        score: from_db(int("score")?, "score")?,
                        lines: from_db(int("lines")?, "lines")?,
                        pieces: from_db(int("pieces")?, "pieces")?,
                        max_combo: from_db(int("max_combo")?, "max_combo")?,
                        ..Stats::default()
                    },
                })
            })
            .collect()
    }

    /// `player`'s latest `limit` games that lasted any time, oldest first.
    pub async fn pace_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<PaceGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, mode, pieces, time_ms FROM \
             (SELECT id, mode, pieces, time_ms, ended_at FROM games \
             WHERE player_id = $1 AND time_ms > 0 \
             ORDER BY ended_at DESC, id DESC LIMIT $2) AS latest \
             ORDER BY ended_at, id",
        )
        .bind(player.0)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|row| {
                let int = |name: &str| -> Result<i64, StoreError> { Ok(row.try_get(name)?) };
                Ok(PaceGame {
                    id: GameId(int("id")?),
                    mode: mode_of(row)?,
                    pieces: from_db(int("pieces")?, "pieces")?,
                    time_ms: from_db(int("time_ms")?, "time_ms")?,
                })
            })
            .collect()
    }
}
