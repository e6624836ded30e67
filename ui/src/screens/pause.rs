//! The pause menu, drawn over the (hidden) board.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{Nav, is_ctrl, nav, question, wrap};
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

/// The answer to "Pause?" in a timed game: `Some(true)` pauses, `Some(false)` plays on, and
/// `None` leaves the key to the game (which keeps running while the question shows).
pub fn prompt_answer(ev: KeyEvent) -> Option<bool> {
    question::answer(ev)
}

/// The lines of the pause confirmation, each at most 16 columns.
pub const PROMPT: [&str; 3] = ["Pausing ends", "ranking for this", "game."];

/// The pause confirmation's box: 16 columns inside, the lines, a blank row and the keys.
const PROMPT_SIZE: (u16, u16) = (18, PROMPT.len() as u16 + 4);

/// The pause confirmation in one line, where no box fits beside the board (the footer).
pub const PROMPT_LINE: &str = "Pause? It ends ranking: y pause  n play";

/// Whether the pause confirmation's box fits in `area`.
pub fn prompt_fits(area: Rect) -> bool {
    area.width >= PROMPT_SIZE.0 && area.height >= PROMPT_SIZE.1
}

/// Draws the pause confirmation of a timed game in `area`, beside the board
/// (`screens::game::question_area`): the game runs on while it is asked, so it must not
/// hide the board.
pub fn draw_prompt(buf: &mut Buffer, area: Rect, theme: Theme) {
    question::draw(
        buf,
        area,
        PROMPT_SIZE,
        "PAUSE?",
        &PROMPT,
        "y pause  n play",
        theme,
    );
}

/// Draws the pause menu in `area` (the board's cells); `unranked`: the pause took a timed
/// game off the leaderboards, which the menu repeats; `retry`: the retry key retries this game
/// at once (`screens/retry.rs`), which the menu says in these words ("R retries").
pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    cursor: usize,
    unranked: bool,
    retry: Option<&str>,
    theme: Theme,
) {
    // 16 columns: the dialog starts and ends on cell boundaries of the 20-column board.
    let rows = ITEMS.len() as u16 + 4 + u16::from(unranked) + u16::from(retry.is_some());
    let inner = draw::dialog(buf, area, 16, rows, theme, "PAUSED");
    draw::menu(buf, inner, inner.y, ITEMS, cursor, theme);
    let mut hint = inner.y + 1 + ITEMS.len() as u16;
    draw::put_centered(buf, inner, hint, "Esc resumes", theme.dim());
    if let Some(retry) = retry {
        hint += 1;
        draw::put_centered(buf, inner, hint, retry, theme.dim());
    }
    if unranked {
        draw::put_centered(buf, inner, hint + 1, "Not ranked", theme.bad());
    }
}
