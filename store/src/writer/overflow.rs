//! A full queue: the games the writer's bounded queue has no room for (the database is slower
//! than the games end, for long) are not lost and never block the session that submits them.
//! Each goes to the spool at once, on a task the writer owns (its handle finishes only once
//! they are written), as a game the database did not take does; its receiver hears
//! [`WriteError::Spooled`]. Without a spool, or past [`MAX_IN_FLIGHT`] games being spooled,
//! the game is logged whole (as after every retry) and its receiver gets the error.

use std::sync::Arc;

use tokio::sync::{Semaphore, oneshot};
use tokio_util::task::TaskTracker;

use super::{FinishedGame, WriteError, WriteResult, log_lost};
use crate::spool::{Record, Spool};

/// Games submitted and not yet judged, at most (the writer's queue).
pub(super) const QUEUE: usize = 4096;

/// Games of a full queue being written to the spool at once, at most.
pub(super) const MAX_IN_FLIGHT: usize = 64;

/// Why such a game was not stored.
const FULL: &str = "the game writer's queue is full";

/// Where the games a full queue turns away go.
#[derive(Clone, Debug)]
pub(super) struct Overflow {
    spool: Option<Spool>,
    tasks: TaskTracker,
    in_flight: Arc<Semaphore>,
}

impl Overflow {
    /// Games go to `spool`, each on a task of `tasks` (the writer's).
    pub(super) fn new(spool: Option<Spool>, tasks: TaskTracker) -> Overflow {
        Overflow {
            spool,
            tasks,
            in_flight: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
        }
    }

    /// Takes `game`, which the queue had no room for; never waits.
    pub(super) fn take(&self, game: Arc<FinishedGame>, reply: oneshot::Sender<WriteResult>) {
        let failed = |game: &FinishedGame, reply: oneshot::Sender<WriteResult>, why: &str| {
            log_lost(game, why);
            let _ = reply.send(Err(WriteError::Failed {
                attempts: 0,
                error: FULL.to_owned(),
            }));
        };
        let Some(spool) = self.spool.clone() else {
            return failed(&game, reply, FULL);
        };
        let Ok(permit) = Arc::clone(&self.in_flight).try_acquire_owned() else {
            return failed(&game, reply, &format!("{FULL}; the spool is busy too"));
        };
        self.tasks.spawn(async move {
            let record = Record::Game(Box::new(FinishedGame::clone(&game)));
            match spool.put_async(record).await {
                Ok(path) => {
                    tracing::warn!(
                        player = game.player.0,
                        file = %path.display(),
                        "a finished game found the writer's queue full: spooled, to be stored later"
                    );
                    let _ = reply.send(Err(WriteError::Spooled {
                        attempts: 0,
                        error: FULL.to_owned(),
                    }));
                }
                Err(e) => failed(&game, reply, &format!("{FULL}; not spooled either: {e}")),
            }
            drop(permit);
        });
    }
}
