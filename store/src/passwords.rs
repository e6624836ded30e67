//! Passwords: argon2id with the `argon2` crate's default parameters (its recommendation, the
//! OWASP minimum: 19 MiB, 2 passes, 1 lane), stored as PHC strings.
//!
//! Hashing takes tens of milliseconds of one core and 19 MiB of memory on purpose, so the
//! async functions here run it on tokio's blocking pool, never on a session's task, and at most
//! [`HASH_PERMITS`] at once in the whole server ([`HashLimiter`]): password attempts cannot
//! exhaust memory or the blocking pool. Neither the password nor its hash ever prints: their
//! `Debug` says only that they are there.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, LazyLock, OnceLock};

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use tokio::sync::{Semaphore, TryAcquireError};

use super::StoreError;

/// Hashes (or verifications) running at once in the server: 4 x 19 MiB at most.
pub const HASH_PERMITS: usize = 4;

/// Hashes that may wait for a permit; one more is refused with [`StoreError::Busy`] ("the
/// server is busy") rather than queued without bound.
pub const HASH_WAITERS: usize = 16;

/// The server's one limiter of password hashing.
static HASHING: LazyLock<HashLimiter> =
    LazyLock::new(|| HashLimiter::new(HASH_PERMITS, HASH_WAITERS));

/// Runs blocking work (a hash) on the blocking pool with at most `permits` at once, and
/// refuses work beyond `max_waiting` waiters.
#[derive(Debug)]
pub struct HashLimiter {
    permits: Arc<Semaphore>,
    waiting: AtomicUsize,
    max_waiting: usize,
}

/// Counts a waiter for as long as it waits, even when its future is dropped.
struct Waiting<'a>(&'a AtomicUsize);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl HashLimiter {
    pub fn new(permits: usize, max_waiting: usize) -> HashLimiter {
        HashLimiter {
            permits: Arc::new(Semaphore::new(permits)),
            waiting: AtomicUsize::new(0),
            max_waiting,
        }
    }

    /// Runs `work` on the blocking pool once a permit is free. The permit moves into the
    /// blocking task, so a caller that gives up (a session that ends) does not free it before
    /// the work is done.
    pub async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, StoreError> {
        let closed = || StoreError::Task("the hashing limiter is closed".into());
        let permit = match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(permit) => permit,
            Err(TryAcquireError::Closed) => return Err(closed()),
            Err(TryAcquireError::NoPermits) => {
                let before = self.waiting.fetch_add(1, Ordering::AcqRel);
                let _waiting = Waiting(&self.waiting);
                if before >= self.max_waiting {
                    tracing::warn!(waiting = before, "password hashing is saturated");
                    return Err(StoreError::Busy);
                }
                Arc::clone(&self.permits)
                    .acquire_owned()
                    .await
                    .map_err(|_| closed())?
            }
        };
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await
        .map_err(|e| StoreError::Task(e.to_string()))
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
    /// Hashes `password` with a fresh random salt, on the blocking pool.
    pub async fn new(password: &Password) -> Result<PasswordHash, StoreError> {
        let password = password.clone();
        HASHING
            .run(move || PasswordHash::new_blocking(&password))
            .await?
    }

    /// Hashes on the calling thread (for the blocking pool, tests and benchmarks).
    pub fn new_blocking(password: &Password) -> Result<PasswordHash, StoreError> {
        Argon2::default()
            .hash_password(password.expose().as_bytes())
            .map(|h| PasswordHash(h.to_string()))
            .map_err(|e| StoreError::Task(format!("hashing a password: {e}")))
    }

    /// Whether `candidate` is the password, on the blocking pool. A stored hash that does not
    /// parse counts as a mismatch (and is logged), never as a match.
    pub async fn verify(&self, candidate: &str) -> Result<bool, StoreError> {
        let hash = self.clone();
        let candidate = candidate.to_owned();
        HASHING.run(move || hash.verify_blocking(&candidate)).await
    }

    /// Verifies `candidate` against `stored`, or, when there is no stored hash, against the
    /// [decoy](PasswordHash::decoy) and answers `false`: the time taken does not tell whether
    /// an account or a password exists.
    pub async fn verify_or_decoy(
        stored: Option<PasswordHash>,
        candidate: &str,
    ) -> Result<bool, StoreError> {
        let candidate = candidate.to_owned();
        HASHING
            .run(move || match stored {
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

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn no_more_than_the_permits_run_at_once_and_excess_waiters_are_refused() {
        let limiter = Arc::new(HashLimiter::new(3, 5));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let mut tasks = Vec::new();
        for _ in 0..8 {
            let (limiter, running, most) = (limiter.clone(), running.clone(), most.clone());
            tasks.push(tokio::spawn(async move {
                limiter
                    .run(move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(100));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
            }));
        }
        // 3 run and 5 wait: with every slot taken, one more is refused at once.
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        assert!(matches!(limiter.run(|| ()).await, Err(StoreError::Busy)));
        for t in tasks {
            t.await.unwrap().expect("every queued hash runs");
        }
        assert_eq!(most.load(Ordering::SeqCst), 3);
        assert_eq!(limiter.waiting.load(Ordering::SeqCst), 0);
        // Freed again: work runs at once.
        assert!(limiter.run(|| ()).await.is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_dropped_waiter_leaves_the_queue_and_a_dropped_runner_keeps_its_permit() {
        let limiter = Arc::new(HashLimiter::new(1, 1));
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (release_tx, release_rx) = std::sync::mpsc::channel::<()>();
        let l = limiter.clone();
        let runner = tokio::spawn(async move {
            l.run(move || {
                started_tx.send(()).unwrap();
                release_rx.recv().unwrap();
            })
            .await
        });
        started_rx.recv().unwrap();
        // The runner's caller gives up: the work still holds the only permit.
        runner.abort();
        let waiter = tokio::time::timeout(std::time::Duration::from_millis(50), limiter.run(|| ()));
        assert!(waiter.await.is_err(), "the permit is still taken");
        assert_eq!(limiter.waiting.load(Ordering::SeqCst), 0, "the waiter left");
        release_tx.send(()).unwrap();
        assert!(limiter.run(|| ()).await.is_ok());
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
