//! Pausing a game: what a pause costs (ranking), the question a timed game asks first, pausing,
//! resuming, and forfeiting from a pause.

use minotty_engine::{Button, Input, ModeKind};

use super::{COUNTDOWN_MS, GameSession, RunState};
use crate::keymap::Keymap;

impl GameSession {
    /// Whether a pause keeps this game off the leaderboards: a solo game of a preset whose
    /// clock counts ([`minotty_engine::Mode::timed`]: 40 lines, ultra, master). Custom games
    /// never rank, so a pause costs them nothing.
    pub fn pause_unranks(&self) -> bool {
        let mode = self.game.mode();
        !self.is_versus() && mode.kind != ModeKind::Custom && mode.timed() && self.race.is_none()
    }

    /// Whether pausing now must be confirmed first: the game could still rank, and the clock
    /// runs (a pause during the countdown freezes no game time and is not recorded).
    pub fn pause_needs_confirm(&self) -> bool {
        self.pause_unranks() && self.state == RunState::Running && !self.game.paused()
    }

    /// Whether the pause confirmation is open.
    pub fn pause_prompt(&self) -> bool {
        self.pause_prompt && self.state == RunState::Running
    }

    /// Opens the pause confirmation; the game keeps running until the player confirms.
    pub fn ask_pause(&mut self) {
        self.pause_prompt = self.pause_needs_confirm();
    }

    /// Closes the pause confirmation without pausing.
    pub fn cancel_pause(&mut self) {
        self.pause_prompt = false;
    }

    /// Freezes the game clock (never in versus: the opponents keep playing). A pause of the
    /// running game is recorded in its replay ([`Input::Pause`]).
    pub fn pause(&mut self, now: u64, keys: &Keymap) {
        self.tick(now, keys);
        self.pause_prompt = false;
        if self.is_versus() {
            return;
        }
        let in_countdown = match self.state {
            RunState::Running => {
                let t = self.game_time();
                self.feed(t, Some(Input::Pause));
                if self.is_over() {
                    // The pause was the input that reached the limit: the game is over.
                    return;
                }
                false
            }
            RunState::Countdown { .. } => true,
            _ => return,
        };
        self.state = RunState::Paused {
            since: self.now,
            in_countdown,
        };
        self.synth.clear();
    }

    /// Starts the clock again. Every key counts as released: keys held while paused must be
    /// pressed again (the engine gets [`Input::ReleaseAll`]).
    pub fn resume(&mut self, now: u64) {
        let now = now.max(self.now);
        let RunState::Paused {
            since,
            in_countdown,
        } = self.state
        else {
            return;
        };
        self.now = now;
        self.held = [0; Button::ALL.len()];
        self.synth.clear();
        if in_countdown {
            self.state = RunState::Countdown {
                until: now + COUNTDOWN_MS,
            };
            self.origin = now + COUNTDOWN_MS;
            return;
        }
        self.origin += now - since;
        self.state = RunState::Running;
        let t = self.game_time_at(now);
        self.feed(t, Some(Input::ReleaseAll));
    }

    /// Moves a paused session onto another front-end clock, on which it is `now` (a game
    /// parked by one connection and resumed by another, whose clock started elsewhere). The
    /// game time stands where the pause left it; the time in between is part of the pause.
    /// Nothing happens to a session that is not paused.
    pub fn rebase(&mut self, now: u64) {
        let RunState::Paused { in_countdown, .. } = self.state else {
            return;
        };
        // From here on `game = base + at - origin` counts from the pause's game time.
        self.base = self.game_time();
        self.origin = now;
        self.now = now;
        self.state = RunState::Paused {
            since: now,
            in_countdown,
        };
        self.held = [0; Button::ALL.len()];
        self.synth.clear();
    }

    /// Gives up the game.
    pub fn forfeit(&mut self, now: u64, keys: &Keymap) {
        self.tick(now, keys);
        if self.is_over() {
            return;
        }
        let t = self.game_time();
        self.feed(t, Some(Input::Forfeit));
        // Forfeiting from a pause or the countdown: the final board shows from now on.
        self.state = RunState::Over { at: self.now };
    }
}
