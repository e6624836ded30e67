//! Passwords: argon2id with the `argon2` crate's default parameters (its recommendation, the
//! OWASP minimum: 19 MiB, 2 passes, 1 lane), stored as PHC strings.
//!
//! Hashing takes tens of milliseconds of one core on purpose, so the async functions here run
//! it on tokio's blocking pool, never on a session's task. Neither the password nor its hash
//! ever prints: their `Debug` says only that they are there.

use std::fmt;
use std::sync::OnceLock;

use argon2::Argon2;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

use super::StoreError;

/// Fewest and most characters of a password. The upper bound keeps a login from costing more
/// than the hash itself.
pub const MIN_PASSWORD_CHARS: usize = 8;
pub const MAX_PASSWORD_CHARS: usize = 128;

/// A password as typed, validated for length.
#[derive(Clone, PartialEq, Eq)]
pub struct Password(String);

/// Why a new password is refused; the message is meant for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    #[error("a password needs at least {MIN_PASSWORD_CHARS} characters")]
    TooShort,
    #[error("a password has at most {MAX_PASSWORD_CHARS} characters")]
    TooLong,
}

impl Password {
    pub fn parse(raw: &str) -> Result<Password, PasswordError> {
        let n = raw.chars().count();
        if n < MIN_PASSWORD_CHARS {
            Err(PasswordError::TooShort)
        } else if n > MAX_PASSWORD_CHARS {
            Err(PasswordError::TooLong)
        } else {
            Ok(Password(raw.to_owned()))
        }
    }

    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Password {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Password(<redacted>)")
    }
}

/// An argon2id hash in PHC form (`$argon2id$v=19$m=19456,t=2,p=1$...`).
#[derive(Clone, PartialEq, Eq)]
pub struct PasswordHash(String);

impl fmt::Debug for PasswordHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("PasswordHash(<redacted>)")
    }
}

impl PasswordHash {
    /// Hashes `password` with a fresh random salt, on the blocking pool.
    pub async fn new(password: &Password) -> Result<PasswordHash, StoreError> {
        let password = password.clone();
        tokio::task::spawn_blocking(move || PasswordHash::new_blocking(&password))
            .await
            .map_err(|e| StoreError::Task(e.to_string()))?
    }

    /// Hashes on the calling thread (for the blocking pool, tests and benchmarks).
    pub fn new_blocking(password: &Password) -> Result<PasswordHash, StoreError> {
        Argon2::default()
            .hash_password(password.expose().as_bytes())
            .map(|h| PasswordHash(h.to_string()))
            .map_err(|e| StoreError::Task(format!("hashing a password: {e}")))
    }

    /// Whether `candidate` is the password, on the blocking pool. A stored hash that does not
    /// parse counts as a mismatch (and is logged), never as a match.
    pub async fn verify(&self, candidate: &str) -> Result<bool, StoreError> {
        let hash = self.clone();
        let candidate = candidate.to_owned();
        tokio::task::spawn_blocking(move || hash.verify_blocking(&candidate))
            .await
            .map_err(|e| StoreError::Task(e.to_string()))
    }

    pub fn verify_blocking(&self, candidate: &str) -> bool {
        // The parameters come from the PHC string, so hashes made with older parameters still
        // verify after the defaults change.
        match Argon2::default().verify_password(candidate.as_bytes(), self.0.as_str()) {
            Ok(()) => true,
            Err(argon2::password_hash::Error::PasswordInvalid) => false,
            Err(e) => {
                tracing::error!(error = %e, "a stored password hash does not parse");
                false
            }
        }
    }

    /// A hash of no one's password, verified against when a login names no account or an
    /// account without a password, so that answering takes as long as a real check and the
    /// timing does not tell which names exist.
    pub(crate) fn decoy() -> Option<&'static PasswordHash> {
        static DECOY: OnceLock<Option<PasswordHash>> = OnceLock::new();
        DECOY
            .get_or_init(|| {
                Password::parse("decoy password, never a real one")
                    .ok()
                    .and_then(|p| PasswordHash::new_blocking(&p).ok())
            })
            .as_ref()
    }

    pub(crate) fn from_db(phc: String) -> PasswordHash {
        PasswordHash(phc)
    }

    pub(crate) fn as_phc(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_checked_and_nothing_prints() {
        assert_eq!(Password::parse("short"), Err(PasswordError::TooShort));
        assert_eq!(
            Password::parse(&"x".repeat(129)),
            Err(PasswordError::TooLong)
        );
        let p = Password::parse("correct horse").unwrap();
        assert_eq!(format!("{p:?}"), "Password(<redacted>)");
        let h = PasswordHash::from_db("$argon2id$v=19$secret".into());
        assert_eq!(format!("{h:?}"), "PasswordHash(<redacted>)");
    }

    #[test]
    fn hashes_are_argon2id_with_default_params_and_verify() {
        let p = Password::parse("correct horse").unwrap();
        let h = PasswordHash::new_blocking(&p).unwrap();
        assert!(
            h.as_phc().starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{}",
            h.as_phc()
        );
        assert!(h.verify_blocking("correct horse"));
        assert!(!h.verify_blocking("correct horsf"));
        assert!(!PasswordHash::from_db("garbage".into()).verify_blocking("correct horse"));
        // A fresh salt each time.
        assert_ne!(PasswordHash::new_blocking(&p).unwrap(), h);
    }
}
