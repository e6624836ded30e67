//! The game writer: finished games are stored by background tasks, off the sessions' paths.
//!
//! A session calls [`GameWriter::submit`], which never blocks and never fails loudly: it queues
//! the game and hands back a oneshot receiver that later gets the stored id, the verdict and,
//! for a new all-time best, the player's rank. Behind it two tasks form a pipeline:
//!
//! 1. the judge takes whatever is queued (up to a batch) and judges it on the blocking pool
//!    ([`FinishedGame::judge`] re-simulates replays that could rank);
//! 2. the writer stores each judged batch in one transaction, retrying a transient failure (a
//!    busy database, an IO error) with exponential backoff. A batch that fails for good is
//!    written game by game, so one bad game does not take the others with it.
//!
//! How long a write is retried ([`WriterConfig::default`]): 10 attempts with 50 ms doubling to
//! 5 s between them, 16.35 s of backoff in all ([`WriterConfig::retries`]). With the database
//! merely busy that is the whole wait; with it down each attempt also waits for a connection.
//! A connection refused (the database's port closed: PostgreSQL stopped or restarting) fails
//! an attempt within [`crate::REFUSED_PROBE_AFTER`] (the store probes the port while it waits,
//! `lib.rs`), and one reset fails it at once, so a game is given up (spooled) about 17 s after
//! its first attempt; an address that does not answer at all makes each attempt wait sqlx's
//! acquire timeout of 30 s (10 of them are about 5 min 17 s).
//!
//! Nothing is lost silently: a rejected replay is stored and logged. A game that cannot be
//! stored after every retry goes to the spool (`spool/`, stored at the next start or sooner)
//! and its receiver hears [`WriteError::Spooled`]. At shutdown nothing is retried: whatever the
//! database does not take within [`crate::spool::STOP_PATIENCE`] is spooled at once (without a
//! spool: logged at once). Only a game the spool cannot take either (or, without a spool,
//! after every retry, or at shutdown) is logged at error level with its replay in hex (enough
//! to store it again by hand); its receiver gets the error. Nothing here panics.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_util::task::TaskTracker;

use super::{FinishedGame, Period, Store, StoreObserver, StoredGame, Verdict};
use crate::spool::{Fallback, Record, Retries};

mod overflow;
use overflow::Overflow;

/// How the writer batches and retries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriterConfig {
    /// The most games judged together and written in one transaction.
    pub max_batch: usize,
    /// Tries per write before giving up on it.
    pub max_attempts: u32,
    pub first_backoff: Duration,
    pub max_backoff: Duration,
}

impl WriterConfig {
    /// The retry schedule: `max_attempts` tries, `first_backoff` doubling to `max_backoff`
    /// between them.
    pub fn retries(&self) -> Retries {
        Retries {
            tries: self.max_attempts,
            first: self.first_backoff,
            factor: 2,
            max: self.max_backoff,
        }
    }
}

impl Default for WriterConfig {
    /// Up to 64 games a transaction; 10 tries with 16.35 s of backoff between them (plus what
    /// each attempt waits for a connection: see the module's doc).
    fn default() -> Self {
        WriterConfig {
            max_batch: 64,
            max_attempts: 10,
            first_backoff: Duration::from_millis(50),
            max_backoff: Duration::from_secs(5),
        }
    }
}

/// Why a game was not stored.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WriteError {
    #[error("the game was not stored after {attempts} attempts: {error}")]
    Failed { attempts: u32, error: String },
    #[error("the game writer has stopped")]
    Closed,
    /// Not stored now, but kept in the spool: it is stored once the database takes it.
    #[error(
        "the game was not stored after {attempts} attempts ({error}); it is spooled, to be stored later"
    )]
    Spooled { attempts: u32, error: String },
    /// Refused at [`GameWriter::submit`], neither judged nor stored: the engine never records
    /// more inputs than `MAX_INPUTS`, so such a game was not played by it.
    #[error("the game has {0} inputs, more than a game can record")]
    TooManyInputs(usize),
}

impl WriteError {
    /// What the player is told.
    pub fn for_player(&self) -> &'static str {
        match self {
            WriteError::Spooled { .. } => {
                "the database is away: your game is kept and will be stored when it is back"
            }
            _ => "your game could not be stored",
        }
    }
}

/// What a submitter gets back.
pub type WriteResult = Result<StoredGame, WriteError>;

struct Job {
    game: Arc<FinishedGame>,
    reply: oneshot::Sender<WriteResult>,
}

/// The sending side of the writer (cheap to clone, one per session is fine).
#[derive(Clone, Debug)]
pub struct GameWriter {
    jobs: mpsc::Sender<Job>,
    queued: Arc<AtomicUsize>,
    /// Where games go when `jobs` is full (`writer/overflow.rs`).
    overflow: Overflow,
    /// The store's observer, told of every game queued.
    observer: Arc<dyn StoreObserver>,
}

