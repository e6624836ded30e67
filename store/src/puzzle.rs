//! Puzzle mode's progress per account: the highest stage cleared and whether all are. It only
//! grows: recording a stage below the stored one changes nothing.

use minotty_engine::puzzle::STAGE_COUNT;

use super::{PlayerId, Store, StoreError, UnixMs};

/// A player's puzzle progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PuzzleProgress {
    /// The highest stage cleared (0: none).
    pub cleared: u8,
    /// Every stage was cleared.
    pub completed: bool,
    /// When the progress last grew (0 when there is none).
    pub updated_at: UnixMs,
}

/// Why a cleared stage was not recorded.
#[derive(Debug, thiserror::Error)]
pub enum PuzzleError {
    #[error("there is no puzzle stage {0}")]
    NoSuchStage(u8),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Store {
    /// `player`'s puzzle progress (nothing cleared when they never cleared a stage).
    pub async fn puzzle_progress(&self, player: PlayerId) -> Result<PuzzleProgress, StoreError> {
        // `completed` is read as an integer: SQLite's BOOLEAN column holds 0 or 1, which the
        // `Any` driver does not decode as a bool (PostgreSQL's CASE reads its boolean alike).
        let row: Option<(i64, i64, i64)> = sqlx::query_as(
            "SELECT cleared, CASE WHEN completed THEN 1 ELSE 0 END, updated_at \
             FROM puzzle_progress WHERE player_id = $1",
        )
        .bind(player.0)
        .fetch_optional(&self.reader)
        .await?;
        row.map_or(Ok(PuzzleProgress::default()), progress)
    }

    /// Records that `player` has cleared every stage up to `stage` (1 to
    /// [`STAGE_COUNT`]); returns the progress as stored now (never less than before).
    pub async fn record_puzzle_cleared(
        &self,
        player: PlayerId,
        stage: u8,
        now: UnixMs,
    ) -> Result<PuzzleProgress, PuzzleError> {
        if stage == 0 || stage > STAGE_COUNT {
            return Err(PuzzleError::NoSuchStage(stage));
        }
        let completed = stage == STAGE_COUNT;
        // One statement for both databases: the larger of the two is written as a CASE
        // (SQLite's two-argument MAX is PostgreSQL's GREATEST). The upsert is one statement:
        // instances recording the same player at once each lock the row in turn (PostgreSQL),
        // and progress never goes back.
        let row: (i64, i64, i64) = sqlx::query_as(
            "INSERT INTO puzzle_progress (player_id, cleared, completed, updated_at) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (player_id) DO UPDATE SET \
             cleared = CASE WHEN excluded.cleared > puzzle_progress.cleared \
             THEN excluded.cleared ELSE puzzle_progress.cleared END, \
             completed = (puzzle_progress.completed OR excluded.completed), \
             updated_at = CASE WHEN excluded.cleared > puzzle_progress.cleared \
             THEN excluded.updated_at ELSE puzzle_progress.updated_at END \
             RETURNING cleared, CASE WHEN completed THEN 1 ELSE 0 END, updated_at",
        )
        .bind(player.0)
        .bind(i64::from(stage))
        .bind(completed)
        .bind(now)
        .fetch_one(&self.writer)
        .await
        .map_err(StoreError::from)?;
        Ok(progress(row)?)
    }
}

fn progress(
    (cleared, completed, updated_at): (i64, i64, i64),
) -> Result<PuzzleProgress, StoreError> {
    let completed = completed != 0;
    let cleared = u8::try_from(cleared)
        .ok()
        .filter(|&c| c <= STAGE_COUNT)
        .ok_or_else(|| StoreError::Corrupt(format!("puzzle stage {cleared}")))?;
    Ok(PuzzleProgress {
        cleared,
        completed: completed || cleared == STAGE_COUNT,
        updated_at,
    })
}
