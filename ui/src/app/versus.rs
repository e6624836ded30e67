//! Versus: quick match, rooms and matches, the App's side (see [`crate::online`]).

use super::App;
use crate::online::Response;

/// The state of the versus screens and of a match in progress.
#[derive(Debug, Default)]
pub(super) struct VersusState {}

impl App {
    /// Handles a versus response; `true` when the screen changed.
    pub(super) fn versus_response(&mut self, response: Response, _now: u64) -> bool {
        match response {
            Response::Offline => false,
            _ => false,
        }
    }
}
