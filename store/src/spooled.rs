//! Lookups by natural key, for records replayed from the spool (`spool/`): a game or match
//! that was stored before a crash kept it from leaving the spool is found here and not stored
//! a second time.

use super::{FinishedGame, GameId, MatchId, NewMatch, Store, StoreError};

impl Store {
    /// The stored game that is `game` (the same player, mode, ruleset, seed, start and end), if
    /// any.
    pub async fn stored_game(&self, game: &FinishedGame) -> Result<Option<GameId>, StoreError> {
        let id: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM games WHERE player_id = $1 AND ended_at = $2 AND started_at = $3 \
             AND seed = $4 AND mode = $5 AND ruleset = $6 LIMIT 1",
        )
        .bind(game.player.0)
        .bind(game.ended_at)
        .bind(game.started_at)
        .bind(i64::from(game.replay.seed))
        .bind(game.replay.mode.kind.id())
        .bind(game.replay.ruleset.id())
        .fetch_optional(&self.writer)
        .await?;
        Ok(id.map(GameId))
    }

    /// The stored match that is `m` (the same room, seed, start and end), if any.
    pub async fn stored_match(&self, m: &NewMatch) -> Result<Option<MatchId>, StoreError> {
        let id: Option<i64> = sqlx::query_scalar(
            "SELECT id FROM matches WHERE room = $1 AND seed = $2 AND started_at = $3 \
             AND ended_at = $4 LIMIT 1",
        )
        .bind(&m.room)
        .bind(i64::from(m.seed))
        .bind(m.started_at)
        .bind(m.ended_at)
        .fetch_optional(&self.writer)
        .await?;
        Ok(id.map(MatchId))
    }
}
