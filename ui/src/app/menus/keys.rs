//! The menus' keys: each screen's handler turns a key into an action; the menus carry out
//! their own (cursors, the help and settings opened from the main menu, the quit question) and
//! hand the rest to the App as an [`Outcome`].

use super::Menus;
use crate::app::Screen;
use crate::keys::KeyEvent;
use crate::screens::help::HelpAction;
use crate::screens::menu::{self, MenuAction};
use crate::screens::mode_select::ModeAction;
use crate::screens::quit::{self, QuitAction};
use crate::screens::settings::SettingsAction;
use crate::settings::Settings;

/// What a key on a menu did, for the App to carry out.
#[derive(Debug)]
pub(in crate::app) enum Outcome {
    /// The key did nothing.
    Ignored,
    /// The menu changed (or the quit question opened).
    Changed,
    /// Show this screen.
    Show(Screen),
    /// A main menu entry another feature opens (never `Moved`, `Settings`, `Help` or
    /// `AskQuit`: the menus carry those out).
    Open(MenuAction),
    /// A key on the mode select.
    /// Boxed: a mode action carries a whole `Mode` (with its garbage settings).
    Modes(Box<ModesKey>),
    /// A setting changed on the settings screen (the settings passed in hold it).
    SettingsChanged,
    /// The settings screen was left for this screen.
    SettingsLeft(Screen),
    /// The settings screen's account keys entry.
    Keys,
    /// The settings screen's terminal doctor entry.
    Doctor,
}

/// What a key on the mode select did.
#[derive(Debug)]
pub(in crate::app) struct ModesKey {
    pub action: ModeAction,
    /// The custom options were entered (the snapshots to start from are listed afresh).
    pub options_opened: bool,
    /// The ruleset chosen changed (the settings passed in hold it now).
    pub ruleset_changed: bool,
}

impl Menus {
    /// A key on the menu screen `screen` (the main menu, the mode select, the help or the
    /// settings). `settings` are the player's: the settings screen and the mode select's
    /// ruleset change them.
    pub(in crate::app) fn handle_key(
        &mut self,
        screen: Screen,
        ev: KeyEvent,
        settings: &mut Settings,
    ) -> Outcome {
        match screen {
            Screen::ModeSelect => self.key_modes(ev, settings),
            Screen::Help => self.key_help(ev),
            Screen::Settings => self.key_settings(ev, settings),
            _ => self.key_menu(ev),
        }
    }

    /// A key while the quit question is open (`None` when it is not): "Stay" closes it.
    pub(in crate::app) fn key_quit(&mut self, ev: KeyEvent) -> Option<QuitAction> {
        let yes = self.quit_dialog.as_mut()?;
        let action = quit::handle(yes, ev);
        if action == QuitAction::Stay {
            self.quit_dialog = None;
        }
        Some(action)
    }

    fn asked_quit(&mut self, yes: bool) -> Outcome {
        self.ask_quit(yes);
        Outcome::Changed
    }

    fn key_menu(&mut self, ev: KeyEvent) -> Outcome {
        match menu::handle(&mut self.menu_cursor, ev) {
            MenuAction::None => Outcome::Ignored,
            MenuAction::Moved => Outcome::Changed,
            MenuAction::Settings => {
                self.open_settings(Screen::Menu);
                Outcome::Show(Screen::Settings)
            }
            MenuAction::Help => {
                self.open_help(Screen::Menu);
                Outcome::Show(Screen::Help)
            }
            MenuAction::AskQuit => self.asked_quit(true),
            action => Outcome::Open(action),
        }
    }

    fn key_modes(&mut self, ev: KeyEvent, settings: &mut Settings) -> Outcome {
        let options_were_open = self.modes.focus.is_some();
        let action = self.modes.handle(ev, settings);
        let options_opened = !options_were_open && self.modes.focus.is_some();
        // The ruleset chosen is remembered with the settings (stored on leaving the screen).
        let ruleset = self.modes.ruleset;
        let ruleset_changed = ruleset != settings.ruleset;
        if ruleset_changed {
            settings.ruleset = ruleset;
        }
        if matches!(action, ModeAction::AskQuit) {
            self.ask_quit(true);
        }
        Outcome::Modes(Box::new(ModesKey {
            action,
            options_opened,
            ruleset_changed,
        }))
    }

    fn key_help(&mut self, ev: KeyEvent) -> Outcome {
        match self.help.handle(ev) {
            HelpAction::None => Outcome::Ignored,
            HelpAction::Moved => Outcome::Changed,
            HelpAction::Back => Outcome::Show(self.help_back),
            HelpAction::AskQuit => self.asked_quit(self.help_back != Screen::Game),
        }
    }

    fn key_settings(&mut self, ev: KeyEvent, settings: &mut Settings) -> Outcome {
        match self.settings_ui.handle(ev, settings) {
            SettingsAction::None => Outcome::Ignored,
            SettingsAction::Moved => Outcome::Changed,
            SettingsAction::Changed => Outcome::SettingsChanged,
            SettingsAction::Back => Outcome::SettingsLeft(self.settings_back),
            SettingsAction::Account => Outcome::Keys,
            SettingsAction::Doctor => Outcome::Doctor,
            SettingsAction::AskQuit => self.asked_quit(self.settings_back != Screen::Game),
        }
    }
}
