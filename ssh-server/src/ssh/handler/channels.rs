//! The state of one session channel of a connection, and how many may be open at once.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use russh::ChannelId;
use tokio::sync::{mpsc, watch};

use crate::session::SessionEvent;

/// Session channels one connection may have open at once.
pub(super) const MAX_CHANNELS: usize = 4;

#[derive(Debug)]
pub(super) struct ChannelState {
    pub(super) id: ChannelId,
    /// Columns and rows from the PTY request, when there was one.
    pub(super) pty: Option<(u32, u32)>,
    /// A shell or exec request was accepted: no more requests of either kind.
    pub(super) started: bool,
    pub(super) session: Option<mpsc::Sender<SessionEvent>>,
    /// The latest window size, read by the session when it draws (never a queue of sizes).
    pub(super) window: Option<watch::Sender<(u32, u32)>>,
    /// `COLORTERM`, `TERM_PROGRAM` and `LANG` from environment requests (nothing else).
    pub(super) env: crate::terminal::TermEnv,
    /// `TERM` from the PTY request (printable ASCII, at most `doctor::MAX_TEXT` bytes).
    pub(super) term: Option<String>,
    /// Cancels the channel's command (a cast export) when the channel closes or the
    /// connection ends: dropped with this state.
    pub(super) command: Option<tokio_util::sync::DropGuard>,
    /// Set when the channel's command or reply has been sent and the channel closed by us.
    pub(super) ended: Arc<std::sync::atomic::AtomicBool>,
}

impl ChannelState {
    /// Its work is over and the server closed it: its slot is free. (russh does not call
    /// `channel_close` for a channel the server closed first, so without this a connection's
    /// fifth command would find every slot taken.)
    pub(super) fn is_over(&self) -> bool {
        self.ended.load(Ordering::Relaxed) || self.session.as_ref().is_some_and(|tx| tx.is_closed())
    }
}
