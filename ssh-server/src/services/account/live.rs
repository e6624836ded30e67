//! The live sessions of each key, so that removing a key from an account ends the sessions
//! that logged in with it (on this server process).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use minotty_domain::KeyFingerprint;
use tokio_util::sync::CancellationToken;

/// Keys in use by live sessions: fingerprint to each session's id and revocation token. One
/// entry per session, removed when the session's services are dropped.
#[derive(Debug, Default)]
pub struct LiveKeys {
    next: AtomicU64,
    sessions: Mutex<HashMap<KeyFingerprint, Vec<(u64, CancellationToken)>>>,
}

impl LiveKeys {
    /// A session that logged in with `fingerprint` starts: its id (for [`LiveKeys::leave`])
    /// and the token cancelled when the key is removed.
    pub fn enter(&self, fingerprint: &KeyFingerprint) -> (u64, CancellationToken) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let token = CancellationToken::new();
        self.lock()
            .entry(fingerprint.clone())
            .or_default()
            .push((id, token.clone()));
        (id, token)
    }

    /// The session `id` ended.
    pub fn leave(&self, fingerprint: &KeyFingerprint, id: u64) {
        let mut sessions = self.lock();
        if let Some(list) = sessions.get_mut(fingerprint) {
            list.retain(|(i, _)| *i != id);
            if list.is_empty() {
                sessions.remove(fingerprint);
            }
        }
    }

    /// The key was removed from its account: every live session that logged in with it is
    /// told to end. Returns how many there were.
    pub fn revoke(&self, fingerprint: &KeyFingerprint) -> usize {
        let list = self.lock().remove(fingerprint).unwrap_or_default();
        for (_, token) in &list {
            token.cancel();
        }
        list.len()
    }

    /// Live sessions of `fingerprint` (for tests and metrics).
    pub fn count(&self, fingerprint: &KeyFingerprint) -> usize {
        self.lock().get(fingerprint).map_or(0, Vec::len)
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<KeyFingerprint, Vec<(u64, CancellationToken)>>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> KeyFingerprint {
        KeyFingerprint::parse(&format!("SHA256:{name:+<43}")).expect("a fingerprint")
    }

    #[test]
    fn revoking_a_key_cancels_its_sessions_only_and_leaving_forgets_them() {
        let live = LiveKeys::default();
        let (a1, t1) = live.enter(&key("A"));
        let (_a2, t2) = live.enter(&key("A"));
        let (_b, t3) = live.enter(&key("B"));
        live.leave(&key("A"), a1);
        assert_eq!(live.count(&key("A")), 1);
        assert_eq!(live.revoke(&key("A")), 1);
        assert!(t2.is_cancelled());
        assert!(!t1.is_cancelled(), "a session that left is not told");
        assert!(!t3.is_cancelled());
        assert_eq!(live.count(&key("A")), 0);
        assert_eq!(live.revoke(&key("A")), 0);
    }
}
