//! # minotty-store
//!
//! The store: accounts, keys, settings, games and leaderboards in SQLite or PostgreSQL through
//! sqlx's `Any` driver; the game writer; and the [`spool`] of what the database did not take.
//! It imports the engine and the domain, never the server: what it has to report (queued
//! games, write timings, the spool's counts) it tells a [`StoreObserver`], which the server
//! implements with its metrics.
//!
//! One code path serves both databases ([`Backend`]): `sqlx::Any` hands each statement to the
//! driver of the URL's scheme unchanged, so a statement is written once with `$N` placeholders
//! (SQLite's driver binds `$N` by number too) and the types both sides share (`i64`, `f64`,
//! `bool`, `String`, `Vec<u8>`); where the databases differ, [`Backend::sql`] picks one of two
//! texts written side by side. SQLite keeps its own tuning: the pragmas that its connection
//! options used to set are run by `after_connect`.
//!
//! Architecture Invariant: every SQL statement of these tables lives in this module, and
//! nothing outside it touches the pool. Queries are runtime-checked (`sqlx::query` with binds,
//! never string concatenation), so the crate builds without a `DATABASE_URL`; every query is
//! covered by a test in `store/tests/store_tests/`. The SQL is what PostgreSQL
//! also accepts, except where a comment beside it says why not.
//!
//! Writes of finished games go through [`GameWriter`], a background task, so a session never
//! waits for the database; account and settings writes are small and awaited by the session
//! that asked for them.
//!
//! Times are integer milliseconds since the Unix epoch ([`UnixMs`]), always passed in by the
//! caller, so tests choose the clock.
#![cfg_attr(not(test), deny(clippy::unwrap_used))]

mod accounts;
mod charts;
mod climb;
mod connect;
mod db_url;
mod games;
mod keys;
mod leaderboard;
mod match_history;
mod match_replays;
mod matches;
mod meta;
mod observer;
mod passwords;
mod probe;
mod prune;
mod puzzle;
mod rate_limit;
mod ratings;
mod rows;
mod seasons;
mod settings;
mod snapshots;
pub mod spool;
mod spooled;
#[cfg(feature = "testing")]
pub mod testing;
mod web_links;
mod writer;

use std::sync::{Arc, Mutex};
use std::time::Duration;

// The domain's types that the store reads and writes (private: callers import them from
// `minotty_domain`).
use minotty_domain::{GameId, KeyFingerprint, Period, PlayerId, PlayerName, Verdict};
use sqlx::any::AnyPoolOptions;
use sqlx::{Any, AnyPool, Executor, Transaction};

pub use accounts::{Account, LinkError, PasswordChangeError, REGISTRATIONS_PER_DAY, RegisterError};
pub use climb::{ClimbEntry, ClimbRecord};
pub use db_url::with_database;
pub use games::{FinishedGame, GameRecord, QuotaCut, StoredGame};
pub use keys::{KEY_USE_FLUSH, KeyError, KeyInfo, MAX_PENDING_KEY_USES, NewKey};
pub use leaderboard::{Board, Entry, MAX_PAGE, Page};
pub use match_history::MatchLine;
pub use match_replays::StoredMatch;
pub use matches::{MatchId, MatchPlayer, NewMatch};
pub use observer::{StoreObserver, Unobserved};
pub use passwords::{HASH_QUEUE, HASH_THREADS, HashPool, Password, PasswordError, PasswordHash};
pub use prune::{KEEP_GAMES, PRUNE_EVERY, QUOTA_CHECK_BYTES, REPLAY_QUOTA};
pub use puzzle::{PuzzleError, PuzzleProgress};
pub use rate_limit::{HashBudget, HashLimits, LimitConfig, RateLimiter, RetryAfter};
pub use ratings::{RatingEntry, StoredRating};
pub use seasons::MAX_POPULATION;
pub use settings::{MAX_SETTINGS_BYTES, SettingsError};
pub use snapshots::{MAX_SNAPSHOT_BYTES, SnapshotError, SnapshotId, StoredSnapshot};
pub use web_links::{CODE_TTL_MS, MAX_SESSIONS, SESSION_TTL_MS};
pub use writer::{GameWriter, WriteError, WriteResult, WriterConfig};

