//! Versus on the server: the room registry, each room its own task (`room.rs`), the ranked
//! quick-match queue (`queue.rs`) and the background writer of match records (`record.rs`).
//!
//! Every player's own engine runs in their App, inside their session task. A room never runs
//! an engine: it takes the reports of each player's App (attacks, boards, progress, the end of
//! the game), routes attacks with the engine's [`minotty_engine::versus::Router`] to the
//! target's session as `Response::Garbage`, relays boards to the other players and spectators
//! (coalesced), decides the match and stores it.
//!
//! Sessions talk to a room over a bounded channel ([`ROOM_INBOX`]; lobby requests are rate
//! limited per session, so one member cannot fill it, and a leave that finds it full waits in
//! a task of its own, never lost); a room answers each session through a [`SessionTx`], which
//! never waits (a stuck session can never stall a room), and whose backlog is bounded: a
//! session that falls that far behind leaves its room (a forfeit in a match).
//!
//! Rooms and the queue are supervised: a panic while handling a message is caught and logged;
//! the room then closes (its code unregistered, its members told), the queue goes on.

pub mod bot;
pub mod code;
mod known_rating;
pub mod limits;
pub mod open_rooms;
mod queue;
mod record;
mod room;
#[cfg(test)]
mod tests;
mod tx;
mod watching;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use minotty_domain::PlayerId;
use minotty_engine::rating::Rating;
use minotty_ui::online::{Response, RoomOptions};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::task::TaskTracker;

use crate::services::AccountRef;
use minotty_store::{NewMatch, Store};

pub use queue::QueueMsg;
pub use room::{ContactLoss, RoomMsg, match_mode};
pub use tx::{BACKLOG_MAX, SessionTx};
pub use watching::MAX_SPECTATORS;

/// How long a match counts down before it starts.
pub const COUNTDOWN: Duration = Duration::from_millis(3000);
/// The shortest time between two `Opponents` sent to one receiver (at most 20 per second).
pub const OPPONENTS_INTERVAL: Duration = Duration::from_millis(50);
/// How long a room waits after a match for the players' replays before storing the match.
pub const REPLAY_GRACE: Duration = Duration::from_secs(5);
/// How long a player who dropped out of a match is told its result when they come back.
pub const NOTICE_WINDOW: Duration = Duration::from_secs(30 * 60);

/// Messages that wait for a room (shared by its members; lobby requests are rate limited).
pub const ROOM_INBOX: usize = 1024;

/// A session's identity within versus (unique per session, not per account).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemberId(pub u64);

/// Which room a session is in, set by the room itself when it admits the session and cleared
/// when it lets it go; the session routes its requests through it.
pub type Link = Arc<Mutex<Option<RoomLink>>>;

/// A room's address.
#[derive(Clone, Debug)]
pub struct RoomLink {
    pub code: String,
    pub tx: mpsc::Sender<RoomMsg>,
}

impl RoomLink {
    /// Sends `msg` without waiting; `false` when the room has closed, or when its inbox is
    /// full and `msg` can be dropped (everything but a leave or a lost contact, which then
    /// waits in a task of its own: neither is ever lost).
    pub fn send(&self, msg: RoomMsg) -> bool {
        match self.tx.try_send(msg) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Closed(_)) => false,
            // A way out (and a lost member's instance: one truth per match) is never dropped.
            Err(mpsc::error::TrySendError::Full(
                msg @ (RoomMsg::Leave { .. } | RoomMsg::LostContact { .. }),
            )) => {
                let tx = self.tx.clone();
                tokio::spawn(async move {
                    let _ = tx.send(msg).await;
                });
                true
            }
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::debug!(room = %self.code, "a room's inbox is full: a message is dropped");
                false
            }
        }
    }
}

/// Whose seat a room keeps for a player whose connection dropped in its lobby: the account,
/// or the key of an unregistered player (keyboard-interactive guests have neither).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Account(PlayerId),
    Key(String),
}