impl std::fmt::Debug for Job {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Job")
            .field("player", &self.game.player)
            .finish()
    }
}

impl GameWriter {
    /// Starts the writer's tasks on the current runtime. They run until every `GameWriter`
    /// clone is dropped and the queue is written; the handle finishes then (await it at
    /// shutdown so no game is left behind).
    pub fn spawn(store: Store, config: WriterConfig) -> (GameWriter, JoinHandle<()>) {
        Self::spawn_with(store, config, Fallback::default())
    }

    /// [`GameWriter::spawn`] with a fallback: games given up on go to its spool, and once its
    /// stop token is cancelled (shutdown) nothing is retried.
    pub fn spawn_with(
        store: Store,
        config: WriterConfig,
        fallback: Fallback,
    ) -> (GameWriter, JoinHandle<()>) {
        Self::spawn_queued(store, config, fallback, overflow::QUEUE)
    }

    /// [`GameWriter::spawn_with`] with room for `queue` games submitted and not yet judged;
    /// past that a game is spooled at once (`writer/overflow.rs`). The handle finishes once
    /// the judge, the writes and the spooling have all ended.
    pub fn spawn_queued(
        store: Store,
        config: WriterConfig,
        fallback: Fallback,
        queue: usize,
    ) -> (GameWriter, JoinHandle<()>) {
        let (jobs, rx) = mpsc::channel(queue.max(1));
        // A few judged batches may wait for the database; beyond that the judge waits, and
        // games gather in the queue to be judged and written as bigger batches.
        let (judged, judged_rx) = mpsc::channel(4);
        let queued = Arc::new(AtomicUsize::new(0));
        let observer = Arc::clone(store.observer());
        // The writer's own short tasks (spooling a game a full queue turned away, looking up
        // a new best's rank): its handle finishes once they have.
        let tasks = TaskTracker::new();
        let overflow = Overflow::new(fallback.spool.clone(), tasks.clone());
        let judge = tokio::spawn(judge_loop(
            rx,
            judged,
            config,
            queued.clone(),
            Arc::clone(&observer),
        ));
        let handle = tokio::spawn(async move {
            write_loop(store, judged_rx, config, fallback, tasks.clone()).await;
            // The writes end once the judge has: it has ended (or panicked) by now.
            let _ = judge.await;
            tasks.close();
            tasks.wait().await;
        });
        let writer = GameWriter {
            jobs,
            queued,
            overflow,
            observer,
        };
        (writer, handle)
    }

    /// Queues `game` to be judged and stored; never blocks (a full queue spools it). The receiver gets the outcome (it
    /// may be dropped: the game is stored all the same). A game with more than `MAX_INPUTS`
    /// inputs is refused here at once, so the judge and the database never see it.
    pub fn submit(&self, game: FinishedGame) -> oneshot::Receiver<WriteResult> {
        let (reply, rx) = oneshot::channel();
        let inputs = game.replay.inputs.len();
        if inputs > minotty_engine::MAX_INPUTS {
            tracing::warn!(
                player = game.player.0,
                inputs,
                "a game over the input limit was refused"
            );
            let _ = reply.send(Err(WriteError::TooManyInputs(inputs)));
            return rx;
        }
        self.queued.fetch_add(1, Ordering::Relaxed);
        self.observer.games_queued(1);
        let job = Job {
            game: Arc::new(game),
            reply,
        };
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(job)) => {
                self.queued.fetch_sub(1, Ordering::Relaxed);
                self.observer.games_queued(-1);
                self.overflow.take(job.game, job.reply);
            }
            Err(mpsc::error::TrySendError::Closed(job)) => {
                self.queued.fetch_sub(1, Ordering::Relaxed);
                self.observer.games_queued(-1);
                log_lost(&job.game, "the game writer has stopped");
                let _ = job.reply.send(Err(WriteError::Closed));
            }
        }
        rx
    }

    /// Games submitted and not yet judged.
    pub fn queued(&self) -> usize {
        self.queued.load(Ordering::Relaxed)
    }
}

