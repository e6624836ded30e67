//! The russh `Handler`: authentication, then a thin adapter that turns channel callbacks into
//! messages for the session's own task (or starts an exec command). It owns no game state.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use minotty_domain::{ClientAddr, DisplayName, KeyFingerprint};
use russh::server::{Auth, ChannelOpenHandle, Msg, Response, Session, VerifiedPublicKey};
use russh::{Channel, ChannelId, ChannelOpenFailure, MethodKind, MethodSet, Pty};
use tokio::sync::{oneshot, watch};

use crate::commands::{self, Command, Route, exec};
use crate::core::shared::Shared;
use crate::services::Identity;
use crate::services::account::KeyLookup;
use crate::session::{self, SessionEvent, SessionKind};
use minotty_domain::AccountRef;

mod activity;
mod channels;
mod identity;
pub use activity::Activity;
use channels::{ChannelState, MAX_CHANNELS};

/// One SSH connection's handler.
#[derive(Debug)]
pub struct ConnectionHandler {
    shared: Arc<Shared>,
    peer: SocketAddr,
    /// The client's address as every limit keys it (made once, in `server.rs`).
    client: ClientAddr,
    player: DisplayName,
    /// The key of the method that authenticated (a guest until then, and for
    /// keyboard-interactive).
    identity: Identity,
    /// The account of the key, looked up once, when authentication succeeded.
    account: Option<AccountRef>,
    authenticated: Option<oneshot::Sender<()>>,
    /// Open session channels (a few; at most one runs a game).
    channels: Vec<ChannelState>,
    /// Games and commands running, for the connection's "nothing to do" check.
    activity: Arc<Activity>,
    /// The connection's command budget and its one cast export.
    commands: crate::command_budget::ConnectionCommands,
    /// The connection's span (`conn`: id, peer), the parent of its sessions' spans.
    span: tracing::Span,
    /// The address the player connected to (not behind a proxy): filled into the commands
    /// shown to them (`address.rs`).
    local: Option<SocketAddr>,
}

impl ConnectionHandler {
    pub(crate) fn new(
        shared: Arc<Shared>,
        (peer, client): (SocketAddr, ClientAddr),
        authenticated: oneshot::Sender<()>,
        activity: Arc<Activity>,
    ) -> ConnectionHandler {
        ConnectionHandler {
            shared,
            peer,
            client,
            player: DisplayName::parse_or_guest(""),
            identity: Identity::Guest,
            account: None,
            authenticated: Some(authenticated),
            channels: Vec::new(),
            activity,
            commands: Default::default(),
            span: tracing::Span::current(),
            local: None,
        }
    }

    /// The handler of a connection the player made to `local` (see `address.rs`).
    pub(crate) fn reached_at(mut self, local: Option<SocketAddr>) -> ConnectionHandler {
        self.local = local;
        self
    }

    /// The account a key belongs to: one read on a read connection, bounded in time, never
    /// waiting for the database writer. A database that cannot answer in time is logged and
    /// the key is unknown for now (the player can still play; the session's start looks
    /// again).
    async fn lookup_account(&self, fingerprint: &KeyFingerprint) -> Option<AccountRef> {
        match self
            .shared
            .services
            .account
            .account_by_key(fingerprint)
            .await
        {
            KeyLookup::Registered(account) => Some(account),
            KeyLookup::Unknown | KeyLookup::Unavailable => None,
        }
    }

    fn channel_mut(&mut self, id: ChannelId) -> Option<&mut ChannelState> {
        self.channels.iter_mut().find(|c| c.id == id)
    }

    /// Whether a game is running on this connection (its session task still reads events).
    fn game_running(&self) -> bool {
        self.channels
            .iter()
            .any(|c| c.session.as_ref().is_some_and(|tx| !tx.is_closed()))
    }

    /// Forwards an event to the session task; a session that has ended is forgotten.
    async fn forward(&mut self, id: ChannelId, event: SessionEvent) {
        let Some(state) = self.channel_mut(id) else {
            return;
        };
        if let Some(tx) = &state.session
            && tx.send(event).await.is_err()
        {
            state.session = None;
        }
    }

    /// Starts the game; `initial` is a request made for the player at once (`join CODE`).
    fn start_game(
        &mut self,
        id: ChannelId,
        cols: u32,
        rows: u32,
        session: &mut Session,
        initial: Option<minotty_ui::Request>,
        kind: SessionKind,
    ) {
        let (window, size) = watch::channel((cols, rows));
        let channel = self.channels.iter().find(|c| c.id == id);
        let env = channel.map(|c| c.env.clone()).unwrap_or_default();
        let term = channel.and_then(|c| c.term.clone());
        let start = session::Start {
            player: self.player.clone(),
            identity: self.identity.clone(),
            peer: self.client,
            account: self.account.clone(),
            kind,
            doctor: crate::session::DoctorParams {
                term,
                ssh_client: Some(crate::doctor::printable(session.remote_sshid())),
                open: kind == SessionKind::Doctor,
            },
            local: self.local,
            initial,
        };
        tracing::info!(peer = %self.peer, player = %self.player, cols, rows, "game session started");
        let running = self.activity.enter();
        let span = tracing::info_span!(parent: &self.span, "session", player = %self.player);
        let client = Arc::new(session::client::SshChannel {
            handle: session.handle(),
            channel: id,
        });
        let tx = span.in_scope(|| session::start(&self.shared, start, client, size, env, running));
        if let Some(state) = self.channel_mut(id) {
            state.session = Some(tx);
            // A stream keeps its size whatever the client says.
            if kind != SessionKind::TvStream {
                state.window = Some(window);
            }
        }
    }

