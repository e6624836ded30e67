//! [`Request::RetryAccount`](minotty_ui::online::Request::RetryAccount): a session whose
//! account could not be reached at login (the database did not answer) looks the key's account
//! up again, within [`START_TIMEOUT`](super::START_TIMEOUT). Found, the session is signed in
//! with its settings; not found, the key is new (the welcome screen); no answer, still
//! unreachable. Nothing is stored for the session meanwhile: it has no account.

use minotty_ui::online::Response;

use super::worker::Worker;
use super::{START_TIMEOUT, error};
use crate::metrics::{Dependency, note_dependency};
use crate::store::{StoreError, unix_now};
use crate::stored_settings;

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
                note_dependency(Dependency::Database, false);
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
