//! The live directory: every solo game being played on the server and every versus match
//! running, for the Live screen, its TV and `ssh HOST watch`. In memory only.
//!
//! - A session publishes its solo game through a [`SoloPublisher`] (one per session). Nobody
//!   watching costs a summary update per locked piece (a lock of the directory's mutex, no
//!   allocation); while someone watches, the board goes out at most every [`FRAME_INTERVAL`]
//!   on a `watch` channel (only the latest frame is ever kept). A player whose setting "Let
//!   others watch my games" is off is never listed. The listing goes when the game ends, the
//!   player leaves it, or the session ends (the publisher's `Drop`).
//! - A room lists its match while it runs and every player lets others watch (`live/matches.rs`,
//!   [`MatchListing`], unlisted when dropped). The list opens it through the room's own
//!   spectator seat by the entry's id, never by the room's code (codes let players into rooms:
//!   the list and its frames never carry one); the TV watches it here: while someone does, the
//!   room publishes its spectators' view when it sends it (at most every 50 ms).
//! - A session watches through its [`LiveClient`]: at most one game at a time (a new watch
//!   replaces the last), at most [`MAX_WATCHERS_PER_GAME`] per game and [`MAX_WATCHERS`]
//!   server-wide, frames forwarded at most every [`WATCH_INTERVAL`] and dropped when the
//!   session's response queue is full, its requests through a token bucket.
//!
//! The list's order ("interest"): matches first (more players first, then the older match),
//! then solo games by pace, pieces per second over the game so far (counted over at least
//! [`PACE_FLOOR_MS`], so a game that just started does not lead on its first pieces), then by
//! score, then the older game.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::{LiveEntry, LiveFrame, LiveKind, LiveMatchFrame, LiveStats};
use minotty_ui::{Request, Response};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::budget::TokenBucket;

mod matches;
mod solo;
pub use matches::MatchListing;
pub use solo::{LiveHold, SoloPublisher, frame_of, stats_of};

/// The longest a session watches (the Live screen's watching and the TV without a key, or a
/// stream): watchers have no idle timeout, this instead.
pub const MAX_WATCH: Duration = Duration::from_secs(3600);
/// What a stream (`ssh HOST watch` without a terminal) starts with: the alternate screen,
/// cursor hidden, no line wrap, cleared (no keyboard queries: nothing answers them).
pub const STREAM_ENTER: &[u8] = b"\x1b[?1049h\x1b[?25l\x1b[?7l\x1b[0m\x1b[H\x1b[2J";
/// The size a stream is drawn at.
pub const STREAM_SIZE: (u16, u16) = (80, 24);

/// A watched game's board goes out at most this often.
pub const FRAME_INTERVAL: Duration = Duration::from_millis(150);
/// A watcher is sent a frame at most this often.
pub const WATCH_INTERVAL: Duration = Duration::from_millis(100);
/// Watchers of one game.
pub const MAX_WATCHERS_PER_GAME: usize = 32;
/// Watchers on the whole server.
pub const MAX_WATCHERS: usize = 512;
/// Entries sent in one list (the most interesting).
pub const MAX_LISTED: usize = 50;
/// A solo game's pace is counted over at least this much game time.
pub const PACE_FLOOR_MS: u64 = 20_000;
/// Live requests of one session: a burst, then per second (excess answered with a refusal
/// once, then dropped until the bucket refills).
pub const REQUEST_BURST: u64 = 10;
pub const REQUESTS_PER_SEC: u64 = 2;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic while holding the lock leaves plain data behind: keep using it.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What a watched game publishes.
#[derive(Debug, PartialEq, Eq)]
pub enum LiveUpdate {
    Solo(LiveFrame),
    Match(LiveMatchFrame),
    /// A solo game whose player dropped: it is parked, not over (frames follow if they
    /// resume it; the end if not).
    Parked,
}

impl LiveUpdate {
    /// What a watcher of game `id` is sent.
    fn response(&self, id: u64) -> Option<Response> {
        match self {
            LiveUpdate::Solo(f) => Some(Response::LiveFrame(Box::new(f.clone()))),
            LiveUpdate::Match(f) => Some(Response::LiveMatchFrame(Box::new(f.clone()))),
            LiveUpdate::Parked => Some(Response::LiveParked { id }),
        }
    }
}

type FrameTx = watch::Sender<Option<Arc<LiveUpdate>>>;
type FrameRx = watch::Receiver<Option<Arc<LiveUpdate>>>;

#[derive(Debug)]
struct Entry {
    players: Vec<String>,
    kind: LiveKind,
    mode: ModeKind,
    ruleset: RulesetId,
    stats: LiveStats,
    /// Where frames are published, and how many watch.
    frames: (FrameRx, Arc<AtomicUsize>),
    /// The directory's order of listing (older first among equals).
    seq: u64,
    /// A match's room code: kept here for the server's own use (spectating by the entry's
    /// id), never sent with the list or a frame.
    room: Option<minotty_domain::RoomCode>,
    /// A match with a player who does not let others watch: counted, never shown or watched.
    private: bool,
}

