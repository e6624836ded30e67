//! Key routing: each screen's handler turns a key into an action; the App carries it out.

use super::{App, Screen};
use crate::keys::KeyEvent;
use crate::screens::game::{self, GameAction};
use crate::screens::help::{HelpAction, HelpScreen};
use crate::screens::leave::LeaveTo;
use crate::screens::menu::{self, MenuAction};
use crate::screens::mode_select::ModeAction;
use crate::screens::pause::{self, PauseAction};
use crate::screens::results::{self, ResultsAction};
use crate::screens::retry;
use crate::screens::settings::{SettingsAction, SettingsScreen};

impl App {
    pub(super) fn ask_quit(&mut self, yes: bool) -> bool {
        self.quit_dialog = Some(yes);
        true
    }

    pub(super) fn key_menu(&mut self, ev: KeyEvent) -> bool {
        if self.key_menu_retry(ev) {
            return true;
        }
        match menu::handle(&mut self.menu_cursor, ev) {
            MenuAction::None => return false,
            MenuAction::Moved => {}
            MenuAction::Play => self.open_modes(),
            MenuAction::Versus => self.open_versus(),
            MenuAction::Leaderboards => self.open_leaderboards(),
            MenuAction::Profile => self.open_profile(),
            MenuAction::Settings => self.open_settings(Screen::Menu),
            MenuAction::Help => self.open_help(Screen::Menu),
            MenuAction::Live => self.open_live(false),
            MenuAction::AskQuit => return self.ask_quit(true),
        }
        true
    }

    pub(super) fn key_modes(&mut self, ev: KeyEvent, now: u64) -> bool {
        let options_were_open = self.modes.focus.is_some();
        let action = self.modes.handle(ev, &self.settings);
        // Entering the custom options: the snapshots it can start from are listed afresh.
        if !options_were_open && self.modes.focus.is_some() {
            self.load_snapshots();
        }
        // The ruleset chosen is remembered with the settings (stored on leaving the screen).
        if self.modes.ruleset != self.settings.ruleset {
            self.settings.ruleset = self.modes.ruleset;
            self.settings_changed = true;
            self.settings_touched();
        }
        match action {
            ModeAction::None => return false,
            ModeAction::Changed => {}
            ModeAction::Start(setup) => {
                self.settings_left();
                self.start(setup, now);
            }
            ModeAction::Back => {
                self.settings_left();
                self.screen = Screen::Menu;
            }
            ModeAction::AskQuit => return self.ask_quit(true),
            ModeAction::DeleteSnapshot(id) => self.delete_snapshot(id),
        }
        true
    }

    pub(super) fn key_game(&mut self, ev: KeyEvent, now: u64) -> bool {
        let keys = &self.settings.keys;
        let Some(s) = &mut self.session else {
            self.screen = Screen::Menu;
            return true;
        };
        if s.is_paused() {
            if let Some(to) = self.leave {
                return self.key_leave(to, ev, now);
            }
            let kind = s.game().mode().kind;
            if retry::is_retry(ev, keys) {
                if retry::at_once(kind) {
                    self.retry(now);
                } else {
                    self.ask_leave(LeaveTo::Restart, now);
                }
                return true;
            }
            match pause::handle(&mut self.pause_cursor, ev) {
                PauseAction::None => return false,
                PauseAction::Moved => {}
                // The game cannot be shown: it stays paused (the pause menu shows once the
                // terminal is big enough).
                PauseAction::Resume if !self.fits => return false,
                PauseAction::Resume => s.resume(now),
                PauseAction::Restart => self.ask_leave(LeaveTo::Restart, now),
                PauseAction::Settings => self.open_settings(Screen::Game),
                PauseAction::Help => self.open_help(Screen::Game),
                PauseAction::Forfeit => s.forfeit(now, keys),
                PauseAction::MainMenu => self.ask_leave(LeaveTo::MainMenu, now),
                PauseAction::AskQuit => return self.ask_quit(false),
            }
            return true;
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
            return true;
        }
        // R: a fresh game at once, from play or the final board (no dialog, so no clock runs
        // behind one).
        let kind = s.game().mode().kind;
        if retry::is_retry(ev, keys) && (retry::at_once(kind) || s.is_over()) {
            self.retry(now);
            return true;
        }
        match game::handle(s, ev, now, &self.settings) {
            GameAction::None => return false,
            GameAction::Changed => {}
            GameAction::Pause if s.pause_needs_confirm() => s.ask_pause(),
            GameAction::Pause => {
                s.pause(now, keys);
                self.pause_cursor = 0;
            }
            GameAction::Forfeit => s.forfeit(now, keys),
            // A game that a pause would unrank runs on behind the quit question.
            GameAction::AskQuit if s.pause_needs_confirm() => {
                s.cancel_pause();
                return self.ask_quit(false);
            }
            GameAction::AskQuit => {
                s.pause(now, keys);
                self.pause_cursor = 0;
                return self.ask_quit(false);
            }
            GameAction::Results => self.show_results(),
            GameAction::Bot => {
                s.toggle_bot(now, keys);
            }
            GameAction::Snapshot => self.take_snapshot(now),
        }
        true
    }

    pub(super) fn key_results(&mut self, ev: KeyEvent, now: u64) -> bool {
        match results::handle(&mut self.results_cursor, ev, &self.settings.keys) {
            ResultsAction::None => return false,
            ResultsAction::Moved => {}
            ResultsAction::Retry => self.retry(now),
            ResultsAction::Modes => self.screen = Screen::ModeSelect,
            ResultsAction::MainMenu => self.screen = Screen::Menu,
            ResultsAction::AskQuit => return self.ask_quit(true),
        }
        true
    }

    pub(super) fn key_help(&mut self, ev: KeyEvent) -> bool {
        match self.help.handle(ev) {
            HelpAction::None => return false,
            HelpAction::Moved => {}
            HelpAction::Back => self.screen = self.help_back,
            HelpAction::AskQuit => return self.ask_quit(self.help_back != Screen::Game),
        }
        true
    }

    pub(super) fn key_settings(&mut self, ev: KeyEvent) -> bool {
        match self.settings_ui.handle(ev, &mut self.settings) {
            SettingsAction::None => return false,
            SettingsAction::Moved => {}
            SettingsAction::Changed => {
                self.settings_changed = true;
                self.settings_touched();
                if let Some(s) = &mut self.session {
                    s.apply_settings(&self.settings);
                }
            }
            SettingsAction::Back => {
                self.settings_left();
                self.screen = self.settings_back;
            }
            SettingsAction::Account => self.open_keys(),
            SettingsAction::Doctor => self.open_doctor(Some(Screen::Settings)),
            SettingsAction::AskQuit => return self.ask_quit(self.settings_back != Screen::Game),
        }
        true
    }

    pub(super) fn open_settings(&mut self, back: Screen) {
        self.settings_back = back;
        self.settings_ui = SettingsScreen::default();
        self.screen = Screen::Settings;
    }

    pub(super) fn open_help(&mut self, back: Screen) {
        self.help_back = back;
        self.help = HelpScreen::default();
        self.screen = Screen::Help;
    }
}
