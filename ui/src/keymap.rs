//! Which keys press which game buttons. Each button has a few binding slots; a key is bound to
//! at most one button, so a key press always means one thing.

use std::fmt::Write;

use minotty_engine::Button;

use crate::keys::Key;
use crate::text::{StackStr, sfmt};

/// Binding slots per button.
pub const SLOTS: usize = 3;

/// The key bindings of the game buttons (plain data, indexed by `Button as usize`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Keymap {
    bindings: [[Option<Key>; SLOTS]; Button::ALL.len()],
}

impl Default for Keymap {
    /// The tetrs defaults (arrows move and drop, A/D rotate) plus common alternatives
    /// (Z/X rotate, Space hard drop, C and Shift hold).
    fn default() -> Self {
        let mut map = Keymap {
            bindings: [[None; SLOTS]; Button::ALL.len()],
        };
        let defaults: [(Button, &[Key]); 6] = [
            (Button::Left, &[Key::Left]),
            (Button::Right, &[Key::Right]),
            (Button::SoftDrop, &[Key::Down]),
            (Button::HardDrop, &[Key::Up, Key::Char(' ')]),
            (Button::RotateCcw, &[Key::Char('a'), Key::Char('z')]),
            (Button::RotateCw, &[Key::Char('d'), Key::Char('x')]),
        ];
        for (button, keys) in defaults {
            for &key in keys {
                map.bind(button, key);
            }
        }
        map.bind(Button::Hold, Key::Char('c'));
        map.bind(Button::Hold, Key::Shift);
        map
    }
}

impl Keymap {
    /// A keymap with no bindings at all.
    pub fn empty() -> Keymap {
        Keymap {
            bindings: [[None; SLOTS]; Button::ALL.len()],
        }
    }

    /// The keys bound to `button`, in slot order.
    pub fn keys(&self, button: Button) -> impl Iterator<Item = Key> + '_ {
        self.bindings[button as usize].iter().flatten().copied()
    }

    /// The button and slot a (normalised) key is bound to.
    pub fn lookup(&self, key: Key) -> Option<(Button, usize)> {
        let key = normalize(key);
        Button::ALL.into_iter().find_map(|b| {
            self.bindings[b as usize]
                .iter()
                .position(|&k| k == Some(key))
                .map(|slot| (b, slot))
        })
    }

    /// Binds `key` to `button`, taking it away from any other button. The key goes into the
    /// first free slot; when every slot is taken it replaces the last one.
    pub fn bind(&mut self, button: Button, key: Key) {
        let key = normalize(key);
        if self.lookup(key).is_some_and(|(b, _)| b == button) {
            return;
        }
        self.unbind(key);
        let slots = &mut self.bindings[button as usize];
        match slots.iter_mut().find(|s| s.is_none()) {
            Some(free) => *free = Some(key),
            None => slots[SLOTS - 1] = Some(key),
        }
    }

    /// Removes `key` from whatever button has it.
    pub fn unbind(&mut self, key: Key) {
        let key = normalize(key);
        for slots in &mut self.bindings {
            for s in slots.iter_mut() {
                if *s == Some(key) {
                    *s = None;
                }
            }
            // Keep bound keys at the front.
            slots.sort_by_key(|s| s.is_none());
        }
    }

    /// Removes every binding of `button`.
    pub fn clear(&mut self, button: Button) {
        self.bindings[button as usize] = [None; SLOTS];
    }

    /// Whether the Up arrow rotates (instead of hard-dropping).
    pub fn up_rotates(&self) -> bool {
        self.lookup(Key::Up)
            .is_some_and(|(b, _)| b == Button::RotateCw)
    }

    /// The "Up rotates" option: Up rotates clockwise and Space hard-drops, or Up hard-drops.
    pub fn set_up_rotates(&mut self, on: bool) {
        if on {
            self.bind(Button::RotateCw, Key::Up);
            self.bind(Button::HardDrop, Key::Char(' '));
        } else {
            self.bind(Button::HardDrop, Key::Up);
        }
    }

    /// The bindings of `button` as display text, e.g. `"Up, Space"`.
    pub fn describe(&self, button: Button) -> StackStr<40> {
        let mut out = StackStr::<40>::new();
        for (i, key) in self.keys(button).enumerate() {
            let sep = if i == 0 { "" } else { ", " };
            let _ = write!(out, "{sep}{}", key_name(key).as_str());
        }
        if out.is_empty() {
            let _ = out.write_str("-");
        }
        out
    }
}