/// Milliseconds since the Unix epoch, UTC (the domain's [`minotty_domain::UnixMs`]).
pub type UnixMs = minotty_domain::UnixMs;

/// The system clock as [`UnixMs`] (the store itself never reads it: callers pass times in).
pub fn unix_now() -> UnixMs {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// The SQLite migrations in `migrations/`, embedded at build time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// The PostgreSQL migrations in `migrations/postgres/`: the same numbers and tables as
/// [`MIGRATOR`]'s, in PostgreSQL's syntax where SQLite's differs.
pub static PG_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations/postgres");

/// The database behind a [`Store`], chosen by the URL's scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// `sqlite://file.db` (the default: an embedded file, nothing to install).
    Sqlite,
    /// `postgres://...` or `postgresql://...`: one database that several instances share.
    Postgres,
}

impl Backend {
    /// The backend a database URL names: PostgreSQL for `postgres://` and `postgresql://`,
    /// SQLite for anything else.
    pub fn of_url(url: &str) -> Backend {
        let scheme = url.split_once(':').map_or("", |(s, _)| s);
        if scheme.eq_ignore_ascii_case("postgres") || scheme.eq_ignore_ascii_case("postgresql") {
            Backend::Postgres
        } else {
            Backend::Sqlite
        }
    }

    /// One of two texts of a statement that the databases write differently.
    pub(crate) fn sql(self, sqlite: &'static str, postgres: &'static str) -> &'static str {
        match self {
            Backend::Sqlite => sqlite,
            Backend::Postgres => postgres,
        }
    }

    /// The statement that starts a write transaction. SQLite: `BEGIN IMMEDIATE` takes the
    /// write lock at once (see [`Store::write_tx`]). PostgreSQL: plain `BEGIN` (READ
    /// COMMITTED); concurrent writers are made safe by the statements themselves (upserts,
    /// conditional updates, row locks taken in a fixed order), see `ARCHITECTURE.md`.
    fn begin_write(self) -> &'static str {
        self.sql("BEGIN IMMEDIATE", "BEGIN")
    }

    fn migrator(self) -> &'static sqlx::migrate::Migrator {
        match self {
            Backend::Sqlite => &MIGRATOR,
            Backend::Postgres => &PG_MIGRATOR,
        }
    }
}

