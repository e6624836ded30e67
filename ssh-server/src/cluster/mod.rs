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
//! Without `--nats` none of this exists: no task, no connection, the hub's `cluster` is unset.

pub mod auth;
pub mod checks;
pub mod connect;
mod contact;
mod drain;
mod link;
pub use drain::{RECONNECT, Running};
mod peers;
mod receive;
pub mod text;
pub mod wire;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;

use futures_util::StreamExt;
use minotty_domain::PlayerId;
use minotty_ui::online::Response;
use tokio::sync::mpsc;
use tokio::time::Instant;

use crate::services::AccountRef;
use crate::versus::{
    Hub, Link, Member, MemberId, QueueMsg, ROOM_INBOX, RoomLink, RoomMsg, SessionTx,
};
use wire::{JoinRep, JoinReq, Relay, ToMember, ToProxy, WireRoom};

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
/// Responses queued for a proxy's publishing task (as for a local session).
const PROXY_QUEUE: usize = crate::services::RESPONSE_QUEUE;

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
    room: Option<(String, MemberId, String)>,
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

/// A proxy that never got into its room (refused, full) is done after this long.
const PROXY_ADMISSION: Duration = Duration::from_secs(5);

/// This instance's place in the cluster.
#[derive(Debug)]
pub struct Cluster {
    client: async_nats::Client,
    /// Seals what this instance sends and checks what it receives.
    auth: auth::Auth,
    id: String,
    started: i64,
    hub: Weak<Hub>,
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

/// Connects to NATS, listens, and gives `hub` its cluster (which lives as long as the hub).
pub async fn start(hub: &Arc<Hub>, config: &ClusterConfig) -> anyhow::Result<Arc<Cluster>> {
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
    let cluster = Arc::new(Cluster {
        client,
        auth: auth::Auth::new(config.key.clone(), &id),
        id,
        started: minotty_store::unix_now(),
        hub: Arc::downgrade(hub),
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
    });
    let mut joins = cluster.client.subscribe(wire::JOIN_ANY).await?;
    let mut mine = cluster
        .client
        .subscribe(wire::inst_any(&cluster.id))
        .await?;
    let mut beats = cluster.client.subscribe(wire::HEARTBEAT).await?;
    if !hub.set_cluster(Arc::clone(&cluster)) {
        anyhow::bail!("the versus hub is in a cluster already");
    }
    let weak = Arc::downgrade(&cluster);
    tokio::spawn(async move {
        while let Some(msg) = joins.next().await {
            let Some(c) = weak.upgrade() else { return };
            c.on_join(msg).await;
        }
    });
    let weak = Arc::downgrade(&cluster);
    tokio::spawn(async move {
        while let Some(msg) = mine.next().await {
            let Some(c) = weak.upgrade() else { return };
            c.on_addressed(msg).await;
        }
    });
    let weak = Arc::downgrade(&cluster);
    tokio::spawn(async move {
        while let Some(msg) = beats.next().await {
            let Some(c) = weak.upgrade() else { return };
            if let Some((sender, body)) = c.open(&msg) {
                c.on_heartbeat(&sender, &msg.subject, &body);
            }
        }
    });
    let weak = Arc::downgrade(&cluster);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(HEARTBEAT_EVERY);
        loop {
            tick.tick().await;
            let Some(c) = weak.upgrade() else { return };
            // A link that takes no more (its client's queue full during an outage) never holds
            // up the sweep: the heartbeat is skipped, the sweep finds the link down.
            let _ = tokio::time::timeout(HEARTBEAT_EVERY, c.beat()).await;
            c.sweep(Instant::now());
        }
    });
    // Hear who is there before choosing the first character of this instance's room codes.
    tokio::time::sleep(HEARTBEAT_EVERY + Duration::from_millis(200)).await;
    cluster.pick_prefix();
    cluster.beat().await;
    tracing::info!(
        instance = %cluster.id,
        nats = %crate::config::secrets::redact_url(&config.nats),
        codes = %char::from(cluster.prefix.load(Ordering::Relaxed)),
        "joined the cluster"
    );
    Ok(cluster)
}

impl Cluster {
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

