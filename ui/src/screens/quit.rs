//! The quit confirmation, drawn over the screen it was asked from.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{Nav, nav};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::theme::Theme;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuitAction {
    None,
    Moved,
    Quit,
    Stay,
}

/// Handles a key in the dialog; `yes` is whether "Quit" is selected.
pub fn handle(yes: &mut bool, ev: KeyEvent) -> QuitAction {
    if ev.kind == KeyKind::Press && !ev.mods.ctrl {
        match ev.key {
            Key::Char('y' | 'Y') => return QuitAction::Quit,
            Key::Char('n' | 'N') => return QuitAction::Stay,
            _ => {}
        }
    }
    match nav(ev) {
        Some(Nav::Left | Nav::Right | Nav::Up | Nav::Down) => *yes = !*yes,
        Some(Nav::Select) if ev.key == Key::Enter => {
            return if *yes {
                QuitAction::Quit
            } else {
                QuitAction::Stay
            };
        }
        Some(Nav::Back) if ev.key == Key::Esc => return QuitAction::Stay,
        _ => return QuitAction::None,
    }
    QuitAction::Moved
}

/// Draws the dialog centred in `area`: 30 columns wide, or 18 where `area` is narrower (beside
/// the board of a game that runs on behind the question, `screens::game::question_area`).
pub fn draw(buf: &mut Buffer, area: Rect, yes: bool, theme: Theme) {
    let narrow = area.width < 30;
    let (w, h, gap) = if narrow { (18, 6, "") } else { (30, 7, "    ") };
    let inner = draw::dialog(buf, area, w, h, theme, "QUIT");
    let title_y = inner.y + u16::from(!narrow);
    draw::put_centered(buf, inner, title_y, "Quit minotty?", theme.title());
    let (q, s) = if yes {
        (theme.selected(), theme.text())
    } else {
        (theme.text(), theme.selected())
    };
    let y = title_y + 2;
    let x = inner.x + inner.width.saturating_sub(16 + draw::width(gap)) / 2;
    let x = draw::put(buf, inner, x, y, "  Quit  ", q);
    let x = draw::put(buf, inner, x, y, gap, theme.text());
    draw::put(buf, inner, x, y, "  Stay  ", s);
}
