//! Passwords: argon2id with the `argon2` crate's default parameters (its recommendation, the
//! OWASP minimum: 19 MiB, 2 passes, 1 lane), stored as PHC strings.
//!
//! Hashing takes tens of milliseconds of one core and 19 MiB of memory on purpose, so it runs
//! on a [`HashPool`]: [`HASH_THREADS`] threads of its own with a queue of [`HASH_QUEUE`] jobs,
//! never on a session's task nor on tokio's blocking pool. A job past the queue is refused
//! with [`StoreError::Busy`] ("the server is busy"). Why threads of its own: the allocator
//! keeps an arena per thread that ever hashed, and the blocking pool grows to hundreds of
//! threads, so hashing there left 19 MiB resident per thread that had hashed (14 sessions
//! changing passwords took the server from 94 MB to 1.42 GB, kept after). With a fixed set of
//! threads, hashing holds at most `HASH_THREADS` x 19 MiB whatever the load. How many hashes a
//! client may start is bounded apart from this ([`super::rate_limit::HashBudget`]). Neither
//! the password nor its hash ever prints: their `Debug` says only that they are there.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use std::sync::{Arc, LazyLock, Mutex, OnceLock};
use std::thread::ThreadId;

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

use super::StoreError;

/// Threads that hash, in the whole server (with the shared pool): 2 x 19 MiB at most.
pub const HASH_THREADS: usize = 2;

/// Hashes that may wait for a thread; one more is refused with [`StoreError::Busy`] rather
/// than queued without bound.
pub const HASH_QUEUE: usize = 16;

/// The server's one pool of hashing threads (a [`super::Store`] uses it unless told otherwise).
static SHARED: LazyLock<HashPool> = LazyLock::new(|| HashPool::new(HASH_THREADS, HASH_QUEUE));

type Job = Box<dyn FnOnce() + Send>;

/// A fixed set of threads that run password hashes, fed by a bounded queue (cheap to clone).
/// The threads end once every clone is dropped and the queue is empty.
#[derive(Clone)]
pub struct HashPool {
    jobs: SyncSender<Job>,
    counts: Arc<HashCounts>,
}

/// What a pool did, for tests and metrics.
#[derive(Debug, Default)]
struct HashCounts {
    /// Hashes (or verifications) started.
    started: AtomicU64,
    /// The threads that ever ran one (at most the pool's size).
    threads: Mutex<Vec<ThreadId>>,
}

impl fmt::Debug for HashPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HashPool")
            .field("started", &self.started())
            .finish()
    }
}

impl HashPool {
    /// A pool of `threads` threads (at least one) with room for `queue` waiting jobs.
    pub fn new(threads: usize, queue: usize) -> HashPool {
        let (jobs, rx) = std::sync::mpsc::sync_channel::<Job>(queue);
        let rx = Arc::new(Mutex::new(rx));
        for i in 0..threads.max(1) {
            let rx = Arc::clone(&rx);
            let spawned = std::thread::Builder::new()
                .name(format!("minotty-hash-{i}"))
                .spawn(move || hash_thread(&rx));
            if let Err(e) = spawned {
                tracing::error!(error = %e, "starting a password hashing thread");
            }
        }
        HashPool {
            jobs,
            counts: Arc::default(),
        }
    }

    /// The server's shared pool ([`HASH_THREADS`] threads, [`HASH_QUEUE`] waiting).
    pub fn shared() -> HashPool {
        SHARED.clone()
    }

    /// Hashes started on this pool so far.
    pub fn started(&self) -> u64 {
        self.counts.started.load(Ordering::Relaxed)
    }

    /// How many distinct threads ever ran a hash of this pool.
    pub fn threads_used(&self) -> usize {
        self.counts
            .threads
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .len()
    }

