//! Throwaway databases for tests of the store and of what runs on it (the server's services),
//! behind the `testing` feature (enabled from `[dev-dependencies]` only): [`both!`] runs one
//! test body twice, on a fresh SQLite file (`NAME::sqlite`) and on a fresh PostgreSQL database
//! (`NAME::postgres`); [`instances!`] gives the body a URL to open as often as it wants.
//!
//! PostgreSQL is reached through `MINOTTY_TEST_PG`, the URL of a role allowed to create
//! databases (default `postgres://minotty:minotty@localhost/postgres`); each test creates its
//! own database there and drops it after. When the server cannot be reached the PostgreSQL half
//! prints a "skipped" line and passes, unless `MINOTTY_TEST_PG_REQUIRED=1` (CI sets it): then
//! it fails.

use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use crate::{sqlite_pool, with_database};
use sqlx::any::AnyPoolOptions;
use sqlx::{AnyPool, Connection};

/// The variable naming the PostgreSQL server for tests.
pub const PG_URL_VAR: &str = "MINOTTY_TEST_PG";
/// Set to `1` where skipping the PostgreSQL tests is a failure (CI).
pub const PG_REQUIRED_VAR: &str = "MINOTTY_TEST_PG_REQUIRED";
const PG_DEFAULT: &str = "postgres://minotty:minotty@localhost/postgres";

/// Runs the async test function `$name(pool: AnyPool)` on both databases, as the tests
/// `$name::sqlite` and `$name::postgres` (the caller depends on tokio).
#[macro_export]
macro_rules! both {
    ($name:ident) => {
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                let dir = $crate::testing::temp_dir();
                super::$name($crate::testing::sqlite(dir.path()).await).await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(db) = $crate::testing::PgDatabase::create(stringify!($name)).await else {
                    return;
                };
                super::$name(db.pool().await).await;
                db.drop().await;
            }
        }
    };
}

/// Runs the async test function `$name(url: String)` on both databases, as `$name::sqlite` and
/// `$name::postgres`: the test opens the URL as often as it wants instances (several
/// `Store`s, each with its own pools, are what several `minotty serve` are to the database).
#[macro_export]
macro_rules! instances {
    ($name:ident) => {
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let dir = $crate::testing::temp_dir();
                let url = format!("sqlite://{}", dir.path().join("shared.db").display());
                super::$name(url).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                let Some(db) = $crate::testing::PgDatabase::create(stringify!($name)).await else {
                    return;
                };
                super::$name(db.url.clone()).await;
                db.drop().await;
            }
        }
    };
}

/// A temporary directory, removed when dropped (for a test's SQLite files).
pub fn temp_dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("temp dir")
}

/// A plain pool on the database at `url` (SQLite or PostgreSQL), for a test's own queries.
pub async fn raw(url: &str) -> AnyPool {
    if url.starts_with("sqlite:") {
        sqlite_pool(url, 2, Duration::from_secs(5), 2_048)
            .await
            .expect("opens")
    } else {
        AnyPoolOptions::new()
            .max_connections(2)
            .connect(url)
            .await
            .expect("connects")
    }
}

/// A pool on a new SQLite file in `dir`, set up as the store sets up its own.
pub async fn sqlite(dir: &Path) -> AnyPool {
    let url = format!("sqlite://{}", dir.join("test.db").display());
    sqlite_pool(&url, 4, Duration::from_secs(5), 16_384)
        .await
        .expect("opens a SQLite file")
}

/// A database of its own on the test PostgreSQL server, dropped by [`PgDatabase::drop`] (a
/// failed test leaves it, to look at: its name says which test).
#[derive(Debug)]
pub struct PgDatabase {
    admin: String,
    name: String,
    pub url: String,
}

impl PgDatabase {
    /// Creates an empty database; `None` (after printing why) when PostgreSQL is not there
    /// and not required. Panics when it is required and not there.
    pub async fn create(test: &str) -> Option<PgDatabase> {
        static NEXT: AtomicU32 = AtomicU32::new(0);
        sqlx::any::install_default_drivers();
        let admin = std::env::var(PG_URL_VAR).unwrap_or_else(|_| PG_DEFAULT.to_string());
        let required = std::env::var(PG_REQUIRED_VAR).is_ok_and(|v| v == "1");
        let mut conn = match sqlx::AnyConnection::connect(&admin).await {
            Ok(c) => c,
            Err(e) if required => panic!("PostgreSQL at {PG_URL_VAR} is required: {e}"),
            Err(e) => {
                eprintln!("skipped: PostgreSQL test {test} (no server at {PG_URL_VAR}: {e})");
                return None;
            }
        };
        let short: String = test.chars().take(30).collect();
        let name = format!(
            "minotty_t_{}_{}_{short}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        sqlx::query(&format!("CREATE DATABASE \"{name}\""))
            .execute(&mut conn)
            .await
            .expect("creates a test database");
        conn.close().await.ok();
        let url = with_database(&admin, &name);
        Some(PgDatabase { admin, name, url })
    }

    /// A pool on this database.
    pub async fn pool(&self) -> AnyPool {
        AnyPoolOptions::new()
            .max_connections(4)
            .connect(&self.url)
            .await
            .expect("connects to the test database")
    }

    /// Drops the database (closing whatever connections to it are still open).
    pub async fn drop(self) {
        let mut conn = sqlx::AnyConnection::connect(&self.admin)
            .await
            .expect("connects to drop");
        let drop = format!("DROP DATABASE \"{}\" WITH (FORCE)", self.name);
        // `WITH (FORCE)` may not terminate a backend of another role (an autovacuum worker on
        // the database): it is gone within moments, so try again a few times.
        for tries in 0.. {
            match sqlx::query(&drop).execute(&mut conn).await {
                Ok(_) => break,
                Err(e) if tries < 20 && e.to_string().contains("must be a member of the role") => {
                    tokio::time::sleep(std::time::Duration::from_millis(250)).await;
                }
                Err(e) => panic!("drops the test database: {e}"),
            }
        }
        conn.close().await.ok();
    }
}
