//! The main menu.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::sfmt;
use crate::theme::Theme;

pub const ITEMS: [&str; 8] = [
    "Play",
    "Versus",
    "Leaderboards",
    "Profile",
    "Settings",
    "Help",
    "Live",
    "Quit",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MenuAction {
    None,
    Moved,
    Play,
    Versus,
    Leaderboards,
    Profile,
    Settings,
    Help,
    /// What others are playing now (see `live.rs`).
    Live,
    AskQuit,
}

/// Handles a key on the main menu. A lone Esc does nothing here: only `q`, the Quit item or
/// Ctrl+C ask to quit, and even they only ask.
pub fn handle(cursor: &mut usize, ev: KeyEvent) -> MenuAction {
    if is_ctrl(ev, 'c') {
        return MenuAction::AskQuit;
    }
    if ev.kind == KeyKind::Press && matches!(ev.key, Key::Char('q' | 'Q')) && !ev.mods.ctrl {
        return MenuAction::AskQuit;
    }
    match nav(ev) {
        Some(Nav::Up) => *cursor = wrap(*cursor, ITEMS.len(), false),
        Some(Nav::Down) => *cursor = wrap(*cursor, ITEMS.len(), true),
        Some(Nav::Select | Nav::Right) => {
            return match *cursor {
                0 => MenuAction::Play,
                1 => MenuAction::Versus,
                2 => MenuAction::Leaderboards,
                3 => MenuAction::Profile,
                4 => MenuAction::Settings,
                5 => MenuAction::Help,
                6 => MenuAction::Live,
                _ => MenuAction::AskQuit,
            };
        }
        _ => return MenuAction::None,
    }
    MenuAction::Moved
}

/// Draws the main menu.
#[derive(Debug)]
pub struct MenuView<'a> {
    pub cursor: usize,
    pub player: &'a str,
    /// Shown instead of the greeting (e.g. the account cannot be reached: how to try again).
    pub notice: Option<&'a str>,
    /// The player plays as a guest: said under the greeting (nothing is stored).
    pub guest: bool,
    pub theme: Theme,
}

impl Widget for &MenuView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let r = draw::centered(area, 44, 21);
        let inner = draw::frame(buf, r, theme, "", theme.dim());
        draw::put_centered(buf, inner, inner.y + 1, theme.minos(), theme.accent());
        draw::put_centered(buf, inner, inner.y + 3, "M I N O T T Y", theme.title());
        let tagline = "falling blocks over SSH";
        draw::put_centered(buf, inner, inner.y + 4, tagline, theme.dim());
        draw::menu(buf, inner, inner.y + 7, ITEMS, self.cursor, theme);
        if let Some(notice) = self.notice {
            draw::put_centered(buf, inner, inner.y + 15, notice, theme.bad());
        } else if !self.player.is_empty() {
            let hello = sfmt!(128; "Hello, {}!", self.player);
            draw::put_centered(buf, inner, inner.y + 15, hello.as_str(), theme.text());
        }
        if self.guest {
            let mark = "Playing as a guest: nothing is stored.";
            draw::put_centered(buf, inner, inner.y + 16, mark, theme.dim());
        }
        let hint = "Up/Down choose   Enter select   q quit";
        draw::hint(buf, inner, hint, theme);
    }
}