async fn judge_loop(
    mut rx: mpsc::Receiver<Job>,
    judged: mpsc::Sender<Vec<(Job, Verdict)>>,
    config: WriterConfig,
    queued: Arc<AtomicUsize>,
    observer: Arc<dyn StoreObserver>,
) {
    let mut batch = Vec::with_capacity(config.max_batch);
    while rx.recv_many(&mut batch, config.max_batch.max(1)).await > 0 {
        queued.fetch_sub(batch.len(), Ordering::Relaxed);
        let jobs = std::mem::take(&mut batch);
        let verdicts = judge_all(jobs.iter().map(|j| j.game.clone()).collect()).await;
        for (job, verdict) in jobs.iter().zip(&verdicts) {
            if let Verdict::Rejected(why) = verdict {
                tracing::warn!(
                    player = job.game.player.0,
                    mode = job.game.replay.mode.kind.id(),
                    seed = job.game.replay.seed,
                    reason = %why,
                    "replay rejected: the game is stored but not ranked"
                );
            }
        }
        let pairs: Vec<(Job, Verdict)> = jobs.into_iter().zip(verdicts).collect();
        if let Err(mpsc::error::SendError(pairs)) = judged.send(pairs).await {
            observer.games_queued(-(pairs.len() as i64));
            for (job, _) in pairs {
                log_lost(&job.game, "the game writer has stopped");
                let _ = job.reply.send(Err(WriteError::Closed));
            }
        }
    }
}

/// Judges `games` on the blocking pool, split over all cores but one (left to the sessions
/// and the database writer; one core judges several thousand games a second).
async fn judge_all(games: Vec<Arc<FinishedGame>>) -> Vec<Verdict> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = cores.saturating_sub(1).clamp(1, 4);
    let size = games.len().div_ceil(workers).max(1);
    let chunks: Vec<_> = games
        .chunks(size)
        .map(|chunk| {
            let mine = chunk.to_vec();
            let task = tokio::task::spawn_blocking(move || {
                mine.iter().map(|g| g.judge()).collect::<Vec<_>>()
            });
            (chunk, task)
        })
        .collect();
    let mut verdicts = Vec::with_capacity(games.len());
    for (chunk, task) in chunks {
        match task.await {
            Ok(v) => verdicts.extend(v),
            // Judging catches the engine's panics, so this is the runtime shutting down:
            // judge here rather than drop the games.
            Err(e) => {
                tracing::warn!(error = %e, "judging on the blocking pool failed; judging inline");
                verdicts.extend(chunk.iter().map(|g| g.judge()));
            }
        }
    }
    verdicts
}

async fn write_loop(
    store: Store,
    mut judged: mpsc::Receiver<Vec<(Job, Verdict)>>,
    config: WriterConfig,
    fallback: Fallback,
    tasks: TaskTracker,
) {
    let mut w = Writing {
        store,
        config,
        fallback,
        tasks,
        down: false,
        spooled: 0,
        logged: 0,
    };
    let mut batches = Vec::new();
    // Judged batches that queued up while the last transaction ran go into one transaction.
    while judged.recv_many(&mut batches, 8).await > 0 {
        let (replies, items): (Vec<_>, Vec<_>) = batches
            .drain(..)
            .flatten()
            .map(|(job, verdict)| (job.reply, (job.game, verdict)))
            .unzip();
        let _queued = InHand::new(w.store.observer(), items.len());
        match w.insert_with_retry(&items).await {
            Ok(stored) => {
                for ((reply, (game, _)), stored) in replies.into_iter().zip(&items).zip(stored) {
                    answer(&w.tasks, &w.store, game.clone(), stored, reply);
                }
            }
            Err(f) if items.len() > 1 && !f.transient => {
                tracing::warn!(error = %f.error, games = items.len(), "a batch failed; writing its games one by one");
                for (reply, item) in replies.into_iter().zip(items) {
                    match w.insert_with_retry(std::slice::from_ref(&item)).await {
                        Ok(mut stored) => match stored.pop() {
                            Some(s) => answer(&w.tasks, &w.store, item.0, s, reply),
                            None => w.fail(&item.0, reply, 1, "nothing was stored").await,
                        },
                        Err(f) => w.fail(&item.0, reply, f.attempts, &f.error).await,
                    }
                }
            }
            Err(f) => {
                for (reply, (game, _)) in replies.into_iter().zip(&items) {
                    w.fail(game, reply, f.attempts, &f.error).await;
                }
            }
        }
    }
    if w.spooled > 0 {
        tracing::warn!(
            games = w.spooled,
            spool = %w.fallback.dir(),
            "the game writer stopped; the games the database did not take are in the spool"
        );
    }
    if w.logged > 0 {
        tracing::error!(
            games = w.logged,
            "the game writer stopped; games neither stored nor spooled were logged whole above"
        );
    }
}

/// The writer's state.
struct Writing {
    store: Store,
    config: WriterConfig,
    fallback: Fallback,
    /// The writer's short tasks (a new best's rank looked up before answering).
    tasks: TaskTracker,
    /// A write failed after shutdown began: the rest is spooled without trying.
    down: bool,
    /// Games spooled.
    spooled: usize,
    /// Games neither stored nor spooled: logged whole.
    logged: usize,
}

