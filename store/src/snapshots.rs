//! Snapshots: each registered player's stored game states (`minotty_engine::Snapshot` in its
//! binary form), newest first. At most [`MAX_SNAPSHOTS`] a player: saving one more deletes the
//! oldest in the same transaction. Labels are sanitised here (the names allowlist) and cut to
//! [`minotty_domain::MAX_LABEL_CHARS`]; bytes over [`MAX_SNAPSHOT_BYTES`] are refused.

use minotty_domain::{MAX_SNAPSHOTS, snapshot_label};
use minotty_engine::{ModeKind, Snapshot};

use super::{PlayerId, Store, StoreError, UnixMs};

/// The largest snapshot stored, in bytes (the engine's own bound).
pub const MAX_SNAPSHOT_BYTES: usize = minotty_engine::snapshot::MAX_BYTES;

/// A stored snapshot's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SnapshotId(pub i64);

/// One stored snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredSnapshot {
    pub id: SnapshotId,
    pub created_at: UnixMs,
    pub label: String,
    pub mode: ModeKind,
    pub snapshot: Snapshot,
}

/// Why a snapshot was not stored.
#[derive(Debug, thiserror::Error)]
pub enum SnapshotError {
    #[error("a snapshot of {0} bytes is larger than {MAX_SNAPSHOT_BYTES}")]
    TooLarge(usize),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Store {
    /// Stores `snapshot` for `player` under `label` (sanitised), replacing the oldest when
    /// the player already has [`MAX_SNAPSHOTS`]. Returns the new id and the label stored.
    pub async fn save_snapshot(
        &self,
        player: PlayerId,
        label: &str,
        snapshot: &Snapshot,
        now: UnixMs,
    ) -> Result<(SnapshotId, String), SnapshotError> {
        let bytes = snapshot.to_bytes();
        if bytes.len() > MAX_SNAPSHOT_BYTES {
            return Err(SnapshotError::TooLarge(bytes.len()));
        }
        let label = snapshot_label(label);
        let mut tx = self.write_tx().await?;
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO snapshots (player_id, created_at, label, mode, bytes) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
        )
        .bind(player.0)
        .bind(now)
        .bind(&label)
        .bind(snapshot.mode().id())
        .bind(&bytes)
        .fetch_one(&mut *tx)
        .await
        .map_err(StoreError::from)?;
        // Everything past the newest MAX_SNAPSHOTS goes (at most one, the oldest).
        sqlx::query(
            "DELETE FROM snapshots WHERE player_id = $1 AND id NOT IN \
             (SELECT id FROM snapshots WHERE player_id = $1 \
              ORDER BY created_at DESC, id DESC LIMIT $2)",
        )
        .bind(player.0)
        .bind(MAX_SNAPSHOTS as i64)
        .execute(&mut *tx)
        .await
        .map_err(StoreError::from)?;
        tx.commit().await.map_err(StoreError::from)?;
        Ok((SnapshotId(id), label))
    }

    /// `player`'s snapshots, newest first (at most [`MAX_SNAPSHOTS`]). A row that no longer
    /// decodes (an unknown mode, bytes this engine refuses) is left out and logged.
    pub async fn snapshots(&self, player: PlayerId) -> Result<Vec<StoredSnapshot>, StoreError> {
        let rows: Vec<(i64, i64, String, String, Vec<u8>)> = sqlx::query_as(
            "SELECT id, created_at, label, mode, bytes FROM snapshots WHERE player_id = $1 \
             ORDER BY created_at DESC, id DESC LIMIT $2",
        )
        .bind(player.0)
        .bind(MAX_SNAPSHOTS as i64)
        .fetch_all(&self.reader)
        .await?;
        Ok(rows
            .into_iter()
            .filter_map(|(id, created_at, label, mode, bytes)| {
                let decoded = ModeKind::parse(&mode)
                    .ok_or_else(|| format!("unknown mode {mode:?}"))
                    .and_then(|mode| {
                        Snapshot::from_bytes(&bytes)
                            .map(|s| (mode, s))
                            .map_err(|e| e.to_string())
                    });
                match decoded {
                    Ok((mode, snapshot)) => Some(StoredSnapshot {
                        id: SnapshotId(id),
                        created_at,
                        label,
                        mode,
                        snapshot,
                    }),
                    Err(e) => {
                        tracing::warn!(snapshot = id, error = %e, "a stored snapshot does not decode");
                        None
                    }
                }
            })
            .collect())
    }

    /// Deletes `player`'s snapshot `id`; `false` when the player has none by that id.
    pub async fn delete_snapshot(
        &self,
        player: PlayerId,
        id: SnapshotId,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM snapshots WHERE id = $1 AND player_id = $2")
            .bind(id.0)
            .bind(player.0)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected() > 0)
    }
}