/// A session, as rooms and the queue know it.
#[derive(Clone, Debug)]
pub struct Member {
    pub id: MemberId,
    /// The displayed name (account name, or the sanitised SSH user name of a guest).
    pub name: String,
    pub account: Option<AccountRef>,
    /// Who may take the member's seat back after a drop (`None`: bots, guests without a key).
    pub owner: Option<Owner>,
    pub tx: SessionTx,
    pub link: Link,
}

impl Member {
    /// Queues `response` for the session without waiting (see [`SessionTx::send`]); `false`
    /// when it was dropped.
    pub fn send(&self, response: Response) -> bool {
        self.tx.send(response)
    }

    /// The room the session is in.
    pub fn room(&self) -> Option<RoomLink> {
        lock(&self.link).clone()
    }

    fn set_room(&self, room: RoomLink) {
        *lock(&self.link) = Some(room);
    }

    /// Forgets the room `code`, unless the session has moved on to another room meanwhile.
    fn clear_room(&self, code: &str) {
        let mut link = lock(&self.link);
        if link.as_ref().is_some_and(|l| l.code == code) {
            *link = None;
        }
    }
}

/// The system clock in ms since the Unix epoch (for the stored times of matches).
fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Locks `m`, recovering from poisoning (every value behind these locks stays consistent).
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// A registered player who dropped out of a match: told the result when they come back.
#[derive(Clone, Debug)]
struct Dropped {
    code: String,
    /// The result, once the match is over.
    result: Option<String>,
    at: Instant,
}

/// The match recorder, started on the first match; `closed` once shutdown took it.
#[derive(Debug, Default)]
struct RecorderSlot {
    recorder: Option<record::Recorder>,
    closed: bool,
}

/// What every session shares: rooms, the queue, the store, ratings of recent matches.
#[derive(Debug, Default)]
pub struct Hub {
    rooms: Mutex<HashMap<String, mpsc::Sender<RoomMsg>>>,
    queue: OnceLock<mpsc::UnboundedSender<QueueMsg>>,
    recorder: Mutex<RecorderSlot>,
    /// Where matches the database does not take go (`--spool-dir`; set at start).
    spool: OnceLock<minotty_store::spool::Spool>,
    /// Every room's task (shutdown waits for them to hand over their matches).
    room_tasks: TaskTracker,
    /// The server is shutting down: a match still running is abandoned, not decided by who
    /// disconnects first.
    shutting_down: AtomicBool,
    store: Option<Store>,
    /// Every match gets this seed (tests); random otherwise.
    seed: Option<u32>,
    /// Ratings after the latest ranked matches, ahead of the store's (written in the background).
    ratings: Mutex<HashMap<PlayerId, Rating>>,
    dropped: Mutex<HashMap<PlayerId, Dropped>>,
    next_member: AtomicU64,
    /// Accounts in the queue or in a live ranked match: the claim's token (at most one each).
    ranked: Mutex<HashMap<PlayerId, u64>>,
    next_claim: AtomicU64,
    /// Wrong room codes per source address.
    join_failures: Mutex<limits::AddressFailures>,
    /// The server's bots: how many, and the threads that think for them.
    pub bots: Arc<bot::Bots>,
    /// The operator's Tetris Bot Protocol bots, which a host can seat by name.
    pub tbp: crate::tbp::TbpBots,
    /// What is played now: rooms list their matches here (see `live.rs`).
    pub live: crate::live::LiveDirectory,
    /// Rooms their hosts list for anyone to join (`open_rooms.rs`).
    pub open_rooms: open_rooms::OpenRooms,
    /// Sessions whose player lets others watch their games (`watching.rs`).
    watchable: Mutex<std::collections::HashSet<MemberId>>,
    /// How long a lobby seat is kept for a player whose connection dropped (zero: not kept).
    reconnect: Duration,
    /// The room keeping a seat for each owner (at most one each; an entry per kept seat, so
    /// bounded by the seats of open rooms).
    kept: Mutex<HashMap<Owner, RoomLink>>,
    /// The other instances, with `--nats` (`crate::cluster`); unset: a single instance.
    cluster: OnceLock<Arc<crate::cluster::Cluster>>,
    /// The first character of this instance's room codes in a cluster (0: any).
    code_prefix: std::sync::atomic::AtomicU8,
}

