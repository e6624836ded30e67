//! The server: accepts TCP connections itself so limits apply before any cryptography, runs
//! each accepted connection with `russh::server::run_stream`, and shuts down gracefully.

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
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::Instrument;

use super::shared::Shared;
use crate::config::Limits;
use crate::services::account::SharedAccounts;
use crate::ssh::handler::{Activity, ConnectionHandler};
use crate::ssh::host_key::HostKey;
use crate::ssh::limits::{ConnectionLimiter, ConnectionPermit};
use crate::ssh::socket::{KillSwitch, Socket};
use minotty_domain::ClientAddr;
use minotty_store::{GameWriter, Store, WriterConfig};

/// What the server runs with.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub host_key: HostKey,
    pub limits: Limits,
    /// The store; `None` runs without a database: everyone plays as a guest and the commands
    /// and screens that need it say so.
    pub store: Option<Store>,
    /// The Tetris Bot Protocol bots players can face (none: `TbpBots::default()`).
    pub tbp: minotty_tbp::frontend::TbpBots,
    /// Rooms and the queue across instances over NATS (`--nats`); `None`: a single instance.
    pub cluster: Option<crate::cluster::ClusterConfig>,
    /// Where games and matches the database does not take are kept until it does
    /// (`--spool-dir`); `None`: they are logged whole instead.
    pub spool: Option<minotty_store::spool::Spool>,
}

/// How long shutdown waits for the game writer (and, separately, the match recorder) to store
/// the games and matches still queued.
const WRITER_PATIENCE: Duration = Duration::from_secs(30);
/// How long the exit waits for the cluster's proxies to relay the rooms' last words.
const CLUSTER_PATIENCE: Duration = Duration::from_secs(2);

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

