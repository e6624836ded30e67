//! A yes/no question over the board (leave this game? pause a timed game?): the keys that
//! answer it and the box it is asked in.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::theme::Theme;

/// The answer a key gives: `Some(true)` yes (y or Enter), `Some(false)` no (n or Esc), `None`
/// any other key, a repeat or release, or a key with Ctrl or Alt.
pub fn answer(ev: KeyEvent) -> Option<bool> {
    if ev.kind != KeyKind::Press || ev.mods.ctrl || ev.mods.alt {
        return None;
    }
    match ev.key {
        Key::Char('y' | 'Y') | Key::Enter => Some(true),
        Key::Char('n' | 'N') | Key::Esc => Some(false),
        _ => None,
    }
}

/// Draws the question `lines` in a `w` x `h` box titled `title` centred in `area`, with the
/// keys' `hint` one row under the last line.
pub fn draw(
    buf: &mut Buffer,
    area: Rect,
    (w, h): (u16, u16),
    title: &str,
    lines: &[&str],
    hint: &str,
    theme: Theme,
) {
    let inner = draw::dialog(buf, area, w, h, theme, title);
    for (i, line) in lines.iter().enumerate() {
        draw::put_centered(buf, inner, inner.y + i as u16, line, theme.text());
    }
    let y = inner.y + lines.len() as u16 + 1;
    draw::put_centered(buf, inner, y, hint, theme.accent());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Mods;

    #[test]
    fn y_or_enter_is_yes_n_or_esc_is_no_and_nothing_else_answers() {
        for key in [Key::Char('y'), Key::Char('Y'), Key::Enter] {
            assert_eq!(answer(KeyEvent::press(key)), Some(true), "{key:?}");
        }
        for key in [Key::Char('n'), Key::Char('N'), Key::Esc] {
            assert_eq!(answer(KeyEvent::press(key)), Some(false), "{key:?}");
        }
        for key in [Key::Char('q'), Key::Char(' '), Key::Backspace, Key::Up] {
            assert_eq!(answer(KeyEvent::press(key)), None, "{key:?}");
        }
        let with = |mods, kind| KeyEvent {
            key: Key::Char('y'),
            mods,
            kind,
        };
        let ctrl = Mods {
            ctrl: true,
            ..Mods::default()
        };
        let alt = Mods {
            alt: true,
            ..Mods::default()
        };
        assert_eq!(answer(with(ctrl, KeyKind::Press)), None);
        assert_eq!(answer(with(alt, KeyKind::Press)), None);
        assert_eq!(answer(with(Mods::default(), KeyKind::Repeat)), None);
        assert_eq!(answer(with(Mods::default(), KeyKind::Release)), None);
    }
}
