//! Several instances over NATS (`--nats`): rooms and the ranked queue across them.
//!
//! A room lives on one instance, its owner, as a room task like any other. A session of
//! another instance joins it by code: the code is not registered here, so the join is a NATS
//! request on `minotty.room.CODE.join`, which only the owner answers. The owner seats a
//! **proxy** member in the room: a `Member` whose `SessionTx` feeds a task that publishes each
//! response to the session's instance (`minotty.inst.B.m.MID`), so the room cannot tell it from
//! a local session (same inbox, backlog and drop rules; a publish never blocks the room). On
//! the session's instance, the session's `Link` holds a `RoomLink` whose receiver is a task that
//! publishes each `RoomMsg` to the proxy (`minotty.inst.A.p.PID`); the proxy says `Linked` and
//! `Unlinked` whenever the room sets or clears its link, so the session's link follows.
//!
//! The ranked queue: the oldest live instance that is not draining leads it; the others send
//! their players' quick matches to it (`minotty.inst.LEADER.queue`), where a proxy waits in the
//! leader's queue like a local player, and the pair's room opens on the leader. When the
//! leader dies, each instance submits its waiting players to the next one.
//!
//! Heartbeats every [`HEARTBEAT_EVERY`] on `minotty.heartbeat`; an instance not heard from for
//! [`DEAD_AFTER`] is out of reach (dead, or cut off): one truth per match holds. The room's
//! owner is the only judge of a match; a player who leaves forfeits (their instance sends the
//! `Leave`), but an unsettled match with a player of an instance out of reach is abandoned on
//! both sides, nothing stored, nothing rated (`versus/room/contact.rs` on the owner,
//! [`contact`] on the player's instance). When this instance's own NATS link is down
//! ([`link`]), every peer falls silent: the log and the players are told it is the link.
//!
//! The hub reaches all this through [`crate::versus::RemoteRooms`] (`rooms.rs`), given to it at
//! construction ([`connect`] comes first); the cluster reaches this instance's rooms and queue
//! through what the hub exposes, handed to its tasks by [`Cluster::serve`]. The `Cluster` holds
//! no hub: its tasks do, tracked, until the hub's shutdown stops them. Sessions of this
//! instance in rooms elsewhere are `remote.rs`; members of other instances seated here,
//! `proxy.rs`.
//!
//! Without `--nats` none of this exists: no task, no connection, the hub has no `RemoteRooms`.

pub mod auth;
pub mod checks;
pub mod connect;
mod contact;
mod drain;
mod drain_wait;
mod link;
mod liveness;
pub use drain_wait::Running;
mod peers;
mod proxy;
mod proxy_pace;
mod receive;
mod remote;
mod rooms;
pub mod text;
pub mod wire;

#[cfg(test)]
mod auth_tests;
#[cfg(test)]
mod drain_tests;
#[cfg(test)]
mod liveness_tests;
#[cfg(test)]
mod proxy_tests;
#[cfg(test)]
mod remote_tests;
#[cfg(test)]
mod serve_tests;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use minotty_domain::RoomCode;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::versus::{Hub, Link, Member, MemberId, SessionTx};
use minotty_domain::AccountRef;
use wire::ToProxy;

/// How often an instance says it is alive.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(1);
/// An instance not heard from for this long is dead.
pub const DEAD_AFTER: Duration = Duration::from_secs(3);
/// How long a join or a queue request waits for its answer.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(2);
/// The most proxies (members of other instances in this instance's rooms and queue).
pub const MAX_PROXIES: usize = 10_000;
/// The most proxies of any one other instance: one peer cannot take every slot.
pub const MAX_PROXIES_PER_PEER: usize = 2_500;
/// The most other instances known at once (a heartbeat of one more is dropped).
pub const MAX_PEERS: usize = 64;

/// How an instance joins the cluster.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// `nats://host:port` of the NATS server (may hold credentials: show it redacted).
    pub nats: String,
    /// How to log in to NATS (`None`: as the URL says, or anonymously).
    pub auth: Option<connect::NatsAuth>,
    /// TLS to NATS.
    pub tls: Option<connect::NatsTls>,
    /// The key every message between instances is sealed with.
    pub key: auth::ClusterKey,
    /// A name for logs and subjects (letters, digits, `-`, `_`); a random suffix makes the id.
    pub instance_name: String,
    /// After SIGTERM, how long running matches may go on before the instance stops anyway.
    pub drain: Duration,
    /// The most members of other instances seated here at once ([`MAX_PROXIES`]; of one
    /// instance, at most [`MAX_PROXIES_PER_PEER`] of them, and never more than this).
    pub max_proxies: usize,
    /// The most members of any one other instance seated here ([`MAX_PROXIES_PER_PEER`]).
    pub max_proxies_per_peer: usize,
}

/// Another instance, as its heartbeats tell.
#[derive(Debug, Clone)]
struct Peer {
    started: i64,
    draining: bool,
    prefix: u8,
    seen: Instant,
}

