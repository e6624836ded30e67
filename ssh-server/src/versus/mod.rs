//! Versus on the server: the room registry, each room its own task (`room.rs`), the ranked
//! quick-match queue (`queue.rs`) and the background writer of match records (`record.rs`).
//!
//! Every player's own engine runs in their App, inside their session task. A room never runs
//! an engine: it takes the reports of each player's App (attacks, boards, progress, the end of
//! the game), routes attacks with the engine's [`minotty_engine::versus::Router`] to the
//! target's session as `Response::Garbage`, relays boards to the other players and spectators
//! (coalesced), decides the match and stores it.
//!
//! Sessions talk to a room over an unbounded channel (a leave sent from `Drop` must never be
//! lost); a room answers each session through a [`SessionTx`], which never waits (a stuck
//! session can never stall a room) and never drops garbage or a match's start and end.

pub mod code;
mod queue;
mod record;
mod room;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use minotty_engine::rating::Rating;
use minotty_ui::online::{Response, RoomOptions};
use tokio::sync::mpsc;
use tokio::time::Instant;
use tokio_util::task::TaskTracker;

use crate::services::AccountRef;
use crate::store::{NewMatch, PlayerId, Store};

pub use queue::QueueMsg;
pub use room::{RoomMsg, match_mode};

/// How long a match counts down before it starts.
pub const COUNTDOWN: Duration = Duration::from_millis(3000);
/// The shortest time between two `Opponents` sent to one receiver (at most 20 per second).
pub const OPPONENTS_INTERVAL: Duration = Duration::from_millis(50);
/// How long a room waits after a match for the players' replays before storing the match.
pub const REPLAY_GRACE: Duration = Duration::from_secs(5);
/// How long a player who dropped out of a match is told its result when they come back.
pub const NOTICE_WINDOW: Duration = Duration::from_secs(30 * 60);

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
    pub tx: mpsc::UnboundedSender<RoomMsg>,
}

/// A session's response channel as versus uses it: never waits, and never drops anything but
/// `Opponents` (coalesced news, a fresher one follows).
///
/// While the session's bounded queue has room, responses go straight into it. When it is full,
/// every response but `Opponents` waits in a backlog that a forwarding task feeds into the
/// queue, in order, as the session reads it; until the backlog is empty later responses join
/// it (so the order per session is kept) and `Opponents` are dropped. The backlog goes when
/// the session ends.
#[derive(Clone, Debug)]
pub struct SessionTx {
    tx: mpsc::Sender<Response>,
    backlog: Arc<Mutex<Backlog>>,
}

#[derive(Debug, Default)]
struct Backlog {
    queued: std::collections::VecDeque<Response>,
    /// A forwarding task is running (it clears this when the backlog is empty).
    forwarding: bool,
}

impl SessionTx {
    pub fn new(tx: mpsc::Sender<Response>) -> SessionTx {
        SessionTx {
            tx,
            backlog: Arc::new(Mutex::new(Backlog::default())),
        }
    }

    /// The session has ended (its receiver is gone).
    pub fn is_closed(&self) -> bool {
        self.tx.is_closed()
    }

    /// How many responses wait in the backlog.
    pub fn backlog_len(&self) -> usize {
        lock(&self.backlog).queued.len()
    }

    /// Queues `response` without waiting. `false` when it was dropped: the session is gone,
    /// or it is an `Opponents` and the session's queue is full.
    pub fn send(&self, response: Response) -> bool {
        let droppable = matches!(response, Response::Opponents(_));
        let mut backlog = lock(&self.backlog);
        if backlog.forwarding {
            if droppable {
                return false;
            }
            backlog.queued.push_back(response);
            return true;
        }
        match self.tx.try_send(response) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Closed(_)) => false,
            Err(mpsc::error::TrySendError::Full(_)) if droppable => false,
            Err(mpsc::error::TrySendError::Full(response)) => {
                tracing::debug!("a session's response queue is full: responses wait in order");
                backlog.queued.push_back(response);
                backlog.forwarding = true;
                tokio::spawn(forward(self.tx.clone(), Arc::clone(&self.backlog)));
                true
            }
        }
    }
}

/// Feeds the backlog into the session's queue, waiting for room, until it is empty.
async fn forward(tx: mpsc::Sender<Response>, backlog: Arc<Mutex<Backlog>>) {
    loop {
        let next = {
            let mut b = lock(&backlog);
            match b.queued.pop_front() {
                Some(r) => r,
                None => {
                    b.forwarding = false;
                    return;
                }
            }
        };
        if tx.send(next).await.is_err() {
            // The session ended: nobody to tell.
            let mut b = lock(&backlog);
            b.queued.clear();
            b.forwarding = false;
            return;
        }
    }
}

/// A session, as rooms and the queue know it.
#[derive(Clone, Debug)]
pub struct Member {
    pub id: MemberId,
    /// The displayed name (account name, or the sanitised SSH user name of a guest).
    pub name: String,
    pub account: Option<AccountRef>,
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
    rooms: Mutex<HashMap<String, mpsc::UnboundedSender<RoomMsg>>>,
    queue: OnceLock<mpsc::UnboundedSender<QueueMsg>>,
    recorder: Mutex<RecorderSlot>,
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
}

impl Hub {
    pub fn new(store: Option<Store>, seed: Option<u32>) -> Hub {
        Hub {
            store,
            seed,
            ..Hub::default()
        }
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

    /// Creates a room with `players` (the first hosts a private room) and starts its task.
    /// `None` when no free code was found.
    pub fn create_room(
        self: &Arc<Self>,
        options: RoomOptions,
        ranked: bool,
        players: Vec<(Member, Option<Rating>)>,
    ) -> Option<RoomLink> {
        room::spawn(Arc::clone(self), options, ranked, players)
    }

    /// Reserves a fresh code for `tx`.
    fn register(&self, tx: &mpsc::UnboundedSender<RoomMsg>) -> Option<String> {
        let mut rooms = lock(&self.rooms);
        for _ in 0..64 {
            let code = code::random();
            if !rooms.contains_key(&code) {
                rooms.insert(code.clone(), tx.clone());
                return Some(code);
            }
        }
        None
    }

    fn unregister(&self, code: &str) {
        lock(&self.rooms).remove(code);
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
            record::lost(&m, "it ended after the match recorder was shut down");
            return;
        }
        slot.recorder
            .get_or_insert_with(|| record::Recorder::spawn(store.clone()))
            .record(m);
    }

    /// Runs a room's task, tracked for shutdown.
    fn spawn_room(&self, task: impl std::future::Future<Output = ()> + Send + 'static) {
        self.room_tasks.spawn(task);
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
        let rooms: Vec<mpsc::UnboundedSender<RoomMsg>> =
            lock(&self.rooms).values().cloned().collect();
        for tx in rooms {
            let _ = tx.send(RoomMsg::Shutdown);
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

    /// The player's current rating: the latest ranked match's, the store's, or the default.
    pub async fn rating_of(&self, player: PlayerId) -> Rating {
        if let Some(r) = lock(&self.ratings).get(&player) {
            return *r;
        }
        match &self.store {
            Some(store) => match store.rating_of(player).await {
                Ok(Some(stored)) => stored.rating,
                Ok(None) => Rating::default(),
                Err(e) => {
                    tracing::warn!(error = %e, "reading a rating");
                    Rating::default()
                }
            },
            None => Rating::default(),
        }
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
