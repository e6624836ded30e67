//! `?` on a screen: the box of its keys (`screens/keys_help.rs`), over it until any key.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::account::Sub;
use super::{App, Screen};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::keys_help::{self, Page};
use crate::theme::Theme;

impl App {
    /// The keys box of the screen shown now, if it has one and `?` would type nothing there.
    pub(super) fn keys_page(&self) -> Option<Page> {
        if self.menus.quit_open() || self.menus.typing() {
            return None;
        }
        Some(match self.screen {
            Screen::Menu => Page::Menu,
            Screen::ModeSelect => Page::ModeSelect,
            Screen::Settings => Page::Settings,
            Screen::Help => Page::Help,
            Screen::Results => Page::Results,
            Screen::Doctor => Page::Doctor,
            Screen::Live => Page::Live,
            Screen::MatchReplay => Page::MatchReplay,
            Screen::Account => match self.account.sub.as_ref()? {
                Sub::Board(_) => Page::Board,
                Sub::Profile(_) => Page::Profile,
                Sub::Replay(_) => Page::Replay,
                Sub::Welcome(_) | Sub::Unreachable(_) | Sub::Keys(_) => return None,
            },
            Screen::Game | Screen::Versus => return None,
        })
    }

    /// `?` opens the box; while it is open, a press closes it and does nothing else. Returns
    /// whether the key was the box's.
    pub(super) fn key_box(&mut self, ev: KeyEvent) -> bool {
        if self.keys_box.is_some() {
            if ev.kind == KeyKind::Press {
                self.keys_box = None;
                self.dirty = true;
            }
            return true;
        }
        let question =
            ev.kind == KeyKind::Press && ev.key == Key::Char('?') && !ev.mods.ctrl && !ev.mods.alt;
        if !question {
            return false;
        }
        let Some(page) = self.keys_page() else {
            return false;
        };
        self.keys_box = Some(page);
        self.dirty = true;
        true
    }

    /// Draws the keys box, if it is open.
    pub(super) fn draw_keys_box(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        if let Some(page) = self.keys_box {
            keys_help::draw(buf, area, page, theme);
        }
    }
}
