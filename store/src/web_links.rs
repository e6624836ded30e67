//! Browsers linked to accounts: `ssh HOST web` makes a one-time code for the player (one at a
//! time: a new one replaces the last; valid [`CODE_TTL_MS`], used once), the browser redeems
//! it for a session token kept in its cookie (valid [`SESSION_TTL_MS`]; a player keeps at most
//! [`MAX_SESSIONS`], the oldest going first), and the player can end every one of them. Only
//! SHA-256 digests of codes and tokens are stored: the database never holds what a browser
//! presents.

use sha2::{Digest, Sha256};

use super::{PlayerId, Store, StoreError, UnixMs};

/// How long a code made by `ssh HOST web` can be redeemed.
pub const CODE_TTL_MS: i64 = 10 * 60 * 1000;
/// How long a linked browser stays linked.
pub const SESSION_TTL_MS: i64 = 30 * 24 * 3600 * 1000;
/// Linked browsers of one player, at most.
pub const MAX_SESSIONS: i64 = 10;

/// The stored form of a code or token: its SHA-256, in hex.
fn digest(secret: &str) -> String {
    Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

impl Store {
    /// Makes `code` the player's one code for linking a browser, valid until `now` plus
    /// [`CODE_TTL_MS`] (an earlier code of theirs stops working). Expired codes of anyone go.
    pub async fn new_web_code(
        &self,
        player: PlayerId,
        code: &str,
        now: UnixMs,
    ) -> Result<(), StoreError> {
        let mut tx = self.write_tx().await?;
        sqlx::query("DELETE FROM web_codes WHERE expires_at <= $1 OR player_id = $2")
            .bind(now)
            .bind(player.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query("INSERT INTO web_codes (code_hash, player_id, expires_at) VALUES ($1, $2, $3)")
            .bind(digest(code))
            .bind(player.0)
            .bind(now + CODE_TTL_MS)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Redeems `code` once: its player, with `token` now a session of theirs (their oldest
    /// beyond [`MAX_SESSIONS`] ended); `None` for a code unknown, used or expired.
    pub async fn redeem_web_code(
        &self,
        code: &str,
        token: &str,
        now: UnixMs,
    ) -> Result<Option<PlayerId>, StoreError> {
        let mut tx = self.write_tx().await?;
        let player: Option<i64> = sqlx::query_scalar(
            "SELECT player_id FROM web_codes WHERE code_hash = $1 AND expires_at > $2",
        )
        .bind(digest(code))
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(player) = player else {
            return Ok(None);
        };
        sqlx::query("DELETE FROM web_codes WHERE player_id = $1")
            .bind(player)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO web_sessions (token_hash, player_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(digest(token))
        .bind(player)
        .bind(now)
        .bind(now + SESSION_TTL_MS)
        .execute(&mut *tx)
        .await?;
        // The newest MAX_SESSIONS stay.
        sqlx::query(
            "DELETE FROM web_sessions WHERE player_id = $1 AND token_hash NOT IN \
             (SELECT token_hash FROM web_sessions WHERE player_id = $1 \
              ORDER BY created_at DESC, token_hash LIMIT $2)",
        )
        .bind(player)
        .bind(MAX_SESSIONS)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(PlayerId(player)))
    }

    /// The player a browser's `token` is linked to, while it is.
    pub async fn web_session(
        &self,
        token: &str,
        now: UnixMs,
    ) -> Result<Option<PlayerId>, StoreError> {
        let player: Option<i64> = sqlx::query_scalar(
            "SELECT player_id FROM web_sessions WHERE token_hash = $1 AND expires_at > $2",
        )
        .bind(digest(token))
        .bind(now)
        .fetch_optional(&self.reader)
        .await?;
        Ok(player.map(PlayerId))
    }

    /// Ends every linked browser of `player` (and their code); how many sessions ended.
    pub async fn end_web_sessions(&self, player: PlayerId) -> Result<u64, StoreError> {
        let mut tx = self.write_tx().await?;
        sqlx::query("DELETE FROM web_codes WHERE player_id = $1")
            .bind(player.0)
            .execute(&mut *tx)
            .await?;
        let done = sqlx::query("DELETE FROM web_sessions WHERE player_id = $1")
            .bind(player.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }

    /// Ends the one linked browser whose token is `token` (nothing when none is).
    pub async fn end_web_session(&self, token: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM web_sessions WHERE token_hash = $1")
            .bind(digest(token))
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// How many browsers `player` has linked now.
    pub async fn web_sessions_of(&self, player: PlayerId, now: UnixMs) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM web_sessions WHERE player_id = $1 AND expires_at > $2",
        )
        .bind(player.0)
        .bind(now)
        .fetch_one(&self.reader)
        .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn digests_are_hex_sha256() {
        assert_eq!(
            super::digest("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