    /// Registers `member` (a session of this instance) for what rooms elsewhere send it.
    fn register(&self, member: &Member) {
        let mut remotes = lock(&self.remotes);
        let r = remotes.entry(member.id).or_insert_with(|| Remote {
            tx: member.tx.clone(),
            link: Arc::clone(&member.link),
            name: member.name.clone(),
            account: None,
            room: None,
            queue: None,
            queue_pending: false,
            cancelled: false,
            address: None,
            seen: contact::RemoteMatch::None,
            lost_from: None,
            playing: false,
        });
        r.name.clone_from(&member.name);
        r.account.clone_from(&member.account);
    }

    fn join_req(&self, member: &Member, spectate: bool) -> JoinReq {
        let address = lock(&self.remotes).get(&member.id).and_then(|r| r.address);
        let watchable = self
            .hub
            .upgrade()
            .is_some_and(|hub| hub.is_watchable(member.id));
        JoinReq {
            inst: self.id.clone(),
            mid: member.id.0,
            name: member.name.clone(),
            account: member.account.as_ref().map(|a| (a.id.0, a.name.clone())),
            spectate,
            address,
            watchable,
        }
    }

    async fn request(&self, subject: String, req: &JoinReq) -> Option<JoinRep> {
        let bytes = wire::encode(req)?;
        let sealed = self.seal(&subject, &bytes);
        match tokio::time::timeout(REQUEST_TIMEOUT, self.client.request(subject, sealed.into()))
            .await
        {
            Ok(Ok(msg)) => {
                let (_, body) = self.open(&msg)?;
                wire::decode(&msg.subject, &body)
            }
            Ok(Err(e)) => {
                tracing::debug!(error = %e, "a cluster request found nobody");
                None
            }
            Err(_) => None,
        }
    }

    /// A session of this instance joins room `code`, which is not here: asks its owner.
    /// `failed` is called when no instance has it.
    pub fn join_remote(
        self: &Arc<Self>,
        member: Member,
        code: String,
        spectate: bool,
        failed: impl FnOnce() + Send + 'static,
    ) {
        self.register(&member);
        let c = Arc::clone(self);
        tokio::spawn(async move {
            let req = c.join_req(&member, spectate);
            match c.request(wire::join_subject(&code), &req).await {
                Some(JoinRep::Ok { .. }) => {}
                Some(JoinRep::Refused { message }) => {
                    member.send(Response::RoomFailed { message });
                }
                None => {
                    failed();
                    member.send(Response::RoomFailed {
                        message: format!("There is no room {code}."),
                    });
                }
            }
        });
    }

    /// A session of this instance, from `address`, asks for a quick match, led elsewhere.
    pub fn queue_join(self: &Arc<Self>, member: Member, address: Option<std::net::IpAddr>) {
        self.register(&member);
        if let Some(r) = lock(&self.remotes).get_mut(&member.id) {
            r.queue_pending = true;
            r.cancelled = false;
            if address.is_some() {
                r.address = address;
            }
        }
        let c = Arc::clone(self);
        tokio::spawn(async move { c.submit(member).await });
    }

    async fn submit(&self, member: Member) {
        let leader = self.leader();
        let req = self.join_req(&member, false);
        let rep = self.request(wire::queue_subject(&leader), &req).await;
        let cancelled = lock(&self.remotes).get_mut(&member.id).is_some_and(|r| {
            r.queue_pending = false;
            std::mem::take(&mut r.cancelled)
        });
        match rep {
            Some(JoinRep::Ok { pid }) if cancelled => {
                // The player left the queue while the leader was admitting them.
                let subject = wire::proxy_subject(&leader, MemberId(pid));
                self.send(subject, &ToProxy::QueueCancel).await;
            }
            Some(JoinRep::Ok { pid }) => {
                if let Some(r) = lock(&self.remotes).get_mut(&member.id) {
                    r.queue = Some((leader, MemberId(pid)));
                }
            }
            Some(JoinRep::Refused { .. }) | None if cancelled => {}
            Some(JoinRep::Refused { message }) => {
                member.send(Response::RoomFailed { message });
            }
            None => {
                member.send(Response::RoomFailed {
                    message: "Matchmaking is not answering right now: try again.".into(),
                });
            }
        }
    }