/// An account's claim on ranked play (the queue, then its match), released with
/// [`Hub::release_ranked`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedClaim {
    pub player: PlayerId,
    pub token: u64,
}

impl Hub {
    pub fn new(store: Option<Store>, seed: Option<u32>) -> Hub {
        Hub::with_bots(store, seed, bot::BotLimits::default())
    }

    pub fn with_bots(store: Option<Store>, seed: Option<u32>, bots: bot::BotLimits) -> Hub {
        Hub {
            store,
            seed,
            bots: Arc::new(bot::Bots::new(bots)),
            ..Hub::default()
        }
    }

    /// The same with the operator's TBP bots.
    pub fn with_tbp(self, tbp: crate::tbp::TbpBots) -> Hub {
        Hub { tbp, ..self }
    }

    /// Joins the cluster (once); `false` when in one already.
    pub fn set_cluster(&self, cluster: Arc<crate::cluster::Cluster>) -> bool {
        self.cluster.set(cluster).is_ok()
    }

    /// Starts every new room code with `first` (in a cluster, each instance its own).
    pub fn set_code_prefix(&self, first: u8) {
        self.code_prefix.store(first, Ordering::Relaxed);
    }

    /// The cluster this instance is part of (`None`: a single instance).
    pub fn cluster(&self) -> Option<&Arc<crate::cluster::Cluster>> {
        self.cluster.get()
    }

    /// Keeps a dropped player's lobby seat for `reconnect` (zero: not kept).
    pub fn set_reconnect(&mut self, reconnect: Duration) {
        self.reconnect = reconnect;
    }

    /// How long a lobby seat is kept for a player whose connection dropped.
    pub fn reconnect(&self) -> Duration {
        self.reconnect
    }

    /// A room keeps a seat for `owner` (replacing any other room's claim: the latest drop).
    fn keep_seat(&self, owner: Owner, room: RoomLink) {
        lock(&self.kept).insert(owner, room);
    }

    /// The seat the room `code` kept for `owner` is gone (taken back, expired, room closed).
    fn forget_kept(&self, owner: &Owner, code: &str) {
        let mut kept = lock(&self.kept);
        if kept.get(owner).is_some_and(|r| r.code == code) {
            kept.remove(owner);
        }
    }

    /// Seats kept now, server-wide.
    pub fn kept_seats(&self) -> usize {
        lock(&self.kept).len()
    }

    /// A new session of `member`'s owner takes back the seat a room kept for them: the room
    /// seats them again and sends them the room. `false` when no seat is kept.
    pub fn rejoin_kept(&self, member: &Member) -> bool {
        let Some(owner) = &member.owner else {
            return false;
        };
        let Some(room) = lock(&self.kept).remove(owner) else {
            return false;
        };
        room.send(RoomMsg::Rejoin {
            member: member.clone(),
        })
    }

    pub fn next_member(&self) -> MemberId {
        MemberId(self.next_member.fetch_add(1, Ordering::Relaxed) + 1)
    }

    /// The room with this (normalised) code.
    pub fn room(&self, code: &str) -> Option<RoomLink> {
        lock(&self.rooms).get(code).map(|tx| RoomLink {
            code: code.to_owned(),
            tx: tx.clone(),
        })
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        lock(&self.rooms).len()
    }

    /// Creates a room with `players` (the first hosts a private room) and starts its task;
    /// a ranked room holds the players' `claims` until its match ends. `None` when no free
    /// code was found.
    pub fn create_room(
        self: &Arc<Self>,
        options: RoomOptions,
        ranked: bool,
        players: Vec<(Member, Option<Rating>)>,
        claims: Vec<RankedClaim>,
    ) -> Option<RoomLink> {
        room::spawn(Arc::clone(self), options, ranked, players, claims, None)
    }

