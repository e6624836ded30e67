//! Versus for one session: the quick-match queue and rooms, each room its own task.

use minotty_ui::online::{Request, Response};
use tokio::sync::mpsc;

use super::Who;

/// Shared by every session: the room registry and the matchmaking queue.
#[derive(Debug, Default)]
pub struct SharedVersus {}

/// One session's side.
#[derive(Debug)]
pub struct VersusClient {
    who: Who,
    tx: mpsc::Sender<Response>,
}

impl VersusClient {
    pub fn new(_shared: &SharedVersus, who: Who, tx: mpsc::Sender<Response>) -> VersusClient {
        VersusClient { who, tx }
    }

    pub fn handle(&mut self, _request: Request) {
        let _ = &self.who;
        let _ = self.tx.try_send(Response::Offline);
    }
}
