//! The end of the hub: the match recorder every finished match goes to, and the server's
//! shutdown (rooms hand over their decided matches, the recorder writes what is queued, the
//! other instances' side stops).

use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::{Hub, RoomMsg, lock, record};
use minotty_store::NewMatch;

/// The match recorder, started on the first match; `closed` once shutdown took it.
#[derive(Debug, Default)]
pub(super) struct RecorderSlot {
    recorder: Option<record::Recorder>,
    closed: bool,
}

impl Hub {
    /// Hands a finished match to the background writer (nothing without a store).
    pub(super) fn record(&self, m: NewMatch) {
        let Some(store) = &self.store else {
            return;
        };
        let mut slot = lock(&self.recorder);
        if slot.closed {
            drop(slot);
            let why = "it ended after the match recorder was shut down";
            record::keep(self.spool.get(), &m, why);
            return;
        }
        slot.recorder
            .get_or_insert_with(|| {
                record::Recorder::spawn(store.clone(), self.spool.get().cloned())
            })
            .record(m);
    }

    /// Whether the server is shutting down (see [`Hub::begin_shutdown`]).
    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::Relaxed)
    }

    /// Called before the sessions are told to end: a match still running is then abandoned
    /// (logged, not stored, no rating changes) instead of being lost by whoever's session
    /// ends first.
    pub fn begin_shutdown(&self) {
        self.shutting_down.store(true, Ordering::Relaxed);
    }

    /// At server shutdown, after the sessions ended: every room stores its decided match
    /// (without the replays still missing) and closes, the remote side stops, then the
    /// recorder writes what is queued. Waits at most `patience` in all; every match not written by then is logged as
    /// an error. Returns how many were not written.
    pub async fn shutdown(&self, patience: Duration) -> usize {
        self.begin_shutdown();
        let deadline = Instant::now() + patience;
        let rooms: Vec<mpsc::Sender<RoomMsg>> = lock(&self.rooms).values().cloned().collect();
        for tx in rooms {
            // A full inbox is read soon: the room's task is alive while registered.
            let _ = tokio::time::timeout_at(deadline, tx.send(RoomMsg::Shutdown)).await;
        }
        self.room_tasks.close();
        if tokio::time::timeout_at(deadline, self.room_tasks.wait())
            .await
            .is_err()
        {
            tracing::error!(
                rooms = self.room_count(),
                "some rooms did not close in time: their matches may not be stored"
            );
        }
        // The rooms are closed: the other instances' side (its listeners, proxies, links)
        // stops with the hub.
        if let Some(remote) = &self.remote {
            remote.stop();
        }
        // The queue and what waits for a full inbox end with the hub.
        self.stop.cancel();
        self.tasks.close();
        let _ = tokio::time::timeout_at(deadline, self.tasks.wait()).await;
        let recorder = {
            let mut slot = lock(&self.recorder);
            slot.closed = true;
            slot.recorder.take()
        };
        match recorder {
            Some(r) => {
                r.finish(deadline.saturating_duration_since(Instant::now()))
                    .await
            }
            None => 0,
        }
    }
}
