//! Accounts, leaderboards, the profile and replays: the App's side of the conversation with
//! the server (see [`crate::online`]).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{App, Screen};
use crate::online::Response;
use crate::theme::Theme;

/// The state of the account screens.
#[derive(Debug, Default)]
pub(super) struct AccountState {}

impl App {
    /// Called once by `App::new`: e.g. a new key starts on the welcome screen.
    pub(super) fn account_start(&mut self) {}

    pub(super) fn open_leaderboards(&mut self) {
        self.screen = Screen::Menu;
    }

    pub(super) fn open_profile(&mut self) {
        self.screen = Screen::Menu;
    }

    pub(super) fn key_account(&mut self, _ev: crate::keys::KeyEvent, _now: u64) -> bool {
        false
    }

    /// Advances e.g. a replay being watched; `true` when the screen changed.
    pub(super) fn tick_account(&mut self, _now: u64) -> bool {
        false
    }

    pub(super) fn account_wakeup(&self) -> Option<u64> {
        None
    }

    pub(super) fn render_account(&self, _area: Rect, _buf: &mut Buffer, _theme: Theme) {}

    /// Handles an account, leaderboard, profile or replay response; `true` when it was one
    /// (whether or not it changed anything on screen).
    pub(super) fn account_response(&mut self, response: &Response, _now: u64) -> bool {
        match response {
            Response::Offline | Response::Error { .. } => false,
            _ => false,
        }
    }
}
