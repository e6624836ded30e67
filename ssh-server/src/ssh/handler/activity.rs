//! What runs on one connection: games and commands counted while they run, so the connection
//! can be closed once nothing has run for a while.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What runs on one connection: the connection is closed when nothing has run for a while,
/// also when a client never answers the close of a channel whose game has ended.
#[derive(Debug, Default)]
pub struct Activity {
    running: AtomicUsize,
    started: AtomicUsize,
}

impl Activity {
    /// Games and commands running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// Games and commands started on the connection so far.
    pub fn started(&self) -> usize {
        self.started.load(Ordering::Relaxed)
    }

    /// Counts a game or command as running until the guard drops (with its task, also when
    /// the task panics).
    pub(super) fn enter(self: &Arc<Self>) -> RunningGuard {
        self.started.fetch_add(1, Ordering::Relaxed);
        self.running.fetch_add(1, Ordering::Relaxed);
        RunningGuard(Arc::clone(self))
    }
}

#[derive(Debug)]
pub(super) struct RunningGuard(Arc<Activity>);

impl Drop for RunningGuard {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::Relaxed);
    }
}
