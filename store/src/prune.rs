//! The limit on stored games per player: besides every game that is a best on a leaderboard,
//! a player keeps their newest [`KEEP_GAMES`] games; older ones are deleted as new ones are
//! stored, in the same transaction.
//!
//! Reaching the games past the newest `KEEP_GAMES` walks that many entries of the player's
//! history index (about 0.1 ms), so a player is pruned only now and then: when a stored game's
//! id is a multiple of [`PRUNE_EVERY`] (one game in 16 of each player, on average), or a batch
//! brings 16 of their games. A prune looks at a window of the games just past the newest
//! `KEEP_GAMES` (twice the games expected since the last prune, and more for a large batch)
//! and, for ranked ones, probes the leaderboard by primary key: a game is a best only in the
//! periods its end falls in (all time, its UTC month, its UTC day). Games that slipped past a
//! window (or came before the limit) move into later windows as the ones in front are deleted.

use sqlx::{Any, Transaction};

use super::{Backend, GameId, Period, PlayerId, StoreError, UnixMs};

/// Games kept per player besides their bests.
pub const KEEP_GAMES: u32 = 1_000;

/// A player is pruned about once per this many of their games.
pub const PRUNE_EVERY: u32 = 16;

/// Bytes of replays kept per player (32 MiB: about 3,000 three-minute games of ultra, or 160 of
/// the longest replays the engine records, 200 KB each); past it their oldest games that are
/// no best go.
pub const REPLAY_QUOTA: u64 = 32 << 20;

/// A batch bringing this many bytes of a player's replays checks their quota at once.
pub const QUOTA_CHECK_BYTES: u64 = 64 << 10;

/// The limit on stored games of [`super::Store`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct GameLimit {
    pub keep: u32,
    pub every: u32,
    /// Bytes of replays per player.
    pub quota: u64,
}

impl Default for GameLimit {
    fn default() -> Self {
        GameLimit {
            keep: KEEP_GAMES,
            every: PRUNE_EVERY,
            quota: REPLAY_QUOTA,
        }
    }
}

/// One game added by a batch: its player, id and replay's size in bytes.
pub(super) struct Added {
    pub player: PlayerId,
    pub id: GameId,
    pub bytes: u64,
}

/// The games the replay quota deleted, of each player whose replays were over it.
pub(super) type OverQuota = Vec<(PlayerId, Vec<GameId>)>;

/// Prunes the players of a batch just stored whose turn it is, and checks their replay quota
/// then or when the batch brings [`QUOTA_CHECK_BYTES`] of their replays. Returns what the quota
/// deleted.
pub(super) async fn after_insert(
    tx: &mut Transaction<'static, Any>,
    backend: Backend,
    added: impl Iterator<Item = Added>,
    limit: GameLimit,
) -> Result<OverQuota, StoreError> {
    let every = limit.every.max(1);
    // (player, games added, whether one of them has a turn-taking id, bytes added)
    let mut players: Vec<(PlayerId, usize, bool, u64)> = Vec::new();
    for Added { player, id, bytes } in added {
        let turn = id.0 % i64::from(every) == 0;
        match players.iter_mut().find(|(p, ..)| *p == player) {
            Some((_, n, t, b)) => {
                *n += 1;
                *t |= turn;
                *b = b.saturating_add(bytes);
            }
            None => players.push((player, 1, turn, bytes)),
        }
    }
    let mut cut = Vec::new();
    for (player, n, turn, bytes) in players {
        let due = turn || n >= every as usize;
        if due {
            let window = n.saturating_add(2 * every as usize);
            prune_games(tx, player, window, limit.keep).await?;
        }
        if due || bytes >= QUOTA_CHECK_BYTES {
            let deleted = fit_quota(tx, backend, player, limit.quota).await?;
            if !deleted.is_empty() {
                cut.push((player, deleted));
            }
        }
    }
    Ok(cut)
}

