//! Storing what the spool keeps: each record once, then its file deleted.

use std::path::PathBuf;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{Record, Spool, SpoolError};
use crate::{FinishedGame, Store, StoreError};

/// What one pass over the spool did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Replayed {
    /// Records stored now.
    pub stored: usize,
    /// Records found stored already (a crash came between storing and deleting them).
    pub already: usize,
    /// Records set aside: unreadable, or refused by the database for good.
    pub aside: usize,
    /// Records left for a later pass (the database is unreachable).
    pub remaining: usize,
}

impl Spool {
    /// Stores every record waiting, oldest first, and deletes each stored one. Stops at the
    /// first transient failure (the database is down): the rest waits for the next pass.
    pub async fn replay(&self, store: &Store) -> Replayed {
        let mut done = Replayed::default();
        let paths = match self.blocking(|s| s.pending()).await {
            Ok(paths) => paths,
            Err(e) => {
                tracing::error!(error = %e, "listing the spool");
                done.remaining = self.len();
                return done;
            }
        };
        for (i, path) in paths.iter().enumerate() {
            let p = path.clone();
            let record = match self.blocking(move |s| s.read(&p)).await {
                Ok(Ok(record)) => record,
                Ok(Err(corrupt)) => {
                    self.set_aside(path, &corrupt.to_string());
                    done.aside += 1;
                    continue;
                }
                Err(e) => {
                    tracing::error!(error = %e, "reading a spooled record");
                    done.remaining += 1;
                    continue;
                }
            };
            match store_once(store, &record).await {
                Ok(stored) => {
                    if stored {
                        done.stored += 1;
                    } else {
                        done.already += 1;
                    }
                    self.observer().spool_replayed();
                    if let Err(e) = self.remove_async(path.clone()).await {
                        tracing::error!(error = %e, "deleting a stored record from the spool");
                    }
                }
                Err(e) if e.is_transient() => {
                    done.remaining += paths.len() - i;
                    tracing::warn!(
                        error = %e,
                        remaining = done.remaining,
                        "the database is unreachable: spooled records wait for the next try"
                    );
                    break;
                }
                Err(e) => {
                    self.set_aside(path, &format!("the database refused it: {e}"));
                    done.aside += 1;
                }
            }
        }
        if done != Replayed::default() {
            tracing::info!(
                dir = %self.dir().display(),
                stored = done.stored,
                already = done.already,
                aside = done.aside,
                remaining = done.remaining,
                "spooled games and matches replayed into the database"
            );
        }
        done
    }

    async fn remove_async(&self, path: PathBuf) -> Result<(), SpoolError> {
        self.blocking(move |s| s.remove(&path)).await
    }

    async fn blocking<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Spool) -> Result<T, SpoolError> + Send + 'static,
    ) -> Result<T, SpoolError> {
        let spool = self.clone();
        tokio::task::spawn_blocking(move || f(&spool))
            .await
            .map_err(|e| SpoolError::Task(e.to_string()))?
    }
}

/// Stores `record` unless it is stored already; whether it was stored now.
async fn store_once(store: &Store, record: &Record) -> Result<bool, StoreError> {
    match record {
        Record::Game(game) => {
            if store.stored_game(game).await?.is_some() {
                return Ok(false);
            }
            // Judged again, as the writer would have (a replay that could rank is re-simulated).
            let game = Arc::new(FinishedGame::clone(game));
            let judged = Arc::clone(&game);
            let verdict = tokio::task::spawn_blocking(move || judged.judge())
                .await
                .map_err(|e| StoreError::Task(e.to_string()))?;
            store.insert_games(&[(game, verdict)]).await?;
            Ok(true)
        }
        Record::Match(m) => {
            if store.stored_match(m).await?.is_some() {
                return Ok(false);
            }
            store.record_match(m).await?;
            Ok(true)
        }
    }
}

/// Replays the spool at start and then every [`super::REPLAY_EVERY`] while records wait, until
/// `shutdown` (a pass under way is dropped then: what it stored and did not delete yet is
/// found stored next time).
pub async fn run_replays(spool: Spool, store: Store, shutdown: CancellationToken) {
    loop {
        if !spool.is_empty() {
            tokio::select! {
                _ = spool.replay(&store) => {}
                () = shutdown.cancelled() => return,
            }
        }
        tokio::select! {
            () = tokio::time::sleep(super::REPLAY_EVERY) => {}
            () = shutdown.cancelled() => return,
        }
    }
}
