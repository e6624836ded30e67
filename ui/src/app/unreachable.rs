//! A login whose account cannot be reached right now ([`Identity::Unreachable`]): the App
//! shows the "account unreachable" screen and asks the server again
//! ([`Request::RetryAccount`]) every [`RETRY_EVERY_MS`] while the player waits, and at once on
//! `r`; a player who chose to play as a guest for now tries again with `r` on the main menu.
//! The answer signs them in ([`Response::SignedIn`], handled with the account's responses),
//! opens the welcome screen for a key that turns out to be new ([`Response::AccountNew`]), or
//! says it is still unreachable ([`Response::AccountUnreachable`]).
//!
//! The tries are this feature's own state ([`Retry`]); the App routes the screen's keys, the
//! main menu's `r`, the ticks and the answers here. What the tries need of the App (who the
//! player is, the account's screen that counts them, the requests queue) comes in as a
//! [`Ctx`]; what they ask of the App goes back as an [`Outcome`] or a [`Taken`].

use super::{App, Screen};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::account_unreachable::{
    MENU_NOTICE, MENU_TRYING, RETRY_EVERY_MS, Unreachable, UnreachableAction,
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

/// What the tries need of the rest of the App.
pub(super) struct Ctx<'a> {
    /// Who the player is (tries are made only for an unreachable account).
    pub identity: &'a Identity,
    /// The account's "account unreachable" screen, when it is the account's sub-screen: it
    /// shows the tries.
    pub screen: Option<&'a mut Unreachable>,
    /// That screen shows and the player waits on it (automatic tries are made only then).
    pub waiting: bool,
    pub requests: &'a mut Vec<Request>,
}

/// What a key on the "account unreachable" screen asks of the App.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    Ignored,
    Changed,
    /// The player plays as a guest for now: the screen closes and the main menu shows.
    Guest,
    /// Ask whether to quit, "Quit" selected.
    AskQuit,
}

/// Whether an answer was the tries', and what the App is to carry out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Taken {
    No,
    Yes,
    /// The key turned out to be new: the player becomes a new key, this name suggested (the
    /// welcome screen shows where tries are made: the menu, the unreachable screen).
    NewKey(String),
}

impl Retry {
    /// An unreachable account starts on its screen (`true`: the App shows it), the first
    /// automatic try due [`RETRY_EVERY_MS`] after `now`.
    pub(super) fn start(&mut self, identity: &Identity, now: u64) -> bool {
        if !matches!(identity, Identity::Unreachable { .. }) {
            return false;
        }
        self.next_at = Some(now.saturating_add(RETRY_EVERY_MS));
        true
    }

    /// Asks the server to look the account up again: at most one try out at a time (a try not
    /// answered within [`RETRY_EVERY_MS`] counts as lost), however often `r` is pressed.
    fn retry(&mut self, now: u64, ctx: &mut Ctx<'_>) {
        if self.trying && now < self.sent_at.saturating_add(RETRY_EVERY_MS) {
            return;
        }
        ctx.requests.push(Request::RetryAccount);
        self.trying = true;
        self.sent_at = now;
        // While the player waits, the next try follows whatever this one answers (or if it
        // never does).
        self.next_at = ctx.waiting.then(|| now.saturating_add(RETRY_EVERY_MS));
        if let Some(u) = ctx.screen.as_deref_mut() {
            u.tries += 1;
            u.trying = true;
        }
    }

    /// A key on the screen.
    pub(super) fn handle_key(
        &mut self,
        action: UnreachableAction,
        now: u64,
        ctx: &mut Ctx<'_>,
    ) -> Outcome {
        match action {
            UnreachableAction::None => Outcome::Ignored,
            UnreachableAction::Moved => Outcome::Changed,
            UnreachableAction::Retry => {
                self.retry(now, ctx);
                Outcome::Changed
            }
            UnreachableAction::Guest => {
                self.next_at = None;
                Outcome::Guest
            }
            UnreachableAction::AskQuit => Outcome::AskQuit,
        }
    }

