//! Throwaway PostgreSQL databases for end-to-end tests (several `minotty serve` on one
//! database).
//!
//! The server is named by `MINOTTY_TEST_PG`, the URL of a role allowed to create databases
//! (default `postgres://minotty:minotty@localhost/postgres`; `.ci/run` creates that role).
//! [`fresh_database`] creates an empty database there and returns its URL for
//! `minotty serve --db`; `None` means "no PostgreSQL here: skip", after printing a "skipped"
//! line, except where `MINOTTY_TEST_PG_REQUIRED=1` (CI), where it panics instead, so that no
//! PostgreSQL test is skipped there. [`drop_database`] removes it after the test.

use std::sync::atomic::{AtomicU32, Ordering};

use minotty_store::with_database;
use sqlx::Connection;

/// The variable naming the PostgreSQL server for tests.
pub const PG_URL_VAR: &str = "MINOTTY_TEST_PG";
/// Set to `1` where skipping a PostgreSQL test is a failure (CI).
pub const PG_REQUIRED_VAR: &str = "MINOTTY_TEST_PG_REQUIRED";
/// The server tried when [`PG_URL_VAR`] is not set.
pub const PG_DEFAULT: &str = "postgres://minotty:minotty@localhost/postgres";

/// The URL of the server's administrative database (from [`PG_URL_VAR`] or [`PG_DEFAULT`]).
pub fn admin_url() -> String {
    std::env::var(PG_URL_VAR).unwrap_or_else(|_| PG_DEFAULT.to_string())
}

/// Whether this run must not skip PostgreSQL tests.
pub fn required() -> bool {
    std::env::var(PG_REQUIRED_VAR).is_ok_and(|v| v == "1")
}

/// Creates a new, empty database and returns its URL (the migrations run when a server or a
/// `Store` opens it). `None` when PostgreSQL is unreachable and not [`required`]. `tag` goes
/// into the name (letters, digits and `_` are kept), to tell which test left a database.
pub async fn fresh_database(tag: &str) -> Option<String> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    sqlx::any::install_default_drivers();
    let admin = admin_url();
    let mut conn = match sqlx::AnyConnection::connect(&admin).await {
        Ok(c) => c,
        Err(e) if required() => panic!("PostgreSQL at {PG_URL_VAR} is required: {e}"),
        Err(e) => {
            eprintln!("skipped: PostgreSQL test {tag} (no server at {PG_URL_VAR}: {e})");
            return None;
        }
    };
    let tag: String = tag
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(30)
        .collect::<String>()
        .to_ascii_lowercase();
    let name = format!(
        "minotty_e2e_{}_{}_{tag}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    );
    if let Err(e) = sqlx::query(&format!("CREATE DATABASE \"{name}\""))
        .execute(&mut conn)
        .await
    {
        panic!("creating the test database {name}: {e}");
    }
    conn.close().await.ok();
    Some(with_database(&admin, &name))
}

/// Drops the database of a URL that [`fresh_database`] returned, closing the connections
/// still open to it (a server that was killed leaves some).
pub async fn drop_database(url: &str) -> anyhow::Result<()> {
    let name = url
        .split('?')
        .next()
        .and_then(|base| base.rsplit('/').next())
        .filter(|n| n.starts_with("minotty_e2e_"))
        .ok_or_else(|| anyhow::anyhow!("not a database of fresh_database: {url}"))?;
    let mut conn = sqlx::AnyConnection::connect(&admin_url()).await?;
    let drop = format!("DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)");
    // `WITH (FORCE)` may not terminate a backend of another role (an autovacuum worker that
    // happens to be on the database): it is gone within moments, so try again a few times.
    let mut tries = 0;
    loop {
        match sqlx::query(&drop).execute(&mut conn).await {
            Ok(_) => break,
            Err(e) if tries < 20 && e.to_string().contains("must be a member of the role") => {
                tries += 1;
                tokio::time::sleep(std::time::Duration::from_millis(250)).await;
            }
            Err(e) => return Err(e.into()),
        }
    }
    conn.close().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_fresh_database_opens_as_a_store_and_is_dropped() {
        let Some(url) = fresh_database("self_test").await else {
            return;
        };
        let store = minotty_store::Store::open(&url).await.expect("opens");
        store.record_start("test", 1).await.expect("writes");
        store.close().await;
        drop_database(&url).await.expect("drops");
        assert!(minotty_store::Store::open(&url).await.is_err(), "gone");
    }
}
