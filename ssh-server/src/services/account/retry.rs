//! [`Request::RetryAccount`](minotty_ui::Request::RetryAccount): a session whose
//! account could not be reached at login (the database did not answer) looks the key's account
//! up again, within [`START_TIMEOUT`](super::START_TIMEOUT). Found, the session is signed in
//! with its settings; not found, the key is new (the welcome screen); no answer, still
//! unreachable. Nothing is stored for the session meanwhile: it has no account.

use minotty_ui::Response;
use minotty_ui::stored_settings;

use super::worker::Worker;
use super::{START_TIMEOUT, error};
use crate::metrics::{Dependency, note_dependency};
use minotty_store::{StoreError, unix_now};

impl Worker {
    pub(super) async fn retry_account(&self) -> Response {
        let Some(key) = self.key() else {
            return error("guests have no account: connect with an SSH key to get one");
        };
        let load = async {
            let Some(account) = self
                .store
                .account_by_key(&key.fingerprint, unix_now())
                .await?
            else {
                return Ok::<_, StoreError>(None);
            };
            let settings = self.store.settings(account.id).await?;
            Ok(Some((account, settings)))
        };
        let found = match tokio::time::timeout(START_TIMEOUT, load).await {
            Ok(Ok(found)) => found,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "looking up the account of a key again; still unreachable");
                if e.is_unreachable() {
                    note_dependency(Dependency::Database, false);
                }
                return Response::AccountUnreachable;
            }
            Err(_) => {
                tracing::warn!(
                    "looking up the account of a key again timed out; still unreachable"
                );
                note_dependency(Dependency::Database, false);
                return Response::AccountUnreachable;
            }
        };
        note_dependency(Dependency::Database, true);
        let Some((account, settings)) = found else {
            if self.current().is_some() {
                self.account.send_replace(None);
            }
            tracing::info!("the account was reached again: a new key");
            return Response::AccountNew;
        };
        tracing::info!(
            player = account.id.0,
            "the account was reached again; signed in"
        );
        self.sign_in(account.id, &account.name);
        Response::SignedIn {
            name: account.name.to_string(),
            has_password: account.has_password,
            settings: settings
                .as_deref()
                .and_then(stored_settings::from_json)
                .map(Box::new),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr};
    use std::time::Duration;

    use minotty_protocol::Identity;
    use minotty_ui::Settings;
    use minotty_ui::{Request, Response};
    use tokio::sync::{mpsc, watch};

    use crate::services::Who;
    use crate::services::account::{AccountClient, SharedAccounts};
    use minotty_domain::{KeyFingerprint, PlayerName};
    use minotty_store::{NewKey, Store, unix_now};
    use minotty_ui::stored_settings;

    const KEY: &str = "SHA256:AAAABBBBCCCCDDDDEEEEFFFFGGGGHHHHIIIIJJJJKKK";
    const PEER: IpAddr = IpAddr::V4(Ipv4Addr::LOCALHOST);

    async fn next(rx: &mut mpsc::Receiver<Response>) -> Response {
        tokio::time::timeout(Duration::from_secs(10), rx.recv())
            .await
            .expect("an answer")
            .expect("the channel open")
    }

    /// A session of the key [`KEY`] on `store`, its response channel and its account watch.
    fn session(
        store: &Store,
    ) -> (
        AccountClient,
        mpsc::Receiver<Response>,
        watch::Receiver<Option<minotty_domain::AccountRef>>,
    ) {
        let shared = SharedAccounts::new(Some(store.clone()), None);
        let (tx, rx) = mpsc::channel(16);
        let (account_tx, account_rx) = watch::channel(None);
        let who = Who {
            ssh_user: "~cat".into(),
            identity: crate::services::Identity::of_key(KeyFingerprint::parse(KEY), "ssh-ed25519"),
            peer: PEER.into(),
            account: account_rx.clone(),
        };
        let client = AccountClient::new(&shared, who, "cat".into(), account_tx, tx);
        (client, rx, account_rx)
    }

    #[tokio::test]
    async fn a_retry_finds_a_new_key_then_the_account_then_nothing() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let url = format!("sqlite://{}", dir.path().join("minotty.db").display());
        let store = Store::open(&url).await.expect("the store");
        let (mut client, mut rx, account) = session(&store);
        client.handle(Request::RetryAccount);
        assert_eq!(next(&mut rx).await, Response::AccountNew);

        // Registered meanwhile (another session of the key): the retry signs this one in,
        // with the stored settings, and the session's account is set for every service.
        let key = NewKey {
            fingerprint: KeyFingerprint::parse(KEY).expect("a fingerprint"),
            algorithm: "ssh-ed25519".into(),
        };
        let name = PlayerName::parse("Cat").expect("a name");
        let registered = store
            .register_from(&name, &key, PEER, unix_now())
            .await
            .expect("registered");
        let settings = Settings {
            show_fps: true,
            ..Settings::default()
        };
        store
            .save_settings(
                registered.id,
                &stored_settings::to_json(&settings),
                unix_now(),
            )
            .await
            .expect("settings stored");
        client.handle(Request::RetryAccount);
        match next(&mut rx).await {
            Response::SignedIn { name, settings, .. } => {
                assert_eq!(name, "Cat");
                assert!(settings.is_some_and(|s| s.show_fps));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(account.borrow().as_ref().map(|a| a.id), Some(registered.id));

        // The database goes away: a session starting now is told its account is unreachable
        // (not a guest, not a new key), and a retry says it is still unreachable.
        store.close().await;
        let (mut late, mut late_rx, late_account) = session(&store);
        let (identity, stored) = late.start().await;
        assert_eq!(
            identity,
            Identity::Unreachable {
                suggested: "cat".into()
            }
        );
        assert!(stored.is_none());
        late.handle(Request::RetryAccount);
        assert_eq!(next(&mut late_rx).await, Response::AccountUnreachable);
        assert!(late_account.borrow().is_none(), "no account meanwhile");
    }
}