    /// Runs `work` (one hash) on one of the pool's threads and waits for its answer; refused
    /// at once with [`StoreError::Busy`] when the queue is full. A job whose caller has gone
    /// (a session that ended) before a thread takes it is skipped.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, StoreError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let counts = Arc::clone(&self.counts);
        let job: Job = Box::new(move || {
            if tx.is_closed() {
                return;
            }
            counts.started.fetch_add(1, Ordering::Relaxed);
            {
                let mut threads = counts
                    .threads
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                let me = std::thread::current().id();
                if !threads.contains(&me) {
                    threads.push(me);
                }
            }
            let _ = tx.send(work());
        });
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(TrySendError::Full(_)) => {
                tracing::warn!("password hashing is saturated: a hash was refused");
                return Err(StoreError::Busy);
            }
            Err(TrySendError::Disconnected(_)) => {
                return Err(StoreError::Task("no password hashing thread runs".into()));
            }
        }
        rx.await
            .map_err(|_| StoreError::Task("a password hash failed".into()))
    }

    /// Hashes `password` with a fresh random salt.
    pub async fn hash(&self, password: &Password) -> Result<PasswordHash, StoreError> {
        let password = password.clone();
        self.run(move || PasswordHash::new_blocking(&password))
            .await?
    }

    /// Whether `candidate` is the password of `stored`, or, when there is no stored hash,
    /// checks it against the [decoy](PasswordHash::decoy) and answers `false`: the time taken
    /// does not tell whether an account or a password exists.
    pub async fn verify_or_decoy(
        &self,
        stored: Option<PasswordHash>,
        candidate: &str,
    ) -> Result<bool, StoreError> {
        let candidate = candidate.to_owned();
        self.run(move || match stored {
            Some(hash) => hash.verify_blocking(&candidate),
            None => {
                if let Some(decoy) = PasswordHash::decoy() {
                    decoy.verify_blocking(&candidate);
                }
                false
            }
        })
        .await
    }
}

/// One hashing thread: runs jobs until the pool is gone. A panicking hash loses its own
/// answer (the caller gets an error), not the thread.
fn hash_thread(rx: &Mutex<Receiver<Job>>) {
    loop {
        let job = {
            let rx = rx.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            rx.recv()
        };
        let Ok(job) = job else {
            return;
        };
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
            tracing::error!("a password hash panicked");
        }
    }
}

/// Fewest and most characters of a password. The upper bound keeps a login from costing more
/// than the hash itself.
pub const MIN_PASSWORD_CHARS: usize = 8;
pub const MAX_PASSWORD_CHARS: usize = 128;

/// A password as typed, validated for length.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a new password is refused; the message is meant for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    #[error("a password needs at least {MIN_PASSWORD_CHARS} characters")]
    TooShort,
    #[error("a password has at most {MAX_PASSWORD_CHARS} characters")]
    TooLong,
}

impl Password {
    pub fn parse(raw: &str) -> Result<Password, PasswordError> {
        let n = raw.chars().count();
        if n < MIN_PASSWORD_CHARS {
            Err(PasswordError::TooShort)
        } else if n > MAX_PASSWORD_CHARS {
            Err(PasswordError::TooLong)
        } else {
            Ok(Password(raw.to_owned()))
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(<redacted>)")
    }
}

/// An argon2id hash in PHC form (`$argon2id$v=19$m=19456,t=2,p=1$...`).
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash(String);

impl fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PasswordHash(<redacted>)")
    }
}

impl PasswordHash {
    /// Hashes on the calling thread (for the hashing pool, tests and benchmarks).
    pub fn new_blocking(password: &Password) -> Result<PasswordHash, StoreError> {
        Argon2::default()
            .hash_password(password.expose().as_bytes())
            .map(|h| PasswordHash(h.to_string()))
            .map_err(|e| StoreError::Task(format!("hashing a password: {e}")))
    }

    pub fn verify_blocking(&self, candidate: &str) -> bool {
        // The parameters come from the PHC string, so hashes made with older parameters still
        // verify after the defaults change.
        match Argon2::default().verify_password(candidate.as_bytes(), self.0.as_str()) {
            Ok(()) => true,
            Err(argon2::password_hash::Error::PasswordInvalid) => false,
            Err(e) => {
                tracing::error!(error = %e, "a stored password hash does not parse");
                false
            }
        }
    }

