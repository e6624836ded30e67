//! Facts about the database itself (`server_meta`): when it was created and which server
//! version started on it last.

use super::{Store, StoreError, UnixMs};

impl Store {
    /// Records a server start at `now`: `created_at` is kept from the first start,
    /// `last_start` gets `version`.
    pub async fn record_start(&self, version: &str, now: UnixMs) -> Result<(), StoreError> {
        let mut tx = self.write_tx().await?;
        sqlx::query(
            "INSERT INTO server_meta (key, value, updated_at) VALUES ('created_at', $1, $2) \
             ON CONFLICT (key) DO NOTHING",
        )
        .bind(now.to_string())
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "INSERT INTO server_meta (key, value, updated_at) VALUES ('last_start', $1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, \
             updated_at = excluded.updated_at",
        )
        .bind(version)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }

    /// One value of `server_meta`.
    pub async fn meta(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT value FROM server_meta WHERE key = $1")
                .bind(key)
                .fetch_optional(&self.reader)
                .await?,
        )
    }
}