/// Why a write was given up.
struct Failure {
    error: String,
    attempts: u32,
    transient: bool,
}

impl Writing {
    /// Stores `items` in one transaction, retrying transient failures with backoff (none once
    /// shutdown began). On failure, the last error and the number of attempts made.
    async fn insert_with_retry(
        &mut self,
        items: &[(Arc<FinishedGame>, Verdict)],
    ) -> Result<Vec<StoredGame>, Failure> {
        let mut waits = self.config.retries().waits();
        let mut attempt = 1;
        loop {
            if self.down {
                return Err(Failure {
                    error: "the server is stopping and the database did not answer".to_owned(),
                    attempts: attempt - 1,
                    transient: true,
                });
            }
            let store = &self.store;
            let write = async move {
                let started = Instant::now();
                let written = store.insert_games(items).await;
                store.observer().games_written(started.elapsed());
                written
            };
            let (error, transient) = match self.fallback.bounded(write).await {
                Some(Ok(stored)) => return Ok(stored),
                Some(Err(e)) => (e.to_string(), e.is_transient()),
                None => (
                    "the server is stopping and the database did not answer in time".to_owned(),
                    true,
                ),
            };
            if transient && self.fallback.stopping() {
                self.down = true;
            }
            let wait = match waits.next() {
                Some(wait) if transient && !self.down => wait,
                _ => {
                    return Err(Failure {
                        error,
                        attempts: attempt,
                        transient,
                    });
                }
            };
            tracing::warn!(
                attempt,
                error,
                games = items.len(),
                "storing games failed; retrying"
            );
            self.fallback.backoff(wait).await;
            attempt += 1;
        }
    }

    /// Gives up on `game`: spooled (the submitter hears so) or, failing that, logged whole
    /// (the submitter gets the error).
    async fn fail(
        &mut self,
        game: &Arc<FinishedGame>,
        reply: oneshot::Sender<WriteResult>,
        attempts: u32,
        error: &str,
    ) {
        match &self.fallback.spool {
            Some(spool) => match spool
                .put_async(Record::Game(Box::new(FinishedGame::clone(game))))
                .await
            {
                Ok(path) => {
                    self.spooled += 1;
                    tracing::warn!(
                        player = game.player.0,
                        file = %path.display(),
                        error,
                        "a finished game was not stored: spooled, to be stored later"
                    );
                    let error = error.to_owned();
                    let _ = reply.send(Err(WriteError::Spooled { attempts, error }));
                    return;
                }
                Err(e) => log_lost(game, &format!("{error}; not spooled either: {e}")),
            },
            None => log_lost(game, &format!("{error}; no spool")),
        }
        self.logged += 1;
        let _ = reply.send(Err(WriteError::Failed {
            attempts,
            error: error.to_owned(),
        }));
    }
}

/// A batch of games in the writer's hands: they leave its queue (stored or given up, as the
/// observer hears) when the guard is dropped.
struct InHand {
    observer: Arc<dyn StoreObserver>,
    games: i64,
}

impl InHand {
    fn new(observer: &Arc<dyn StoreObserver>, games: usize) -> InHand {
        InHand {
            observer: Arc::clone(observer),
            games: i64::try_from(games).unwrap_or(i64::MAX),
        }
    }
}

impl Drop for InHand {
    fn drop(&mut self) {
        self.observer.games_queued(-self.games);
    }
}

/// Replies with the stored game, after looking up the player's rank for a new all-time best
/// (on its own task: a read that does not hold up the writer).
fn answer(
    tasks: &TaskTracker,
    store: &Store,
    game: Arc<FinishedGame>,
    mut stored: StoredGame,
    reply: oneshot::Sender<WriteResult>,
) {
    if !stored.improved.contains(&Period::AllTime) {
        let _ = reply.send(Ok(stored));
        return;
    }
    let store = store.clone();
    tasks.spawn(async move {
        let board = super::Board::new(game.replay.mode.kind, game.replay.ruleset);
        match store
            .rank_of(board, Period::AllTime, game.ended_at, game.player)
            .await
        {
            Ok(entry) => stored.rank = entry.map(|e| e.rank),
            Err(e) => {
                tracing::warn!(error = %e, game = stored.id.0, "looking up a new best's rank")
            }
        }
        let _ = reply.send(Ok(stored));
    });
}

/// Logs everything needed to store the game again by hand.
fn log_lost(game: &FinishedGame, error: &str) {
    let replay: String = game
        .replay
        .to_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    tracing::error!(
        player = game.player.0,
        mode = game.replay.mode.kind.id(),
        started_at = game.started_at,
        ended_at = game.ended_at,
        stats = ?game.stats,
        outcome = ?game.outcome,
        %replay,
        error,
        "a finished game could not be stored"
    );
}
