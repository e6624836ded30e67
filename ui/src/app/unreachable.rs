//! A login whose account cannot be reached right now ([`Identity::Unreachable`]): the App
//! shows the "account unreachable" screen and asks the server again
//! ([`Request::RetryAccount`]) every [`RETRY_EVERY_MS`] while the player waits, and at once on
//! `r`; a player who chose to play as a guest for now tries again with `r` on the main menu.
//! The answer signs them in ([`Response::SignedIn`], handled with the account's responses),
//! opens the welcome screen for a key that turns out to be new ([`Response::AccountNew`]), or
//! says it is still unreachable ([`Response::AccountUnreachable`]).

use super::{App, Screen};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::account_unreachable::{
    MENU_NOTICE, MENU_TRYING, RETRY_EVERY_MS, UnreachableAction,
};
use crate::{Request, Response};
use minotty_protocol::Identity;

/// The tries of an unreachable account.
#[derive(Debug, Default)]
pub(super) struct Retry {
    /// When the next automatic try is due (only while the player waits on the screen).
    next_at: Option<u64>,
    /// A try is out and not answered yet.
    trying: bool,
    /// When the last try was sent.
    sent_at: u64,
}

impl App {
    /// Called by `account_start`: an unreachable account starts on its screen, the first
    /// automatic try due [`RETRY_EVERY_MS`] later.
    pub(super) fn unreachable_start(&mut self) {
        if matches!(self.identity, Identity::Unreachable { .. }) {
            self.account.show_unreachable();
            self.screen = Screen::Account;
            self.unreachable.next_at = Some(self.now.saturating_add(RETRY_EVERY_MS));
        }
    }

    /// The screen is open and the player waits on it.
    fn waiting_on_screen(&self) -> bool {
        self.screen == Screen::Account && self.account.shows_unreachable()
    }

    /// Asks the server to look the account up again: at most one try out at a time (a try not
    /// answered within [`RETRY_EVERY_MS`] counts as lost), however often `r` is pressed.
    fn retry_account(&mut self) {
        let retry = &self.unreachable;
        if retry.trying && self.now < retry.sent_at.saturating_add(RETRY_EVERY_MS) {
            return;
        }
        self.request(Request::RetryAccount);
        self.unreachable.trying = true;
        self.unreachable.sent_at = self.now;
        // While the player waits, the next try follows whatever this one answers (or if it
        // never does).
        self.unreachable.next_at = self
            .waiting_on_screen()
            .then(|| self.now.saturating_add(RETRY_EVERY_MS));
        if let Some(u) = self.account.unreachable_screen() {
            u.tries += 1;
            u.trying = true;
        }
    }

    /// A key on the screen.
    pub(super) fn key_unreachable(&mut self, action: UnreachableAction) -> bool {
        match action {
            UnreachableAction::None => return false,
            UnreachableAction::Moved => {}
            UnreachableAction::Retry => self.retry_account(),
            UnreachableAction::Guest => {
                self.unreachable.next_at = None;
                self.account.close();
                self.screen = Screen::Menu;
            }
            UnreachableAction::AskQuit => return self.ask_quit(true),
        }
        true
    }

    /// `r` on the main menu while the account is unreachable: try again. `true` when the key
    /// was taken.
    pub(super) fn key_menu_retry(&mut self, ev: KeyEvent) -> bool {
        let press = ev.kind != KeyKind::Release && !ev.mods.ctrl && !ev.mods.alt;
        if !press
            || !matches!(ev.key, Key::Char('r' | 'R'))
            || !matches!(self.identity, Identity::Unreachable { .. })
        {
            return false;
        }
        self.retry_account();
        true
    }

    /// The main menu's line instead of the greeting, while the account is unreachable.
    pub(super) fn menu_notice(&self) -> Option<&'static str> {
        matches!(self.identity, Identity::Unreachable { .. }).then_some(
            if self.unreachable.trying {
                MENU_TRYING
            } else {
                MENU_NOTICE
            },
        )
    }

    /// Makes the automatic try when it is due; `true` when the screen changed.
    pub(super) fn tick_unreachable(&mut self, now: u64) -> bool {
        let due = self.unreachable.next_at.is_some_and(|at| now >= at);
        if due && self.waiting_on_screen() {
            self.retry_account();
            return true;
        }
        false
    }

    /// When the next automatic try is due.
    pub(super) fn unreachable_wakeup(&self) -> Option<u64> {
        self.unreachable.next_at
    }

    /// Handles the answers to [`Request::RetryAccount`]; `true` when it was one.
    /// ([`Response::SignedIn`] is the account's: see `account.rs`, which calls
    /// [`App::unreachable_resolved`].)
    pub(super) fn unreachable_response(&mut self, response: &Response) -> bool {
        match response {
            Response::AccountUnreachable => {
                self.unreachable.trying = false;
                if let Some(u) = self.account.unreachable_screen() {
                    u.trying = false;
                }
                true
            }
            Response::AccountNew => {
                let Identity::Unreachable { suggested } = &self.identity else {
                    return true;
                };
                let suggested = suggested.clone();
                self.unreachable_resolved();
                self.identity = Identity::NewKey {
                    suggested: suggested.clone(),
                };
                // The welcome screen where tries are made (the menu, this screen); a player who
                // started a game since stays a new key for the session without it, like one
                // who leaves the welcome screen.
                if matches!(self.screen, Screen::Menu | Screen::Account) {
                    self.account.show_welcome(&suggested);
                    self.screen = Screen::Account;
                }
                true
            }
            _ => false,
        }
    }

    /// The account was reached (signed in, or the key is new): no more tries.
    pub(super) fn unreachable_resolved(&mut self) {
        self.unreachable = Retry::default();
    }
}
