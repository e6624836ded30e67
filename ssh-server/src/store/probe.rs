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
