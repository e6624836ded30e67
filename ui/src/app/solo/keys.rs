//! The keys of the game screen (play, the pause menu, "Pausing ends ranking. Pause?") and of
//! the results: each screen's handler turns a key into an action; the solo game carries out
//! its own and hands the rest to the App as an [`Outcome`].

use super::{Ctx, Outcome, RESULTS_GUARD_MS, Solo};
use crate::app::Screen;
use crate::keys::{Key, KeyEvent};
use crate::screens::game::{self, GameAction};
use crate::screens::leave::LeaveTo;
use crate::screens::pause::{self, PauseAction};
use crate::screens::results::{self, ResultsAction};
use crate::screens::retry;
use crate::session::{BLINDFOLD_OFF, BLINDFOLD_ON, LOADED, TAKEN_BACK};

/// What Ctrl+E shows once it kept the game's seed.
pub const SEED_STORED: &str = "Seed kept: New game, Custom deals these pieces";

impl Solo {
    /// A key on the game screen (`results` false) or the results.
    pub(in crate::app) fn handle_key(
        &mut self,
        results: bool,
        ev: KeyEvent,
        now: u64,
        ctx: &mut Ctx<'_>,
    ) -> Outcome {
        if results {
            self.key_results(ev, now, ctx)
        } else {
            self.key_game(ev, now, ctx)
        }
    }

    fn key_game(&mut self, ev: KeyEvent, now: u64, ctx: &mut Ctx<'_>) -> Outcome {
        let keys = &ctx.settings.keys;
        let Some(s) = &mut self.session else {
            return Outcome::Show(Screen::Menu);
        };
        if s.is_paused() {
            if let Some(to) = self.leave {
                return self.key_leave(to, ev, now, ctx);
            }
            let kind = s.game().mode().kind;
            if retry::is_retry(ev, keys) {
                return if retry::at_once(kind) {
                    self.retry(now, ctx)
                } else {
                    self.ask_leave(LeaveTo::Restart, now, ctx)
                };
            }
            return match pause::handle(&mut self.pause_cursor, ev) {
                PauseAction::None => Outcome::Ignored,
                PauseAction::Moved => Outcome::Changed,
                // The game cannot be shown: it stays paused (the pause menu shows once the
                // terminal is big enough).
                PauseAction::Resume if !ctx.fits => Outcome::Ignored,
                PauseAction::Resume => {
                    s.resume(now);
                    Outcome::Changed
                }
                PauseAction::Restart => self.ask_leave(LeaveTo::Restart, now, ctx),
                PauseAction::Settings => Outcome::Settings,
                PauseAction::Help => Outcome::Help,
                PauseAction::Forfeit => {
                    s.forfeit(now, keys);
                    Outcome::Changed
                }
                PauseAction::MainMenu => self.ask_leave(LeaveTo::MainMenu, now, ctx),
                PauseAction::AskQuit => Outcome::AskQuit(false),
            };
        }
        // "Pausing ends ranking. Pause?" (timed modes): y pauses, n plays on, other keys play.
        if s.pause_prompt()
            && let Some(yes) = pause::prompt_answer(ev)
        {
            if yes {
                s.pause(now, keys);
                self.pause_cursor = 0;
            } else {
                s.cancel_pause();
            }
            return Outcome::Changed;
        }
        // R: a fresh game at once, from play or the final board (no dialog, so no clock runs
        // behind one).
        let kind = s.game().mode().kind;
        if retry::is_retry(ev, keys) && (retry::at_once(kind) || s.is_over()) {
            return self.retry(now, ctx);
        }
        match game::handle(s, ev, now, ctx.settings) {
            GameAction::None => Outcome::Ignored,
            GameAction::Changed => Outcome::Changed,
            GameAction::Part(damage) => Outcome::Part(damage),
            GameAction::Pause if s.pause_needs_confirm() => {
                s.ask_pause();
                Outcome::Changed
            }
            GameAction::Pause => {
                s.pause(now, keys);
                self.pause_cursor = 0;
                Outcome::Changed
            }
            GameAction::Forfeit => {
                s.forfeit(now, keys);
                Outcome::Changed
            }
            // A game that a pause would unrank runs on behind the quit question.
            GameAction::AskQuit if s.pause_needs_confirm() => {
                s.cancel_pause();
                Outcome::AskQuit(false)
            }
            GameAction::AskQuit => {
                s.pause(now, keys);
                self.pause_cursor = 0;
                Outcome::AskQuit(false)
            }
            GameAction::Results => {
                self.open_results(now);
                Outcome::Show(Screen::Results)
            }
            GameAction::Bot => {
                s.toggle_bot(now, keys);
                Outcome::Changed
            }
            GameAction::Snapshot => {
                s.keep_savepoint();
                Outcome::Snapshot
            }
            GameAction::Undo => Outcome::Notice(match s.undo(now, keys) {
                Ok(()) => TAKEN_BACK,
                Err(why) => why.text(),
            }),
            GameAction::LoadSavepoint => Outcome::Notice(match s.load_savepoint(now, keys) {
                Ok(()) => LOADED,
                Err(why) => why.text(),
            }),
            GameAction::Blindfold => Outcome::Notice(if s.toggle_blindfold() {
                BLINDFOLD_ON
            } else {
                BLINDFOLD_OFF
            }),
            GameAction::StoreSeed => {
                ctx.modes.custom.seed = Some(s.game().seed());
                Outcome::Notice(SEED_STORED)
            }
        }
    }

    fn key_results(&mut self, ev: KeyEvent, now: u64, ctx: &mut Ctx<'_>) -> Outcome {
        // The Enter that left the final board, pressed twice, held or repeated, must not
        // confirm the results' first entry (Retry): Enter counts only after a moment here.
        if ev.key == Key::Enter && now < self.results_at.saturating_add(RESULTS_GUARD_MS) {
            return Outcome::Ignored;
        }
        match results::handle(&mut self.results_cursor, ev, &ctx.settings.keys) {
            ResultsAction::None => Outcome::Ignored,
            ResultsAction::Moved => Outcome::Changed,
            ResultsAction::Retry => self.retry(now, ctx),
            ResultsAction::Modes => Outcome::Show(Screen::ModeSelect),
            ResultsAction::MainMenu => Outcome::Show(Screen::Menu),
            ResultsAction::AskQuit => Outcome::AskQuit(true),
        }
    }
}
