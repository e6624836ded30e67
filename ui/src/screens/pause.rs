//! The pause menu, drawn over the (hidden) board.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::theme::Theme;

pub const ITEMS: [&str; 6] = [
    "Resume",
    "Restart",
    "Settings",
    "Help",
    "Forfeit",
    "Main menu",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PauseAction {
    None,
    Moved,
    Resume,
    Restart,
    Settings,
    Help,
    Forfeit,
    MainMenu,
    AskQuit,
}

/// Handles a key in the pause menu.
pub fn handle(cursor: &mut usize, ev: KeyEvent) -> PauseAction {
    if is_ctrl(ev, 'c') {
        return PauseAction::AskQuit;
    }
    if ev.kind == KeyKind::Press && ev.key == Key::Char('p') {
        return PauseAction::Resume;
    }
    match nav(ev) {
        Some(Nav::Up) => *cursor = wrap(*cursor, ITEMS.len(), false),
        Some(Nav::Down) => *cursor = wrap(*cursor, ITEMS.len(), true),
        // Only a fresh press of Esc resumes: a repeat of the Esc that paused must not.
        Some(Nav::Back) if ev.key == Key::Esc && ev.kind == KeyKind::Press => {
            return PauseAction::Resume;
        }
        Some(Nav::Select) => {
            return match *cursor {
                0 => PauseAction::Resume,
                1 => PauseAction::Restart,
                2 => PauseAction::Settings,
                3 => PauseAction::Help,
                4 => PauseAction::Forfeit,
                _ => PauseAction::MainMenu,
            };
        }
        _ => return PauseAction::None,
    }
    PauseAction::Moved
}

/// Draws the pause menu in `area` (the board's cells).
pub fn draw(buf: &mut Buffer, area: Rect, cursor: usize, theme: Theme) {
    // 16 columns: the dialog starts and ends on cell boundaries of the 20-column board.
    let inner = draw::dialog(buf, area, 16, ITEMS.len() as u16 + 4, theme, "PAUSED");
    draw::menu(buf, inner, inner.y, ITEMS, cursor, theme);
    let hint = inner.y + 1 + ITEMS.len() as u16;
    draw::put_centered(buf, inner, hint, "Esc resumes", theme.dim());
}
