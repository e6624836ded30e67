//! The SSH front end: accepts TCP connections itself so limits apply before any cryptography,
//! runs each accepted connection with `russh::server::run_stream` on the core's services
//! (`core.rs`), and stops accepting on shutdown; [`run`] is the core and this front end together.

use std::borrow::Cow;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use russh::server::{Config, run_stream};
use russh::{Disconnect, MethodKind, MethodSet, Preferred, SshId, kex};
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, oneshot};
use tokio::time::{Instant, sleep, sleep_until, timeout, timeout_at};
use tracing::Instrument;

use crate::core::shared::Shared;
use crate::core::{Core, ServerConfig};
use crate::ssh::handler::{Activity, ConnectionHandler};
use crate::ssh::limits::{ConnectionLimiter, ConnectionPermit};
use crate::ssh::socket::{KillSwitch, Socket};
use minotty_domain::ClientAddr;

/// At most this many refused connections are kept open at once to deliver their message.
const MAX_REFUSALS_IN_FLIGHT: usize = 256;

/// At most this many connections from trusted proxies are awaiting their PROXY header at once.
const MAX_PROXY_HEADERS_IN_FLIGHT: usize = 1024;

/// How long a connection whose games and commands have all ended is kept for the client to
/// close it (a client that never answers the channel close would otherwise hold its slot).
pub const CLOSE_GRACE: Duration = Duration::from_secs(5);

/// How long giving up on a connection waits for its disconnect to be queued, sent and the
/// session to end; then its socket is closed under the session (russh sends a disconnect only
/// between key exchanges and once no channel data waits for the client's window, so a client
/// that stalls either would otherwise keep the socket).
pub const DISCONNECT_PATIENCE: Duration = Duration::from_secs(2);

/// How long the session task has to notice its socket closed, once killed (for the logs).
const KILLED_PATIENCE: Duration = Duration::from_millis(500);

/// Key exchanges offered: elliptic-curve only, so that no client can make the server compute
/// a large finite-field Diffie-Hellman per connection. The extension names are not key
/// exchanges but must stay (ext-info and OpenSSH's strict key exchange, which closes the
/// Terrapin prefix-truncation attack).
const KEX: &[kex::Name] = &[
    kex::MLKEM768X25519_SHA256,
    kex::CURVE25519,
    kex::CURVE25519_PRE_RFC_8731,
    kex::EXTENSION_SUPPORT_AS_SERVER,
    kex::EXTENSION_OPENSSH_STRICT_KEX_AS_SERVER,
];

/// Serves SSH on `listener` with a core of its own until `shutdown` completes (then, with
/// `--nats`, once the instance drained), and ends the core: every session restores its
/// player's terminal and the connections close (bounded).
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let core = crate::core::start(config).await?;
    let shutdown = core.shutdown_after(shutdown);
    serve(listener, &core, shutdown).await;
    core.stop().await;
    Ok(())
}

/// The SSH front end: accepts connections on `listener` for `core`, applying the connection
/// limits before any cryptography, until `shutdown` completes; then it stops accepting (the
/// core's [`Core::stop`] ends the sessions).
pub async fn serve(listener: TcpListener, core: &Core, shutdown: impl Future<Output = ()>) {
    let shared = core.shared();
    let config = &core.config;
    let ssh_config = Arc::new(ssh_config(config));
    let limiter = ConnectionLimiter::new(config.limits.connection_limits());
    let admission = Arc::new(Admission {
        shared: Arc::clone(shared),
        ssh_config,
        limiter: Arc::clone(&limiter),
        refusals: Arc::new(Semaphore::new(MAX_REFUSALS_IN_FLIGHT)),
        next_id: AtomicU64::new(1),
    });
    let proxy_headers = Arc::new(Semaphore::new(MAX_PROXY_HEADERS_IN_FLIGHT));
    if let Ok(addr) = listener.local_addr() {
        tracing::info!(%addr, "listening");
        let proxies = !shared.limits.proxy_from.0.is_empty();
        if let Some(warning) =
            crate::services::account::loopback_registration_warning(addr, proxies)
        {
            tracing::warn!(%addr, "{warning}");
        }
    }
    crate::metrics::HEALTH.set_serving();

    tokio::pin!(shutdown);
    loop {
        let (tcp, peer) = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    // Out of file descriptors and the like: back off instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        // `run_stream` does not apply `Config::nodelay` itself: without this every keystroke
        // and frame waits for Nagle.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "set_nodelay failed");
        }
        // The address the player connected to, shown in the commands the server prints.
        let local = tcp.local_addr().ok();
        // Counted, and closed for certain when whoever holds it gives up (`socket.rs`).
        let stream = Socket::new(tcp);
        if !shared.limits.proxy_from.trusts(peer.ip()) {
            admission.admit(stream, peer, None, local);
            continue;
        }
        // A trusted load balancer's connection: the player's address comes first, in a PROXY
        // header read off the accept loop, with a deadline and a size bound.
        let Ok(slot) = Arc::clone(&proxy_headers).try_acquire_owned() else {
            tracing::warn!(proxy = %peer, "too many PROXY headers pending; closing");
            continue;
        };
        let admission = Arc::clone(&admission);
        let deadline = Instant::now() + shared.limits.proxy_header_timeout;
        shared.tracker.spawn(async move {
            let mut stream = stream;
            let header = crate::ssh::proxy_protocol::read_header(&mut stream, deadline).await;
            drop(slot);
            match header {
                // Behind a proxy the local address is the proxy's way in, not the player's.
                Ok(header) => admission.admit(stream, header.client(peer), Some(peer), None),
                Err(error) => {
                    tracing::warn!(proxy = %peer, %error, "bad PROXY header; closing");
                }
            }
        });
    }

    drop(listener);
    crate::metrics::HEALTH.set_draining();
    // It holds `shared` (and with it the game writer's sender) too.
    drop(admission);
    tracing::info!(connections = limiter.total(), "shutting down");
}

