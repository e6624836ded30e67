//! Whether the database answers at all: the cheapest query, for the dependency probe
//! (`crate::probes`).

use super::{Store, StoreError};

impl Store {
    /// `SELECT 1` on a read connection.
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.reader).await?;
        Ok(())
    }
}

impl StoreError {
    /// Whether the database could not be reached at all (no connection, a connection lost, the
    /// pool out of time or closed), as opposed to an answer that was an error: a real query
    /// that fails so marks the database unreachable until the probe finds it again.
    pub fn is_unreachable(&self) -> bool {
        match self {
            StoreError::Database(e) => matches!(
                e,
                sqlx::Error::Io(_)
                    | sqlx::Error::Tls(_)
                    | sqlx::Error::PoolTimedOut
                    | sqlx::Error::PoolClosed
                    | sqlx::Error::WorkerCrashed
            ),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_closed_store_is_unreachable_and_an_open_one_answers() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("minotty.db").display());
        let store = Store::open(&url).await.expect("the store");
        assert!(store.ping().await.is_ok());
        store.close().await;
        let e = store.ping().await.expect_err("closed");
        assert!(e.is_unreachable(), "{e}");
        assert!(!StoreError::Corrupt("x".into()).is_unreachable());
    }
}