/// `url` with the password of its user info replaced by `***`, for logs and error messages
/// (`postgres://minotty:secret@db/minotty` becomes `postgres://minotty:***@db/minotty`).
pub fn redacted_url(url: &str) -> String {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let rest = &url[start..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let Some(at) = rest[..authority_end].rfind('@') else {
        return url.to_string();
    };
    match rest[..at].find(':') {
        Some(colon) => format!("{}{}:***{}", &url[..start], &rest[..colon], &rest[at..]),
        None => url.to_string(),
    }
}

/// Connections of a PostgreSQL store for reads (each instance; PostgreSQL's default
/// `max_connections` of 100 holds several instances).
pub const PG_READERS: u32 = 8;

/// How long a statement waits for another connection's write lock before it fails as busy.
pub const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// Connections for reads (the writer has one of its own).
pub const READERS: u32 = 8;

/// How long a write on PostgreSQL waits for a connection before the store checks whether the
/// server's port refuses connections (then the write fails at once, instead of sqlx retrying
/// a refused connection until its 30 s acquire timeout); checked again every
/// [`REFUSED_PROBE_EVERY`] while it waits.
pub const REFUSED_PROBE_AFTER: Duration = Duration::from_millis(100);

/// See [`REFUSED_PROBE_AFTER`].
pub const REFUSED_PROBE_EVERY: Duration = Duration::from_secs(1);

/// How much of the database file is memory-mapped (SQLite `mmap_size`).
pub const MMAP_BYTES: u64 = 1 << 31;

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
        sqlx::Error::Database(db)
            if db
                .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
                .is_some() =>
        {
            // PostgreSQL's SQLSTATE: serialization failure and deadlock (a concurrent writer
            // of another instance: try the transaction again), lock not available, too many
            // connections, out of disk or memory, the server shutting down, connection errors.
            let code = db.code().unwrap_or_default();
            matches!(
                code.as_ref(),
                "40001"
                    | "40P01"
                    | "55P03"
                    | "53000"
                    | "53100"
                    | "53200"
                    | "53300"
                    | "57P01"
                    | "57P02"
                    | "57P03"
            ) || code.starts_with("08")
        }
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
///
/// On PostgreSQL both are pools of one database that other instances use too: the writer pool
/// of one connection orders this instance's writes, and the statements make the instances'
/// writes safe against each other.
#[derive(Clone, Debug)]
pub struct Store {
    backend: Backend,
    reader: AnyPool,
    writer: AnyPool,
    limiter: Arc<Mutex<RateLimiter>>,
    /// The threads that hash passwords (the server's shared pool unless a test gives its own).
    hashing: passwords::HashPool,
    /// Uses of keys noted at login, written in batches.
    key_uses: Arc<keys::KeyUses>,
    /// New accounts allowed per client address in 24 hours.
    registrations_per_day: u32,
    /// Games kept per player besides their bests, how often they are pruned, and the bytes
    /// of replays each may keep.
    game_limit: prune::GameLimit,
    /// Replay blobs read so far (by [`Store::replay`]): tests count them to show that a
    /// refused request read none.
    replay_reads: Arc<std::sync::atomic::AtomicU64>,
    /// Told what the game writer does (nothing by default: [`Unobserved`]).
    observer: Arc<dyn StoreObserver>,
    /// PostgreSQL: where its server listens, probed while a write waits for a connection.
    listener: Option<Arc<connect::PgListener>>,
    /// The rated population's ratings and when they were read (`seasons.rs`).
    population: seasons::PopulationCache,
}

impl Store {
    /// Opens the database at `url`: PostgreSQL for `postgres://...` (the database must exist;
    /// the role needs the right to create tables in it), otherwise the SQLite file of a
    /// `sqlite://minotty.db` URL, created if it is missing, with WAL, foreign keys and a busy
    /// timeout. Applies the migrations of that database.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        match Backend::of_url(url) {
            Backend::Sqlite => {
                // The writer's inserts land on random pages of the leaderboard and history
                // indexes: it keeps 128 MiB of them; readers walk few pages and keep 16 MiB
                // each.
                let writer = sqlite_pool(url, 1, BUSY_TIMEOUT, 131_072).await?;
                MIGRATOR.run(&writer).await?;
                let reader = sqlite_pool(url, READERS, BUSY_TIMEOUT, 16_384).await?;
                Ok(Store::with_pools(Backend::Sqlite, reader, writer))
            }
            Backend::Postgres => {
                sqlx::any::install_default_drivers();
                let writer = AnyPoolOptions::new()
                    .max_connections(1)
                    .connect(url)
                    .await?;
                PG_MIGRATOR.run(&writer).await?;
                let reader = AnyPoolOptions::new()
                    .max_connections(PG_READERS)
                    .connect(url)
                    .await?;
                Ok(Store::with_pools(Backend::Postgres, reader, writer))
            }
        }
    }

    /// Wraps one pool whose connections are already set up (for SQLite by [`sqlite_pool`]),
    /// for reads and writes alike, and applies the migrations of its database (tests use
    /// throwaway databases this way).
    pub async fn from_pool(pool: AnyPool) -> Result<Store, StoreError> {
        let backend = Backend::of_url(pool.connect_options().database_url.as_str());
        backend.migrator().run(&pool).await?;
        Ok(Store::with_pools(backend, pool.clone(), pool))
    }

    /// The database this store is on.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    fn with_pools(backend: Backend, reader: AnyPool, writer: AnyPool) -> Store {
        let listener = match backend {
            Backend::Postgres => {
                connect::PgListener::of_url(writer.connect_options().database_url.as_str())
                    .map(Arc::new)
            }
            Backend::Sqlite => None,
        };
        let key_uses = Arc::new(keys::KeyUses::default());
        keys::KeyUses::spawn_flusher(Arc::downgrade(&key_uses), backend, writer.clone());
        Store {
            backend,
            reader,
            writer,
            limiter: Arc::new(Mutex::new(RateLimiter::new(LimitConfig::default()))),
            hashing: passwords::HashPool::shared(),
            key_uses,
            registrations_per_day: REGISTRATIONS_PER_DAY,
            game_limit: prune::GameLimit::default(),
            replay_reads: Arc::default(),
            population: Arc::default(),
            observer: Arc::new(Unobserved),
            listener,
        }
    }

    /// Tells `observer` what the game writers spawned on this store (and its clones made
    /// after) do: games queued, each transaction's time.
    pub fn observed_by(mut self, observer: Arc<dyn StoreObserver>) -> Store {
        self.observer = observer;
        self
    }

    /// Who is told what this store's game writers do.
    pub(crate) fn observer(&self) -> &Arc<dyn StoreObserver> {
        &self.observer
    }

    /// Replay blobs this store (and its clones) has read.
    pub fn replay_reads(&self) -> u64 {
        self.replay_reads.load(std::sync::atomic::Ordering::Relaxed)
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
        self.game_limit.keep = keep;
        self.game_limit.every = every;
        self
    }

    /// Replaces the bytes of replays kept per player (default [`REPLAY_QUOTA`]).
    pub fn with_replay_quota(mut self, bytes: u64) -> Store {
        self.game_limit.quota = bytes;
        self
    }

    /// Replaces the login rate limits (tests use small ones). The hash budget starts afresh
    /// with its defaults.
    pub fn with_limits(mut self, config: LimitConfig) -> Store {
        self.limiter = Arc::new(Mutex::new(RateLimiter::new(config)));
        self
    }

    /// Replaces the budget of password hashes per account and address (default
    /// [`HashLimits::default`]).
    pub fn with_hash_limits(self, limits: HashLimits) -> Store {
        self.limits(|l| l.hashes = HashBudget::new(limits));
        self
    }

    /// Hashes passwords on `pool` instead of the server's shared one (tests count its work).
    pub fn with_hash_pool(mut self, pool: HashPool) -> Store {
        self.hashing = pool;
        self
    }

    /// The pool this store hashes passwords on.
    pub fn hash_pool(&self) -> &HashPool {
        &self.hashing
    }

    /// The connection settings in force, read back from SQLite (for status output and tests);
    /// `None` on PostgreSQL, which has no pragmas.
    pub async fn pragmas(&self) -> Result<Option<Pragmas>, StoreError> {
        if self.backend == Backend::Postgres {
            return Ok(None);
        }
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
        Ok(Some(Pragmas {
            journal_mode,
            foreign_keys: foreign_keys == 1,
            busy_timeout_ms,
        }))
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
    /// `BEGIN IMMEDIATE` is SQLite-only (PostgreSQL: plain `BEGIN`, [`Backend::begin_write`]).
    /// It is here because a deferred transaction that reads and then writes fails at once with
    /// SQLITE_BUSY, past the busy timeout, when another connection wrote in between; taking the
    /// lock first makes concurrent writers wait their turn instead.
    ///
    /// On PostgreSQL a connection refused fails it at once (within [`REFUSED_PROBE_AFTER`]):
    /// sqlx would retry the refused connection until its acquire timeout (30 s), which every
    /// retry of the game writer and the match recorder would wait again.
    async fn write_tx(&self) -> Result<Transaction<'static, Any>, StoreError> {
        let begin = self.writer.begin_with(self.backend.begin_write());
        match &self.listener {
            None => Ok(begin.await?),
            Some(listener) => tokio::select! {
                tx = begin => Ok(tx?),
                refused = listener.refused() => Err(StoreError::Database(sqlx::Error::Io(refused))),
            },
        }
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

/// A pool of connections to the SQLite database at `url` (`sqlite://file.db`, the file created
/// if missing, mode 0600: SQLite gives its `-wal` and `-shm` files the database's mode, so
/// players' password hashes and keys are readable by the server's user only) set up as the
/// store wants them: WAL, NORMAL sync, foreign keys, `busy` as the
/// busy timeout and `cache_kib` of page cache per connection. The pragmas are SQLite's own
/// syntax, with no PostgreSQL counterpart needed (PostgreSQL sizes its own buffers).
pub async fn sqlite_pool(
    url: &str,
    connections: u32,
    busy: Duration,
    cache_kib: u32,
) -> Result<AnyPool, sqlx::Error> {
    sqlx::any::install_default_drivers();
    connect::create_private(url).map_err(sqlx::Error::Io)?;
    let url = if url.contains("mode=") {
        url.to_string()
    } else if url.contains('?') {
        format!("{url}&mode=rwc")
    } else {
        format!("{url}?mode=rwc")
    };
    let pragmas = format!(
        "PRAGMA busy_timeout = {busy}; \
         PRAGMA journal_mode = WAL; \
         PRAGMA synchronous = NORMAL; \
         PRAGMA foreign_keys = ON; \
         PRAGMA mmap_size = {MMAP_BYTES}; \
         PRAGMA temp_store = memory; \
         PRAGMA wal_autocheckpoint = 10000; \
         PRAGMA cache_size = -{cache_kib};",
        busy = busy.as_millis(),
    );
    // In WAL mode NORMAL syncs at checkpoints, not at every commit: a power cut can lose the
    // last commits but never corrupts the database. Reads go through a memory map of the file
    // shared by every connection (SQLite caps it at 2 GiB) instead of a read() per page.
    // Statement journals (an upsert that fires triggers keeps one to undo itself) stay in
    // memory instead of a temporary file written for every game. Checkpoints come every ~40
    // MiB of WAL rather than 4 MiB: index pages that many transactions touch are copied into
    // the database once per checkpoint, not once per transaction.
    AnyPoolOptions::new()
        .max_connections(connections)
        .after_connect(move |conn, _meta| {
            let pragmas = pragmas.clone();
            Box::pin(async move {
                conn.execute(pragmas.as_str()).await?;
                Ok(())
            })
        })
        .connect(&url)
        .await
}

/// Converts a stored integer to the engine's unsigned type, refusing a negative or too large
/// value instead of wrapping.
fn from_db<T: TryFrom<i64>>(v: i64, what: &str) -> Result<T, StoreError> {
    T::try_from(v).map_err(|_| StoreError::Corrupt(format!("{what} out of range: {v}")))
}

/// A name read back from the database, which only ever stores parsed names.
fn name_from_db(raw: String) -> Result<PlayerName, StoreError> {
    PlayerName::parse(&raw).map_err(|e| StoreError::Corrupt(format!("stored name {raw:?}: {e}")))
}

/// Converts an engine value to a stored integer, saturating at `i64::MAX`.
fn to_db<T: TryInto<i64>>(v: T) -> i64 {
    v.try_into().unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_url_scheme_picks_the_backend() {
        for (url, backend) in [
            ("sqlite://minotty.db", Backend::Sqlite),
            ("sqlite:///var/lib/minotty/minotty.db", Backend::Sqlite),
            ("minotty.db", Backend::Sqlite),
            ("postgres://u:p@localhost/minotty", Backend::Postgres),
            ("postgresql://localhost/minotty", Backend::Postgres),
            ("POSTGRES://localhost/minotty", Backend::Postgres),
            ("postgresx://localhost/minotty", Backend::Sqlite),
        ] {
            assert_eq!(Backend::of_url(url), backend, "{url}");
        }
    }

    #[test]
    fn passwords_are_left_out_of_logged_urls() {
        for (url, shown) in [
            (
                "postgres://minotty:secret@db:5432/minotty",
                "postgres://minotty:***@db:5432/minotty",
            ),
            (
                "postgres://minotty@db/minotty",
                "postgres://minotty@db/minotty",
            ),
            (
                "postgres://db/minotty?user=x",
                "postgres://db/minotty?user=x",
            ),
            ("postgres://a:b:c@db/x", "postgres://a:***@db/x"),
            ("sqlite://minotty.db", "sqlite://minotty.db"),
            ("sqlite://dir@2/minotty.db", "sqlite://dir@2/minotty.db"),
        ] {
            assert_eq!(redacted_url(url), shown);
        }
    }
}
