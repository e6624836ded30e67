//! Accounts: registration with a name and the connection's key, look-up by key, passwords, and
//! linking a new key to an existing account with the account's name and password.

use std::net::IpAddr;

use super::keys::insert_key;
use super::{
    NewKey, Password, PasswordHash, PlayerId, PlayerName, RetryAfter, Store, StoreError, UnixMs,
};

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Account {
    pub id: PlayerId,
    pub name: PlayerName,
    pub has_password: bool,
    pub created_at: UnixMs,
}

/// Why a registration failed.
#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    #[error("that name is taken")]
    NameTaken,
    #[error("this key already belongs to an account")]
    KeyTaken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a key was not linked. A wrong password, an unknown name and an account without a
/// password are one error, so that trying names tells nothing about which exist.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("wrong name or password")]
    WrongCredentials,
    #[error("too many wrong passwords; try again in {} s", .0.ms.saturating_add(999) / 1000)]
    RateLimited(RetryAfter),
    #[error("this key already belongs to an account")]
    KeyTaken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

type AccountRow = (i64, String, Option<String>, i64);

fn account(row: AccountRow) -> Result<Account, StoreError> {
    let (id, name, hash, created_at) = row;
    Ok(Account {
        id: PlayerId(id),
        name: PlayerName::from_db(name)?,
        has_password: hash.is_some(),
        created_at,
    })
}

impl Store {
    /// Creates an account named `name` that `key` logs in to.
    pub async fn register(
        &self,
        name: &PlayerName,
        key: &NewKey,
        now: UnixMs,
    ) -> Result<Account, RegisterError> {
        let mut tx = self.write_tx().await?;
        let id: Option<i64> = sqlx::query_scalar(
            "INSERT INTO players (name, name_folded, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (name_folded) DO NOTHING RETURNING id",
        )
        .bind(name.as_str())
        .bind(name.folded())
        .bind(now)
        .fetch_optional(&mut *tx)
        .await
        .map_err(StoreError::from)?;
        let Some(id) = id else {
            return Err(RegisterError::NameTaken);
        };
        if !insert_key(&mut tx, PlayerId(id), key, now).await? {
            return Err(RegisterError::KeyTaken);
        }
        tx.commit().await.map_err(StoreError::from)?;
        Ok(Account {
            id: PlayerId(id),
            name: name.clone(),
            has_password: false,
            created_at: now,
        })
    }

    /// The account that `key` logs in to, if any, noting that the key was used at `now`.
    pub async fn account_by_key(
        &self,
        key: &super::KeyFingerprint,
        now: UnixMs,
    ) -> Result<Option<Account>, StoreError> {
        let id: Option<i64> = sqlx::query_scalar(
            "UPDATE player_keys SET last_used_at = $2 WHERE fingerprint = $1 RETURNING player_id",
        )
        .bind(key.as_str())
        .bind(now)
        .fetch_optional(&self.writer)
        .await?;
        match id {
            Some(id) => self.account(PlayerId(id)).await,
            None => Ok(None),
        }
    }

    /// The account with this id.
    pub async fn account(&self, id: PlayerId) -> Result<Option<Account>, StoreError> {
        let row: Option<AccountRow> =
            sqlx::query_as("SELECT id, name, password_hash, created_at FROM players WHERE id = $1")
                .bind(id.0)
                .fetch_optional(&self.reader)
                .await?;
        row.map(account).transpose()
    }

    /// The account with this name, compared without regard to case.
    pub async fn account_by_name(&self, name: &PlayerName) -> Result<Option<Account>, StoreError> {
        let row: Option<AccountRow> = sqlx::query_as(
            "SELECT id, name, password_hash, created_at FROM players WHERE name_folded = $1",
        )
        .bind(name.folded())
        .fetch_optional(&self.reader)
        .await?;
        row.map(account).transpose()
    }

    /// Sets or replaces `player`'s password (hashed on the blocking pool).
    pub async fn set_password(
        &self,
        player: PlayerId,
        password: &Password,
    ) -> Result<(), StoreError> {
        let hash = PasswordHash::new(password).await?;
        let done = sqlx::query("UPDATE players SET password_hash = $1 WHERE id = $2")
            .bind(hash.as_phc())
            .bind(player.0)
            .execute(&self.writer)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Corrupt(format!("no player {}", player.0)));
        }
        Ok(())
    }

    /// Adds `key` to the account named `name` when `password` is the account's password.
    ///
    /// Wrong passwords are limited per account and per client address (`ip`): past the limit
    /// the answer is [`LinkError::RateLimited`] without checking the password. An unknown name
    /// or an account without a password costs the same time and counts the same as a wrong
    /// password.
    pub async fn link_key(
        &self,
        name: &PlayerName,
        password: &str,
        key: &NewKey,
        ip: IpAddr,
        now: UnixMs,
    ) -> Result<Account, LinkError> {
        let folded = name.folded();
        self.limits(|l| l.begin_attempt(&folded, ip, now))
            .map_err(LinkError::RateLimited)?;
        let row: Option<AccountRow> = sqlx::query_as(
            "SELECT id, name, password_hash, created_at FROM players WHERE name_folded = $1",
        )
        .bind(&folded)
        .fetch_optional(&self.reader)
        .await
        .map_err(StoreError::from)?;
        let stored = row
            .as_ref()
            .and_then(|r| r.2.clone())
            .map(PasswordHash::from_db);
        let matches = match (&stored, PasswordHash::decoy()) {
            (Some(hash), _) => hash.verify(password).await?,
            (None, Some(decoy)) => {
                decoy.verify(password).await?;
                false
            }
            (None, None) => false,
        };
        let (true, Some(row)) = (matches, row) else {
            tracing::info!(name = %name, %ip, "wrong password when linking a key");
            return Err(LinkError::WrongCredentials);
        };
        self.limits(|l| l.record_success(&folded, ip));
        let account = account(row)?;
        let mut tx = self.write_tx().await?;
        if !insert_key(&mut tx, account.id, key, now).await? {
            return Err(LinkError::KeyTaken);
        }
        tx.commit().await.map_err(StoreError::from)?;
        tracing::info!(player = account.id.0, key = %key.fingerprint, "key linked");
        Ok(account)
    }
}
