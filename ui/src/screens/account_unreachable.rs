//! The screen of a login whose account cannot be reached right now (the server's database does
//! not answer): wait here (the App tries again every [`RETRY_EVERY_MS`], and at once on a key)
//! or play as a guest for now (nothing is stored; the menu offers to try again).

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::Widget;

use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::sfmt;
use crate::theme::Theme;

/// How often a waiting player's account is looked up again.
pub const RETRY_EVERY_MS: u64 = 5_000;

/// The screen's title.
pub const TITLE: &str = "ACCOUNT UNREACHABLE";

/// What the screen says first.
pub const SAYS: &str = "Your account cannot be reached right now: the server's database does \
     not answer.";

/// The main menu's line while the account is unreachable (a guest for now).
pub const MENU_NOTICE: &str = "Account unreachable: press r to try again";
/// The main menu's line while a try is out.
pub const MENU_TRYING: &str = "Reaching your account...";

/// The choices.
pub const ITEMS: [&str; 2] = ["Wait for my account", "Play as a guest for now"];

/// The state of the screen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unreachable {
    /// 0 wait, 1 guest.
    pub cursor: usize,
    /// Tries made so far (automatic and asked for).
    pub tries: u32,
    /// A try is out and not answered yet.
    pub trying: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnreachableAction {
    None,
    Moved,
    /// Try again now.
    Retry,
    /// Play as a guest for now.
    Guest,
    AskQuit,
}

impl Unreachable {
    pub fn handle(&mut self, ev: KeyEvent) -> UnreachableAction {
        if is_ctrl(ev, 'c') {
            return UnreachableAction::AskQuit;
        }
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return UnreachableAction::None;
        }
        match ev.key {
            Key::Char('r' | 'R') => return UnreachableAction::Retry,
            Key::Char('g' | 'G') => return UnreachableAction::Guest,
            Key::Char('q' | 'Q') => return UnreachableAction::AskQuit,
            _ => {}
        }
        match nav(ev) {
            Some(Nav::Up) => self.cursor = wrap(self.cursor, ITEMS.len(), false),
            Some(Nav::Down) => self.cursor = wrap(self.cursor, ITEMS.len(), true),
            Some(Nav::Select | Nav::Right) if self.cursor == 0 => {
                return UnreachableAction::Retry;
            }
            Some(Nav::Select | Nav::Right | Nav::Back) => return UnreachableAction::Guest,
            _ => return UnreachableAction::None,
        }
        UnreachableAction::Moved
    }
}

/// Draws the screen.
#[derive(Debug)]
pub struct UnreachableView<'a> {
    pub state: &'a Unreachable,
    pub theme: Theme,
}

impl Widget for &UnreachableView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let s = self.state;
        let r = draw::centered(area, 58, 20);
        let inner = draw::frame(buf, r, theme, TITLE, theme.dim());
        let body = inner.inner(Margin::new(2, 0));
        draw::put_centered(buf, inner, inner.y + 1, theme.minos(), theme.accent());
        let used = draw::wrapped(buf, body, inner.y + 3, SAYS, theme.bad());
        let y = inner.y + 4 + used;
        let what = "Wait here and you are signed in as soon as it is back (it is tried again \
             every 5 seconds), or play as a guest for now: nothing a guest plays is stored, and \
             the menu lets you try again.";
        let used = draw::wrapped(buf, body, y, what, theme.text());
        let y = y + used + 1;
        draw::menu(buf, inner, y, ITEMS, s.cursor, theme);
        let status = if s.trying {
            sfmt!(64; "Trying to reach your account...")
        } else if s.tries > 0 {
            sfmt!(64; "Still unreachable ({} tries)", s.tries)
        } else {
            sfmt!(64; "Waiting for the database")
        };
        let y = y + u16::try_from(ITEMS.len()).unwrap_or(2) + 1;
        draw::put_centered(buf, inner, y, status.as_str(), theme.dim());
        draw::hint(buf, inner, "Enter choose   r try now   Esc guest", theme);
    }
}
