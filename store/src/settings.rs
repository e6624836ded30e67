//! Per-player settings, stored as JSON text. The store checks that the text is JSON and not
//! too large, and otherwise keeps it opaque: the UI owns its shape and its defaults.

use super::{PlayerId, Store, StoreError, UnixMs};

/// The largest settings document accepted, in bytes.
pub const MAX_SETTINGS_BYTES: usize = 16 * 1024;

/// Why settings were not saved.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("settings are {0} bytes, more than {MAX_SETTINGS_BYTES}")]
    TooLarge(usize),
    #[error("settings are not JSON: {0}")]
    NotJson(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl Store {
    /// `player`'s saved settings, or `None` when they never saved any.
    pub async fn settings(&self, player: PlayerId) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT settings FROM player_settings WHERE player_id = $1")
                .bind(player.0)
                .fetch_optional(&self.reader)
                .await?,
        )
    }

    /// Saves `player`'s settings, replacing what was there.
    pub async fn save_settings(
        &self,
        player: PlayerId,
        json: &str,
        now: UnixMs,
    ) -> Result<(), SettingsError> {
        if json.len() > MAX_SETTINGS_BYTES {
            return Err(SettingsError::TooLarge(json.len()));
        }
        serde_json::from_str::<serde_json::Value>(json)
            .map_err(|e| SettingsError::NotJson(e.to_string()))?;
        sqlx::query(
            "INSERT INTO player_settings (player_id, settings, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (player_id) DO UPDATE \
             SET settings = excluded.settings, updated_at = excluded.updated_at",
        )
        .bind(player.0)
        .bind(json)
        .bind(now)
        .execute(&self.writer)
        .await
        .map_err(StoreError::from)?;
        Ok(())
    }
}