    /// Hands a player who waited in a dead leader's queue to the next leader.
    fn requeue(self: &Arc<Self>, mid: MemberId) {
        let (member, address) = {
            let remotes = lock(&self.remotes);
            let Some(r) = remotes.get(&mid) else { return };
            let member = Member {
                id: mid,
                name: r.name.clone(),
                account: r.account.clone(),
                owner: None,
                tx: r.tx.clone(),
                link: Arc::clone(&r.link),
            };
            (member, r.address)
        };
        let Some(hub) = self.hub.upgrade() else {
            return;
        };
        if self.is_leader() {
            let Some(account) = &member.account else {
                return;
            };
            let Some(claim) = hub.claim_ranked(account.id) else {
                return;
            };
            let _ = hub.queue().send(QueueMsg::JoinFrom {
                member,
                claim,
                address,
            });
        } else {
            self.queue_join(member, address);
        }
    }

    /// Sends `msg` for the session `mid` to the leader's queue, if it waits there; `false`
    /// when it does not (the local queue handles it).
    pub fn to_queue(self: &Arc<Self>, mid: MemberId, msg: ToProxy) -> bool {
        let target = {
            let mut remotes = lock(&self.remotes);
            let Some(r) = remotes.get_mut(&mid) else {
                return false;
            };
            let target = r.queue.clone();
            if matches!(msg, ToProxy::QueueCancel) {
                r.queue = None;
                if r.queue_pending {
                    // Answered later: the proxy is cancelled then.
                    r.cancelled = true;
                    return true;
                }
            }
            target
        };
        let Some((inst, pid)) = target else {
            return false;
        };
        let c = Arc::clone(self);
        tokio::spawn(async move { c.send(wire::proxy_subject(&inst, pid), &msg).await });
        true
    }

    /// On the owner: a session elsewhere asks to join one of this instance's rooms.
    async fn on_join(self: &Arc<Self>, msg: async_nats::Message) {
        let Some(reply) = msg.reply.clone() else {
            return;
        };
        let code = msg.subject.as_str().split('.').nth(2).unwrap_or_default();
        let Some(hub) = self.hub.upgrade() else {
            return;
        };
        // Only the owner answers; the others stay silent.
        if !checks::valid_part(code) {
            checks::dropped(checks::DropReason::BadSubjectPart, &msg.subject);
            return;
        }
        let Some(room) = hub.room(code) else { return };
        let Some((sender, body)) = self.open(&msg) else {
            return;
        };
        let Some(req) = self.join_from(&sender, &msg.subject, &body) else {
            return;
        };
        let spectate = req.spectate;
        let rep = match self.new_proxy(&hub, req, false) {
            None => JoinRep::Refused {
                message: "That server is full right now: try again.".into(),
            },
            Some(proxy) => {
                if room.send(RoomMsg::Join {
                    member: proxy.member.clone(),
                    spectate,
                }) {
                    JoinRep::Ok {
                        pid: proxy.member.id.0,
                    }
                } else {
                    proxy.done.store(true, Ordering::Relaxed);
                    JoinRep::Refused {
                        message: format!("Room {code} is closed or busy: try again."),
                    }
                }
            }
        };
        self.send(reply.to_string(), &rep).await;
    }

    /// A proxy for the session `req` describes; `None` when there are too many.
    fn new_proxy(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        req: JoinReq,
        queued: bool,
    ) -> Option<Arc<Proxy>> {
        let mut proxies = lock(&self.proxies);
        if proxies.len() >= self.max_proxies {
            tracing::warn!("too many members of other instances: a join is refused");
            return None;
        }
        let of_peer = proxies.values().filter(|p| p.inst == req.inst).count();
        if of_peer >= self.max_proxies_per_peer {
            checks::dropped(checks::DropReason::OverCap, &req.inst);
            tracing::warn!(instance = %req.inst, "too many members of one instance: a join is refused");
            return None;
        }
        let (tx, rx) = mpsc::channel(PROXY_QUEUE);
        let member = Member {
            id: hub.next_member(),
            name: bounded_name(&req.name),
            account: req.account.map(|(id, name)| AccountRef {
                id: PlayerId(id),
                name: bounded_name(&name),
            }),
            owner: None,
            tx: SessionTx::new(tx),
            link: Arc::new(Mutex::new(None)),
        };
        let proxy = Arc::new(Proxy {
            inst: req.inst,
            mid: MemberId(req.mid),
            member,
            queued: AtomicBool::new(queued),
            done: AtomicBool::new(false),
            born: Instant::now(),
        });
        // What the session's own instance said of its player's setting (the owner's Live list).
        hub.set_watchable(proxy.member.id, req.watchable);
        proxies.insert(proxy.member.id, Arc::clone(&proxy));
        checks::set_sizes(lock(&self.peers).len(), proxies.len());
        tokio::spawn(Arc::clone(self).run_proxy(Arc::clone(&proxy), rx));
        Some(proxy)
    }

