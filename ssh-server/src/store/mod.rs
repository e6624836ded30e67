//! The store: accounts, keys, settings, games and leaderboards in SQLite through sqlx.
//!
//! Architecture Invariant: every SQL statement of these tables lives in this module, and
//! nothing outside it touches the pool. Queries are runtime-checked (`sqlx::query` with binds,
//! never string concatenation), so the crate builds without a `DATABASE_URL`; every query is
//! covered by a `#[sqlx::test]` in `ssh-server/tests/store_tests/`. The SQL is what PostgreSQL
//! also accepts, except where a comment beside it says why not.
//!
//! Writes of finished games go through [`GameWriter`], a background task, so a session never
//! waits for the database; account and settings writes are small and awaited by the session
//! that asked for them.
//!
//! Times are integer milliseconds since the Unix epoch ([`UnixMs`]), always passed in by the
//! caller, so tests choose the clock.

mod accounts;
mod charts;
mod games;
mod keys;
mod leaderboard;
mod matches;
mod meta;
mod names;
mod passwords;
mod period;
mod prune;
mod puzzle;
mod ranking;
mod rate_limit;
mod ratings;
mod settings;
mod snapshots;
mod verify;
mod writer;

use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool, Transaction};

pub use accounts::{Account, LinkError, PasswordChangeError, REGISTRATIONS_PER_DAY, RegisterError};
pub use charts::{PaceGame, RankedGame};
pub use games::{FinishedGame, GameId, GameRecord, StoredGame, outcome_text};
pub use keys::{KEY_USE_FLUSH, KeyError, KeyFingerprint, KeyInfo, MAX_PENDING_KEY_USES, NewKey};
pub use leaderboard::{Board, Entry, MAX_PAGE, Page};
pub use matches::{MatchId, MatchPlayer, NewMatch};
pub use names::{NameError, PlayerName};
pub use passwords::{
    HASH_PERMITS, HASH_WAITERS, HashLimiter, Password, PasswordError, PasswordHash,
};
pub use period::{Period, civil_date};
pub use prune::{KEEP_GAMES, PRUNE_EVERY};
pub use puzzle::{PuzzleError, PuzzleProgress};
pub use ranking::{Unranked, has_board, home_ruleset, rank_key, ranked_modes, ruleset_modes};
pub use rate_limit::{LimitConfig, RateLimiter, RetryAfter};
pub use ratings::{RatingEntry, StoredRating};
pub use settings::{MAX_SETTINGS_BYTES, SettingsError};
pub use snapshots::{
    MAX_LABEL_CHARS, MAX_SNAPSHOT_BYTES, MAX_SNAPSHOTS, SnapshotError, SnapshotId, StoredSnapshot,
    snapshot_label,
};
pub use verify::{Rejected, Verdict, verify_replay};
pub use writer::{GameWriter, WriteError, WriteResult, WriterConfig};

/// Milliseconds since the Unix epoch, UTC.
pub type UnixMs = i64;

/// The system clock as [`UnixMs`] (the store itself never reads it: callers pass times in).
pub fn unix_now() -> UnixMs {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The migrations in `migrations/`, embedded at build time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// How long a statement waits for another connection's write lock before it fails as busy.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections for reads (the writer has one of its own).
pub const READERS: u32 = 8;

/// How much of the database file is memory-mapped (SQLite `mmap_size`).
pub const MMAP_BYTES: u64 = 1 << 31;

/// A registered player's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlayerId(pub i64);

/// An error of the database itself (connection, IO, SQL, migration) or a row that does not
/// decode: nothing a player did wrong.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("migrating the database: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("stored data is invalid: {0}")]
    Corrupt(String),
    #[error("a blocking task failed: {0}")]
    Task(String),
    /// Too much work of one kind at once (password hashing): try again in a moment.
    #[error("the server is busy")]
    Busy,
}

