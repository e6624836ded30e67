//! The friend's-ghost prompt on the mode select (F on 40 lines or ultra): the player types
//! whose all-time best to race; Enter asks the server for it, Esc cancels. Only what a player
//! name can hold is typed (letters, digits, `_` and `-`, at most a name's length), so nothing
//! else reaches the request or the screen.

use minotty_domain::player_name::MAX_LEN;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::sfmt;
use crate::theme::Theme;

/// The name being typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GhostPrompt {
    name: String,
}

/// What a key did to the prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptKey {
    /// Still typing (the key changed the name, or was ignored).
    Typing,
    Cancel,
    /// Race this player's best.
    Race(String),
}

/// A character a player name may hold.
fn name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

impl GhostPrompt {
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn key(&mut self, ev: KeyEvent) -> PromptKey {
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return PromptKey::Typing;
        }
        match ev.key {
            Key::Esc => PromptKey::Cancel,
            Key::Enter if !self.name.is_empty() => PromptKey::Race(self.name.clone()),
            Key::Backspace => {
                self.name.pop();
                PromptKey::Typing
            }
            Key::Char(c) if name_char(c) && self.name.len() < MAX_LEN => {
                self.name.push(c);
                PromptKey::Typing
            }
            _ => PromptKey::Typing,
        }
    }

    /// Two rows at `y - 1` and `y` of `area`: the question with the name typed so far, and
    /// the keys.
    pub fn draw(&self, buf: &mut Buffer, area: Rect, y: u16, theme: Theme) {
        let question = sfmt!(48; "Race whose best? {}_", self.name.as_str());
        draw::put(
            buf,
            area,
            area.x,
            y.saturating_sub(1),
            question.as_str(),
            theme.accent(),
        );
        draw::put(buf, area, area.x, y, "Enter race   Esc cancel", theme.dim());
    }
}
