//! SSH public keys: the identity of a connection. A key belongs to at most one account; an
//! account has one or more keys, listed and removed by its player (never the key in use).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError, Weak};
use std::time::Duration;

use minotty_domain::KeyFingerprint;
use sqlx::{Any, AnyPool, Transaction};

use super::{Backend, PlayerId, Store, StoreError, UnixMs};

/// How often the uses of keys noted at login are written.
pub const KEY_USE_FLUSH: Duration = Duration::from_secs(10);

/// Keys whose use waits to be written; past this, more uses are not noted until the next
/// write (`last_used_at` is informational: a use missed is a later date missed).
pub const MAX_PENDING_KEY_USES: usize = 10_000;

/// The latest use of each key that logged in since the last write, kept in memory so that a
/// login never waits for the database writer.
#[derive(Debug, Default)]
pub(super) struct KeyUses {
    pending: Mutex<HashMap<KeyFingerprint, UnixMs>>,
}

impl KeyUses {
    /// Notes that `key` was used at `now`.
    pub(super) fn note(&self, key: &KeyFingerprint, now: UnixMs) {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = pending.get_mut(key) {
            *at = (*at).max(now);
        } else if pending.len() < MAX_PENDING_KEY_USES {
            pending.insert(key.clone(), now);
        }
    }

    fn take(&self) -> HashMap<KeyFingerprint, UnixMs> {
        std::mem::take(&mut *self.pending.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Puts back uses that could not be written (newer ones noted meanwhile win).
    fn restore(&self, uses: HashMap<KeyFingerprint, UnixMs>) {
        let mut pending = self.pending.lock().unwrap_or_else(PoisonError::into_inner);
        for (key, at) in uses {
            if let Some(newer) = pending.get_mut(&key) {
                *newer = (*newer).max(at);
            } else if pending.len() < MAX_PENDING_KEY_USES {
                pending.insert(key, at);
            }
        }
    }

    /// Writes the noted uses in one transaction; on failure they are kept for the next try.
    pub(super) async fn flush(
        &self,
        backend: Backend,
        writer: &AnyPool,
    ) -> Result<usize, StoreError> {
        let uses = self.take();
        if uses.is_empty() {
            return Ok(0);
        }
        match write_uses(backend, writer, &uses).await {
            Ok(()) => Ok(uses.len()),
            Err(e) => {
                self.restore(uses);
                Err(e)
            }
        }
    }

    /// Starts the task that flushes every [`KEY_USE_FLUSH`], when there is a runtime. It ends
    /// once every store is dropped or the writer's pool is closed.
    pub(super) fn spawn_flusher(uses: Weak<KeyUses>, backend: Backend, writer: AnyPool) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return;
        };
        runtime.spawn(async move {
            let mut tick = tokio::time::interval(KEY_USE_FLUSH);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            tick.tick().await;
            loop {
                tick.tick().await;
                let Some(uses) = uses.upgrade() else {
                    return;
                };
                if writer.is_closed() {
                    return;
                }
                if let Err(e) = uses.flush(backend, &writer).await {
                    tracing::warn!(error = %e, "writing when keys were last used");
                }
            }
        });
    }
}

async fn write_uses(
    backend: Backend,
    writer: &AnyPool,
    uses: &HashMap<KeyFingerprint, UnixMs>,
) -> Result<(), StoreError> {
    // `BEGIN IMMEDIATE` on SQLite, `BEGIN` on PostgreSQL: see `Store::write_tx`.
    let mut tx = writer.begin_with(backend.begin_write()).await?;
    // In key order: two instances flushing uses of the same keys lock their rows in the same
    // order (PostgreSQL), so they wait for each other instead of deadlocking. The condition
    // keeps the latest use whichever instance writes last.
    let mut uses: Vec<_> = uses.iter().collect();
    uses.sort_unstable_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
    for (key, at) in uses {
        sqlx::query(
            "UPDATE player_keys SET last_used_at = $2 WHERE fingerprint = $1 \
             AND last_used_at < $2",
        )
        .bind(key.as_str())
        .bind(*at)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// A key a client authenticated with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewKey {
    pub fingerprint: KeyFingerprint,
    /// The algorithm name (`ssh-ed25519`, `rsa-sha2-512`, ...), shown when keys are listed.
    /// Cut to 64 characters when stored.
    pub algorithm: String,
}

/// A key of an account, as listed to its player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyInfo {
    pub fingerprint: KeyFingerprint,
    pub algorithm: String,
    pub added_at: UnixMs,
    pub last_used_at: UnixMs,
}

/// Why a key was not removed.
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    #[error("that key is the one this connection uses")]
    InUse,
    #[error("no such key on this account")]
    NotFound,
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Store {
    /// Writes the key uses noted by [`Store::account_by_key`] now, in one transaction, and
    /// says how many keys were updated (a background task does this every [`KEY_USE_FLUSH`],
    /// and [`Store::close`] once more).
    pub async fn flush_key_uses(&self) -> Result<usize, StoreError> {
        self.key_uses.flush(self.backend, &self.writer).await
    }

    /// The keys of `player`, oldest first.
    pub async fn keys(&self, player: PlayerId) -> Result<Vec<KeyInfo>, StoreError> {
        let rows: Vec<(String, String, i64, i64)> = sqlx::query_as(
            "SELECT fingerprint, algorithm, added_at, last_used_at FROM player_keys \
             WHERE player_id = $1 ORDER BY added_at, fingerprint",
        )
        .bind(player.0)
        .fetch_all(&self.reader)
        .await?;
        rows.into_iter()
            .map(|(fp, algorithm, added_at, last_used_at)| {
                let fingerprint = KeyFingerprint::parse(&fp)
                    .ok_or_else(|| StoreError::Corrupt(format!("stored fingerprint {fp:?}")))?;
                Ok(KeyInfo {
                    fingerprint,
                    algorithm,
                    added_at,
                    last_used_at,
                })
            })
            .collect()
    }

    /// Removes `key` from `player`'s account. The key the connection uses (`in_use`) cannot be
    /// removed, so an account always keeps the key its player is logged in with.
    pub async fn remove_key(
        &self,
        player: PlayerId,
        key: &KeyFingerprint,
        in_use: &KeyFingerprint,
    ) -> Result<(), KeyError> {
        if key == in_use {
            return Err(KeyError::InUse);
        }
        let done = sqlx::query("DELETE FROM player_keys WHERE fingerprint = $1 AND player_id = $2")
            .bind(key.as_str())
            .bind(player.0)
            .execute(&self.writer)
            .await
            .map_err(StoreError::from)?;
        if done.rows_affected() == 0 {
            return Err(KeyError::NotFound);
        }
        Ok(())
    }
}

/// Adds `key` to `player` inside `tx`. `Ok(false)` when the key already belongs to an account.
pub(super) async fn insert_key(
    tx: &mut Transaction<'static, Any>,
    player: PlayerId,
    key: &NewKey,
    now: UnixMs,
) -> Result<bool, StoreError> {
    let algorithm: String = key.algorithm.chars().take(64).collect();
    let done = sqlx::query(
        "INSERT INTO player_keys (fingerprint, player_id, algorithm, added_at, last_used_at) \
         VALUES ($1, $2, $3, $4, $4) ON CONFLICT (fingerprint) DO NOTHING",
    )
    .bind(key.fingerprint.as_str())
    .bind(player.0)
    .bind(algorithm)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected() == 1)
}