/// Deletes `player`'s oldest games that are no best, oldest first, until their replays hold
/// at most `quota` bytes. Returns the games deleted.
async fn fit_quota(
    tx: &mut Transaction<'static, Any>,
    backend: Backend,
    player: PlayerId,
    quota: u64,
) -> Result<Vec<GameId>, StoreError> {
    let quota = i64::try_from(quota).unwrap_or(i64::MAX);
    let total: i64 = sqlx::query_scalar(backend.sql(
        "SELECT COALESCE(SUM(length(replay)), 0) FROM games WHERE player_id = $1",
        "SELECT COALESCE(SUM(octet_length(replay)), 0)::BIGINT FROM games WHERE player_id = $1",
    ))
    .bind(player.0)
    .fetch_one(&mut **tx)
    .await?;
    if total <= quota {
        return Ok(Vec::new());
    }
    // Oldest first: the player's history index, read backwards (no replay read).
    let rows: Vec<(i64, String, String, i64, String, i64)> = sqlx::query_as(backend.sql(
        "SELECT id, mode, ruleset, ended_at, verdict, length(replay) FROM games \
         WHERE player_id = $1 ORDER BY ended_at, id",
        "SELECT id, mode, ruleset, ended_at, verdict, octet_length(replay)::BIGINT FROM games \
         WHERE player_id = $1 ORDER BY ended_at, id",
    ))
    .bind(player.0)
    .fetch_all(&mut **tx)
    .await?;
    let (before, mut left) = (total, total);
    let mut deleted = Vec::new();
    for (id, mode, ruleset, ended_at, verdict, bytes) in rows {
        if left <= quota {
            break;
        }
        let board = (mode.as_str(), ruleset.as_str());
        if verdict == "ranked" && is_best(tx, player, id, board, ended_at).await? {
            continue;
        }
        let gone = sqlx::query("DELETE FROM games WHERE id = $1")
            .bind(id)
            .execute(&mut **tx)
            .await?
            .rows_affected();
        if gone > 0 {
            left -= bytes;
            deleted.push(GameId(id));
        }
    }
    if left > quota {
        tracing::warn!(
            player = player.0,
            deleted = deleted.len(),
            bytes = left,
            quota,
            "the replay quota is held by bests alone: they are kept"
        );
    } else {
        tracing::info!(
            player = player.0,
            deleted = deleted.len(),
            before,
            after = left,
            quota,
            "replays over the quota: the oldest games that are no best were deleted"
        );
    }
    Ok(deleted)
}

/// Deletes `player`'s games past the newest `keep` that are no best, looking at `window` of
/// them. Returns how many were deleted.
async fn prune_games(
    tx: &mut Transaction<'static, Any>,
    player: PlayerId,
    window: usize,
    keep: u32,
) -> Result<u64, StoreError> {
    let window = i64::try_from(window).unwrap_or(i64::MAX);
    // LIMIT with OFFSET reads the same on PostgreSQL.
    let old: Vec<(i64, String, String, i64, String)> = sqlx::query_as(
        "SELECT id, mode, ruleset, ended_at, verdict FROM games WHERE player_id = $1 \
         ORDER BY ended_at DESC, id DESC LIMIT $2 OFFSET $3",
    )
    .bind(player.0)
    .bind(window)
    .bind(i64::from(keep))
    .fetch_all(&mut **tx)
    .await?;
    let mut deleted = 0;
    for (id, mode, ruleset, ended_at, verdict) in old {
        let board = (mode.as_str(), ruleset.as_str());
        if verdict == "ranked" && is_best(tx, player, id, board, ended_at).await? {
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

/// Whether game `id` of `player` (of `(mode, ruleset)` as stored, ended at `ended_at`) is an
/// entry of a board.
async fn is_best(
    tx: &mut Transaction<'static, Any>,
    player: PlayerId,
    id: i64,
    (mode, ruleset): (&str, &str),
    ended_at: UnixMs,
) -> Result<bool, StoreError> {
    let [all, month, day] = Period::ALL;
    // Three primary-key probes. (One WHERE with the three periods OR'ed together reads as the
    // same, but SQLite then walks the whole mode's board in `leaderboard_rank`.)
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT game_id FROM leaderboard_best WHERE mode = $1 AND ruleset = $10 \
         AND period = $4 AND period_start = $5 AND player_id = $2 AND game_id = $3 \
         UNION ALL SELECT game_id FROM leaderboard_best WHERE mode = $1 AND ruleset = $10 \
         AND period = $6 AND period_start = $7 AND player_id = $2 AND game_id = $3 \
         UNION ALL SELECT game_id FROM leaderboard_best WHERE mode = $1 AND ruleset = $10 \
         AND period = $8 AND period_start = $9 AND player_id = $2 AND game_id = $3 LIMIT 1",
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
    .bind(ruleset)
    .fetch_optional(&mut **tx)
    .await?;
    Ok(found.is_some())
}
