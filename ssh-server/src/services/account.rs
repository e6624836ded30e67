//! Accounts, settings, leaderboards, profile and replays for one session, over the store.

use minotty_ui::online::{Request, Response};
use tokio::sync::{mpsc, watch};

use super::{AccountRef, Who};

/// Shared by every session: the store and the game writer (none without a database).
#[derive(Debug, Default)]
pub struct SharedAccounts {}

/// One session's side.
#[derive(Debug)]
pub struct AccountClient {
    who: Who,
    /// Set when the key registers or links to an account during the session.
    account: watch::Sender<Option<AccountRef>>,
    tx: mpsc::Sender<Response>,
}

impl AccountClient {
    pub fn new(
        _shared: &SharedAccounts,
        who: Who,
        account: watch::Sender<Option<AccountRef>>,
        tx: mpsc::Sender<Response>,
    ) -> AccountClient {
        AccountClient { who, account, tx }
    }

    pub fn handle(&mut self, _request: Request) {
        let _ = (&self.who, &self.account);
        let _ = self.tx.try_send(Response::Offline);
    }
}
