//! What the store reports as it works: games waiting for the writer, the time of each of its
//! transactions, and the spool's records. The store keeps no figures of its own; it tells a
//! [`StoreObserver`] (the server's is its `/metrics`), given to [`crate::Store::observed_by`]
//! and [`crate::spool::Spool::open_observed`]. The default, [`Unobserved`], does nothing.
//!
//! Every method has an empty default, so an observer implements only what it shows. A call is
//! made on the path of the work it reports (a submit, a transaction, a file written): keep it
//! to a few atomic adds, no lock held long and no I/O.

use std::fmt::Debug;
use std::time::Duration;

/// Told what the store does (see the module's doc).
pub trait StoreObserver: Send + Sync + Debug {
    /// `delta` games were handed to the game writer (positive), or left its hands, stored or
    /// given up (negative). The sum over a writer's life is 0 once it has ended.
    fn games_queued(&self, delta: i64) {
        let _ = delta;
    }

    /// One transaction of the game writer ended, stored or not, after `took`.
    fn games_written(&self, took: Duration) {
        let _ = took;
    }

    /// The replay quota deleted `games` stored games (`prune.rs`).
    fn games_over_quota(&self, games: usize) {
        let _ = games;
    }

    /// The spool holds `records` records now.
    fn spool_records(&self, records: usize) {
        let _ = records;
    }

    /// A record of `kind` (`game` or `match`, [`crate::spool::Record::kind`]) was spooled.
    fn spooled(&self, kind: &'static str) {
        let _ = kind;
    }

    /// A record was refused by a full spool.
    fn spool_full(&self) {}

    /// A spooled record was stored (or found stored) and deleted.
    fn spool_replayed(&self) {}

    /// A spooled record was set aside: unreadable, or refused by the database.
    fn spool_aside(&self) {}
}

/// The observer that does nothing (the default).
#[derive(Clone, Copy, Debug, Default)]
pub struct Unobserved;

impl StoreObserver for Unobserved {}

#[cfg(test)]
pub(crate) mod tests;
