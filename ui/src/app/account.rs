//! Accounts, leaderboards, the profile and replays: the App's side of the conversation with
//! the server (see [`minotty_protocol`]). One sub-screen shows at a time on `Screen::Account`;
//! a replay remembers the screen it was opened from and returns to it.

mod draw;
pub(super) use draw::Who;
mod keys;
mod open;
mod replay_clock;
mod responses;
#[cfg(test)]
mod tests;

use super::{App, Screen};
use crate::screens::account_board::BoardScreen;
use crate::screens::account_keys::KeysScreen;
use crate::screens::account_profile::ProfileScreen;
use crate::screens::account_replay::ReplayScreen;
use crate::screens::account_unreachable::Unreachable;
use crate::screens::account_welcome::Welcome;
use crate::screens::results::OnlineNote;
use crate::text::sanitize;
use crate::{Request, Response};
use keys::Outcome;
use minotty_protocol::{GameRecorded, Identity};

/// The account sub-screens.
#[derive(Debug)]
pub(super) enum Sub {
    Welcome(Welcome),
    /// The account cannot be reached right now (see `unreachable.rs`).
    Unreachable(Unreachable),
    Board(BoardScreen),
    Profile(ProfileScreen),
    Replay(Box<ReplayScreen>),
    Keys(KeysScreen),
}

/// The state of the account screens.
#[derive(Debug, Default)]
pub(super) struct AccountState {
    pub(super) sub: Option<Sub>,
    /// The screen a replay was opened from.
    under: Option<Sub>,
    /// The game whose replay was asked for.
    waiting_replay: Option<i64>,
    /// What the server said about storing a game, with the App's game number it belongs to.
    recorded: Option<(u64, GameRecorded)>,
    /// The settings changed since the settings screen was opened.
    settings_touched: bool,
    /// The player connected with an SSH key and chose to play as a guest this time: told how
    /// to get an account with that key, not to connect with one.
    chose_guest: bool,
}

impl AccountState {
    /// A passing note on the leaderboard, when it is the screen shown (why a ghost cannot be
    /// raced).
    pub(super) fn board_note(&mut self, note: String) {
        if let Some(Sub::Board(b)) = &mut self.sub {
            b.note = Some(note);
        }
    }

    /// Shows the "account unreachable" screen (see `unreachable.rs`).
    pub(super) fn show_unreachable(&mut self) {
        self.sub = Some(Sub::Unreachable(Unreachable::default()));
    }

    /// The "account unreachable" screen, when it is the one shown.
    pub(super) fn unreachable_screen(&mut self) -> Option<&mut Unreachable> {
        match &mut self.sub {
            Some(Sub::Unreachable(u)) => Some(u),
            _ => None,
        }
    }

    /// Whether the "account unreachable" screen is the one shown.
    pub(super) fn shows_unreachable(&self) -> bool {
        matches!(self.sub, Some(Sub::Unreachable(_)))
    }

    /// Shows the welcome screen, its name field holding `suggested`.
    pub(super) fn show_welcome(&mut self, suggested: &str) {
        self.sub = Some(Sub::Welcome(Welcome::new(suggested)));
    }

    /// A setting changed on the settings screen (stored when the player leaves it).
    pub(super) fn touch_settings(&mut self) {
        self.settings_touched = true;
    }

    /// Whether a setting changed since this was last asked.
    pub(super) fn take_settings_touched(&mut self) -> bool {
        std::mem::take(&mut self.settings_touched)
    }

    /// Closes the sub-screen shown.
    pub(super) fn close(&mut self) {
        self.sub = None;
    }
}

const NOT_REGISTERED: &str = "Passwords and keys belong to registered players. Connect with an \
     SSH key and choose a player name on the welcome screen to get an account.";
/// [`NOT_REGISTERED`] for a player who connected with a key.
const KEY_NOT_REGISTERED: &str = "Passwords and keys belong to registered players. You chose to \
     play as a guest this time: connect again with your key and choose a player name on the \
     welcome screen to get an account.";
const OFFLINE: &str = "This needs the minotty server: connect over SSH to use it.";
const UNREACHABLE: &str = "Your account cannot be reached right now. Press r on the main menu \
     to try again.";

impl App {
    /// Called once by `App::new`: a new key starts on the welcome screen.
    pub(super) fn account_start(&mut self) {
        if let Identity::NewKey { suggested } = &self.identity {
            self.account.show_welcome(suggested);
            self.screen = Screen::Account;
        }
        self.unreachable_start();
    }

