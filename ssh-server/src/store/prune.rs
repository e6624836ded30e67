//! The limit on stored games per player: besides every game that is a best on a leaderboard,
//! a player keeps their newest [`KEEP_GAMES`] games; older ones are deleted as new ones are
//! stored, in the same transaction.
//!
//! Each insert looks only at the few games just past the newest `KEEP_GAMES` (the window):
//! one index range of the player's history and, for ranked games, one primary-key probe of
//! the leaderboard each. A game is a best only in the periods its end falls in (all time, its
//! UTC month, its UTC day), so that probe names the three rows it could be in. The window
//! looks a few games further than the games just added, so an excess from before the limit
//! shrinks a little with every game.

use sqlx::{Sqlite, Transaction};

use super::{Period, PlayerId, StoreError, UnixMs};

/// Games kept per player besides their bests.
pub const KEEP_GAMES: u32 = 1_000;

/// Games looked at past the ones just added, per insert.
const SLACK: usize = 4;

/// Deletes `player`'s games past the newest `keep` that are no best, looking at `added` +
/// [`SLACK`] of them. Returns how many were deleted.
pub(super) async fn prune_games(
    tx: &mut Transaction<'static, Sqlite>,
    player: PlayerId,
    added: usize,
    keep: u32,
) -> Result<u64, StoreError> {
    let window = i64::try_from(added.saturating_add(SLACK)).unwrap_or(i64::MAX);
    // LIMIT with OFFSET reads the same on PostgreSQL.
    let old: Vec<(i64, String, i64, String)> = sqlx::query_as(
        "SELECT id, mode, ended_at, verdict FROM games WHERE player_id = $1 \
         ORDER BY ended_at DESC, id DESC LIMIT $2 OFFSET $3",
    )
    .bind(player.0)
    .bind(window)
    .bind(i64::from(keep))
    .fetch_all(&mut **tx)
    .await?;
    let mut deleted = 0;
    for (id, mode, ended_at, verdict) in old {
        if verdict == "ranked" && is_best(tx, player, id, &mode, ended_at).await? {
            continue;
        }
        deleted += sqlx::query("DELETE FROM games WHERE id = $1")
            .bind(id)
            .execute(&mut **tx)
            .await?
            .rows_affected();
    }
    if deleted > 0 {
        tracing::debug!(player = player.0, deleted, "old games pruned");
    }
    Ok(deleted)
}

/// Whether game `id` of `player` (of `mode`, ended at `ended_at`) is an entry of a board.
async fn is_best(
    tx: &mut Transaction<'static, Sqlite>,
    player: PlayerId,
    id: i64,
    mode: &str,
    ended_at: UnixMs,
) -> Result<bool, StoreError> {
    let [all, month, day] = Period::ALL;
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT game_id FROM leaderboard_best WHERE mode = $1 AND player_id = $2 \
         AND game_id = $3 AND ((period = $4 AND period_start = $5) \
         OR (period = $6 AND period_start = $7) OR (period = $8 AND period_start = $9)) LIMIT 1",
    )
    .bind(mode)
    .bind(player.0)
    .bind(id)
    .bind(all.as_db())
    .bind(all.start(ended_at))
    .bind(month.as_db())
    .bind(month.start(ended_at))
    .bind(day.as_db())
    .bind(day.start(ended_at))
    .fetch_optional(&mut **tx)
    .await?;
    Ok(found.is_some())
}