    /// Runs the exec command `command` on its own task (it may read the database) and sends
    /// its output, within the connection's and the address's budgets (`command_budget.rs`).
    fn start_command(&mut self, id: ChannelId, command: Command, session: &mut Session) {
        let caller = commands::run::Caller {
            handle: session.handle(),
            channel: id,
            pty: self.channel_mut(id).is_some_and(|c| c.pty.is_some()),
            account: self.account.as_ref().map(|a| a.id),
            peer: self.client,
            local: self.local,
            web: self
                .shared
                .web
                .as_ref()
                .and_then(|w| crate::address::web_base(w, self.local)),
        };
        let shared = Arc::clone(&self.shared);
        let limits = shared.limits.commands;
        let run = match commands::run::prepare(
            &shared.services,
            limits,
            &mut self.commands,
            command,
            caller,
        ) {
            Ok(run) => run,
            Err((refused, outcome)) => {
                tracing::info!(peer = %self.peer, ?refused, "exec command refused");
                return self.start_reply(id, outcome, session);
            }
        };
        if let Some(state) = self.channel_mut(id) {
            state.command = Some(run.cancel.clone().drop_guard());
        }
        let running = self.activity.enter();
        let ended = self.ended_flag(id);
        self.shared.tracker.spawn(async move {
            run.run().await;
            ended.store(true, Ordering::Relaxed);
            drop(running);
        });
    }

    fn start_reply(&mut self, id: ChannelId, outcome: exec::Outcome, session: &mut Session) {
        let pty = self.channel_mut(id).is_some_and(|c| c.pty.is_some());
        let handle = session.handle();
        let running = self.activity.enter();
        let ended = self.ended_flag(id);
        self.shared.tracker.spawn(async move {
            exec::send(&handle, id, outcome, pty).await;
            ended.store(true, Ordering::Relaxed);
            drop(running);
        });
    }

    /// The flag a task sets when it is done with channel `id` (a detached one for a channel
    /// already forgotten).
    fn ended_flag(&mut self, id: ChannelId) -> Arc<std::sync::atomic::AtomicBool> {
        self.channel_mut(id)
            .map(|c| Arc::clone(&c.ended))
            .unwrap_or_default()
    }
}

fn login_methods() -> MethodSet {
    MethodSet::from(&[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..])
}

impl russh::server::Handler for ConnectionHandler {
    type Error = russh::Error;

    /// OpenSSH probes with "none" first: answering with the real methods makes clients offer
    /// their keys (the player's identity); clients without keys use keyboard-interactive.
    async fn auth_none(&mut self, _user: &str) -> Result<Auth, Self::Error> {
        Ok(Auth::Reject {
            proceed_with_methods: Some(login_methods()),
            partial_success: false,
        })
    }

    async fn auth_publickey(
        &mut self,
        user: &str,
        key: VerifiedPublicKey<'_>,
    ) -> Result<Auth, Self::Error> {
        // Only noted here: the account is looked up once, for the key that authentication
        // ends with (`auth_succeeded`), however many keys a client offers.
        self.player = DisplayName::parse_or_guest(user);
        self.identity = Identity::of_key(
            identity::fingerprint_of(key.public_key),
            key.public_key.algorithm().as_str(),
        );
        self.account = None;
        Ok(Auth::Accept)
    }