    /// Starts an unranked 1v1 battle of `member` against a bot of `level` at once (the
    /// quick match's offer). `Err` says why not (no bot free, no room code).
    pub fn create_bot_match(
        self: &Arc<Self>,
        member: Member,
        level: minotty_bots::versus::Level,
    ) -> Result<RoomLink, String> {
        let guard = self.bots.claim().ok_or_else(|| {
            "Every bot of the server is busy right now: still looking for a person.".to_owned()
        })?;
        let options = RoomOptions {
            kind: minotty_engine::versus::MatchKind::Battle,
            max_players: 2,
            limit: minotty_ui::online::RoomLimit::None,
        };
        room::spawn(
            Arc::clone(self),
            options,
            false,
            vec![(member, None)],
            Vec::new(),
            Some((level, guard)),
        )
        .ok_or_else(|| "The server has no free room: try again.".to_owned())
    }

    /// Reserves a fresh code for `tx`.
    fn register(&self, tx: &mpsc::Sender<RoomMsg>) -> Option<String> {
        let mut rooms = lock(&self.rooms);
        let first = match self.code_prefix.load(Ordering::Relaxed) {
            0 => None,
            b => Some(b),
        };
        for _ in 0..64 {
            let code = code::random_with(first);
            if !rooms.contains_key(&code) {
                rooms.insert(code.clone(), tx.clone());
                return Some(code);
            }
        }
        None
    }

    /// Frees `code`, if it still belongs to the room behind `tx` (a code is reused only once
    /// free, so a late call never removes a newer room).
    fn unregister(&self, code: &str, tx: &mpsc::Sender<RoomMsg>) {
        let mut rooms = lock(&self.rooms);
        if rooms.get(code).is_some_and(|t| t.same_channel(tx)) {
            rooms.remove(code);
        }
    }

    /// Claims ranked play for `player`: `None` while another session of the account is
    /// queued or plays a ranked match.
    pub fn claim_ranked(&self, player: PlayerId) -> Option<RankedClaim> {
        let mut ranked = lock(&self.ranked);
        if ranked.contains_key(&player) {
            return None;
        }
        let token = self.next_claim.fetch_add(1, Ordering::Relaxed) + 1;
        ranked.insert(player, token);
        Some(RankedClaim { player, token })
    }

    /// Ends `claim` (queue left, match over); a newer claim of the account stays.
    pub fn release_ranked(&self, claim: RankedClaim) {
        let mut ranked = lock(&self.ranked);
        if ranked.get(&claim.player) == Some(&claim.token) {
            ranked.remove(&claim.player);
        }
    }

    /// Whether `claim` still holds.
    pub fn holds_ranked(&self, claim: RankedClaim) -> bool {
        lock(&self.ranked).get(&claim.player) == Some(&claim.token)
    }

    /// When the address `ip` may try another room code, if not now.
    pub fn join_blocked_until(&self, ip: std::net::IpAddr, now: Instant) -> Option<Instant> {
        lock(&self.join_failures).blocked_until(ip, now)
    }

    /// Counts a wrong room code from `ip`.
    pub fn join_failed(&self, ip: std::net::IpAddr, now: Instant) {
        lock(&self.join_failures).fail(ip, now);
    }

    /// The matchmaking queue (started on first use).
    pub fn queue(self: &Arc<Self>) -> mpsc::UnboundedSender<QueueMsg> {
        self.queue
            .get_or_init(|| queue::spawn(Arc::clone(self)))
            .clone()
    }

    /// Hands a finished match to the background writer (nothing without a store).
    fn record(&self, m: NewMatch) {
        let Some(store) = &self.store else {
            return;
        };
        let mut slot = lock(&self.recorder);
        if slot.closed {
            drop(slot);
            let why = "it ended after the match recorder was shut down";
            record::keep(self.spool.get(), &m, why);
            return;
        }
        slot.recorder
            .get_or_insert_with(|| {
                record::Recorder::spawn(store.clone(), self.spool.get().cloned())
            })
            .record(m);
    }