/// What admits an accepted connection (and its player's address) past the limits.
struct Admission {
    shared: Arc<Shared>,
    ssh_config: Arc<Config>,
    limiter: Arc<ConnectionLimiter>,
    refusals: Arc<Semaphore>,
    next_id: AtomicU64,
}

impl Admission {
    /// Counts `peer` (the player's address: the TCP peer's, or the one a trusted `proxy`'s
    /// header gave) against the limits, then serves the connection or refuses it.
    fn admit(
        &self,
        stream: Socket,
        peer: SocketAddr,
        proxy: Option<SocketAddr>,
        local: Option<SocketAddr>,
    ) {
        if self.shared.shutdown.is_cancelled() {
            return;
        }
        let shared = &self.shared;
        // The one place the client's address is made: canonical from here on (an IPv4 client
        // of a `[::]` listener is its IPv4 address, in the limits, the logs and the services).
        let client = ClientAddr::new(peer.ip());
        let peer = SocketAddr::new(client.ip(), peer.port());
        match self.limiter.try_acquire(client) {
            Ok(permit) => {
                let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                let span = match proxy {
                    Some(proxy) => tracing::info_span!("conn", id, %peer, %proxy),
                    None => tracing::info_span!("conn", id, %peer),
                };
                let task = serve_connection(
                    Arc::clone(shared),
                    Arc::clone(&self.ssh_config),
                    stream,
                    (peer, client),
                    local,
                    permit,
                );
                shared.tracker.spawn(task.instrument(span));
            }
            Err(refusal) => {
                let message = refusal.message(self.limiter.limit_for(refusal));
                match proxy {
                    Some(proxy) => tracing::info!(%peer, %proxy, ?refusal, "connection refused"),
                    None => tracing::info!(%peer, ?refusal, "connection refused"),
                }
                if let Ok(slot) = Arc::clone(&self.refusals).try_acquire_owned() {
                    shared.tracker.spawn(async move {
                        crate::ssh::refusal::refuse(stream, &message).await;
                        drop(slot);
                    });
                }
            }
        }
    }
}

fn ssh_config(config: &ServerConfig) -> Config {
    Config {
        server_id: SshId::Standard(crate::SERVER_ID.into()),
        methods: MethodSet::from(&[MethodKind::PublicKey, MethodKind::KeyboardInteractive][..]),
        // Only the initial "none" probe is ever rejected: answer it at once.
        auth_rejection_time: Duration::from_millis(300),
        auth_rejection_time_initial: Some(Duration::ZERO),
        max_auth_attempts: 6,
        keys: vec![config.host_key.private_key().clone()],
        // Liveness comes from keepalives; idleness is the session's business. A keepalive goes
        // out after `keepalive_interval` without a byte from the client, so an idle player's
        // connection carries traffic both ways often enough for a load balancer that drops
        // idle TCP; a peer that answers none of `keepalive_max` in a row is dropped.
        inactivity_timeout: None,
        keepalive_interval: Some(config.limits.keepalive_interval),
        keepalive_max: config.limits.keepalive_max,
        nodelay: true,
        preferred: Preferred {
            kex: Cow::Borrowed(KEX),
            ..Preferred::default()
        },
        ..Config::default()
    }
}

