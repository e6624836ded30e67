//! What the profile's charts read: a player's latest ranked games (their personal bests over
//! time, folded by `crate::charts`) and their latest games' pieces and time (pieces per
//! second). Both statements are standard SQL (SQLite and PostgreSQL alike).

use minotty_domain::chart_games::{PaceGame, RankedGame};
use minotty_engine::Stats;

use super::games::{mode_of, ruleset_of};
use super::rows::int;
use super::{GameId, PlayerId, Store, StoreError};

impl Store {
    /// `player`'s latest `limit` ranked games, oldest first.
    pub async fn ranked_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<RankedGame>, StoreError> {
        self.player_rows(
            "SELECT mode, ruleset, ended_at, time_ms, score, lines, pieces, max_combo FROM \
             (SELECT id, mode, ruleset, ended_at, time_ms, score, lines, pieces, max_combo \
             FROM games WHERE player_id = $1 AND verdict = 'ranked' \
             ORDER BY ended_at DESC, id DESC LIMIT $2) AS latest \
             ORDER BY ended_at, id",
            player,
            limit,
            |row| {
                Ok(RankedGame {
                    mode: mode_of(row)?,
                    ruleset: ruleset_of(row)?,
                    ended_at: int(row, "ended_at")?,
                    stats: Stats {
                        time: int(row, "time_ms")?,
                        score: int(row, "score")?,
                        lines: int(row, "lines")?,
                        pieces: int(row, "pieces")?,
                        max_combo: int(row, "max_combo")?,
                        ..Stats::default()
                    },
                })
            },
        )
        .await
    }

    /// `player`'s latest `limit` games that lasted any time, oldest first.
    pub async fn pace_history(
        &self,
        player: PlayerId,
        limit: u32,
    ) -> Result<Vec<PaceGame>, StoreError> {
        self.player_rows(
            "SELECT id, mode, pieces, time_ms FROM \
             (SELECT id, mode, pieces, time_ms, ended_at FROM games \
             WHERE player_id = $1 AND time_ms > 0 \
             ORDER BY ended_at DESC, id DESC LIMIT $2) AS latest \
             ORDER BY ended_at, id",
            player,
            limit,
            |row| {
                Ok(PaceGame {
                    id: GameId(int(row, "id")?),
                    mode: mode_of(row)?,
                    pieces: int(row, "pieces")?,
                    time_ms: int(row, "time_ms")?,
                })
            },
        )
        .await
    }
}