impl StoreError {
    /// Whether trying again later may succeed (the database was busy or locked, a connection or
    /// IO failed), as opposed to an error that will recur (a constraint, bad data).
    pub fn is_transient(&self) -> bool {
        match self {
            StoreError::Database(e) => is_transient(e),
            StoreError::Task(_) | StoreError::Busy => true,
            StoreError::Migrate(_) | StoreError::Corrupt(_) => false,
        }
    }
}

fn is_transient(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Database(db) => {
            // SQLite's primary result codes: SQLITE_BUSY (5), SQLITE_LOCKED (6), SQLITE_IOERR
            // (10), SQLITE_FULL (13); extended codes keep the primary code in the low byte.
            let code = db.code().and_then(|c| c.parse::<i64>().ok()).unwrap_or(0);
            matches!(code & 0xff, 5 | 6 | 10 | 13)
        }
        sqlx::Error::Io(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        _ => false,
    }
}

/// SQLite settings of a connection (`PRAGMA` is SQLite's own syntax: this is diagnostics of
/// the SQLite store, with no PostgreSQL counterpart needed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pragmas {
    pub journal_mode: String,
    pub foreign_keys: bool,
    pub busy_timeout_ms: i64,
}

/// A handle to the database and the in-memory login rate limits (cheap to clone).
///
/// Reads and writes use separate pools: SQLite takes one writer at a time anyway, so every
/// write goes through one connection and waits its turn in the process instead of in SQLite's
/// busy loop, and the readers (WAL lets them run beside the writer) can never hold up a write
/// by taking every connection.
#[derive(Clone, Debug)]
pub struct Store {
    reader: SqlitePool,
    writer: SqlitePool,
    limiter: Arc<Mutex<RateLimiter>>,
    /// Uses of keys noted at login, written in batches.
    key_uses: Arc<keys::KeyUses>,
    /// New accounts allowed per client address in 24 hours.
    registrations_per_day: u32,
    /// Games kept per player besides their bests, and how often they are pruned.
    game_limit: prune::GameLimit,
}

