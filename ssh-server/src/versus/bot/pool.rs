//! The threads that think for the built-in bots, and the built-in bot's driver.
//!
//! Every decision of every built-in bot runs on this fixed set of threads (`--bot-threads`),
//! never on the async runtime: however many bots play, their searches use at most that many
//! cores. Jobs wait in a bounded queue; when it is full a bot waits and asks again (it then
//! plays slower, nothing else does). A decision is bounded by construction (at most
//! `1 + beam * (depth - 1)` placement searches and their evaluations: about 1.4 ms at level 7
//! on this project's machine, `BENCHMARKS.md`); one that takes longer than [`SLOW`] is logged.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use minotty_bots::versus::{DecisionDone, DecisionJob, Level, VersusBot};
use minotty_engine::{Game, Time};
use tokio::sync::oneshot;

use super::{BotDriver, BotStep};
use crate::versus::lock;

/// A decision slower than this is logged (the machine is overloaded, or a bug).
pub const SLOW: Duration = Duration::from_millis(100);
/// How long a bot whose job found the queue full waits before asking again (game ms).
const RETRY_MS: Time = 20;

type Job = (Box<DecisionJob>, oneshot::Sender<DecisionDone>);

/// What the pool did so far (for logs and the bot load measurements).
#[derive(Debug, Default)]
pub struct PoolStats {
    pub decisions: AtomicU64,
    /// Time spent deciding, in µs, all threads together.
    pub busy_us: AtomicU64,
    pub slowest_us: AtomicU64,
    /// Jobs that found the queue full (the bot waited and asked again).
    pub full: AtomicU64,
}

/// The worker threads and their queue.
#[derive(Debug)]
pub struct Pool {
    tx: SyncSender<Job>,
    pub stats: Arc<PoolStats>,
}

impl Pool {
    /// `threads` workers and at most `queue` jobs waiting. The workers end when the pool is
    /// dropped.
    pub fn new(threads: usize, queue: usize) -> Pool {
        let (tx, rx) = sync_channel::<Job>(queue.max(1));
        let rx = Arc::new(Mutex::new(rx));
        let stats = Arc::new(PoolStats::default());
        for i in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            let stats = Arc::clone(&stats);
            let spawned = std::thread::Builder::new()
                .name(format!("minotty-bot-{i}"))
                .spawn(move || work(&rx, &stats));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "cannot start a bot thread");
            }
        }
        Pool { tx, stats }
    }

    /// Queues a decision; the job comes back when the queue is full (or the workers are gone).
    pub fn submit(
        &self,
        job: Box<DecisionJob>,
    ) -> Result<oneshot::Receiver<DecisionDone>, Box<DecisionJob>> {
        let (reply, rx) = oneshot::channel();
        match self.tx.try_send((job, reply)) {
            Ok(()) => Ok(rx),
            Err(TrySendError::Full((job, _)) | TrySendError::Disconnected((job, _))) => {
                self.stats.full.fetch_add(1, Ordering::Relaxed);
                Err(job)
            }
        }
    }
}

fn work(rx: &Mutex<Receiver<Job>>, stats: &PoolStats) {
    loop {
        let next = lock(rx).recv();
        let Ok((job, reply)) = next else {
            return;
        };
        let started = Instant::now();
        // A panicking search loses its job only: the bot gets a fresh brain.
        let done = catch_unwind(AssertUnwindSafe(|| job.run()));
        let us = u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX);
        stats.decisions.fetch_add(1, Ordering::Relaxed);
        stats.busy_us.fetch_add(us, Ordering::Relaxed);
        stats.slowest_us.fetch_max(us, Ordering::Relaxed);
        if us > SLOW.as_micros() as u64 {
            tracing::warn!(ms = us / 1000, "a bot decision was slow");
        }
        match done {
            Ok(done) => {
                let _ = reply.send(done);
            }
            Err(_) => tracing::error!("a bot decision panicked"),
        }
    }
}