impl Entry {
    fn watchers(&self) -> usize {
        self.frames.1.load(Ordering::Relaxed)
    }

    /// The sort key: smaller is more interesting.
    fn interest(&self) -> (u8, std::cmp::Reverse<u64>, std::cmp::Reverse<u64>, u64) {
        match self.kind {
            LiveKind::Match { .. } => (
                0,
                std::cmp::Reverse(self.players.len() as u64),
                std::cmp::Reverse(0),
                self.seq,
            ),
            LiveKind::Solo => {
                let ms = self.stats.time_ms.max(PACE_FLOOR_MS);
                let pace = u64::from(self.stats.pieces) * 1_000_000 / ms;
                (
                    1,
                    std::cmp::Reverse(pace),
                    std::cmp::Reverse(self.stats.score),
                    self.seq,
                )
            }
        }
    }
}

#[derive(Debug, Default)]
struct Inner {
    entries: Mutex<HashMap<u64, Entry>>,
    next: AtomicU64,
    /// Watchers on the whole server.
    watchers: AtomicUsize,
}

/// The server's live directory (cheap to clone: one shared map).
#[derive(Clone, Debug, Default)]
pub struct LiveDirectory {
    inner: Arc<Inner>,
}

impl LiveDirectory {
    /// Lists the entry `entry` makes of its order of listing; returns its id, opaque: random,
    /// so nothing can be counted or guessed from it (what a private match's id would be).
    fn insert(&self, entry: impl FnOnce(u64) -> Entry) -> u64 {
        let seq = self.inner.next.fetch_add(1, Ordering::Relaxed) + 1;
        let mut entries = lock(&self.inner.entries);
        let id = loop {
            let id = rand::random::<u64>() >> 11;
            if id != 0 && !entries.contains_key(&id) {
                break id;
            }
        };
        entries.insert(id, entry(seq));
        id
    }

    /// Lists `entry` again under the id it had (a parked game resumed); `false` when the id
    /// is taken.
    fn insert_as(&self, id: u64, entry: impl FnOnce(u64) -> Entry) -> bool {
        let seq = self.inner.next.fetch_add(1, Ordering::Relaxed) + 1;
        let mut entries = lock(&self.inner.entries);
        if id == 0 || entries.contains_key(&id) {
            return false;
        }
        entries.insert(id, entry(seq));
        true
    }

    fn remove(&self, id: u64) {
        lock(&self.inner.entries).remove(&id);
    }

    /// Everything being played, private matches too (what the server counts: a drain waits for
    /// them), most interesting first, at most [`MAX_LISTED`] entries. Players are sent
    /// [`LiveDirectory::public_list`].
    pub fn list(&self) -> Vec<LiveEntry> {
        self.list_where(|_| true)
    }

    /// What players see: the list without the matches of players who keep their games to
    /// themselves.
    pub fn public_list(&self) -> Vec<LiveEntry> {
        self.list_where(|e| !e.private)
    }

    fn list_where(&self, keep: impl Fn(&Entry) -> bool) -> Vec<LiveEntry> {
        let entries = lock(&self.inner.entries);
        let mut all: Vec<(u64, &Entry)> = entries
            .iter()
            .filter(|(_, e)| keep(e))
            .map(|(&id, e)| (id, e))
            .collect();
        all.sort_by_key(|(_, e)| e.interest());
        all.into_iter()
            .take(MAX_LISTED)
            .map(|(id, e)| LiveEntry {
                id,
                kind: e.kind.clone(),
                players: e.players.clone(),
                mode: e.mode,
                ruleset: e.ruleset,
                stats: e.stats,
                watchers: u32::try_from(e.watchers()).unwrap_or(u32::MAX),
            })
            .collect()
    }

    /// How many games and matches are listed.
    pub fn len(&self) -> usize {
        lock(&self.inner.entries).len()
    }

    /// Whether nothing is listed.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Watchers on the whole server now.
    pub fn watchers(&self) -> usize {
        self.inner.watchers.load(Ordering::Relaxed)
    }

    /// Starts watching game or match `id`: its frames, and a guard that counts the watcher
    /// until dropped. Refused when it is not listed or watchers are at a bound.
    pub fn watch(&self, id: u64) -> Result<(FrameRx, WatcherGuard), &'static str> {
        let entries = lock(&self.inner.entries);
        // A private match is as if it were not there.
        let Some(entry) = entries.get(&id).filter(|e| !e.private) else {
            return Err("That game has ended.");
        };
        let (rx, count) = &entry.frames;
        if count.load(Ordering::Relaxed) >= MAX_WATCHERS_PER_GAME {
            return Err("Too many people are watching that game: try another.");
        }
        // Taken under the directory's lock, so the bound holds however many try at once.
        let global = &self.inner.watchers;
        if global.fetch_add(1, Ordering::Relaxed) >= MAX_WATCHERS {
            global.fetch_sub(1, Ordering::Relaxed);
            return Err("Too many people are watching right now: try again later.");
        }
        count.fetch_add(1, Ordering::Relaxed);
        Ok((
            rx.clone(),
            WatcherGuard {
                dir: self.clone(),
                count: Arc::clone(count),
            },
        ))
    }

    fn update_stats(&self, id: u64, stats: LiveStats) {
        if let Some(e) = lock(&self.inner.entries).get_mut(&id) {
            e.stats = stats;
        }
    }
}

