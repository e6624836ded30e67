//! Leaving a solo game before its end, and retrying it with one key (see
//! `screens/leave.rs` and `screens/retry.rs`).

use super::{Ctx, Outcome, Solo};
use crate::app::Screen;
use crate::keys::KeyEvent;
use crate::screens::leave::{self, LeaveTo};

impl Solo {
    /// The pause menu's "Main menu" or "Restart": at once when nothing of the game was played
    /// (or it is over), otherwise after asking.
    pub(super) fn ask_leave(&mut self, to: LeaveTo, now: u64, ctx: &mut Ctx<'_>) -> Outcome {
        let played = self
            .session
            .as_ref()
            .is_some_and(|s| s.played() && !s.is_over());
        if played {
            self.leave = Some(to);
            Outcome::Changed
        } else {
            self.leave_game(to, now, ctx)
        }
    }

    /// A key while the leave question is open; it takes every key.
    pub(super) fn key_leave(
        &mut self,
        to: LeaveTo,
        ev: KeyEvent,
        now: u64,
        ctx: &mut Ctx<'_>,
    ) -> Outcome {
        if crate::screens::is_ctrl(ev, 'c') {
            // Ctrl+C asks to quit wherever it is pressed; the question goes.
            self.leave = None;
            return Outcome::AskQuit(false);
        }
        match leave::answer(ev) {
            None => Outcome::Ignored,
            Some(false) => {
                self.leave = None;
                Outcome::Changed
            }
            Some(true) => {
                self.leave = None;
                self.leave_game(to, now, ctx)
            }
        }
    }

    /// Leaves the game on screen for `to`. A game whose mode stores what was played ends
    /// there (a forfeit) and is handed over as finished before it goes.
    fn leave_game(&mut self, to: LeaveTo, now: u64, ctx: &mut Ctx<'_>) -> Outcome {
        if let Some(s) = &mut self.session
            && s.played()
            && !s.is_over()
            && leave::stores(s.game().mode().kind)
        {
            s.forfeit(now, &ctx.settings.keys);
            self.record_finished(ctx);
        }
        match to {
            LeaveTo::MainMenu => {
                self.session = None;
                Outcome::Show(Screen::Menu)
            }
            LeaveTo::Restart => match self.session.as_ref().map(|s| s.setup.clone()) {
                Some(setup) => {
                    self.start(setup, now, ctx.settings, ctx.releases);
                    Outcome::Show(Screen::Game)
                }
                None => Outcome::Changed,
            },
        }
    }

    /// R: a fresh game of the same setup, its clock running at once.
    pub(super) fn retry(&mut self, now: u64, ctx: &Ctx<'_>) -> Outcome {
        let Some(setup) = self.session.as_ref().map(|s| s.setup.clone()) else {
            return Outcome::Show(Screen::ModeSelect);
        };
        self.start(setup, now, ctx.settings, ctx.releases);
        if let Some(s) = &mut self.session {
            s.skip_countdown();
        }
        Outcome::Show(Screen::Game)
    }
}