    /// `r` on the main menu while the account is unreachable: try again. `true` when the key
    /// was taken.
    pub(super) fn key_menu(&mut self, ev: KeyEvent, now: u64, ctx: &mut Ctx<'_>) -> bool {
        let press = ev.kind != KeyKind::Release && !ev.mods.ctrl && !ev.mods.alt;
        if !press
            || !matches!(ev.key, Key::Char('r' | 'R'))
            || !matches!(ctx.identity, Identity::Unreachable { .. })
        {
            return false;
        }
        self.retry(now, ctx);
        true
    }

    /// The main menu's line instead of the greeting, while the account is unreachable.
    pub(super) fn menu_notice(&self, identity: &Identity) -> Option<&'static str> {
        matches!(identity, Identity::Unreachable { .. }).then_some(if self.trying {
            MENU_TRYING
        } else {
            MENU_NOTICE
        })
    }

    /// Makes the automatic try when it is due; `true` when the screen changed.
    pub(super) fn tick(&mut self, now: u64, ctx: &mut Ctx<'_>) -> bool {
        let due = self.next_at.is_some_and(|at| now >= at);
        if due && ctx.waiting {
            self.retry(now, ctx);
            return true;
        }
        false
    }

    /// When the next automatic try is due.
    pub(super) fn wakeup(&self) -> Option<u64> {
        self.next_at
    }

    /// Takes the answers to [`Request::RetryAccount`]. ([`Response::SignedIn`] is the
    /// account's: see `account.rs`, which calls [`Retry::resolved`].)
    pub(super) fn on_response(&mut self, response: &Response, ctx: &mut Ctx<'_>) -> Taken {
        match response {
            Response::AccountUnreachable => {
                self.trying = false;
                if let Some(u) = ctx.screen.as_deref_mut() {
                    u.trying = false;
                }
                Taken::Yes
            }
            Response::AccountNew => {
                let Identity::Unreachable { suggested } = ctx.identity else {
                    return Taken::Yes;
                };
                self.resolved();
                Taken::NewKey(suggested.clone())
            }
            _ => Taken::No,
        }
    }

    /// The account was reached (signed in, or the key is new): no more tries.
    pub(super) fn resolved(&mut self) {
        *self = Retry::default();
    }
}

impl App {
    /// Called by `account_start`: an unreachable account starts on its screen.
    pub(super) fn unreachable_start(&mut self) {
        if self.unreachable.start(&self.identity, self.now) {
            self.account.show_unreachable();
            self.screen = Screen::Account;
        }
    }

    /// The tries, and what they need of the rest of the App.
    fn split_unreachable(&mut self) -> (&mut Retry, Ctx<'_>) {
        let waiting = self.screen == Screen::Account && self.account.shows_unreachable();
        let ctx = Ctx {
            identity: &self.identity,
            screen: self.account.unreachable_screen(),
            waiting,
            requests: &mut self.requests,
        };
        (&mut self.unreachable, ctx)
    }

    /// A key on the screen, carried out.
    pub(super) fn key_unreachable(&mut self, action: UnreachableAction) -> bool {
        let now = self.now;
        let (retry, mut ctx) = self.split_unreachable();
        match retry.handle_key(action, now, &mut ctx) {
            Outcome::Ignored => return false,
            Outcome::Changed => {}
            Outcome::Guest => {
                self.account.close();
                self.screen = Screen::Menu;
            }
            Outcome::AskQuit => return self.ask_quit(true),
        }
        true
    }

    /// `r` on the main menu while the account is unreachable; `true` when the key was taken.
    pub(super) fn key_menu_retry(&mut self, ev: KeyEvent) -> bool {
        let now = self.now;
        let (retry, mut ctx) = self.split_unreachable();
        retry.key_menu(ev, now, &mut ctx)
    }

    /// Makes the automatic try when it is due; `true` when the screen changed.
    pub(super) fn tick_unreachable(&mut self, now: u64) -> bool {
        let (retry, mut ctx) = self.split_unreachable();
        retry.tick(now, &mut ctx)
    }

    /// Handles the answers to [`Request::RetryAccount`]; `true` when it was one.
    pub(super) fn unreachable_response(&mut self, response: &Response) -> bool {
        let (retry, mut ctx) = self.split_unreachable();
        match retry.on_response(response, &mut ctx) {
            Taken::No => false,
            Taken::Yes => true,
            Taken::NewKey(suggested) => {
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
        }
    }
}