/// A session of this instance in a room (or the queue) of another.
#[derive(Debug)]
struct Remote {
    tx: SessionTx,
    link: Link,
    name: String,
    account: Option<AccountRef>,
    /// The room's owner, the proxy there, and the room's code.
    room: Option<(String, MemberId, RoomCode)>,
    /// Waiting in the queue of this leader, through this proxy.
    queue: Option<(String, MemberId)>,
    /// A queue request is on its way; `cancelled`: the player left before it was answered.
    queue_pending: bool,
    cancelled: bool,
    /// The player's address, for the leader's ranked pairing (set by `queue_join`).
    address: Option<std::net::IpAddr>,
    /// What the session saw of the match in its remote room (what it is told when contact
    /// with the owner is lost).
    seen: contact::RemoteMatch,
    /// Contact with this owner was lost while the session was in its room: what it still
    /// sends of that room is dropped (until a new `Linked`).
    lost_from: Option<String>,
    /// Plays in a match there now (from its start to its result): a drain waits for it.
    playing: bool,
}

/// A session of another instance, seated here.
#[derive(Debug)]
struct Proxy {
    inst: String,
    mid: MemberId,
    member: Member,
    /// Waiting in this instance's queue.
    queued: AtomicBool,
    /// Finished: out of its room and the queue (or its instance died).
    done: AtomicBool,
    born: Instant,
}

/// This instance's place in the cluster.
#[derive(Debug)]
pub struct Cluster {
    client: async_nats::Client,
    /// Seals what this instance sends and checks what it receives.
    auth: auth::Auth,
    id: String,
    started: i64,
    /// The NATS URL as logs show it (credentials redacted).
    shown_url: String,
    /// Itself, for the tasks the hub's calls start (`rooms.rs`).
    this: Weak<Cluster>,
    /// Every task of the cluster: listeners, proxies, links, requests. They hold the hub;
    /// `stop` ends the listeners when the hub shuts down, the rest end with their channels.
    tasks: TaskTracker,
    stop: CancellationToken,
    draining: AtomicBool,
    /// The first character of this instance's room codes, unlike every live peer's.
    prefix: AtomicU8,
    peers: Mutex<HashMap<String, Peer>>,
    /// When this instance's latest heartbeat went out, and the round trip through NATS of the
    /// latest one that came back (µs; 0: none yet).
    beat_sent: Mutex<Option<Instant>>,
    rtt_us: AtomicU64,
    /// This instance's own link to NATS.
    link: link::NatsLink,
    remotes: Mutex<HashMap<MemberId, Remote>>,
    proxies: Mutex<HashMap<MemberId, Arc<Proxy>>>,
    max_proxies: usize,
    max_proxies_per_peer: usize,
}

