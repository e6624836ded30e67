//! What the game writer and the match recorder fall back to: how they retry, when they stop
//! retrying, and the spool for what they give up on.
//!
//! While the server runs, a write that fails transiently is retried on a schedule
//! ([`Retries`]: the game writer's from its `WriterConfig`, the match recorder's
//! [`Retries::MATCHES`]), as the database may come back. Once shutdown began
//! ([`Fallback::stop`]), nothing is retried, with a spool or without one: a write in flight
//! gets [`STOP_PATIENCE`] more (with the database unreachable, an attempt may otherwise wait
//! for a pool connection for up to 30 s), then it and everything after it is spooled, or,
//! without a spool, logged whole at once. Retrying past the server's patience would not store
//! them either: the process would exit with them still in the writer's hands, unlogged.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::Spool;

/// How long a write still in flight (or one begun) after shutdown began may take before it is
/// given up and its records spooled (or logged).
pub const STOP_PATIENCE: Duration = Duration::from_secs(2);

/// A retry schedule: `tries` attempts; before the second the writer waits `first`, and each
/// wait after is `factor` times the last, at most `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retries {
    pub tries: u32,
    pub first: Duration,
    pub factor: u32,
    pub max: Duration,
}

impl Retries {
    /// The match recorder's: 5 tries, 50 ms, 200 ms, 800 ms and 3.2 s apart (4.25 s in all).
    pub const MATCHES: Retries = Retries {
        tries: 5,
        first: Duration::from_millis(50),
        factor: 4,
        max: Duration::from_millis(3_200),
    };

    /// The waits between the tries, in order (one fewer than the tries).
    pub fn waits(self) -> impl Iterator<Item = Duration> {
        let mut next = self.first;
        (1..self.tries.max(1)).map(move |_| {
            let wait = next.min(self.max);
            next = wait.saturating_mul(self.factor).min(self.max);
            wait
        })
    }

    /// Every wait added up: how long a write that fails at once every time is retried before
    /// it is given up.
    pub fn total(self) -> Duration {
        self.waits().sum()
    }
}

/// A writer's way out (cheap to clone).
#[derive(Clone, Debug, Default)]
pub struct Fallback {
    /// Where records go that are not stored; `None`: they are logged whole.
    pub spool: Option<Spool>,
    /// Cancelled when shutdown begins: no more retries.
    pub stop: CancellationToken,
}

impl Fallback {
    /// A fallback to `spool` with its own stop token.
    pub fn to(spool: Option<Spool>) -> Fallback {
        Fallback {
            spool,
            stop: CancellationToken::new(),
        }
    }

    /// Whether shutdown began: nothing more is retried.
    pub fn stopping(&self) -> bool {
        self.stop.is_cancelled()
    }

    /// `attempt`'s result, or `None` when shutdown began and [`STOP_PATIENCE`] went by first.
    pub async fn bounded<T>(&self, attempt: impl Future<Output = T>) -> Option<T> {
        let expired = async {
            self.stop.cancelled().await;
            tokio::time::sleep(STOP_PATIENCE).await;
        };
        tokio::select! {
            result = attempt => Some(result),
            () = expired => None,
        }
    }

    /// Sleeps `delay` before a retry, or less when shutdown begins.
    pub async fn backoff(&self, delay: Duration) {
        tokio::select! {
            () = tokio::time::sleep(delay) => {}
            () = self.stop.cancelled() => {}
        }
    }

    /// The spool's directory, for log lines.
    pub fn dir(&self) -> String {
        self.spool.as_ref().map_or_else(
            || "(no spool)".to_owned(),
            |s| s.dir().display().to_string(),
        )
    }
}
