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

use minotty_domain::{AccountRef, ClientAddr, DisplayName};
use minotty_ui::Response;
use tokio::sync::{mpsc, watch};
use tokio::time::timeout;
use tokio_util::sync::CancellationToken;

use crate::config::Limits;
use crate::core::shared::Shared;
use crate::services::{Identity, Login, Services};
use crate::terminal::{self, TermEnv};
use client::Client;

pub(crate) mod client;
mod core;
mod idle;
mod negotiation;
mod outbox;
mod pacing;
mod probe;
pub mod remote;
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

/// The terminal doctor's part of a session's [`Start`].
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
    /// The linked browser the player plays in was unlinked from its account.
    BrowserUnlinked,
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
    /// The web pages' address as this player reaches them (`address::web_base`), for links.
    pub web: Option<String>,
}

/// What any front end knows when its player opens the game: who they are and what the
/// session is for. [`start`] makes the rest.
#[derive(Debug)]
pub(crate) struct Start {
    /// The name the client asked for (the SSH user; a browser's guest name), made safe.
    pub player: DisplayName,
    pub identity: Identity,
    pub peer: ClientAddr,
    /// The account the identity belongs to, looked up at login.
    pub account: Option<AccountRef>,
    pub kind: SessionKind,
    pub doctor: DoctorParams,
    /// The address the player connected to (`address.rs`).
    pub local: Option<std::net::SocketAddr>,
    /// A request made for the player at once (`join CODE`).
    pub initial: Option<minotty_ui::Request>,
}

/// Starts the session of `start` on `client`, sized by `size`, its terminal described by
/// `env`: the one way every front end (SSH, the web) opens the game. The session runs on the
/// core's task tracker and reads the events sent on the returned sender (at most
/// [`EVENT_QUEUE`] queued); `running` is dropped when it ends. A panic in the session still
/// gives the client its terminal back and closes it.
pub(crate) fn start(
    shared: &Shared,
    start: Start,
    client: Arc<dyn Client>,
    size: watch::Receiver<(u32, u32)>,
    env: TermEnv,
    running: impl Send + 'static,
) -> mpsc::Sender<SessionEvent> {
    let (tx, events) = mpsc::channel(EVENT_QUEUE);
    let reconnect = crate::reconnect::Reconnect::of(&shared.parked, &start.identity, start.peer);
    let mut services = Services::new(
        &shared.services,
        Login {
            ssh_user: start.player.to_string(),
            identity: start.identity,
            peer: start.peer,
            account: start.account,
        },
    );
    if let Some(request) = start.initial {
        services.0.handle(request);
    }
    let setup = Setup {
        player: start.player,
        size,
        env,
        limits: shared.limits.clone(),
        shutdown: shared.shutdown.clone(),
        reconnect,
        services,
        kind: start.kind,
        doctor: start.doctor,
        web: shared
            .web
            .as_ref()
            .and_then(|w| crate::address::web_base(w, start.local)),
        local: start.local,
    };
    let task = shared.tracker.spawn(tracing::Instrument::in_current_span({
        let client = Arc::clone(&client);
        async move {
            shell::run(setup, client, events).await;
            drop(running);
        }
    }));
    shared.tracker.spawn(async move {
        if let Err(e) = task.await
            && e.is_panic()
        {
            tracing::error!("session task panicked; restoring the client's terminal");
            restore_after_failure(client.as_ref()).await;
        }
    });
    tx
}

/// Restores the terminal after the session task failed (a bug): the player is told and the
/// client closed, so their terminal is usable again.
async fn restore_after_failure(client: &dyn Client) {
    let mut bytes = terminal::leave_sequence(true);
    bytes.extend_from_slice(b"minotty: something went wrong on the server, sorry\r\n");
    let fut = async {
        let _ = client.data(bytes).await;
        client.close(1).await;
    };
    let _ = timeout(GOODBYE_TIMEOUT, fut).await;
}

#[cfg(test)]
mod size_tests;
#[cfg(test)]
mod tests;