/// Keys as the keymap stores them: letters in lower case, so Shift+Z still rotates.
pub fn normalize(key: Key) -> Key {
    match key {
        Key::Char(c) => Key::Char(c.to_ascii_lowercase()),
        other => other,
    }
}

/// A short display name for a key.
pub fn key_name(key: Key) -> StackStr<12> {
    let name = match key {
        Key::Char(' ') => "Space",
        Key::Char(c) => return sfmt!(12; "{}", c.to_uppercase()),
        Key::Up => "Up",
        Key::Down => "Down",
        Key::Left => "Left",
        Key::Right => "Right",
        Key::Enter => "Enter",
        Key::Esc => "Esc",
        Key::Backspace => "Backspace",
        Key::Tab => "Tab",
        Key::BackTab => "Shift+Tab",
        Key::Delete => "Delete",
        Key::Insert => "Insert",
        Key::Home => "Home",
        Key::End => "End",
        Key::PageUp => "PageUp",
        Key::PageDown => "PageDown",
        Key::F(n) => return sfmt!(12; "F{}", n),
        Key::Shift => "Shift",
        Key::Ctrl => "Ctrl",
        Key::Alt => "Alt",
    };
    sfmt!(12; "{}", name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_follow_tetrs_plus_alternatives() {
        let map = Keymap::default();
        let b = |k| map.lookup(k).map(|(b, _)| b);
        assert_eq!(b(Key::Left), Some(Button::Left));
        assert_eq!(b(Key::Right), Some(Button::Right));
        assert_eq!(b(Key::Down), Some(Button::SoftDrop));
        assert_eq!(b(Key::Up), Some(Button::HardDrop));
        assert_eq!(b(Key::Char(' ')), Some(Button::HardDrop));
        assert_eq!(b(Key::Char('A')), Some(Button::RotateCcw));
        assert_eq!(b(Key::Char('d')), Some(Button::RotateCw));
        assert_eq!(b(Key::Char('z')), Some(Button::RotateCcw));
        assert_eq!(b(Key::Char('X')), Some(Button::RotateCw));
        assert_eq!(b(Key::Char('c')), Some(Button::Hold));
        assert_eq!(b(Key::Shift), Some(Button::Hold));
        assert_eq!(b(Key::Char('q')), None);
    }

    #[test]
    fn binding_moves_a_key_and_up_rotates_toggles() {
        let mut map = Keymap::default();
        map.bind(Button::Hold, Key::Up);
        assert_eq!(map.lookup(Key::Up), Some((Button::Hold, 2)));
        assert_eq!(map.describe(Button::HardDrop).as_str(), "Space");
        let mut map = Keymap::default();
        map.set_up_rotates(true);
        assert!(map.up_rotates());
        assert_eq!(map.describe(Button::HardDrop).as_str(), "Space");
        assert_eq!(map.describe(Button::RotateCw).as_str(), "D, X, Up");
        map.set_up_rotates(false);
        assert!(!map.up_rotates());
        assert_eq!(map.describe(Button::HardDrop).as_str(), "Space, Up");
    }

    #[test]
    fn full_slots_replace_the_last() {
        let mut map = Keymap::empty();
        for c in ['1', '2', '3', '4'] {
            map.bind(Button::Hold, Key::Char(c));
        }
        assert_eq!(map.describe(Button::Hold).as_str(), "1, 2, 4");
        map.clear(Button::Hold);
        assert_eq!(map.describe(Button::Hold).as_str(), "-");
    }
}