    /// A hash of no one's password, verified against when a login names no account or an
    /// account without a password, so that answering takes as long as a real check and the
    /// timing does not tell which names exist.
    pub(crate) fn decoy() -> Option<&'static PasswordHash> {
        static DECOY: OnceLock<Option<PasswordHash>> = OnceLock::new();
        DECOY
            .get_or_init(|| {
                Password::parse("decoy password, never a real one")
                    .ok()
                    .and_then(|p| PasswordHash::new_blocking(&p).ok())
            })
            .as_ref()
    }

    pub(crate) fn from_db(phc: String) -> PasswordHash {
        PasswordHash(phc)
    }

    pub(crate) fn as_phc(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_checked_and_nothing_prints() {
        assert_eq!(Password::parse("short"), Err(PasswordError::TooShort));
        assert_eq!(
            Password::parse(&"x".repeat(129)),
            Err(PasswordError::TooLong)
        );
        let p = Password::parse("correct horse").unwrap();
        assert_eq!(format!("{p:?}"), "Password(<redacted>)");
        let h = PasswordHash::from_db("$argon2id$v=19$secret".into());
        assert_eq!(format!("{h:?}"), "PasswordHash(<redacted>)");
    }

    /// Lets the runtime's other tasks run up to their next wait (one thread: they run now).
    async fn settle() {
        for _ in 0..10 {
            tokio::task::yield_now().await;
        }
    }

    #[tokio::test]
    async fn hashes_run_on_the_pool_threads_only_and_a_full_queue_refuses() {
        let pool = HashPool::new(2, 3);
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let release_rx = Arc::new(Mutex::new(release_rx));
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let mut tasks = Vec::new();
        let held = |pool: &HashPool| {
            let (pool, release_rx, started_tx) =
                (pool.clone(), release_rx.clone(), started_tx.clone());
            tokio::spawn(async move {
                pool.run(move || {
                    let _ = started_tx.send(());
                    let _ = release_rx.lock().unwrap().recv();
                    std::thread::current().id()
                })
                .await
            })
        };
        // Two run (held until released)...
        tasks.extend([held(&pool), held(&pool)]);
        settle().await;
        for _ in 0..2 {
            started_rx.recv().unwrap();
        }
        // ...and three wait: with every place taken, one more is refused at once.
        tasks.extend([held(&pool), held(&pool), held(&pool)]);
        settle().await;
        let probe = tokio::time::timeout(std::time::Duration::from_secs(5), pool.run(|| ()));
        assert!(matches!(probe.await, Ok(Err(StoreError::Busy))));
        for _ in 0..5 {
            release_tx.send(()).unwrap();
        }
        let mut threads = Vec::new();
        for t in tasks {
            threads.push(t.await.unwrap().expect("every queued hash runs"));
        }
        // Many more hashes, from many tasks: still only the pool's two threads ever ran one.
        let many: Vec<_> = (0..40)
            .map(|_| {
                let pool = pool.clone();
                tokio::spawn(async move {
                    loop {
                        match pool.run(|| std::thread::current().id()).await {
                            Ok(id) => return id,
                            Err(StoreError::Busy) => tokio::task::yield_now().await,
                            Err(e) => panic!("{e}"),
                        }
                    }
                })
            })
            .collect();
        for t in many {
            threads.push(t.await.unwrap());
        }
        threads.sort_by_key(|t| format!("{t:?}"));
        threads.dedup();
        assert!(threads.len() <= 2, "{threads:?}");
        assert!(threads.iter().all(|t| *t != std::thread::current().id()));
        assert_eq!(pool.threads_used(), threads.len());
        assert_eq!(pool.started(), 45, "the refused one never started");
    }

    #[tokio::test]
    async fn a_job_whose_caller_left_is_skipped_and_a_panic_keeps_the_thread() {
        let pool = HashPool::new(1, 4);
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let p = pool.clone();
        let runner = tokio::spawn(async move {
            p.run(move || {
                started_tx.send(()).unwrap();
                release_rx.recv().unwrap();
            })
            .await
        });
        settle().await;
        started_rx.recv().unwrap();
        // Queued behind the runner (polled once: it is in the queue), then given up: it never
        // runs.
        tokio::select! {
            biased;
            _ = pool.run(|| ()) => panic!("the only thread is taken"),
            () = std::future::ready(()) => {}
        }
        release_tx.send(()).unwrap();
        runner.await.unwrap().unwrap();
        let res = pool.run(|| panic!("a hash that panics")).await;
        assert!(matches!(res, Err(StoreError::Task(_))), "{res:?}");
        assert!(pool.run(|| 7).await.is_ok_and(|v| v == 7));
        // The runner, the panicking job and the last: the abandoned one was skipped.
        assert_eq!(pool.started(), 3);
        assert_eq!(pool.threads_used(), 1);
    }

    #[test]
    fn hashes_are_argon2id_with_default_params_and_verify() {
        let p = Password::parse("correct horse").unwrap();
        let h = PasswordHash::new_blocking(&p).unwrap();
        assert!(
            h.as_phc().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{}",
            h.as_phc()
        );
        assert!(h.verify_blocking("correct horse"));
        assert!(!h.verify_blocking("correct horsf"));
        assert!(!PasswordHash::from_db("garbage".into()).verify_blocking("correct horse"));
        // A fresh salt each time.
        assert_ne!(PasswordHash::new_blocking(&p).unwrap(), h);
    }
}
