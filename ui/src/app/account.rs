//! Accounts, leaderboards, the profile and replays: the App's side of the conversation with
//! the server (see [`crate::online`]).

use super::App;
use crate::online::Response;

/// The state of the account screens.
#[derive(Debug, Default)]
pub(super) struct AccountState {}

impl App {
    /// Handles an account, leaderboard, profile or replay response; `true` when it was one
    /// (whether or not it changed anything on screen).
    pub(super) fn account_response(&mut self, response: &Response, _now: u64) -> bool {
        match response {
            Response::Offline | Response::Error { .. } => false,
            _ => false,
        }
    }
}