    pub(super) fn open_leaderboards(&mut self) {
        self.account
            .open_leaderboards(&self.identity, &mut self.requests);
        self.screen = Screen::Account;
    }

    pub(super) fn open_profile(&mut self) {
        self.account
            .open_profile(&self.identity, &mut self.requests);
        self.screen = Screen::Account;
    }

    /// Opens the password and keys screen (from the settings).
    pub(super) fn open_keys(&mut self) {
        self.account.open_keys(&self.identity, &mut self.requests);
        self.screen = Screen::Account;
    }

    /// A setting changed on the settings screen.
    pub(super) fn settings_touched(&mut self) {
        self.account.touch_settings();
    }

    /// The settings screen was left: a registered player's changed settings are stored.
    pub(super) fn settings_left(&mut self) {
        if self.account.take_settings_touched() && self.identity.keeps_records() {
            self.request(Request::SaveSettings(Box::new(self.settings.clone())));
        }
    }

    /// Settings a registered player changed but has not stored yet (they quit, or the
    /// connection dropped, before leaving the settings screen): taken once, for the front end
    /// to store as the session ends. `None` when nothing is unsaved, and for guests and keys
    /// without an account (their settings last the session).
    pub fn take_unsaved_settings(&mut self) -> Option<crate::settings::Settings> {
        let touched = self.account.take_settings_touched();
        (touched && self.identity.keeps_records()).then(|| self.settings.clone())
    }

    /// What the results screen says about storing the game shown.
    pub(super) fn results_note(&self) -> OnlineNote<'_> {
        self.account.results_note(&self.identity, self.solo.games())
    }

    fn account_to_menu(&mut self) {
        self.account.leave();
        self.screen = Screen::Menu;
    }

    pub(super) fn key_account(&mut self, ev: crate::keys::KeyEvent, now: u64) -> bool {
        match self.account.handle_key(ev, now, &mut self.requests) {
            Outcome::Ignored => return false,
            Outcome::Changed => {}
            Outcome::Show(screen) => self.screen = screen,
            Outcome::Guest => {
                self.identity = Identity::Guest;
                self.screen = Screen::Menu;
            }
            Outcome::Unreachable(action) => return self.key_unreachable(action),
            Outcome::AskQuit => return self.ask_quit(true),
            Outcome::AskQuitFromKeys => {
                return self.ask_quit(self.menus.settings_back() != Screen::Game);
            }
            Outcome::Ghost(game) => {
                self.ask_ghost(minotty_protocol::GhostWanted::Game(game));
            }
            Outcome::TakeOver(setup) => self.start(*setup, now),
            Outcome::WatchMatch(id) => {
                self.open_match_replay(minotty_protocol::MatchRef::Id(id), Screen::Account);
            }
        }
        true
    }

    /// Advances a replay being watched; `true` when the screen changed.
    pub(super) fn tick_account(&mut self, now: u64) -> bool {
        if self.account.shows_unreachable() {
            return self.tick_unreachable(now);
        }
        self.account.tick_replay(now)
    }

    pub(super) fn account_wakeup(&self) -> Option<u64> {
        if self.account.shows_unreachable() {
            return self.unreachable.wakeup();
        }
        self.account.replay_wakeup()
    }

    /// Handles an account, leaderboard, profile or replay response; `true` when it was one
    /// (whether or not it changed anything on screen). What it changes of the player (who
    /// they are, their settings) is the App's to carry out.
    pub(super) fn account_response(&mut self, response: &Response, now: u64) -> bool {
        let ctx = responses::Ctx {
            here: self.screen == Screen::Account,
            results_shown: matches!(self.screen, Screen::Results | Screen::Game),
            keeps_records: self.identity.keeps_records(),
            game_over: self.solo.session().is_some_and(|s| s.game().is_over()),
            games: self.solo.games(),
        };
        match self.account.on_response(response, now, &ctx) {
            responses::Taken::No => false,
            responses::Taken::Yes => true,
            responses::Taken::SignedIn { welcome } => {
                let Response::SignedIn {
                    name,
                    has_password,
                    settings,
                } = response
                else {
                    return true;
                };
                self.unreachable.resolved();
                let name = sanitize(name);
                self.player = name.clone();
                self.identity = Identity::Registered {
                    name,
                    has_password: *has_password,
                };
                if let Some(s) = settings {
                    self.set_settings((**s).clone());
                }
                if welcome {
                    self.account_to_menu();
                }
                true
            }
            responses::Taken::PasswordSet => {
                if let Identity::Registered { has_password, .. } = &mut self.identity {
                    *has_password = true;
                }
                true
            }
        }
    }
}
