//! The screens: each module holds a screen's state, its key handling (state in, action out)
//! and a view that draws it (`impl Widget for &View`).

pub mod account_board;
pub mod account_form;
pub mod account_keys;
pub mod account_profile;
pub mod account_replay;
pub mod account_unreachable;
pub mod account_welcome;
pub mod custom;
pub mod doctor;
pub mod game;
pub mod game_ghost;
pub mod ghost_prompt;
pub mod help;
pub mod keys_help;
pub mod leave;
pub mod live;
pub mod match_replay;
pub mod match_replay_view;
pub mod menu;
pub mod mode_select;
pub mod open_rooms;
pub(crate) mod opponent_board;
pub mod pause;
pub mod question;
pub mod quit;
pub mod race_results;
pub mod results;
pub mod retry;
pub mod room_settings;
pub mod settings;
pub mod settings_confirm;
pub mod settings_explain;
pub mod too_small;
pub mod versus_climb;
pub(crate) mod versus_layout;
pub mod versus_match;
pub mod versus_menu;
pub(crate) mod versus_own;
pub mod versus_results;
pub mod versus_room;
pub mod versus_watch;

use crate::keys::{Key, KeyEvent, KeyKind};

/// Menu navigation, the same on every screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nav {
    Up,
    Down,
    Left,
    Right,
    Select,
    Back,
}

/// The navigation meaning of a key event (presses and repeats; releases mean nothing).
pub fn nav(ev: KeyEvent) -> Option<Nav> {
    if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
        return None;
    }
    Some(match ev.key {
        Key::Up | Key::Char('k' | 'w' | 'K' | 'W') | Key::BackTab => Nav::Up,
        Key::Down | Key::Char('j' | 's' | 'J' | 'S') | Key::Tab => Nav::Down,
        Key::Left | Key::Char('h' | 'a' | 'H' | 'A') => Nav::Left,
        Key::Right | Key::Char('l' | 'd' | 'L' | 'D') => Nav::Right,
        Key::Enter | Key::Char(' ') => Nav::Select,
        Key::Esc | Key::Backspace => Nav::Back,
        _ => return None,
    })
}

/// Whether the event is a press (or repeat) of Ctrl+`c`.
pub fn is_ctrl(ev: KeyEvent, c: char) -> bool {
    if ev.kind == KeyKind::Release {
        return false;
    }
    match ev.key {
        Key::Char(k) if ev.mods.ctrl => k.eq_ignore_ascii_case(&c),
        // Some front ends pass the raw control byte.
        Key::Char(k) => u32::from(k) == u32::from(c.to_ascii_lowercase()) & 0x1f,
        _ => false,
    }
}

/// Moves a cursor by one step in a list of `n` items, wrapping around.
pub fn wrap(cursor: usize, n: usize, down: bool) -> usize {
    if n == 0 {
        return 0;
    }
    if down {
        (cursor + 1) % n
    } else {
        (cursor + n - 1) % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::Mods;

    #[test]
    fn ctrl_c_in_both_encodings() {
        let ctrl = Mods {
            ctrl: true,
            ..Mods::default()
        };
        let ev = |key, mods| KeyEvent {
            key,
            mods,
            kind: KeyKind::Press,
        };
        assert!(is_ctrl(ev(Key::Char('c'), ctrl), 'c'));
        assert!(is_ctrl(ev(Key::Char('\u{3}'), Mods::default()), 'c'));
        assert!(!is_ctrl(ev(Key::Char('c'), Mods::default()), 'c'));
        assert_eq!(nav(ev(Key::Char('c'), ctrl)), None);
        assert_eq!(nav(KeyEvent::press(Key::Esc)), Some(Nav::Back));
        assert_eq!(wrap(0, 4, false), 3);
        assert_eq!(wrap(0, 0, true), 0);
    }
}