    /// A proxy's task: publishes what the room (or queue) sends the member, preceded by
    /// `Linked`/`Unlinked` whenever the member's room changed.
    async fn run_proxy(self: Arc<Self>, proxy: Arc<Proxy>, mut rx: mpsc::Receiver<Response>) {
        let subject = wire::member_subject(&proxy.inst, proxy.mid);
        let mut linked: Option<String> = None;
        let mut answered = false;
        let start = Instant::now() + HEARTBEAT_EVERY;
        let mut tick = tokio::time::interval_at(start, HEARTBEAT_EVERY);
        loop {
            let response = tokio::select! {
                r = rx.recv() => match r {
                    Some(r) => Some(r),
                    None => break,
                },
                _ = tick.tick() => None,
            };
            self.sync_link(&proxy, &subject, &mut linked).await;
            if let Some(relay) = response.and_then(Relay::from_response) {
                answered = true;
                self.send(subject.clone(), &ToMember::Response(relay)).await;
            }
            // Out of its room and not waiting in the queue (after the room had its say, or
            // never admitted): the proxy's work is done.
            let idle = linked.is_none()
                && !proxy.queued.load(Ordering::Relaxed)
                && (answered || proxy.born.elapsed() >= PROXY_ADMISSION);
            if idle || proxy.done.load(Ordering::Relaxed) {
                break;
            }
        }
        proxy.done.store(true, Ordering::Relaxed);
        lock(&self.proxies).remove(&proxy.member.id);
        if let Some(hub) = self.hub.upgrade() {
            hub.set_watchable(proxy.member.id, false);
        }
    }

    async fn sync_link(&self, proxy: &Proxy, subject: &str, linked: &mut Option<String>) {
        let now = proxy.member.room().map(|l| l.code);
        if now == *linked {
            return;
        }
        if let Some(code) = linked.take() {
            self.send(subject.to_owned(), &ToMember::Unlinked { code })
                .await;
        }
        if let Some(code) = &now {
            proxy.queued.store(false, Ordering::Relaxed);
            let msg = ToMember::Linked {
                code: code.clone(),
                inst: self.id.clone(),
                pid: proxy.member.id.0,
            };
            self.send(subject.to_owned(), &msg).await;
        }
        *linked = now;
    }