/// One connection from handshake to hang-up. Its task keeps the socket's kill switch: however
/// it ends, the socket is closed by then, and the slot (`permit`, held by the socket) with it.
async fn serve_connection(
    shared: Arc<Shared>,
    ssh_config: Arc<Config>,
    stream: Socket,
    (peer, client): (SocketAddr, ClientAddr),
    local: Option<SocketAddr>,
    permit: ConnectionPermit,
) {
    stream.hold(permit);
    let switch = stream.kill_switch();
    let auth_deadline = Instant::now() + shared.limits.auth_timeout;
    let (auth_tx, auth_rx) = oneshot::channel();
    let activity = Arc::new(Activity::default());
    let handler = ConnectionHandler::new(
        Arc::clone(&shared),
        (peer, client),
        auth_tx,
        Arc::clone(&activity),
    )
    .reached_at(local);
    // Only the header a trusted proxy sent first was read: a PROXY header here is refused.
    let stream = crate::ssh::proxy_protocol::Sniff::new(stream);
    let mut session = match timeout_at(auth_deadline, run_stream(ssh_config, stream, handler)).await
    {
        Ok(Ok(session)) => session,
        Ok(Err(e)) => {
            tracing::debug!(error = %e, "handshake failed");
            return;
        }
        Err(_) => {
            tracing::debug!("no SSH version before the login timeout");
            return;
        }
    };
    let handle = session.handle();

    let logged_in = tokio::select! {
        result = &mut session => {
            log_end(result);
            return;
        }
        result = auth_rx => result.is_ok(),
        () = sleep_until(auth_deadline) => false,
        () = shared.shutdown.cancelled() => false,
    };
    if !logged_in {
        let reason = if shared.shutdown.is_cancelled() {
            "minotty: the server is restarting"
        } else {
            "minotty: login took too long"
        };
        tracing::debug!(reason, "disconnecting before login");
        give_up(&handle, &mut session, &switch, reason).await;
        return;
    }
    switch.logged_in();

    // A logged-in connection with nothing running only holds a slot: one that never started a
    // game or command (e.g. `ssh -N`) is closed after the login timeout, one whose games and
    // commands have ended after CLOSE_GRACE (the client should have closed it by then; one that
    // ignores the channel close must not keep its slot).
    let check_every = Duration::from_millis(250);
    let mut idle_since = Some(Instant::now());
    loop {
        tokio::select! {
            result = &mut session => {
                log_end(result);
                break;
            }
            () = shared.shutdown.cancelled() => {
                shutdown_connection(&shared, &handle, &mut session, &switch).await;
                break;
            }
            () = sleep(check_every) => {
                if activity.running() > 0 {
                    idle_since = None;
                    continue;
                }
                let since = *idle_since.get_or_insert_with(Instant::now);
                let patience = if activity.started() > 0 {
                    CLOSE_GRACE.min(shared.limits.auth_timeout)
                } else {
                    shared.limits.auth_timeout
                };
                if since.elapsed() >= patience {
                    tracing::debug!("closing a connection with nothing running");
                    let reason = "minotty: nothing to play on this connection";
                    give_up(&handle, &mut session, &switch, reason).await;
                    break;
                }
            }
        }
    }
    // Closed by now whatever happened (the session ended, or it was given up on).
    drop(switch);
}

/// Gives up on a connection: queues the disconnect and waits for the session to end, both
/// within [`DISCONNECT_PATIENCE`], then closes the socket (which releases the slot) whether
/// or not the session got there.
async fn give_up(
    handle: &russh::server::Handle,
    session: &mut russh::server::RunningSession<ConnectionHandler>,
    switch: &KillSwitch,
    reason: &str,
) {
    let deadline = Instant::now() + DISCONNECT_PATIENCE;
    // Queued on a bounded channel that a stalled session does not drain: with a deadline.
    let queued = timeout_at(
        deadline,
        handle.disconnect(Disconnect::ByApplication, reason.into(), String::new()),
    )
    .await;
    let ended = match queued {
        Ok(_) => timeout_at(deadline, &mut *session).await.is_ok(),
        Err(_) => false,
    };
    if switch.kill() {
        tracing::debug!(
            ended,
            "the disconnect did not close the socket in time; closed it"
        );
        let _ = timeout(KILLED_PATIENCE, &mut *session).await;
    }
}

/// At shutdown: the session task restores the player's terminal and closes the channel, the
/// client hangs up; a client that does not is disconnected after the grace period.
async fn shutdown_connection(
    shared: &Shared,
    handle: &russh::server::Handle,
    session: &mut russh::server::RunningSession<ConnectionHandler>,
    switch: &KillSwitch,
) {
    match timeout(shared.limits.shutdown_grace, &mut *session).await {
        Ok(result) => log_end(result),
        Err(_) => give_up(handle, session, switch, "minotty: the server is restarting").await,
    }
}

fn log_end(result: Result<(), russh::Error>) {
    match result {
        Ok(()) => tracing::debug!("connection closed"),
        Err(e) => tracing::debug!(error = %e, "connection ended with an error"),
    }
}
