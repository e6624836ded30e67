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
//! The queue's inbox is bounded too ([`QUEUE_INBOX`], `queue_inbox.rs`): a full one refuses a
//! join with a message to its player, and a way out waits its turn.
//!
//! The [`Hub`] is split by concern: the room registry (`registry.rs`), ranked claims
//! (`ranked.rs`), kept lobby seats (`kept_seats.rs`), notices for players who dropped out
//! (`notices.rs`), the recorder and shutdown (`shutdown.rs`), and other instances behind
//! [`RemoteRooms`] (`remote.rs`), given at construction. Every task the hub, its rooms and
//! its queue start is tracked and ends with its owner: rooms and the queue with the hub's
//! shutdown, bots with their room, rating reads with the queue.

pub mod bot;
pub mod climb;
pub mod code;
mod kept_seats;
mod known_rating;
pub mod limits;
mod member;
mod notices;
pub mod open_rooms;
mod queue;
mod queue_inbox;
#[cfg(test)]
mod queue_inbox_tests;
mod ranked;
mod record;
mod registry;
mod remote;
#[cfg(test)]
mod remote_tests;
mod room;
mod shutdown;
#[cfg(test)]
mod tests;
mod tx;
mod watching;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::time::Duration;

use minotty_domain::{PlayerId, RoomCode};
use minotty_engine::rating::Rating;
use tokio::sync::mpsc;
use tokio_util::task::TaskTracker;

use minotty_store::Store;

pub use member::{Link, Member, MemberId, Owner};
pub use queue::QueueMsg;
pub use queue_inbox::{QUEUE_BUSY, QUEUE_INBOX, QueueRefused, QueueTx};
pub use ranked::RankedClaim;
pub use remote::{QueueAction, RECONNECT, RemoteJoin, RemoteRooms};
pub use room::{ContactLoss, RoomMsg};
pub use tx::{BACKLOG_MAX, RESPONSE_QUEUE, SessionTx};
pub use watching::{MAX_SPECTATORS, SPECTATORS_PER_ADDRESS};

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

/// A room's address.
#[derive(Clone, Debug)]
pub struct RoomLink {
    pub code: RoomCode,
    pub tx: mpsc::Sender<RoomMsg>,
    /// Where a way out waits for a full inbox (the hub's tasks, or the cluster's).
    pub tasks: TaskTracker,
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
                self.tasks.spawn(async move {
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

    /// Reports of a seat played at game speed (a bot's), waiting while the inbox is full;
    /// `false` when the room has closed.
    pub async fn report(&self, id: MemberId, reports: Vec<minotty_protocol::Report>) -> bool {
        self.tx
            .send(RoomMsg::Command {
                id,
                command: minotty_protocol::RoomCommand::Report { reports },
            })
            .await
            .is_ok()
    }

    /// A bot that can play no more gives up its seat; the room says why (see [`Self::send`]).
    pub fn retire_bot(&self, id: MemberId, reason: String) -> bool {
        self.send(RoomMsg::BotRetired { id, reason })
    }

    /// The member leaves (`disconnected`: its session or task ended); never lost (see
    /// [`Self::send`]).
    pub fn leave(&self, id: MemberId, disconnected: bool) -> bool {
        self.send(RoomMsg::Leave { id, disconnected })
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

/// What every session shares: rooms, the queue, the store, ratings of recent matches.
#[derive(Debug, Default)]
pub struct Hub {
    rooms: Mutex<HashMap<RoomCode, mpsc::Sender<RoomMsg>>>,
    /// The matchmaking queue's inbox (`queue_inbox.rs`), once started.
    queue: OnceLock<QueueTx>,
    /// Queue requests refused because its inbox was full.
    queue_refused: AtomicU64,
    /// The hub's own tasks: the queue's, and messages waiting for a full inbox (a room's, the
    /// queue's); `stop` ends them at shutdown.
    tasks: TaskTracker,
    stop: tokio_util::sync::CancellationToken,
    recorder: Mutex<shutdown::RecorderSlot>,
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
    /// The latest rated series' rating of each account and when it was rated.
    ratings: Mutex<HashMap<PlayerId, (Rating, i64)>>,
    dropped: Mutex<HashMap<PlayerId, notices::Dropped>>,
    next_member: AtomicU64,
    /// Accounts in the queue or in a live ranked match: the claim's token (at most one each).
    ranked: Mutex<HashMap<PlayerId, u64>>,
    next_claim: AtomicU64,
    /// Wrong room codes per source address.
    join_failures: Mutex<limits::AddressFailures>,
    /// The server's bots: how many, and the threads that think for them.
    pub bots: Arc<bot::Bots>,
    /// The operator's Tetris Bot Protocol bots, which a host can seat by name.
    pub tbp: minotty_tbp::frontend::TbpBots,
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
    /// The other instances, with `--nats` (`remote.rs`), given at construction; `None`: a
    /// single instance.
    remote: Option<Arc<dyn RemoteRooms>>,
    /// This instance's climbs (`climb.rs`).
    pub climbs: climb::Climbs,
    /// Ranked series between two games (`ranked.rs`).
    series_pauses: Arc<AtomicUsize>,
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
    pub fn with_tbp(self, tbp: minotty_tbp::frontend::TbpBots) -> Hub {
        Hub { tbp, ..self }
    }

    /// Keeps a dropped player's lobby seat for `reconnect` (zero: not kept).
    pub fn set_reconnect(&mut self, reconnect: Duration) {
        self.reconnect = reconnect;
    }

    /// How long a lobby seat is kept for a player whose connection dropped.
    pub fn reconnect(&self) -> Duration {
        self.reconnect
    }

    pub fn next_member(&self) -> MemberId {
        MemberId(self.next_member.fetch_add(1, Ordering::Relaxed) + 1)
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

    /// The player's current rating: the latest ranked match's, the store's, or the default
    /// (also when the store cannot be read: the queue uses [`Hub::known_rating`]).
    pub async fn rating_of(&self, player: PlayerId) -> Rating {
        self.known_rating(player).await.unwrap_or_else(|e| {
            tracing::warn!(error = %e, "reading a rating");
            Rating::default()
        })
    }

    fn set_rating(&self, player: PlayerId, rating: Rating) {
        lock(&self.ratings).insert(player, (rating, unix_now()));
    }

    fn seed(&self) -> u32 {
        self.seed.unwrap_or_else(rand::random)
    }
}
