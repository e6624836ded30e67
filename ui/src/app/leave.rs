//! Leaving a solo game before its end, and retrying it with one key (see
//! `screens/leave.rs` and `screens/retry.rs`).

use super::{App, Screen};
use crate::keys::KeyEvent;
use crate::screens::leave::{self, LeaveTo};

impl App {
    /// The pause menu's "Main menu" or "Restart": at once when nothing of the game was played
    /// (or it is over), otherwise after asking.
    pub(super) fn ask_leave(&mut self, to: LeaveTo, now: u64) {
        let played = self
            .session
            .as_ref()
            .is_some_and(|s| s.played() && !s.is_over());
        if played {
            self.leave = Some(to);
        } else {
            self.leave_game(to, now);
        }
    }

    /// A key while the leave question is open; it takes every key.
    pub(super) fn key_leave(&mut self, to: LeaveTo, ev: KeyEvent, now: u64) -> bool {
        if crate::screens::is_ctrl(ev, 'c') {
            // Ctrl+C asks to quit wherever it is pressed; the question goes.
            self.leave = None;
            return self.ask_quit(false);
        }
        match leave::answer(ev) {
            None => false,
            Some(false) => {
                self.leave = None;
                true
            }
            Some(true) => {
                self.leave = None;
                self.leave_game(to, now);
                true
            }
        }
    }

    /// Leaves the game on screen for `to`. A game whose mode stores what was played ends
    /// there (a forfeit) and is handed over as finished before it goes.
    fn leave_game(&mut self, to: LeaveTo, now: u64) {
        if let Some(s) = &mut self.session
            && s.played()
            && !s.is_over()
            && leave::stores(s.game().mode().kind)
        {
            s.forfeit(now, &self.settings.keys);
            self.record_finished();
        }
        match to {
            LeaveTo::MainMenu => {
                self.session = None;
                self.screen = Screen::Menu;
            }
            LeaveTo::Restart => {
                if let Some(setup) = self.session.as_ref().map(|s| s.setup.clone()) {
                    self.start(setup, now);
                }
            }
        }
    }

    /// R: a fresh game of the same setup, its clock running at once.
    pub(super) fn retry(&mut self, now: u64) {
        let Some(setup) = self.session.as_ref().map(|s| s.setup.clone()) else {
            self.screen = Screen::ModeSelect;
            return;
        };
        self.start(setup, now);
        if let Some(s) = &mut self.session {
            s.skip_countdown();
        }
    }
}
