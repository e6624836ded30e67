//! The retry key as a binding: one key (default R) that starts a fresh game of the same setup
//! (`screens/retry.rs`). Like a button's keys it is exclusive: binding it takes the key from
//! any button, and binding the key to a button takes it from retry.

use super::{Keymap, Rebound, normalize};
use crate::keys::Key;

/// The retry key of the presets and of stored settings older than the binding.
pub const DEFAULT_RETRY: char = 'r';

/// Whether `key` may retry: not a key the pause menu and the results are worked with (the
/// retry key is checked before their menus, so it would take Enter or the arrows from them).
pub fn may_retry(key: Key) -> bool {
    !matches!(
        key,
        Key::Enter
            | Key::Esc
            | Key::Backspace
            | Key::Delete
            | Key::Tab
            | Key::BackTab
            | Key::Up
            | Key::Down
    )
}

impl Keymap {
    /// The key that retries (`None`: none).
    pub fn retry_key(&self) -> Option<Key> {
        self.retry
    }

    /// Makes `key` the retry key, taking it away from any button. The retry key it replaces is
    /// `replaced` (no key of a button is pushed out: retry has one slot).
    pub fn bind_retry(&mut self, key: Key) -> Rebound {
        let key = normalize(key);
        if self.retry == Some(key) {
            return Rebound::default();
        }
        let owner = self.lookup(key).map(|(b, _)| b);
        let replaced = self.retry.take();
        self.unbind(key);
        self.retry = Some(key);
        Rebound {
            taken_from: owner,
            replaced,
            took_retry: false,
        }
    }

    /// No key retries.
    pub fn clear_retry(&mut self) {
        self.retry = None;
    }

    /// Whether `key` (normalised) is the retry key.
    pub fn is_retry_key(&self, key: Key) -> bool {
        self.retry.is_some_and(|r| r == normalize(key))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keymap::KeyPreset;
    use minotty_engine::Button;

    #[test]
    fn presets_retry_with_r_and_empty_maps_do_not() {
        for preset in KeyPreset::ALL {
            let map = Keymap::preset(preset);
            assert_eq!(map.retry_key(), Some(Key::Char('r')), "{preset:?}");
            assert!(map.is_retry_key(Key::Char('R')));
            assert_eq!(map.lookup(Key::Char('r')), None, "{preset:?}");
        }
        assert_eq!(Keymap::empty().retry_key(), None);
    }

    #[test]
    fn retry_and_buttons_take_keys_from_each_other() {
        let mut map = Keymap::default();
        // Space to retry: Hard drop loses it, R is replaced.
        let r = map.bind_retry(Key::Char(' '));
        assert_eq!(r.taken_from, Some(Button::HardDrop));
        assert_eq!(r.replaced, Some(Key::Char('r')));
        assert!(!r.took_retry);
        assert!(map.is_retry_key(Key::Char(' ')));
        assert!(!map.is_retry_key(Key::Char('r')));
        assert_eq!(map.describe(Button::HardDrop).as_str(), "Up");
        assert_eq!(map.which_preset(), None);
        // Binding it again changes nothing.
        assert_eq!(map.bind_retry(Key::Char(' ')), Rebound::default());
        // A button takes the retry key back: no key retries.
        let r = map.bind(Button::HardDrop, Key::Char(' '));
        assert!(r.took_retry);
        assert_eq!(r.taken_from, None);
        assert_eq!(map.retry_key(), None);
        map.bind_retry(Key::F(5));
        map.clear_retry();
        assert_eq!(map.retry_key(), None);
    }
}