/// A name another instance sent, through the server's name allowlist and cut to a name's
/// length (a guest's mark included).
fn bounded_name(name: &str) -> String {
    text::name(name)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Connects to NATS as an instance of the cluster; nothing is heard or sent until
/// [`Cluster::serve`] (the hub is built in between, with this cluster as its `RemoteRooms`).
pub async fn connect(config: &ClusterConfig) -> anyhow::Result<Arc<Cluster>> {
    let suffix: u32 = rand::random();
    let name: String = config
        .instance_name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .take(32)
        .collect();
    let id = format!(
        "{}-{suffix:08x}",
        if name.is_empty() { "minotty" } else { &name }
    );
    let client = connect::connect(
        &config.nats,
        config.auth.as_ref(),
        config.tls.as_ref(),
        &format!("minotty {id}"),
    )
    .await?;
    Ok(Cluster::with_client(client, config, id))
}

impl Cluster {
    /// The cluster of the instance `id` over `client` (connected, or connecting).
    fn with_client(client: async_nats::Client, config: &ClusterConfig, id: String) -> Arc<Cluster> {
        Arc::new_cyclic(|this| Cluster {
            client,
            auth: auth::Auth::new(config.key.clone(), &id),
            id,
            started: minotty_store::unix_now(),
            shown_url: crate::redact::redact_url(&config.nats),
            this: this.clone(),
            tasks: TaskTracker::new(),
            stop: CancellationToken::new(),
            draining: AtomicBool::new(false),
            prefix: AtomicU8::new(0),
            peers: Mutex::new(HashMap::new()),
            beat_sent: Mutex::new(None),
            rtt_us: AtomicU64::new(0),
            link: link::NatsLink::new(Instant::now()),
            remotes: Mutex::new(HashMap::new()),
            proxies: Mutex::new(HashMap::new()),
            max_proxies: config.max_proxies,
            max_proxies_per_peer: config.max_proxies_per_peer,
        })
    }
}

impl Cluster {
    /// Listens for the cluster on behalf of `hub` (whose `RemoteRooms` this cluster is): joins,
    /// messages to this instance, heartbeats, and the beat; hears who is there before choosing
    /// the first character of this instance's room codes. The tasks hold `hub` until the hub's
    /// shutdown stops them (`RemoteRooms::stop`).
    pub async fn serve(self: &Arc<Self>, hub: &Arc<Hub>) -> anyhow::Result<()> {
        let mut joins = self.client.subscribe(wire::JOIN_ANY).await?;
        let mut mine = self.client.subscribe(wire::inst_any(&self.id)).await?;
        let mut beats = self.client.subscribe(wire::HEARTBEAT).await?;
        let (c, h, stop) = (Arc::clone(self), Arc::clone(hub), self.stop.clone());
        self.tasks.spawn(async move {
            loop {
                let msg = tokio::select! {
                    () = stop.cancelled() => return,
                    msg = joins.next() => msg,
                };
                let Some(msg) = msg else { return };
                c.on_join(&h, msg).await;
            }
        });
        let (c, h, stop) = (Arc::clone(self), Arc::clone(hub), self.stop.clone());
        self.tasks.spawn(async move {
            loop {
                let msg = tokio::select! {
                    () = stop.cancelled() => return,
                    msg = mine.next() => msg,
                };
                let Some(msg) = msg else { return };
                c.on_addressed(&h, msg).await;
            }
        });
        let (c, stop) = (Arc::clone(self), self.stop.clone());
        self.tasks.spawn(async move {
            loop {
                let msg = tokio::select! {
                    () = stop.cancelled() => return,
                    msg = beats.next() => msg,
                };
                let Some(msg) = msg else { return };
                if let Some((sender, body)) = c.open(&msg) {
                    c.on_heartbeat(&sender, &msg.subject, &body);
                }
            }
        });
        let (c, h, stop) = (Arc::clone(self), Arc::clone(hub), self.stop.clone());
        let beating = Arc::clone(self);
        self.tasks.spawn(liveness::pace(
            stop,
            move || {
                let c = Arc::clone(&beating);
                async move { c.beat().await }
            },
            move |now| c.sweep(&h, now),
        ));
        // Hear who is there before choosing the first character of this instance's room codes.
        tokio::time::sleep(HEARTBEAT_EVERY + Duration::from_millis(200)).await;
        self.pick_prefix();
        self.beat().await;
        tracing::info!(
            instance = %self.id,
            nats = %self.shown_url,
            codes = %char::from(self.prefix.load(Ordering::Relaxed)),
            "joined the cluster"
        );
        Ok(())
    }

    /// Runs `task` as one of the cluster's, tracked.
    fn spawn(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        self.tasks.spawn(task);
    }

    /// Tasks of the cluster running now (listeners, proxies, links, requests).
    pub fn tasks(&self) -> usize {
        self.tasks.len()
    }

    /// The NATS client (its connection state is `/health`'s: `crate::probes`).
    pub fn nats_client(&self) -> async_nats::Client {
        self.client.clone()
    }

    /// This instance's id (name and a random suffix).
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The instance drains (SIGTERM): no new rooms or queue entries here, and it no longer
    /// leads the queue.
    pub fn begin_drain(&self) {
        self.draining.store(true, Ordering::Relaxed);
        // The balancer's health check sees it at once and sends new players elsewhere.
        crate::metrics::HEALTH.set_draining();
    }

    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }

    /// The round trip of this instance's latest heartbeat through the NATS server (`None`
    /// before the first came back), for the operator's metrics.
    pub fn nats_rtt(&self) -> Option<Duration> {
        match self.rtt_us.load(Ordering::Relaxed) {
            0 => None,
            us => Some(Duration::from_micros(us)),
        }
    }

    /// Publishes `bytes` sealed for `subject`.
    async fn publish(&self, subject: String, bytes: Vec<u8>) {
        let sealed = self.seal(&subject, &bytes);
        if let Err(e) = self.client.publish(subject, sealed.into()).await {
            tracing::warn!(error = %e, "publishing to NATS");
        }
    }

    async fn send<T: serde::Serialize>(&self, subject: String, value: &T) {
        if let Some(bytes) = wire::encode(value) {
            self.publish(subject, bytes).await;
        }
    }

    /// Something addressed to this instance: for a proxy here, a session here, or the queue.
    async fn on_addressed(self: &Arc<Self>, hub: &Arc<Hub>, msg: async_nats::Message) {
        let subject = msg.subject.as_str();
        let Some((sender, body)) = self.open(&msg) else {
            return;
        };
        let mut parts = subject.split('.').skip(3);
        match (parts.next(), parts.next()) {
            (Some("p"), Some(pid)) => {
                let Ok(pid) = pid.parse::<u64>() else { return };
                let Some(m) = wire::decode::<ToProxy>(subject, &body) else {
                    checks::dropped(checks::DropReason::Malformed, subject);
                    return;
                };
                self.to_proxy(hub, &sender, MemberId(pid), m);
            }
            (Some("m"), Some(mid)) => {
                let Ok(mid) = mid.parse::<u64>() else { return };
                let Some(m) = self.to_member_from(&sender, subject, &body) else {
                    return;
                };
                self.to_member(hub, &sender, MemberId(mid), m);
            }
            (Some("queue"), None) => {
                let Some(reply) = msg.reply.clone() else {
                    return;
                };
                let Some(req) = self.join_from(&sender, subject, &body) else {
                    return;
                };
                let rep = self.queue_request(hub, req);
                self.send(reply.to_string(), &rep).await;
            }
            _ => tracing::debug!(subject, "an unknown cluster subject"),
        }
    }
}
