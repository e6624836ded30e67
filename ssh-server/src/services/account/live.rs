//! The live sessions of each key and of each account's linked browsers, so that removing a
//! key from an account ends the sessions that logged in with it, and unlinking an account's
//! browsers (`ssh HOST web --end`, `w` on the keys screen) ends the games being played in
//! them (on this server process).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};

use minotty_domain::{KeyFingerprint, PlayerId};
use tokio_util::sync::CancellationToken;

/// What a live session holds that can be taken from it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Holder {
    /// It logged in with this key.
    Key(KeyFingerprint),
    /// It is a browser linked to this account.
    Browsers(PlayerId),
}

/// Keys and linked browsers in use by live sessions: each to its sessions' ids and revocation
/// tokens. One entry per session, removed when the session's services are dropped.
#[derive(Debug, Default)]
pub struct LiveKeys {
    next: AtomicU64,
    sessions: Mutex<HashMap<Holder, Vec<(u64, CancellationToken)>>>,
}

impl LiveKeys {
    /// A session that holds `fingerprint` starts: its id (for [`LiveKeys::leave`]) and the
    /// token cancelled when the key is removed (the browsers unlinked).
    pub fn enter(&self, fingerprint: &Holder) -> (u64, CancellationToken) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let token = CancellationToken::new();
        self.lock()
            .entry(fingerprint.clone())
            .or_default()
            .push((id, token.clone()));
        (id, token)
    }

    /// The session `id` ended.
    pub fn leave(&self, fingerprint: &Holder, id: u64) {
        let mut sessions = self.lock();
        if let Some(list) = sessions.get_mut(fingerprint) {
            list.retain(|(i, _)| *i != id);
            if list.is_empty() {
                sessions.remove(fingerprint);
            }
        }
    }

    /// The key was removed from its account (the browsers unlinked): every live session that
    /// holds it is told to end. Returns how many there were.
    pub fn revoke(&self, fingerprint: &Holder) -> usize {
        let list = self.lock().remove(fingerprint).unwrap_or_default();
        for (_, token) in &list {
            token.cancel();
        }
        list.len()
    }

    /// Live sessions of `fingerprint` (for tests and metrics).
    pub fn count(&self, fingerprint: &Holder) -> usize {
        self.lock().get(fingerprint).map_or(0, Vec::len)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Holder, Vec<(u64, CancellationToken)>>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> Holder {
        Holder::Key(KeyFingerprint::parse(&format!("SHA256:{name:+<43}")).expect("a fingerprint"))
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

    #[test]
    fn unlinking_an_accounts_browsers_cancels_theirs_only() {
        let live = LiveKeys::default();
        let (_, ada_browser) = live.enter(&Holder::Browsers(PlayerId(1)));
        let (_, bob_browser) = live.enter(&Holder::Browsers(PlayerId(2)));
        let (_, ada_key) = live.enter(&key("A"));
        assert_eq!(live.revoke(&Holder::Browsers(PlayerId(1))), 1);
        assert!(ada_browser.is_cancelled());
        assert!(
            !bob_browser.is_cancelled(),
            "another account's browser plays on"
        );
        assert!(!ada_key.is_cancelled(), "her SSH sessions play on");
    }
}
