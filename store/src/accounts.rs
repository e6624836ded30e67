//! Accounts: registration with a name and the connection's key, look-up by key, passwords, and
//! linking a new key to an existing account with the account's name and password.

use std::net::IpAddr;

use super::keys::insert_key;
use super::{
    Backend, NewKey, Password, PasswordHash, PlayerId, PlayerName, RetryAfter, Store, StoreError,
    UnixMs,
};
use minotty_domain::ClientAddr;

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
    #[error("too many new accounts from your address today; try again tomorrow")]
    TooMany,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// New accounts allowed from one client address (an IPv6 client by its /64) in 24 hours.
/// Connections from the server's own machine (tests, the load tool) are not counted.
pub const REGISTRATIONS_PER_DAY: u32 = 5;

const DAY_MS: UnixMs = 24 * 60 * 60 * 1000;

/// Why a key was not linked. A wrong password, an unknown name and an account without a
/// password are one error, so that trying names tells nothing about which exist.
#[derive(Debug, thiserror::Error)]
pub enum LinkError {
    #[error("wrong name or password")]
    WrongCredentials,
    #[error("too many wrong passwords; try again in {} s", .0.ms.saturating_add(999) / 1000)]
    RateLimited(RetryAfter),
    /// Past the budget of password checks for the account or the address ([`super::HashLimits`]).
    #[error("{}", throttled(.0))]
    Throttled(RetryAfter),
    #[error("this key already belongs to an account")]
    KeyTaken,
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a password was not changed.
#[derive(Debug, thiserror::Error)]
pub enum PasswordChangeError {
    #[error("the current password is wrong: nothing was changed")]
    WrongCurrent,
    #[error("too many wrong passwords; try again in {} s", .0.ms.saturating_add(999) / 1000)]
    RateLimited(RetryAfter),
    /// Past the budget of password hashes for the account or the address.
    #[error("{}", throttled(.0))]
    Throttled(RetryAfter),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// What a player past the budget of password hashes is told.
fn throttled(wait: &RetryAfter) -> String {
    format!(
        "too many password changes or checks from here; try again in {} s",
        wait.ms.saturating_add(999) / 1000
    )
}

type AccountRow = (i64, String, Option<String>, i64);

fn account(row: AccountRow) -> Result<Account, StoreError> {
    let (id, name, hash, created_at) = row;
    Ok(Account {
        id: PlayerId(id),
        name: super::name_from_db(name)?,
        has_password: hash.is_some(),
        created_at,
    })
}

impl Store {
    /// Creates an account named `name` that `key` logs in to, without a limit per address
    /// (tests, benchmarks, imports; players register through [`Store::register_from`]).
    pub async fn register(
        &self,
        name: &PlayerName,
        key: &NewKey,
        now: UnixMs,
    ) -> Result<Account, RegisterError> {
        self.register_inner(name, key, None, now).await
    }

    /// Creates an account named `name` that `key` logs in to, for a client at `ip`: refused
    /// with [`RegisterError::TooMany`] when that address (its /64 for IPv6) registered
    /// [`REGISTRATIONS_PER_DAY`] accounts in the last 24 hours.
    pub async fn register_from(
        &self,
        name: &PlayerName,
        key: &NewKey,
        ip: IpAddr,
        now: UnixMs,
    ) -> Result<Account, RegisterError> {
        self.register_inner(name, key, Some(ip), now).await
    }

