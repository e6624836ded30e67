//! Key routing for the menus: the menus turn a key into an [`menus::Outcome`] (see
//! `menus/keys.rs`); the App carries out what concerns other features.

use super::{App, Screen, menus};
use crate::keys::KeyEvent;
use crate::screens::menu::MenuAction;
use crate::screens::mode_select::ModeAction;
use minotty_protocol::GhostWanted;

impl App {
    pub(super) fn ask_quit(&mut self, yes: bool) -> bool {
        self.menus.ask_quit(yes);
        true
    }

    /// A key on a menu screen (the main menu, the mode select, the help, the settings).
    pub(super) fn key_menus(&mut self, ev: KeyEvent, now: u64) -> bool {
        if self.screen == Screen::Menu && self.key_menu_retry(ev) {
            return true;
        }
        match self.menus.handle_key(self.screen, ev, &mut self.settings) {
            menus::Outcome::Ignored => return false,
            menus::Outcome::Changed => {}
            menus::Outcome::Show(screen) => self.screen = screen,
            menus::Outcome::Open(action) => self.open_from_menu(action),
            menus::Outcome::Modes(key) => return self.carry_out_modes(*key, now),
            menus::Outcome::SettingsChanged => {
                self.settings_changed = true;
                self.settings_touched();
                self.solo.apply_settings(&self.settings);
            }
            menus::Outcome::SettingsLeft(back) => {
                self.settings_left();
                self.screen = back;
            }
            menus::Outcome::Keys => self.open_keys(),
            menus::Outcome::Doctor => self.open_doctor(Some(Screen::Settings)),
        }
        true
    }

    /// A main menu entry that another feature opens.
    fn open_from_menu(&mut self, action: MenuAction) {
        match action {
            MenuAction::Play => self.open_modes(),
            MenuAction::Versus => self.open_versus(),
            MenuAction::Leaderboards => self.open_leaderboards(),
            MenuAction::Profile => self.open_profile(),
            MenuAction::Live => self.open_live(false),
            // The menus carry these out themselves.
            MenuAction::None
            | MenuAction::Moved
            | MenuAction::Settings
            | MenuAction::Help
            | MenuAction::AskQuit => {}
        }
    }

    /// What a key on the mode select asks of other features.
    fn carry_out_modes(&mut self, key: menus::ModesKey, now: u64) -> bool {
        // Entering the custom options: the snapshots it can start from are listed afresh.
        if key.options_opened {
            self.load_snapshots();
        }
        // The ruleset chosen is remembered with the settings (stored on leaving the screen).
        if key.ruleset_changed {
            self.settings_changed = true;
            self.settings_touched();
        }
        match key.action {
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
            // The menus opened the quit question.
            ModeAction::AskQuit => {}
            ModeAction::DeleteSnapshot(id) => self.delete_snapshot(id),
            ModeAction::Ghost(kind) => {
                let ruleset = self.menus.modes().ruleset_for(kind);
                self.ask_ghost(GhostWanted::Best {
                    mode: kind,
                    ruleset,
                });
            }
            ModeAction::GhostOf(kind, name) => {
                let ruleset = self.menus.modes().ruleset_for(kind);
                self.ask_ghost(GhostWanted::Player {
                    name,
                    mode: kind,
                    ruleset,
                });
            }
        }
        true
    }

    pub(super) fn open_settings(&mut self, back: Screen) {
        self.menus.open_settings(back);
        self.screen = Screen::Settings;
    }

    pub(super) fn open_help(&mut self, back: Screen) {
        self.menus.open_help(back);
        self.screen = Screen::Help;
    }
}
