//! What the game writer and the match recorder fall back to: when to stop retrying, and the
//! spool for what they give up on.
//!
//! While the server runs, a write that fails transiently is retried with backoff (the
//! database may come back). Once shutdown began ([`Fallback::stop`]), nothing is retried: a
//! write in flight gets [`STOP_PATIENCE`] more (with the database down, an attempt otherwise
//! waits for a pool connection for up to 30 s), then it and everything after it is spooled.
//! Without a spool there is nowhere to put them: the writers retry as before, within the
//! server's patience at shutdown, and log what they give up on.

use std::future::Future;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::Spool;

/// How long a write still in flight (or one begun) after shutdown began may take before it is
/// given up and its records spooled.
pub const STOP_PATIENCE: Duration = Duration::from_secs(2);

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

    /// Whether shutdown began (and there is a spool to give up to).
    pub fn stopping(&self) -> bool {
        self.spool.is_some() && self.stop.is_cancelled()
    }

    /// `attempt`'s result, or `None` when shutdown began and [`STOP_PATIENCE`] went by first
    /// (with a spool; without one, the result).
    pub async fn bounded<T>(&self, attempt: impl Future<Output = T>) -> Option<T> {
        if self.spool.is_none() {
            return Some(attempt.await);
        }
        let expired = async {
            self.stop.cancelled().await;
            tokio::time::sleep(STOP_PATIENCE).await;
        };
        tokio::select! {
            result = attempt => Some(result),
            () = expired => None,
        }
    }

    /// Sleeps `delay` before a retry, or less when shutdown begins (with a spool).
    pub async fn backoff(&self, delay: Duration) {
        if self.spool.is_none() {
            return tokio::time::sleep(delay).await;
        }
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
