//! Accounts, settings, leaderboards, profile and replays for one session, over the store.

use minotty_ui::online::{Request, Response};
use tokio::sync::mpsc;

use super::Who;

/// Shared by every session: the store and the game writer (none without a database).
#[derive(Debug, Default)]
pub struct SharedAccounts {}

/// One session's side.
#[derive(Debug)]
pub struct AccountClient {
    who: Who,
    tx: mpsc::Sender<Response>,
}

impl AccountClient {
    pub fn new(_shared: &SharedAccounts, who: Who, tx: mpsc::Sender<Response>) -> AccountClient {
        AccountClient { who, tx }
    }

    pub fn handle(&mut self, _request: Request) {
        let _ = &self.who;
        let _ = self.tx.try_send(Response::Offline);
    }
}