/// One watcher, counted (per game and server-wide) until dropped.
#[derive(Debug)]
pub struct WatcherGuard {
    dir: LiveDirectory,
    count: Arc<AtomicUsize>,
}

impl Drop for WatcherGuard {
    fn drop(&mut self) {
        self.count.fetch_sub(1, Ordering::Relaxed);
        self.dir.inner.watchers.fetch_sub(1, Ordering::Relaxed);
    }
}

type WatchSlot = Arc<Mutex<Option<WatcherGuard>>>;

/// Empties a watch slot when dropped.
struct ReleaseOnDrop(WatchSlot);

impl Drop for ReleaseOnDrop {
    fn drop(&mut self) {
        lock(&self.0).take();
    }
}

/// A session's side of the Live screen: lists, and the one game it watches.
#[derive(Debug)]
pub struct LiveClient {
    dir: LiveDirectory,
    tx: mpsc::Sender<Response>,
    /// The watch in progress: cancelled by the next, by `StopWatching` and on drop. Its
    /// watcher is counted while the slot holds its guard: emptied at once by the client (so
    /// one session never counts twice, however fast it flaps) or by the task when the game
    /// ends.
    watching: Option<(CancellationToken, WatchSlot)>,
    /// The watch's task (and, briefly, the one it replaced while it sees its cancellation):
    /// owned here, so none outlives the client (dropping the set aborts what is left).
    tasks: JoinSet<()>,
    budget: TokenBucket,
    /// The budget ran out and the session was told (told once until it refills).
    told: bool,
    start: Instant,
}

impl LiveClient {
    pub fn new(dir: LiveDirectory, tx: mpsc::Sender<Response>) -> LiveClient {
        LiveClient {
            dir,
            tx,
            watching: None,
            tasks: JoinSet::new(),
            budget: TokenBucket::new(REQUEST_BURST, REQUESTS_PER_SEC, 0),
            told: false,
            start: Instant::now(),
        }
    }

    /// The directory.
    pub fn directory(&self) -> &LiveDirectory {
        &self.dir
    }

    /// Carries out a live request (others are ignored).
    pub fn handle(&mut self, request: Request) {
        let now = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        if !self.budget.try_take(now) {
            if !self.told {
                self.told = true;
                let _ = self.tx.try_send(Response::LiveFailed {
                    message: "Too many requests: wait a moment.".into(),
                });
            }
            return;
        }
        self.told = false;
        match request {
            Request::LiveList => {
                let _ = self.tx.try_send(Response::Live(self.dir.public_list()));
            }
            Request::WatchLive { id } => self.watch(id),
            Request::StopWatching => self.stop(),
            _ => {}
        }
    }

    fn stop(&mut self) {
        if let Some((token, slot)) = self.watching.take() {
            token.cancel();
            lock(&slot).take();
        }
    }

    fn watch(&mut self, id: u64) {
        self.stop();
        let (mut rx, guard) = match self.dir.watch(id) {
            Ok(w) => w,
            Err(message) => {
                let _ = self.tx.try_send(Response::LiveFailed {
                    message: message.into(),
                });
                return;
            }
        };
        let token = CancellationToken::new();
        let slot = Arc::new(Mutex::new(Some(guard)));
        self.watching = Some((token.clone(), Arc::clone(&slot)));
        let tx = self.tx.clone();
        // Watches that ended are reaped: the set holds the live ones only.
        while self.tasks.try_join_next().is_some() {}
        self.tasks.spawn(async move {
            // However the task ends, the watcher is no longer counted.
            let _release = ReleaseOnDrop(slot);
            // The latest frame at once (there may be none yet: the player's session makes
            // one at its next turn now that someone watches).
            rx.mark_changed();
            loop {
                tokio::select! {
                    () = token.cancelled() => return,
                    changed = rx.changed() => {
                        if changed.is_err() {
                            // The publisher is gone: the game ended or its player left, or
                            // it is parked for their return (its last word says so).
                            let parked = matches!(
                                rx.borrow().as_deref(),
                                Some(LiveUpdate::Parked)
                            );
                            let _ = tx.try_send(if parked {
                                Response::LiveParked { id }
                            } else {
                                Response::LiveEnded { id }
                            });
                            return;
                        }
                    }
                }
                let frame = rx.borrow_and_update().clone();
                if let Some(response) = frame.and_then(|f| f.response(id)) {
                    // A full queue drops the frame: a newer one comes.
                    let _ = tx.try_send(response);
                }
                tokio::select! {
                    () = token.cancelled() => return,
                    () = tokio::time::sleep(WATCH_INTERVAL) => {}
                }
            }
        });
    }
}

impl Drop for LiveClient {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests;
