//! The background writer of finished matches: rooms hand their records over without waiting
//! for the database. A busy database is retried a few times.
//!
//! A record is never lost silently: one the database refuses is logged as an error, and at
//! shutdown [`Recorder::finish`] waits (bounded) for what is queued and logs each match it
//! could not write.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::task::JoinHandle;

use super::lock;
use crate::store::{NewMatch, Store};

/// Tries per match before it is given up (and logged).
const TRIES: u32 = 5;

/// The queue of matches to write and its writing task.
#[derive(Debug)]
pub(super) struct Recorder {
    shared: Arc<Shared>,
    task: JoinHandle<()>,
}

#[derive(Debug, Default)]
struct Shared {
    state: Mutex<State>,
    wake: Notify,
}

#[derive(Debug, Default)]
struct State {
    queued: VecDeque<NewMatch>,
    /// The match being written now.
    writing: Option<NewMatch>,
    /// No more matches are taken; the task ends once the queue is empty.
    closing: bool,
}

impl Recorder {
    /// Starts the writing task.
    pub(super) fn spawn(store: Store) -> Recorder {
        let shared = Arc::new(Shared::default());
        let task = tokio::spawn(run(store, Arc::clone(&shared)));
        Recorder { shared, task }
    }

    /// Queues `m` to be written; after [`Recorder::finish`] began it is logged as not stored.
    pub(super) fn record(&self, m: NewMatch) {
        let mut state = lock(&self.shared.state);
        if state.closing {
            drop(state);
            lost(&m, "the server is shutting down");
            return;
        }
        state.queued.push_back(m);
        crate::metrics::match_recorder_queued(1);
        drop(state);
        self.shared.wake.notify_one();
    }

    /// Matches queued or being written.
    #[cfg(test)]
    pub(super) fn pending(&self) -> usize {
        let state = lock(&self.shared.state);
        state.queued.len() + usize::from(state.writing.is_some())
    }

    /// Shutdown: takes no more matches and waits up to `patience` for the queued ones to be
    /// written. Each match still unwritten then is logged as an error. Returns how many.
    pub(super) async fn finish(self, patience: Duration) -> usize {
        let Recorder { shared, mut task } = self;
        lock(&shared.state).closing = true;
        shared.wake.notify_one();
        if tokio::time::timeout(patience, &mut task).await.is_ok() {
            return 0;
        }
        task.abort();
        let mut state = lock(&shared.state);
        let unwritten: Vec<NewMatch> = state
            .writing
            .take()
            .into_iter()
            .chain(state.queued.drain(..))
            .collect();
        drop(state);
        crate::metrics::match_recorder_queued(-i64::try_from(unwritten.len()).unwrap_or(0));
        for m in &unwritten {
            lost(m, "the match recorder did not finish before shutdown");
        }
        unwritten.len()
    }
}

/// Logs a match that will not be stored, with enough to find it again.
pub(super) fn lost(m: &NewMatch, why: &str) {
    let players: Vec<&str> = m.players.iter().map(|p| p.name.as_str()).collect();
    tracing::error!(
        room = %m.room,
        ranked = m.ranked,
        seed = m.seed,
        started_at = m.started_at,
        ended_at = m.ended_at,
        ?players,
        why,
        "A MATCH WAS NOT STORED"
    );
}

async fn run(store: Store, shared: Arc<Shared>) {
    loop {
        let next = {
            let mut state = lock(&shared.state);
            match state.queued.pop_front() {
                Some(m) => {
                    state.writing = Some(m.clone());
                    Some(m)
                }
                None if state.closing => return,
                None => None,
            }
        };
        match next {
            Some(m) => {
                write(&store, &m).await;
                lock(&shared.state).writing = None;
                crate::metrics::match_recorder_queued(-1);
            }
            // A notification sent before this wait is kept as a permit: none is missed.
            None => shared.wake.notified().await,
        }
    }
}

async fn write(store: &Store, m: &NewMatch) {
    let mut delay = Duration::from_millis(50);
    for attempt in 1..=TRIES {
        match crate::metrics::match_write_timed(store.record_match(m)).await {
            Ok(id) => {
                tracing::info!(id = id.0, room = %m.room, ranked = m.ranked, "match stored");
                return;
            }
            Err(e) if e.is_transient() && attempt < TRIES => {
                tracing::warn!(error = %e, attempt, "storing a match; trying again");
                tokio::time::sleep(delay).await;
                delay *= 4;
            }
            Err(e) => {
                tracing::error!(error = %e, "storing a match failed");
                lost(m, "the database refused it");
                return;
            }
        }
    }
}
