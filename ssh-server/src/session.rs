//! One player's game session: a task that owns the terminal, the input decoder and the UI
//! `App`. It sleeps until input, a resize, the App's next wakeup, the next allowed frame or
//! shutdown; the russh handler only forwards events to it.
//!
//! What the client sends is held to budgets before it reaches the App
//! ([`crate::budget::InputGate`]): bytes parsed per second, bytes that parse to nothing, key
//! events per second. Window changes are merged: only the latest size is kept, and it is
//! applied once the client stops changing it ([`crate::resize`]).
//!
//! The session's state and every decision are a struct whose time comes in (`session/core.rs`,
//! like the engine: each method takes `now` and returns what to do); `session/shell.rs` is the
//! thin async loop that reads tokio's clock, waits and does the IO, through the client's end
//! (`session/client.rs`: the SSH channel, or an in-memory recorder in the tests).

use std::sync::Arc;
use std::time::Duration;

use minotty_domain::DisplayName;
use minotty_ui::Response;
use russh::ChannelId;
use russh::server::Handle;
use tokio::sync::{mpsc, watch};
use tokio::time::timeout;
use tokio_util::sync::CancellationToken;

use crate::config::Limits;
use crate::services::Services;
use crate::terminal;

pub(crate) mod client;
mod core;
mod idle;
mod negotiation;
mod outbox;
mod pacing;
mod probe;
mod shell;
mod wake;

/// What the handler forwards to the session task.
#[derive(Debug)]
pub enum SessionEvent {
    Input(Vec<u8>),
    /// The client will send no more input.
    Eof,
    /// The client closed the channel.
    Closed,
}

/// Events queued between the handler and the session before the handler waits.
pub const EVENT_QUEUE: usize = 64;

/// How long the goodbye (terminal restore, exit status, close) may take.
const GOODBYE_TIMEOUT: Duration = Duration::from_secs(5);

/// What a session is for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SessionKind {
    /// The game, from the main menu.
    #[default]
    Play,
    /// The game, opened at the Live screen's TV (`ssh -t HOST watch`).
    Tv,
    /// The TV streamed to a client without a terminal (`ssh HOST watch`): frames at 80x24, no
    /// input read, ended by the client, the server or [`crate::live::MAX_WATCH`].
    TvStream,
    /// The game, opened at the terminal doctor (`ssh -t HOST doctor`); leaving it ends the
    /// session.
    Doctor,
    /// The game, opened at the replay of stored versus match `id` (`ssh -t HOST replay mN`).
    Match(i64),
}

/// Everything a session starts from: the client's channel and the [`Setup`].
#[derive(Debug)]
pub struct SessionParams {
    pub handle: Handle,
    pub channel: ChannelId,
    pub setup: Setup,
}

/// The terminal doctor's part of [`SessionParams`].
#[derive(Clone, Debug, Default)]
pub struct DoctorParams {
    pub term: Option<String>,
    pub ssh_client: Option<String>,
    /// Open on the Doctor screen; leaving it ends the session.
    pub open: bool,
}

/// Why a session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Quit,
    Idle,
    Shutdown,
    ClientEof,
    ClientGone,
    /// The key the player logged in with was removed from its account.
    KeyRemoved,
    /// A watcher reached [`crate::live::MAX_WATCH`].
    WatchLimit,
}

/// What a session starts from, whatever its client: the shell runs it over the SSH channel
/// (or, in tests, an in-memory client).
#[derive(Debug)]
pub struct Setup {
    pub player: DisplayName,
    /// Columns and rows of the client's window: from the PTY request, then the latest window
    /// change (clamped here). Only the latest size is ever kept.
    pub size: watch::Receiver<(u32, u32)>,
    /// What the client's environment requests said about its terminal.
    pub env: crate::terminal::TermEnv,
    pub limits: Limits,
    pub shutdown: CancellationToken,
    /// Where a solo game goes when the connection drops, and comes back from (players with a
    /// key only).
    pub reconnect: Option<crate::reconnect::Reconnect>,
    /// The session's accounts and versus services and the channel their answers come on.
    pub services: (Services, mpsc::Receiver<Response>),
    pub kind: SessionKind,
    /// What the terminal doctor starts from (TERM, the client's SSH version), and whether the
    /// session opens on it (`ssh -t HOST doctor`).
    pub doctor: DoctorParams,
    /// The address the player connected to (`address.rs`), for the commands screens print.
    pub local: Option<std::net::SocketAddr>,
}

/// Runs the session until the player quits, the client leaves or the server shuts down.
pub async fn run(params: SessionParams, events: mpsc::Receiver<SessionEvent>) {
    let SessionParams {
        handle,
        channel,
        setup,
    } = params;
    shell::run(
        setup,
        Arc::new(client::SshChannel { handle, channel }),
        events,
    )
    .await;
}

/// Restores the terminal after the session task failed (a bug): the player is told and the
/// channel closed, so their terminal is usable again.
pub async fn restore_after_failure(handle: Handle, channel: ChannelId) {
    let mut bytes = terminal::leave_sequence(true);
    bytes.extend_from_slice(b"minotty: something went wrong on the server, sorry\r\n");
    let fut = async {
        let _ = handle.data(channel, bytes).await;
        let _ = handle.exit_status_request(channel, 1).await;
        let _ = handle.eof(channel).await;
        let _ = handle.close(channel).await;
    };
    let _ = timeout(GOODBYE_TIMEOUT, fut).await;
}

#[cfg(test)]
mod size_tests;
#[cfg(test)]
mod tests;