    /// Sends the matches the database does not take to `spool` (before the first match).
    pub fn set_spool(&self, spool: minotty_store::spool::Spool) {
        if self.spool.set(spool).is_err() {
            tracing::warn!("the versus hub has a spool already");
        }
    }

    /// Runs a room's task, tracked for shutdown.
    fn spawn_room(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        self.room_tasks.spawn(task);
    }

    /// Whether this instance drains (SIGTERM with `--nats`): nothing new starts here, neither
    /// for its own players nor in its rooms (`cluster/drain.rs`).
    pub fn is_draining(&self) -> bool {
        self.cluster().is_some_and(|c| c.is_draining())
    }

    /// Whether the server is shutting down (see [`Hub::begin_shutdown`]).
    pub fn is_shutting_down(&self) -> bool {
        self.shutting_down.load(Ordering::Relaxed)
    }

    /// Called before the sessions are told to end: a match still running is then abandoned
    /// (logged, not stored, no rating changes) instead of being lost by whoever's session
    /// ends first.
    pub fn begin_shutdown(&self) {
        self.shutting_down.store(true, Ordering::Relaxed);
    }

    /// At server shutdown, after the sessions ended: every room stores its decided match
    /// (without the replays still missing) and closes, then the recorder writes what is
    /// queued. Waits at most `patience` in all; every match not written by then is logged as
    /// an error. Returns how many were not written.
    pub async fn shutdown(&self, patience: Duration) -> usize {
        self.begin_shutdown();
        let deadline = Instant::now() + patience;
        let rooms: Vec<mpsc::Sender<RoomMsg>> = lock(&self.rooms).values().cloned().collect();
        for tx in rooms {
            // A full inbox is read soon: the room's task is alive while registered.
            let _ = tokio::time::timeout_at(deadline, tx.send(RoomMsg::Shutdown)).await;
        }
        self.room_tasks.close();
        if tokio::time::timeout_at(deadline, self.room_tasks.wait())
            .await
            .is_err()
        {
            tracing::error!(
                rooms = self.room_count(),
                "some rooms did not close in time: their matches may not be stored"
            );
        }
        let recorder = {
            let mut slot = lock(&self.recorder);
            slot.closed = true;
            slot.recorder.take()
        };
        match recorder {
            Some(r) => {
                r.finish(deadline.saturating_duration_since(Instant::now()))
                    .await
            }
            None => 0,
        }
    }

    /// The player's current rating: the latest ranked match's, the store's, or the default
    /// (also when the store cannot be read: the queue uses [`Hub::known_rating`]).
    pub async fn rating_of(&self, player: PlayerId) -> Rating {
        self.known_rating(player).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "reading a rating");
            Rating::default()
        })
    }

    fn set_rating(&self, player: PlayerId, rating: Rating) {
        lock(&self.ratings).insert(player, rating);
    }

    fn seed(&self) -> u32 {
        self.seed.unwrap_or_else(rand::random)
    }

    fn note_dropped(&self, player: PlayerId, code: &str) {
        let now = Instant::now();
        let mut dropped = lock(&self.dropped);
        dropped.retain(|_, d| now.duration_since(d.at) < NOTICE_WINDOW);
        dropped.insert(
            player,
            Dropped {
                code: code.to_owned(),
                result: None,
                at: now,
            },
        );
    }

    fn note_result(&self, player: PlayerId, code: &str, result: String) {
        if let Some(d) = lock(&self.dropped).get_mut(&player)
            && d.code == code
        {
            d.result = Some(result);
            d.at = Instant::now();
        }
    }

    /// What to tell a player who comes back after dropping out of a match, once.
    pub fn notice_for(&self, player: PlayerId) -> Option<String> {
        let mut dropped = lock(&self.dropped);
        let d = dropped.get(&player)?;
        if d.at.elapsed() >= NOTICE_WINDOW {
            dropped.remove(&player);
            return None;
        }
        match &d.result {
            Some(result) => {
                let result = result.clone();
                dropped.remove(&player);
                Some(result)
            }
            None => Some(format!(
                "Your match in room {} is still running without you; leaving it counts as a loss.",
                d.code
            )),
        }
    }
}