/// The built-in bot at one level, thinking on the pool.
#[derive(Debug)]
pub struct Builtin {
    level: Level,
    bot: VersusBot,
    pool: Arc<Pool>,
    /// A decision on the pool, and one back from it, not yet handed to the bot.
    pending: Option<oneshot::Receiver<DecisionDone>>,
    done: Option<DecisionDone>,
    /// A job the full queue sent back, to submit again.
    waiting: Option<Box<DecisionJob>>,
}

impl Builtin {
    pub fn new(level: Level, pool: Arc<Pool>) -> Builtin {
        Builtin {
            level,
            bot: VersusBot::new(level, 0),
            pool,
            pending: None,
            done: None,
            waiting: None,
        }
    }
}

impl BotDriver for Builtin {
    fn name(&self) -> String {
        format!("Bot level {}", self.level.number())
    }

    fn kind(&self) -> String {
        format!("level {}", self.level.number())
    }

    fn level(&self) -> Option<u8> {
        Some(self.level.number())
    }

    fn start(&mut self, _game: &Game, seed: u32) {
        self.bot = VersusBot::new(self.level, seed);
        self.pending = None;
        self.done = None;
        self.waiting = None;
    }

    fn poll(&mut self, game: &Game, now: Time) -> BotStep {
        if let Some(done) = self.done.take() {
            self.bot.accept(done, game);
        }
        if self.pending.is_some() {
            return BotStep::Idle;
        }
        let job = match self.waiting.take() {
            Some(job) if job.is_for(game) => Some(job),
            Some(stale) => {
                self.bot.accept(stale.skip(), game);
                self.bot.decision_job(game).map(Box::new)
            }
            None => self.bot.decision_job(game).map(Box::new),
        };
        if let Some(job) = job {
            match self.pool.submit(job) {
                Ok(rx) => {
                    self.pending = Some(rx);
                    return BotStep::Idle;
                }
                Err(job) => {
                    self.waiting = Some(job);
                    return BotStep::At(now + RETRY_MS);
                }
            }
        }
        match self.bot.next_at(game) {
            Some(t) if t <= now => self
                .bot
                .act(game, now)
                .map_or(BotStep::Idle, BotStep::Input),
            Some(t) => BotStep::At(t),
            None => BotStep::Idle,
        }
    }

    fn ready(&mut self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            let Some(rx) = self.pending.as_mut() else {
                return std::future::pending().await;
            };
            let answer = rx.await;
            self.pending = None;
            match answer {
                Ok(done) => self.done = Some(done),
                // The search panicked and took the brain with it: a fresh one.
                Err(_) => self.bot = VersusBot::new(self.level, 1),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_engine::{GameConfig, Mode};

    fn job(seed: u32) -> Box<DecisionJob> {
        let mut game = Game::new(
            GameConfig {
                mode: Mode::custom(0, true, None),
                ..GameConfig::default()
            },
            seed,
        );
        game.update(0, None);
        let mut bot = VersusBot::new(Level::MAX, seed);
        Box::new(bot.decision_job(&game).expect("a piece to decide"))
    }

    #[test]
    fn decisions_run_on_the_pool_and_a_full_queue_hands_the_job_back() {
        let pool = Pool::new(1, 1);
        let receivers: Vec<_> = (0..50).map(|s| pool.submit(job(s))).collect();
        let queued = receivers.iter().filter(|r| r.is_ok()).count();
        // One thread, one place in the queue: most jobs come back to wait.
        assert!((1..=3).contains(&queued), "{queued} queued");
        for rx in receivers.into_iter().flatten() {
            let done = rx.blocking_recv().expect("decided");
            let _ = done;
        }
        assert_eq!(pool.stats.decisions.load(Ordering::Relaxed), queued as u64);
        assert!(pool.stats.full.load(Ordering::Relaxed) >= 47);
        // Room again once the queue drained.
        assert!(pool.submit(job(99)).is_ok());
    }
}
