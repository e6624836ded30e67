//! Storage: sqlx over SQLite in WAL mode. Every query of the server lives in this module, written
//! in SQL that PostgreSQL also accepts.

use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Context;
use sqlx::SqlitePool;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};

/// The migrations in `migrations/`, embedded at build time.
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// A handle to the database (cheap to clone).
#[derive(Clone, Debug)]
pub struct Db {
    pool: SqlitePool,
}

impl Db {
    /// Opens (creating if missing) the SQLite database at `url`, turns on WAL, applies the
    /// migrations and records this start.
    pub async fn open(url: &str) -> anyhow::Result<Db> {
        let options = SqliteConnectOptions::from_str(url)
            .with_context(|| format!("parsing database URL {url:?}"))?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .connect_with(options)
            .await
            .with_context(|| format!("opening database {url}"))?;
        MIGRATOR
            .run(&pool)
            .await
            .with_context(|| format!("migrating database {url}"))?;
        let db = Db { pool };
        db.record_start().await?;
        Ok(db)
    }

    async fn record_start(&self) -> anyhow::Result<()> {
        let now = unix_now();
        sqlx::query(
            "INSERT INTO server_meta (key, value, updated_at) VALUES ('created_at', $1, $2) \
             ON CONFLICT (key) DO NOTHING",
        )
        .bind(now.to_string())
        .bind(now)
        .execute(&self.pool)
        .await
        .context("recording the database creation time")?;
        sqlx::query(
            "INSERT INTO server_meta (key, value, updated_at) VALUES ('last_start', $1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(env!("CARGO_PKG_VERSION"))
        .bind(now)
        .execute(&self.pool)
        .await
        .context("recording the server start")?;
        Ok(())
    }

    /// One value of `server_meta`.
    pub async fn meta(&self, key: &str) -> anyhow::Result<Option<String>> {
        let value = sqlx::query_scalar("SELECT value FROM server_meta WHERE key = $1")
            .bind(key)
            .fetch_optional(&self.pool)
            .await
            .context("reading server_meta")?;
        Ok(value)
    }

    pub fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Waits for the pool's connections to close (at shutdown).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

fn unix_now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn creates_migrates_and_reopens_in_wal_mode() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("t.db").display());
        let db = Db::open(&url).await.unwrap();
        let created = db.meta("created_at").await.unwrap().unwrap();
        assert_eq!(
            db.meta("last_start").await.unwrap().as_deref(),
            Some(env!("CARGO_PKG_VERSION"))
        );
        let mode: String = sqlx::query_scalar("PRAGMA journal_mode")
            .fetch_one(db.pool())
            .await
            .unwrap();
        assert_eq!(mode, "wal");
        db.close().await;

        let again = Db::open(&url).await.unwrap();
        assert_eq!(again.meta("created_at").await.unwrap(), Some(created));
        assert_eq!(again.meta("missing").await.unwrap(), None);
    }

    #[tokio::test]
    async fn bad_url_is_an_error() {
        assert!(Db::open("postgres://nowhere").await.is_err());
    }
}
