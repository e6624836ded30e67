//! The menus: the main menu, the mode select (with the player's bests and puzzle progress),
//! the help, the settings screen and the quit question. The App routes their keys, the
//! responses about bests and puzzle progress, and their frames here; what a key asks of other
//! features (start a game, open the leaderboards, store the settings) goes back to the App as
//! an [`Outcome`] (see `route.rs`). Keys are in `menus/keys.rs`.

mod keys;
#[cfg(test)]
mod tests;

pub(super) use keys::{ModesKey, Outcome};

use minotty_engine::RulesetId;
use minotty_protocol::ModeBest;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::Screen;
use crate::screens::account_form::clean;
use crate::screens::help::{HelpScreen, HelpView};
use crate::screens::menu::MenuView;
use crate::screens::mode_select::{ModeSelect, ModeSelectView};
use crate::screens::quit;
use crate::screens::settings::{SettingsScreen, SettingsView};
use crate::settings::Settings;
use crate::theme::Theme;
use crate::{Request, Response};

/// The menus' own state.
#[derive(Debug)]
pub(super) struct Menus {
    menu_cursor: usize,
    modes: ModeSelect,
    /// [`Request::PuzzleProgress`] was sent.
    puzzle_asked: bool,
    help: HelpScreen,
    /// Where the help goes back to.
    help_back: Screen,
    settings_ui: SettingsScreen,
    /// Where the settings go back to.
    settings_back: Screen,
    /// The quit confirmation, when open: whether "Quit" is selected.
    quit_dialog: Option<bool>,
}

/// What the menus show besides their own state.
pub(super) struct View<'a> {
    pub settings: &'a Settings,
    pub player: &'a str,
    /// The main menu's notice (an unreachable account).
    pub notice: Option<&'static str>,
    pub guest: bool,
    /// Whether the terminal reports key releases (the help says how keys behave).
    pub releases: bool,
    pub theme: Theme,
}

impl Menus {
    pub(super) fn new(ruleset: RulesetId, descent_unlocked: bool) -> Menus {
        Menus {
            menu_cursor: 0,
            modes: ModeSelect {
                ruleset,
                descent_unlocked,
                ..ModeSelect::default()
            },
            puzzle_asked: false,
            help: HelpScreen::default(),
            help_back: Screen::Menu,
            settings_ui: SettingsScreen::default(),
            settings_back: Screen::Menu,
            quit_dialog: None,
        }
    }

    /// The mode select (puzzle progress, Descent unlocked).
    pub(super) fn modes(&self) -> &ModeSelect {
        &self.modes
    }

    /// The mode select, for the features that fill it (snapshots, the solo game's puzzle
    /// progress).
    pub(super) fn modes_mut(&mut self) -> &mut ModeSelect {
        &mut self.modes
    }

    /// The chosen ruleset changed elsewhere (stored settings loaded).
    pub(super) fn set_ruleset(&mut self, ruleset: RulesetId) {
        self.modes.ruleset = ruleset;
    }

    /// Unlocks (or locks) Descent; returns whether that changed anything.
    pub(super) fn set_descent_unlocked(&mut self, unlocked: bool) -> bool {
        let changed = self.modes.descent_unlocked != unlocked;
        self.modes.descent_unlocked = unlocked;
        changed
    }

    /// The mode select opens: whether the puzzle progress is to be asked for (the first time).
    pub(super) fn ask_puzzle(&mut self) -> bool {
        !std::mem::replace(&mut self.puzzle_asked, true)
    }

    /// Opens the help (the App shows it), going back to `back`.
    pub(super) fn open_help(&mut self, back: Screen) {
        self.help_back = back;
        self.help = HelpScreen::default();
    }

    /// Opens the settings (the App shows them), going back to `back`.
    pub(super) fn open_settings(&mut self, back: Screen) {
        self.settings_back = back;
        self.settings_ui = SettingsScreen::default();
    }

    /// Where the settings go back to.
    pub(super) fn settings_back(&self) -> Screen {
        self.settings_back
    }

    /// Opens the quit question, "Quit" selected or not.
    pub(super) fn ask_quit(&mut self, yes: bool) {
        self.quit_dialog = Some(yes);
    }

    /// Whether the quit question is open.
    pub(super) fn quit_open(&self) -> bool {
        self.quit_dialog.is_some()
    }

    /// Whether a menu is taking typed text or a key to bind (the friend's-ghost prompt, a
    /// key being captured for Controls), so that `?` is that, not the keys box.
    pub(super) fn typing(&self) -> bool {
        self.modes.ghost_prompt.is_some()
            || matches!(self.settings_ui.remap, Some((_, true)))
            || self.settings_ui.confirm.is_some()
    }

    pub(super) fn close_quit(&mut self) {
        self.quit_dialog = None;
    }

    /// Takes the answers about bests and puzzle progress (`None`: taken, redraw), and after
    /// signing in reports the progress made before and asks for the account's; hands every
    /// other response back.
    pub(super) fn on_response(
        &mut self,
        response: Response,
        requests: &mut Vec<Request>,
    ) -> Option<Response> {
        match response {
            Response::PuzzleProgress { cleared, completed } => {
                let cleared = if completed {
                    minotty_engine::puzzle::STAGE_COUNT
                } else {
                    cleared
                };
                self.modes.note_puzzle_cleared(cleared);
                None
            }
            Response::Bests(bests) => {
                self.modes.bests = bests
                    .into_iter()
                    .map(|b| ModeBest {
                        best: clean(&b.best),
                        ..b
                    })
                    .collect();
                None
            }
            Response::SignedIn { .. } => {
                // Progress made before signing in belongs to the account now, and an account
                // the key was linked to may have more.
                if self.modes.puzzle_cleared > 0 {
                    let stage = self.modes.puzzle_cleared;
                    requests.push(Request::PuzzleCleared { stage });
                }
                if self.puzzle_asked {
                    requests.push(Request::PuzzleProgress);
                }
                Some(response)
            }
            response => Some(response),
        }
    }

    /// Draws the menu screen `screen` (the main menu for any screen not a menu's).
    pub(super) fn draw(&self, screen: Screen, area: Rect, buf: &mut Buffer, view: View<'_>) {
        let theme = view.theme;
        match screen {
            Screen::ModeSelect => ModeSelectView {
                state: &self.modes,
                settings: view.settings,
                theme,
            }
            .render(area, buf),
            Screen::Help => HelpView {
                state: &self.help,
                keys: &view.settings.keys,
                releases: view.releases,
                theme,
            }
            .render(area, buf),
            Screen::Settings => SettingsView {
                state: &self.settings_ui,
                settings: view.settings,
                theme,
            }
            .render(area, buf),
            _ => MenuView {
                cursor: self.menu_cursor,
                player: view.player,
                notice: view.notice,
                guest: view.guest,
                theme,
            }
            .render(area, buf),
        }
    }

    /// Draws the quit question over the screen, when open.
    pub(super) fn draw_quit(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        if let Some(yes) = self.quit_dialog {
            quit::draw(buf, area, yes, theme);
        }
    }
}