impl Store {
    /// Opens the SQLite database at `url` (`sqlite://minotty.db`), creating the file if it is
    /// missing, with WAL, foreign keys and a busy timeout, and applies the migrations.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        Store::connect(SqliteConnectOptions::from_str(url)?).await
    }

    /// Like [`Store::open`] with options already parsed (tests use a throwaway file).
    pub async fn connect(options: SqliteConnectOptions) -> Result<Store, StoreError> {
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // In WAL mode NORMAL syncs at checkpoints, not at every commit: a power cut can lose
            // the last commits but never corrupts the database.
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT)
            // SQLite-only tuning (PostgreSQL sizes its own buffers). Reads go through a memory
            // map of the file shared by every connection (SQLite caps it at 2 GiB) instead of
            // a read() per page, and each connection keeps a cache of pages.
            .pragma("mmap_size", MMAP_BYTES.to_string())
            // Statement journals (an upsert that fires triggers keeps one to undo itself) in
            // memory instead of a temporary file written for every game.
            .pragma("temp_store", "memory")
            // Checkpoint every ~40 MiB of WAL rather than 4 MiB: index pages that many
            // transactions touch are copied into the database once per checkpoint, not once
            // per transaction.
            .pragma("wal_autocheckpoint", "10000")
            .pragma("cache_size", "-16384");
        // The writer's inserts land on random pages of the leaderboard and history indexes:
        // it keeps 128 MiB of them; readers walk few pages and keep 16 MiB each.
        let writer = SqlitePoolOptions::new()
            .max_connections(1)
            .connect_with(options.clone().pragma("cache_size", "-131072"))
            .await?;
        MIGRATOR.run(&writer).await?;
        let reader = SqlitePoolOptions::new()
            .max_connections(READERS)
            .connect_with(options)
            .await?;
        Ok(Store::with_pools(reader, writer))
    }

    /// Wraps one pool whose connections are already set up, for reads and writes alike, and
    /// applies the migrations (tests use the pool `#[sqlx::test]` gives them).
    pub async fn from_pool(pool: SqlitePool) -> Result<Store, StoreError> {
        MIGRATOR.run(&pool).await?;
        Ok(Store::with_pools(pool.clone(), pool))
    }

    fn with_pools(reader: SqlitePool, writer: SqlitePool) -> Store {
        let key_uses = Arc::new(keys::KeyUses::default());
        keys::KeyUses::spawn_flusher(Arc::downgrade(&key_uses), writer.clone());
        Store {
            reader,
            writer,
            limiter: Arc::new(Mutex::new(RateLimiter::new(LimitConfig::default()))),
            key_uses,
            registrations_per_day: REGISTRATIONS_PER_DAY,
            game_limit: prune::GameLimit::default(),
        }
    }

    /// Replaces the number of new accounts allowed per address in 24 hours (default
    /// [`REGISTRATIONS_PER_DAY`]).
    pub fn with_registration_limit(mut self, per_day: u32) -> Store {
        self.registrations_per_day = per_day;
        self
    }

    /// Replaces the number of games kept per player besides their bests (default
    /// [`KEEP_GAMES`]) and how often, in games of a player, they are pruned (default
    /// [`PRUNE_EVERY`]; 1 prunes at every game).
    pub fn with_game_limit(mut self, keep: u32, every: u32) -> Store {
        self.game_limit = prune::GameLimit { keep, every };
        self
    }

    /// Replaces the login rate limits (tests use small ones).
    pub fn with_limits(mut self, config: LimitConfig) -> Store {
        self.limiter = Arc::new(Mutex::new(RateLimiter::new(config)));
        self
    }

    /// The connection settings in force, read back from SQLite (for status output and tests).
    pub async fn pragmas(&self) -> Result<Pragmas, StoreError> {
        let mut conn = self.writer.acquire().await?;
        let journal_mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(&mut *conn)
            .await?;
        let foreign_keys: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
            .fetch_one(&mut *conn)
            .await?;
        let busy_timeout_ms: i64 = sqlx::query_scalar("PRAGMA busy_timeout")
            .fetch_one(&mut *conn)
            .await?;
        Ok(Pragmas {
            journal_mode,
            foreign_keys: foreign_keys == 1,
            busy_timeout_ms,
        })
    }

    /// Writes the key uses still in memory, then waits for the pool's connections to close
    /// (at shutdown).
    pub async fn close(&self) {
        if let Err(e) = self.flush_key_uses().await {
            tracing::warn!(error = %e, "writing when keys were last used, at shutdown");
        }
        self.reader.close().await;
        self.writer.close().await;
    }

    /// Starts a write transaction that takes the write lock at once.
    ///
    /// `BEGIN IMMEDIATE` is SQLite-only (PostgreSQL: plain `BEGIN`). It is here because a
    /// deferred transaction that reads and then writes fails at once with SQLITE_BUSY, past the
    /// busy timeout, when another connection wrote in between; taking the lock first makes
    /// concurrent writers wait their turn instead.
    async fn write_tx(&self) -> Result<Transaction<'static, Sqlite>, StoreError> {
        Ok(self.writer.begin_with("BEGIN IMMEDIATE").await?)
    }

    /// Runs `f` on the rate limiter. A poisoned lock (a panic elsewhere while holding it) is
    /// recovered: the limiter's state is a cache of counters, always consistent.
    fn limits<T>(&self, f: impl FnOnce(&mut RateLimiter) -> T) -> T {
        let mut guard = self
            .limiter
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        f(&mut guard)
    }
}

/// Converts a stored integer to the engine's unsigned type, refusing a negative or too large
/// value instead of wrapping.
fn from_db<T: TryFrom<i64>>(v: i64, what: &str) -> Result<T, StoreError> {
    T::try_from(v).map_err(|_| StoreError::Corrupt(format!("{what} out of range: {v}")))
}

/// Converts an engine value to a stored integer, saturating at `i64::MAX`.
fn to_db<T: TryInto<i64>>(v: T) -> i64 {
    v.try_into().unwrap_or(i64::MAX)
}