/// Serves SSH on `listener` until `shutdown` completes, then lets every session restore its
/// player's terminal and waits (bounded) for the connections to close.
pub async fn run(
    listener: TcpListener,
    config: ServerConfig,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    let ssh_config = Arc::new(ssh_config(&config));
    let limiter = ConnectionLimiter::new(config.limits.connection_limits());
    // Finished games are written by the writer's tasks; they end when every session (and this
    // function) has dropped its sender, after writing (or spooling) what is queued.
    let fallback = minotty_store::spool::Fallback::to(config.spool.clone());
    let (writer, writer_task) = match &config.store {
        Some(store) => {
            if let Err(e) = store
                .record_start(env!("CARGO_PKG_VERSION"), minotty_store::unix_now())
                .await
            {
                tracing::warn!(error = %e, "recording the server start");
            }
            // The writer's queue and transactions show in `/metrics`.
            let observed = store.clone().observed_by(crate::metrics::store_observer());
            let (writer, task) =
                GameWriter::spawn_with(observed, WriterConfig::default(), fallback.clone());
            (Some(writer), Some(task))
        }
        None => (None, None),
    };
    // With `--nats`: connected first, so that the versus hub is built reaching the other
    // instances (it listens once the hub exists, below).
    let cluster = match &config.cluster {
        Some(c) => Some(crate::cluster::connect(c).await?),
        None => None,
    };
    let remote = cluster
        .clone()
        .map(|c| c as Arc<dyn crate::versus::RemoteRooms>);
    // The sessions, and the account tasks they start, are waited for at shutdown.
    let tracker = TaskTracker::new();
    let shared = Arc::new(Shared {
        limits: config.limits.clone(),
        services: crate::services::SharedServices {
            account: SharedAccounts::new(config.store.clone(), writer).with_tasks(tracker.clone()),
            versus: crate::services::versus::SharedVersus::with_tbp(
                config.store.clone(),
                config.limits.versus_seed,
                config.limits.bots,
                config.tbp.clone(),
            )
            .with_reconnect(config.limits.reconnect)
            .with_remote(remote),
        },
        shutdown: CancellationToken::new(),
        tracker,
        parked: Arc::new(crate::reconnect::ParkedGames::new(
            config.limits.reconnect,
            config.limits.max_parked,
        )),
    });
    shared
        .tracker
        .spawn(Arc::clone(&shared.parked).run_expiry(shared.shutdown.clone()));
    // `/health` says degraded while the database or NATS cannot be reached.
    if let Some(store) = &config.store {
        let probe = crate::probes::watch_database(store.clone(), shared.shutdown.clone());
        shared.tracker.spawn(probe);
    }
    if let Some(spool) = &config.spool {
        shared.services.versus.hub().set_spool(spool.clone());
        if let Some(store) = &config.store {
            let replays = minotty_store::spool::run_replays(
                spool.clone(),
                store.clone(),
                shared.shutdown.clone(),
            );
            shared.tracker.spawn(replays);
        }
    }
    let admission = Arc::new(Admission {
        shared: Arc::clone(&shared),
        ssh_config,
        limiter: Arc::clone(&limiter),
        refusals: Arc::new(Semaphore::new(MAX_REFUSALS_IN_FLIGHT)),
        next_id: AtomicU64::new(1),
    });
    let proxy_headers = Arc::new(Semaphore::new(MAX_PROXY_HEADERS_IN_FLIGHT));
    // With `--nats`: join the other instances; on the shutdown signal, drain first (new rooms
    // refused, running matches finish, at most `--drain-secs`).
    let cluster = match (cluster, &config.cluster) {
        (Some(cluster), Some(c)) => {
            let hub = Arc::clone(shared.services.versus.hub());
            cluster.serve(&hub).await?;
            Some((cluster, hub, c.drain))
        }
        _ => None,
    };
    if let Some((cluster, ..)) = &cluster {
        let (client, id) = (cluster.nats_client(), cluster.id().to_owned());
        let probe = crate::probes::watch_nats(client, id, shared.shutdown.clone());
        shared.tracker.spawn(probe);
    }
    let finishing = cluster.as_ref().map(|(c, ..)| Arc::clone(c));
    let shutdown = async move {
        shutdown.await;
        if let Some((cluster, hub, cap)) = cluster {
            cluster.drain(&hub, cap).await;
        }
    };
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
    // Before the sessions end (and leave their rooms): a match still running is abandoned,
    // not lost by whoever's session happens to end first.
    shared.services.versus.hub().begin_shutdown();
    shared.shutdown.cancel();
    // No more retries: what the database does not take at once goes to the spool.
    fallback.stop.cancel();
    shared.tracker.close();
    let patience = config.limits.shutdown_grace + Duration::from_secs(3);
    if timeout(patience, shared.tracker.wait()).await.is_err() {
        tracing::warn!("some connections did not close in time");
    }
    // Every session has ended (or was given up on): the rooms hand over their decided matches
    // and the match recorder writes what is queued (bounded; what it cannot write is logged).
    let unwritten = shared.services.versus.hub().shutdown(WRITER_PATIENCE).await;
    if unwritten > 0 {
        tracing::warn!(unwritten, "versus matches were not stored before shutdown");
    }
    // What the rooms said as they closed reaches the other instances' players.
    if let Some(cluster) = finishing {
        cluster.finish(CLUSTER_PATIENCE).await;
    }
    // The last senders go with `shared`, and the writer stores what is still queued before it
    // stops.
    drop(shared);
    if let Some(task) = writer_task
        && timeout(WRITER_PATIENCE, task).await.is_err()
    {
        tracing::error!("the game writer did not finish in time; queued games may be lost");
    }
    if let Some(store) = &config.store {
        store.close().await;
    }
    match &config.spool {
        Some(spool) if !spool.is_empty() => tracing::warn!(
            records = spool.len(),
            spool = %spool.dir().display(),
            "stopped; games and matches wait in the spool, to be stored at the next start"
        ),
        _ => tracing::info!("stopped"),
    }
    Ok(())
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