    async fn register_inner(
        &self,
        name: &PlayerName,
        key: &NewKey,
        ip: Option<IpAddr>,
        now: UnixMs,
    ) -> Result<Account, RegisterError> {
        let mut tx = self.write_tx().await?;
        let address = ip
            .map(ClientAddr::new)
            .filter(|a| !a.is_loopback())
            .map(|a| a.key().to_string());
        if let Some(address) = &address {
            if self.backend == Backend::Postgres {
                // Instances registering at once take turns on the count (the mode conflicts
                // with itself, not with reads), so an address gets no more than its share
                // whichever instances it reaches. SQLite: `BEGIN IMMEDIATE` holds the database.
                sqlx::query("LOCK TABLE registrations IN SHARE ROW EXCLUSIVE MODE")
                    .execute(&mut *tx)
                    .await
                    .map_err(StoreError::from)?;
            }
            let since = now.saturating_sub(DAY_MS);
            sqlx::query("DELETE FROM registrations WHERE registered_at <= $1")
                .bind(since)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from)?;
            let recent: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM registrations WHERE address = $1 AND registered_at > $2",
            )
            .bind(address)
            .bind(since)
            .fetch_one(&mut *tx)
            .await
            .map_err(StoreError::from)?;
            if recent >= i64::from(self.registrations_per_day) {
                tracing::info!(%address, recent, "registration refused: too many from the address");
                return Err(RegisterError::TooMany);
            }
        }
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
        if let Some(address) = &address {
            sqlx::query("INSERT INTO registrations (address, registered_at) VALUES ($1, $2)")
                .bind(address)
                .bind(now)
                .execute(&mut *tx)
                .await
                .map_err(StoreError::from)?;
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
    ///
    /// One read on the read pool: a login never waits for the writer. The use is noted in
    /// memory and written with others by [`Store::flush_key_uses`] (every
    /// [`super::KEY_USE_FLUSH`], and when the store closes).
    pub async fn account_by_key(
        &self,
        key: &super::KeyFingerprint,
        now: UnixMs,
    ) -> Result<Option<Account>, StoreError> {
        let row: Option<AccountRow> = sqlx::query_as(
            "SELECT p.id, p.name, p.password_hash, p.created_at FROM player_keys k \
             JOIN players p ON p.id = k.player_id WHERE k.fingerprint = $1",
        )
        .bind(key.as_str())
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        self.key_uses.note(key, now);
        account(row).map(Some)
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

    /// Changes `player`'s password to `new` after checking `current` against the one set, if
    /// any. Wrong current passwords are limited per account and per address like logins
    /// ([`Store::link_key`]); without a password set, `current` is not looked at.
    pub async fn change_password(
        &self,
        player: PlayerId,
        current: &str,
        new: &Password,
        ip: IpAddr,
        now: UnixMs,
    ) -> Result<(), PasswordChangeError> {
        let row: Option<AccountRow> =
            sqlx::query_as("SELECT id, name, password_hash, created_at FROM players WHERE id = $1")
                .bind(player.0)
                .fetch_optional(&self.reader)
                .await
                .map_err(StoreError::from)?;
        let Some(row) = row else {
            return Err(StoreError::Corrupt(format!("no player {}", player.0)).into());
        };
        let folded = row.1.to_ascii_lowercase();
        let stored = row.2.clone().map(PasswordHash::from_db);
        // A check of the current password (when one is set) and the new hash.
        let cost = if stored.is_some() { 2 } else { 1 };
        if stored.is_some() {
            self.limits(|l| l.check(&folded, ip, now))
                .map_err(PasswordChangeError::RateLimited)?;
        }
        self.take_hashes(&folded, ip, cost, now)
            .map_err(PasswordChangeError::Throttled)?;
        if let Some(stored) = stored {
            self.limits(|l| l.record_failure(&folded, ip, now));
            match self.hashing.verify_or_decoy(Some(stored), current).await {
                Ok(true) => self.limits(|l| l.record_success(&folded, ip)),
                Ok(false) => {
                    tracing::info!(player = player.0, %ip, "wrong current password");
                    self.limits(|l| l.hashes.give_back(&folded, ip, 1));
                    return Err(PasswordChangeError::WrongCurrent);
                }
                Err(e) => {
                    self.limits(|l| {
                        l.refund(&folded, ip);
                        l.hashes.give_back(&folded, ip, cost);
                    });
                    return Err(e.into());
                }
            }
        }
        if let Err(e) = self.set_password(player, new).await {
            // Not hashed (the hashing threads were busy) or not written: the hash is given
            // back only when it never ran.
            if matches!(e, StoreError::Busy) {
                self.limits(|l| l.hashes.give_back(&folded, ip, 1));
            }
            return Err(e.into());
        }
        Ok(())
    }

    /// Takes `cost` password hashes from the budget of the account `folded` and of `ip`.
    fn take_hashes(
        &self,
        folded: &str,
        ip: IpAddr,
        cost: u32,
        now: UnixMs,
    ) -> Result<(), RetryAfter> {
        self.limits(|l| l.hashes.take(folded, ip, cost, now)).inspect_err(|wait| {
            tracing::info!(%ip, wait_ms = wait.ms, cost, "password hashing refused: over the budget");
        })
    }

    /// Sets or replaces `player`'s password (hashed on the store's [`super::HashPool`]),
    /// without asking for the current one or counting against a budget: for
    /// [`Store::change_password`], tests and operators.
    pub async fn set_password(
        &self,
        player: PlayerId,
        password: &Password,
    ) -> Result<(), StoreError> {
        let hash = self.hashing.hash(password).await?;
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
        self.limits(|l| l.check(&folded, ip, now))
            .map_err(LinkError::RateLimited)?;
        // Every try costs one hash (an unknown name is checked against the decoy).
        self.take_hashes(&folded, ip, 1, now)
            .map_err(LinkError::Throttled)?;
        self.limits(|l| l.record_failure(&folded, ip, now));
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
        let matches = match self.hashing.verify_or_decoy(stored, password).await {
            Ok(matches) => matches,
            Err(e) => {
                // Not checked (the server is busy): the try does not count.
                self.limits(|l| {
                    l.refund(&folded, ip);
                    l.hashes.give_back(&folded, ip, 1);
                });
                return Err(e.into());
            }
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
