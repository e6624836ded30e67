//! The queue task's inbox: bounded ([`QUEUE_INBOX`]), and never waited on by a session or by
//! another instance's message. When it is full, a way out of the queue (`Cancel`, `Drain`)
//! waits in a tracked task of its own (never lost, as a room's leave); anything else is
//! refused, and its player told at once that matchmaking is busy (a join's ranked claim is
//! released): one flood costs its senders their requests, never the others a stall.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use minotty_ui::Response;
use tokio::sync::mpsc;
use tokio_util::task::TaskTracker;

use super::{Hub, QueueMsg, queue};

/// Messages that wait for the queue task at most (joins of every session and of other
/// instances' players; lobby requests are rate limited per session).
pub const QUEUE_INBOX: usize = 1024;

/// What a player whose queue request found the inbox full is told.
pub const QUEUE_BUSY: &str = "Matchmaking is busy right now: try again in a moment.";

/// The queue task's address (see the module's notes).
#[derive(Clone, Debug)]
pub struct QueueTx {
    tx: mpsc::Sender<QueueMsg>,
    /// Where a way out waits for a full inbox (the hub's tasks).
    tasks: TaskTracker,
}

/// Why the queue did not take a message.
#[derive(Debug)]
pub enum QueueRefused {
    /// Its inbox is full: the message is handed back.
    Full(Box<QueueMsg>),
    /// The queue has stopped (the hub shut down).
    Closed(Box<QueueMsg>),
}

impl QueueTx {
    pub(super) fn new(tx: mpsc::Sender<QueueMsg>, tasks: TaskTracker) -> QueueTx {
        QueueTx { tx, tasks }
    }

    /// Queues `msg` without waiting. A way out that finds the inbox full waits in a task of
    /// its own and counts as sent; anything else that finds it full is handed back.
    pub fn send(&self, msg: QueueMsg) -> Result<(), QueueRefused> {
        match self.tx.try_send(msg) {
            Ok(()) => Ok(()),
            Err(mpsc::error::TrySendError::Closed(msg)) => Err(QueueRefused::Closed(Box::new(msg))),
            Err(mpsc::error::TrySendError::Full(
                msg @ (QueueMsg::Cancel { .. } | QueueMsg::Drain),
            )) => {
                let tx = self.tx.clone();
                self.tasks.spawn(async move {
                    let _ = tx.send(msg).await;
                });
                Ok(())
            }
            Err(mpsc::error::TrySendError::Full(msg)) => Err(QueueRefused::Full(Box::new(msg))),
        }
    }

    /// Messages waiting in the inbox now.
    pub fn waiting(&self) -> usize {
        self.tx.max_capacity() - self.tx.capacity()
    }
}

impl Hub {
    /// The matchmaking queue (started on first use; its task is the hub's, ended by its
    /// shutdown).
    pub fn queue(self: &Arc<Self>) -> QueueTx {
        self.queue
            .get_or_init(|| {
                let (tx, rx) = mpsc::channel(QUEUE_INBOX);
                let me = QueueTx::new(tx, self.tasks.clone());
                let task = queue::run(Arc::clone(self), rx, self.stop.clone());
                self.tasks.spawn(task);
                me
            })
            .clone()
    }

    /// Sends `msg` to the queue; `false` when it was refused: the queue is full (its player,
    /// when the message names one, is told so, and a join's claim is released) or stopped.
    pub fn to_queue(self: &Arc<Self>, msg: QueueMsg) -> bool {
        let msg = match self.queue().send(msg) {
            Ok(()) => return true,
            Err(QueueRefused::Closed(_)) => return false,
            Err(QueueRefused::Full(msg)) => msg,
        };
        self.queue_refused.fetch_add(1, Ordering::Relaxed);
        tracing::debug!("the matchmaking queue's inbox is full: a request is refused");
        match *msg {
            QueueMsg::Join { member, claim } | QueueMsg::JoinFrom { member, claim, .. } => {
                self.release_ranked(claim);
                member.send(Response::RoomFailed {
                    message: QUEUE_BUSY.into(),
                });
            }
            QueueMsg::AcceptBot { member } => {
                member.send(Response::Notice {
                    message: QUEUE_BUSY.into(),
                });
            }
            _ => {}
        }
        false
    }

    /// Queue requests refused so far because its inbox was full.
    pub fn queue_refused(&self) -> u64 {
        self.queue_refused.load(Ordering::Relaxed)
    }
}
