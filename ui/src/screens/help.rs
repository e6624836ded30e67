//! Help: the controls as currently bound, and the special keys.

use minotty_engine::Button;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Nav, is_ctrl, nav};
use crate::draw;
use crate::keymap::Keymap;
use crate::keys::KeyEvent;
use crate::theme::Theme;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelpAction {
    None,
    Back,
    AskQuit,
}

pub fn handle(ev: KeyEvent) -> HelpAction {
    if is_ctrl(ev, 'c') {
        return HelpAction::AskQuit;
    }
    match nav(ev) {
        Some(Nav::Back | Nav::Select) => HelpAction::Back,
        _ => HelpAction::None,
    }
}

const SPECIAL: [(&str, &str); 6] = [
    ("Pause / resume", "Esc, P"),
    ("Snapshot (solo; start it in Custom)", "Ctrl+S"),
    ("Combo: the bot plays / you do", "B"),
    ("Forfeit the game", "Ctrl+D"),
    ("Quit (asks first)", "Ctrl+C, q in the menu"),
    ("Menus", "arrows, Enter, Esc"),
];

/// Draws the help screen.
#[derive(Debug)]
pub struct HelpView<'a> {
    pub keys: &'a Keymap,
    /// Whether the terminal reports key releases.
    pub releases: bool,
    pub theme: Theme,
}

impl Widget for &HelpView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let r = draw::centered(area, 56, 22);
        let inner = draw::frame(buf, r, theme, "HELP", theme.dim());
        let table = Rect::new(inner.x + 2, inner.y + 1, inner.width.saturating_sub(4), 20);
        let table = table.intersection(inner);
        let mut y = table.y;
        draw::put(buf, table, table.x, y, "Controls", theme.accent());
        y += 1;
        for b in Button::ALL {
            let keys = self.keys.describe(b);
            draw::put_row(
                buf,
                table,
                y,
                b.name(),
                keys.as_str(),
                [theme.text(), theme.title()],
            );
            y += 1;
        }
        y += 1;
        for (what, keys) in SPECIAL {
            draw::put_row(buf, table, y, what, keys, [theme.text(), theme.title()]);
            y += 1;
        }
        y += 1;
        let note = if self.releases {
            "Controls can be changed in Settings."
        } else {
            "This terminal reports no key releases: a key pressed again sooner than its \
             key repeat delay is a new tap, and a held key moves on once the repeats \
             begin. Kitty, WezTerm, foot or Ghostty play smoother."
        };
        draw::wrapped(buf, table, y, note, theme.dim());
    }
}
