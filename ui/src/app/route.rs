//! Key routing: each screen's handler turns a key into an action; the App carries it out.

use super::{App, Screen};
use crate::keys::KeyEvent;
use crate::screens::help::{HelpAction, HelpScreen};
use crate::screens::menu::{self, MenuAction};
use crate::screens::mode_select::ModeAction;
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
                self.solo.apply_settings(&self.settings);
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
