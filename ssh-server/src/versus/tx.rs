//! [`SessionTx`]: a session's response channel as rooms and the queue use it. It never waits,
//! its memory is bounded, and it never drops garbage or a match's start and end while the
//! session keeps up.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use minotty_ui::Response;
use tokio::sync::mpsc;
use tokio_util::task::TaskTracker;

use super::lock;

/// Responses queued for one session before senders wait (the session's response channel,
/// which rooms, the queue and the services write to).
pub const RESPONSE_QUEUE: usize = 256;

/// The most responses that wait for a session whose queue is full. A session this far behind
/// cannot keep up: it is marked overflowed, and its room lets it go (a forfeit in a match).
pub const BACKLOG_MAX: usize = 1024;

/// A session's response channel as versus uses it: never waits, and drops only `Opponents`
/// (coalesced news, a fresher one follows), older room views (latest wins) and, once the
/// session fell [`BACKLOG_MAX`] responses behind, everything until its room let it go.
///
/// While the session's bounded queue has room, responses go straight into it. When it is full,
/// every response but `Opponents` waits in a backlog that a forwarding task feeds into the
/// queue, in order, as the session reads it; until the backlog is empty later responses join
/// it (so the order per session is kept) and `Opponents` are dropped. A room view joining the
/// backlog right after another replaces it. The backlog goes when the session ends.
#[derive(Clone, Debug)]
pub struct SessionTx {
    tx: mpsc::Sender<Response>,
    backlog: Arc<Mutex<Backlog>>,
    /// The backlog was full and a response was dropped (see [`SessionTx::overflowed`]).
    overflowed: Arc<AtomicBool>,
    /// The backlog's forwarding task (at most one at a time), which ends when the backlog is
    /// empty or the session's receiver is gone: it never outlives its session.
    forwarder: TaskTracker,
}

#[derive(Debug, Default)]
struct Backlog {
    queued: VecDeque<Response>,
    /// A forwarding task is running (it clears this when the backlog is empty).
    forwarding: bool,
}

impl SessionTx {
    pub fn new(tx: mpsc::Sender<Response>) -> SessionTx {
        SessionTx {
            tx,
            backlog: Arc::new(Mutex::new(Backlog::default())),
            overflowed: Arc::new(AtomicBool::new(false)),
            forwarder: TaskTracker::new(),
        }
    }

    /// Forwarding tasks running for this session now (0 or 1).
    pub fn forwarding_tasks(&self) -> usize {
        self.forwarder.len()
    }

    /// The session has ended (its receiver is gone).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// How many responses wait in the backlog.
    pub fn backlog_len(&self) -> usize {
        lock(&self.backlog).queued.len()
    }

    /// The session fell so far behind that a response had to be dropped: it no longer gets
    /// everything a match needs. Stays set until [`SessionTx::recover`].
    pub fn overflowed(&self) -> bool {
        self.overflowed.load(Ordering::Relaxed)
    }

    /// The session asks for something new (a room, the queue): it starts over.
    pub fn recover(&self) {
        self.overflowed.store(false, Ordering::Relaxed);
    }

    /// Queues `response` without waiting. `false` when it was dropped: the session is gone,
    /// it is an `Opponents` and the session's queue is full, or the backlog is full.
    pub fn send(&self, response: Response) -> bool {
        self.push(response, false)
    }

    /// Queues the last word a room has for a session it lets go for being too far behind
    /// (one response past the backlog's bound).
    pub fn send_last(&self, response: Response) -> bool {
        self.push(response, true)
    }

    fn push(&self, response: Response, last: bool) -> bool {
        let droppable = matches!(response, Response::Opponents(_));
        let mut backlog = lock(&self.backlog);
        if backlog.forwarding {
            if droppable {
                return false;
            }
            return self.queue(&mut backlog, response, last);
        }
        match self.tx.try_send(response) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Closed(_)) => false,
            Err(mpsc::error::TrySendError::Full(_)) if droppable => false,
            Err(mpsc::error::TrySendError::Full(response)) => {
                tracing::debug!("a session's response queue is full: responses wait in order");
                backlog.queued.push_back(response);
                backlog.forwarding = true;
                let task = forward(self.tx.clone(), Arc::clone(&self.backlog));
                self.forwarder.spawn(task);
                true
            }
        }
    }

    /// Adds `response` to the backlog of a forwarding session.
    fn queue(&self, backlog: &mut Backlog, response: Response, last: bool) -> bool {
        // Latest wins: a room view replaces the one just before it.
        if matches!(response, Response::Room(_))
            && let Some(prev @ Response::Room(_)) = backlog.queued.back_mut()
        {
            *prev = response;
            return true;
        }
        let full = backlog.queued.len() >= BACKLOG_MAX;
        if (full && !last) || (last && backlog.queued.len() > BACKLOG_MAX) {
            if !self.overflowed.swap(true, Ordering::Relaxed) {
                tracing::warn!(
                    backlog = backlog.queued.len(),
                    "a session cannot keep up with its room: responses are dropped"
                );
            }
            return false;
        }
        if self.overflowed() && !last {
            // Behind and already missing responses: nothing more until it starts over.
            return false;
        }
        backlog.queued.push_back(response);
        true
    }
}

/// Feeds the backlog into the session's queue, waiting for room, until it is empty.
async fn forward(tx: mpsc::Sender<Response>, backlog: Arc<Mutex<Backlog>>) {
    loop {
        let next = {
            let mut b = lock(&backlog);
            match b.queued.pop_front() {
                Some(r) => r,
                None => {
                    b.forwarding = false;
                    return;
                }
            }
        };
        if tx.send(next).await.is_err() {
            // The session ended: nobody to tell.
            let mut b = lock(&backlog);
            b.queued.clear();
            b.forwarding = false;
            return;
        }
    }
}
