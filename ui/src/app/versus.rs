//! Versus: quick match, rooms and matches, the App's side (see [`crate::online`]).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{App, Screen};
use crate::online::Response;
use crate::theme::Theme;

/// The state of the versus screens and of a match in progress.
#[derive(Debug, Default)]
pub(super) struct VersusState {}

impl App {
    pub(super) fn open_versus(&mut self) {
        self.screen = Screen::Menu;
    }

    pub(super) fn key_versus(&mut self, _ev: crate::keys::KeyEvent, _now: u64) -> bool {
        false
    }

    /// Advances the match in progress; `true` when the screen changed.
    pub(super) fn tick_versus(&mut self, _now: u64) -> bool {
        false
    }

    pub(super) fn versus_wakeup(&self) -> Option<u64> {
        None
    }

    /// Whether a versus match is being played (counts as in game for the idle timeout).
    pub(super) fn versus_in_match(&self) -> bool {
        false
    }

    pub(super) fn render_versus(&self, _area: Rect, _buf: &mut Buffer, _theme: Theme) {}

    /// Handles a versus response; `true` when the screen changed.
    pub(super) fn versus_response(&mut self, response: Response, _now: u64) -> bool {
        match response {
            Response::Offline => false,
            _ => false,
        }
    }
}