    /// Something addressed to this instance: for a proxy here, a session here, or the queue.
    async fn on_addressed(self: &Arc<Self>, msg: async_nats::Message) {
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
                self.to_proxy(&sender, MemberId(pid), m);
            }
            (Some("m"), Some(mid)) => {
                let Ok(mid) = mid.parse::<u64>() else { return };
                let Some(m) = self.to_member_from(&sender, subject, &body) else {
                    return;
                };
                self.to_member(&sender, MemberId(mid), m);
            }
            (Some("queue"), None) => {
                let Some(reply) = msg.reply.clone() else {
                    return;
                };
                let Some(req) = self.join_from(&sender, subject, &body) else {
                    return;
                };
                let rep = self.queue_request(req);
                self.send(reply.to_string(), &rep).await;
            }
            _ => tracing::debug!(subject, "an unknown cluster subject"),
        }
    }

    /// On the leader: a player of another instance joins the ranked queue.
    fn queue_request(self: &Arc<Self>, req: JoinReq) -> JoinRep {
        let Some(hub) = self.hub.upgrade() else {
            return JoinRep::Refused {
                message: "Matchmaking is restarting: try again.".into(),
            };
        };
        let Some((account, _)) = &req.account else {
            return JoinRep::Refused {
                message: "Quick match is ranked, for registered players.".into(),
            };
        };
        let Some(claim) = hub.claim_ranked(PlayerId(*account)) else {
            return JoinRep::Refused {
                message: "You are already queued or in a ranked match (on this or another \
                          connection): one ranked match at a time."
                    .into(),
            };
        };
        let address = req.address;
        let Some(proxy) = self.new_proxy(&hub, req, true) else {
            hub.release_ranked(claim);
            return JoinRep::Refused {
                message: "Matchmaking is full right now: try again.".into(),
            };
        };
        let _ = hub.queue().send(QueueMsg::JoinFrom {
            member: proxy.member.clone(),
            claim,
            address,
        });
        JoinRep::Ok {
            pid: proxy.member.id.0,
        }
    }

    fn to_proxy(&self, sender: &str, pid: MemberId, msg: ToProxy) {
        let Some(proxy) = lock(&self.proxies).get(&pid).cloned() else {
            return;
        };
        // Only the member's own instance speaks for it.
        if proxy.inst != sender {
            checks::dropped(checks::DropReason::Malformed, &proxy.inst);
            return;
        }
        let Some(hub) = self.hub.upgrade() else {
            return;
        };
        match msg {
            ToProxy::Room(w) => {
                if let Some(room) = proxy.member.room() {
                    room.send(w.into_msg(pid));
                } else if matches!(w, WireRoom::Leave { .. })
                    && proxy.queued.swap(false, Ordering::Relaxed)
                {
                    let _ = hub.queue().send(QueueMsg::Cancel { id: pid });
                }
            }
            ToProxy::QueueCancel => {
                if proxy.queued.swap(false, Ordering::Relaxed) {
                    let _ = hub.queue().send(QueueMsg::Cancel { id: pid });
                }
            }
            ToProxy::AcceptBot => {
                let _ = hub.queue().send(QueueMsg::AcceptBot {
                    member: proxy.member.clone(),
                });
            }
            ToProxy::DeclineBot => {
                let _ = hub.queue().send(QueueMsg::DeclineBot { id: pid });
            }
            ToProxy::LostContact => {
                // The member's instance lost contact with this one (only it may have).
                if let Some(room) = proxy.member.room() {
                    room.send(RoomMsg::LostContact {
                        id: pid,
                        cause: crate::versus::ContactLoss::Peer,
                    });
                }
            }
        }
    }

    /// On the session's instance: what its room elsewhere sends it.
    fn to_member(self: &Arc<Self>, sender: &str, mid: MemberId, msg: ToMember) {
        let mut remotes = lock(&self.remotes);
        let Some(r) = remotes.get_mut(&mid) else {
            return;
        };
        if r.lost_from.as_deref() == Some(sender) {
            if !matches!(msg, ToMember::Linked { .. }) {
                // Held up while contact was lost: about a room the player was told is gone.
                return;
            }
            r.lost_from = None;
        }
        r.seen.seen(Some(&msg), None);
        match msg {
            ToMember::Response(relay) => {
                drain::note(r, &relay);
                r.tx.send(text::clean(relay).into_response());
            }
            ToMember::Linked { code, inst, pid } => {
                let pid = MemberId(pid);
                if r.tx.is_closed() {
                    // The session ended while its join was on its way: out of that room.
                    let c = Arc::clone(self);
                    let leave = ToProxy::Room(WireRoom::Leave { disconnected: true });
                    tokio::spawn(async move {
                        c.send(wire::proxy_subject(&inst, pid), &leave).await;
                    });
                    return;
                }
                r.room = Some((inst.clone(), pid, code.clone()));
                r.queue = None;
                r.playing = false;
                let (tx, rx) = mpsc::channel(ROOM_INBOX);
                tokio::spawn(Arc::clone(self).forward(mid, inst, pid, rx));
                *lock(&r.link) = Some(RoomLink { code, tx });
            }
            ToMember::Requeue => {
                if r.queue.take().is_some() {
                    drop(remotes);
                    self.requeue(mid);
                }
            }
            ToMember::Unlinked { code } => {
                let mut link = lock(&r.link);
                if link.as_ref().is_some_and(|l| l.code == code) {
                    *link = None;
                    r.room = None;
                    r.playing = false;
                }
            }
        }
    }

    /// The session's side of a remote room link: publishes its messages to the proxy.
    async fn forward(
        self: Arc<Self>,
        mid: MemberId,
        inst: String,
        pid: MemberId,
        mut rx: mpsc::Receiver<RoomMsg>,
    ) {
        let subject = wire::proxy_subject(&inst, pid);
        while let Some(msg) = rx.recv().await {
            if let Some(w) = WireRoom::from_msg(msg) {
                if let Some(r) = lock(&self.remotes).get_mut(&mid) {
                    r.seen.seen(None, Some(&w));
                }
                self.send(subject.clone(), &ToProxy::Room(w)).await;
            }
        }
    }
}