    /// Guests: accepted at once, no questions asked.
    async fn auth_keyboard_interactive<'a>(
        &'a mut self,
        user: &str,
        _submethods: &str,
        _response: Option<Response<'a>>,
    ) -> Result<Auth, Self::Error> {
        self.player = DisplayName::parse_or_guest(user);
        // A guest: nothing of a key offered before counts.
        self.identity = Identity::Guest;
        self.account = None;
        Ok(Auth::Accept)
    }

    /// The identity is decided here, once: the user name and key of the method that
    /// succeeded, and the key's account.
    async fn auth_succeeded(&mut self, _session: &mut Session) -> Result<(), Self::Error> {
        if let Some(tx) = self.authenticated.take() {
            let _ = tx.send(());
        }
        if let Some(fingerprint) = self.identity.fingerprint().cloned() {
            self.account = self.lookup_account(&fingerprint).await;
        }
        tracing::info!(
            peer = %self.peer,
            player = %self.player,
            key = self.identity.fingerprint().map_or("none", KeyFingerprint::as_str),
            account = self.account.as_ref().map_or("none", |a| a.name.as_str()),
            "logged in"
        );
        Ok(())
    }

    async fn channel_open_session(
        &mut self,
        channel: Channel<Msg>,
        reply: ChannelOpenHandle,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        // Everything arrives through the callbacks below; the Channel object is not read.
        let id = channel.id();
        drop(channel);
        self.channels.retain(|c| !c.is_over());
        if self.channels.len() >= MAX_CHANNELS {
            reply
                .reject(ChannelOpenFailure::AdministrativelyProhibited)
                .await;
            return Ok(());
        }
        self.channels.push(ChannelState {
            id,
            pty: None,
            started: false,
            session: None,
            window: None,
            env: crate::terminal::TermEnv::default(),
            term: None,
            command: None,
            ended: Arc::default(),
        });
        reply.accept().await;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    async fn pty_request(
        &mut self,
        channel: ChannelId,
        term: &str,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _modes: &[(Pty, u32)],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        match self.channel_mut(channel) {
            Some(state) if !state.started => {
                state.pty = Some((col_width, row_height));
                state.term = (!term.is_empty()).then(|| crate::doctor::printable(term.as_bytes()));
                session.channel_success(channel)
            }
            _ => session.channel_failure(channel),
        }
    }

    async fn shell_request(
        &mut self,
        channel: ChannelId,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let game_running = self.game_running();
        let pty = match self.channel_mut(channel) {
            // One game per connection: a second one would dodge the per-address limit.
            Some(state) if !(state.started || state.pty.is_some() && game_running) => {
                state.started = true;
                state.pty
            }
            _ => return session.channel_failure(channel),
        };
        session.channel_success(channel)?;
        match pty {
            Some((cols, rows)) => {
                self.start_game(channel, cols, rows, session, None, SessionKind::Play)
            }
            None => self.start_reply(channel, exec::no_pty(), session),
        }
        Ok(())
    }

    async fn exec_request(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let command = Command::parse(data);
        let game_running = self.game_running();
        let pty = match self.channel_mut(channel) {
            Some(state)
                if !(state.started || command.second_game(state.pty.is_some(), game_running)) =>
            {
                state.started = true;
                state.pty
            }
            _ => return session.channel_failure(channel),
        };
        session.channel_success(channel)?;
        tracing::info!(peer = %self.peer, player = %self.player, "exec command");
        let client = || crate::doctor::ClientInfo {
            pty: false,
            term: None,
            env: self
                .channels
                .iter()
                .find(|c| c.id == channel)
                .map(|c| c.env.clone())
                .unwrap_or_default(),
            ssh_client: Some(crate::doctor::printable(session.remote_sshid())),
        };
        match command.route(pty, client, self.local) {
            Route::Session {
                kind,
                cols,
                rows,
                initial,
            } => self.start_game(channel, cols, rows, session, initial, kind),
            Route::Reply(outcome) => self.start_reply(channel, outcome, session),
            Route::Run(command) => self.start_command(channel, command, session),
        }
        Ok(())
    }

    async fn window_change_request(
        &mut self,
        channel: ChannelId,
        col_width: u32,
        row_height: u32,
        _pix_width: u32,
        _pix_height: u32,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        let Some(state) = self.channel_mut(channel) else {
            return Ok(());
        };
        if state.pty.is_some() {
            state.pty = Some((col_width, row_height));
        }
        // Only the latest size is kept (no allocation, no queue, and the session is woken by
        // the first change only): it applies the size once the client stops changing it
        // (`crate::resize`), however many arrive.
        let size = (col_width, row_height);
        if let Some(window) = &state.window {
            window.send_if_modified(|current| {
                let changed = *current != size;
                *current = size;
                changed
            });
        }
        Ok(())
    }

    async fn data(
        &mut self,
        channel: ChannelId,
        data: &[u8],
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.forward(channel, SessionEvent::Input(data.to_vec()))
            .await;
        Ok(())
    }

    async fn channel_eof(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.forward(channel, SessionEvent::Eof).await;
        Ok(())
    }

    async fn channel_close(
        &mut self,
        channel: ChannelId,
        _session: &mut Session,
    ) -> Result<(), Self::Error> {
        self.forward(channel, SessionEvent::Closed).await;
        self.channels.retain(|c| c.id != channel);
        Ok(())
    }

    // Nothing but the game and its commands ever runs: X11 and subsystems (sftp) are refused,
    // and of environment variables only the three that describe the terminal are kept. Agent forwarding, TCP/IP and stream-local forwarding are refused
    // by russh's defaults (they answer false / reject the channel), which tests check.

    async fn x11_request(
        &mut self,
        channel: ChannelId,
        _single_connection: bool,
        _x11_auth_protocol: &str,
        _x11_auth_cookie: &str,
        _x11_screen_number: u32,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn subsystem_request(
        &mut self,
        channel: ChannelId,
        _name: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        session.channel_failure(channel)
    }

    async fn env_request(
        &mut self,
        channel: ChannelId,
        variable_name: &str,
        variable_value: &str,
        session: &mut Session,
    ) -> Result<(), Self::Error> {
        let kept = match self.channel_mut(channel) {
            Some(state) if !state.started => state.env.accept(variable_name, variable_value),
            _ => false,
        };
        if kept {
            session.channel_success(channel)
        } else {
            session.channel_failure(channel)
        }
    }
}
