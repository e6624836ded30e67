//! The account screens' keys: the sub-screen shown turns a key into a change of the account's
//! own state and an [`Outcome`] the App carries out (the screen shown, the identity, the quit
//! question, the unreachable feature's tries).

use super::{AccountState, Sub};
use crate::Request;
use crate::app::Screen;
use crate::keys::KeyEvent;
use crate::screens::account_board::{BoardAction, BoardScreen};
use crate::screens::account_keys::KeysAction;
use crate::screens::account_profile::ProfileAction;
use crate::screens::account_replay::ReplayAction;
use crate::screens::account_unreachable::UnreachableAction;
use crate::screens::account_welcome::WelcomeAction;

/// What a key on an account screen asks of the App.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::app) enum Outcome {
    Ignored,
    Changed,
    /// Show this screen (the account screens were closed).
    Show(Screen),
    /// The player chose to play as a guest this time: they are a guest now, on the menu.
    Guest,
    /// A key on the "account unreachable" screen: the `unreachable` feature's.
    Unreachable(UnreachableAction),
    AskQuit,
    /// Race this stored game as a ghost (the `race` feature asks for it).
    Ghost(i64),
    /// The quit question from the password and keys screen (opened from the settings: it
    /// offers to quit unless the settings were opened from a game).
    AskQuitFromKeys,
    /// Watch stored versus match `id` (the match replay feature's); Esc comes back here.
    WatchMatch(i64),
    /// Play on from the replay shown: a live game of this setup (the account screens were
    /// closed).
    TakeOver(Box<crate::session::GameSetup>),
}

impl AccountState {
    pub(in crate::app) fn handle_key(
        &mut self,
        ev: KeyEvent,
        now: u64,
        requests: &mut Vec<Request>,
    ) -> Outcome {
        let Some(sub) = &mut self.sub else {
            return self.leave();
        };
        match sub {
            Sub::Welcome(w) => match w.handle(ev) {
                WelcomeAction::None => return Outcome::Ignored,
                WelcomeAction::Changed => {}
                WelcomeAction::Register(name) => requests.push(Request::Register { name }),
                WelcomeAction::Link { name, password } => {
                    requests.push(Request::LinkKey { name, password });
                }
                WelcomeAction::Guest => {
                    self.chose_guest = true;
                    self.leave();
                    return Outcome::Guest;
                }
                WelcomeAction::AskQuit => return Outcome::AskQuit,
            },
            Sub::Unreachable(u) => return Outcome::Unreachable(u.handle(ev)),
            Sub::Board(b) => match b.handle(ev) {
                BoardAction::None => return Outcome::Ignored,
                BoardAction::Moved => {}
                BoardAction::Fetch => fetch_board(b, requests),
                BoardAction::Replay(game) => self.ask_replay(game, requests),
                BoardAction::Ghost(game) => return Outcome::Ghost(game),
                BoardAction::Back => return self.leave(),
                BoardAction::AskQuit => return Outcome::AskQuit,
            },
            Sub::Profile(p) => match p.handle(ev) {
                ProfileAction::None => return Outcome::Ignored,
                ProfileAction::Moved => {}
                ProfileAction::Replay(game) => self.ask_replay(game, requests),
                ProfileAction::MatchReplay(id) => {
                    p.note = None;
                    return Outcome::WatchMatch(id);
                }
                ProfileAction::Back => return self.leave(),
                ProfileAction::AskQuit => return Outcome::AskQuit,
            },
            Sub::Replay(r) => match r.handle(ev, now) {
                ReplayAction::None => return Outcome::Ignored,
                ReplayAction::Changed => {}
                ReplayAction::Back => match self.under.take() {
                    Some(under) => self.sub = Some(under),
                    None => return self.leave(),
                },
                ReplayAction::AskQuit => return Outcome::AskQuit,
                ReplayAction::TakeOver => {
                    let Some(game) = r.take_over() else {
                        return Outcome::Ignored;
                    };
                    let setup = crate::session::GameSetup::taken_over(game, r.game);
                    self.leave();
                    return Outcome::TakeOver(Box::new(setup));
                }
            },
            Sub::Keys(k) => match k.handle(ev) {
                KeysAction::None => return Outcome::Ignored,
                KeysAction::Changed => {}
                KeysAction::SetPassword { password, current } => {
                    requests.push(Request::SetPassword { password, current });
                }
                KeysAction::RemoveKey(fingerprint) => {
                    requests.push(Request::RemoveKey { fingerprint });
                }
                KeysAction::UnlinkBrowsers => requests.push(Request::UnlinkBrowsers),
                KeysAction::Back => {
                    self.sub = None;
                    return Outcome::Show(Screen::Settings);
                }
                KeysAction::AskQuit => return Outcome::AskQuitFromKeys,
            },
        }
        Outcome::Changed
    }

    /// Closes the account screens (a replay's way back and any replay asked for included):
    /// the main menu shows.
    pub(in crate::app) fn leave(&mut self) -> Outcome {
        self.sub = None;
        self.under = None;
        self.waiting_replay = None;
        Outcome::Show(Screen::Menu)
    }

    fn ask_replay(&mut self, game: i64, requests: &mut Vec<Request>) {
        self.waiting_replay = Some(game);
        requests.push(Request::Replay { game });
    }
}

/// Asks for the page of the leaderboard `board` shows.
pub(in crate::app) fn fetch_board(board: &BoardScreen, requests: &mut Vec<Request>) {
    requests.push(Request::Leaderboard {
        board: board.board(),
        ruleset: board.ruleset(),
        period: board.period,
        offset: board.offset,
    });
}
