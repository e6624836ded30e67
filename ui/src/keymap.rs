//! Which keys press which game buttons, and which key retries (one slot, default R, see
//! `screens/retry.rs`). Each button has a few binding slots; a key is bound to at most one
//! button or to retry, so a key press always means one thing.

use std::fmt::Write;

use minotty_engine::Button;

use crate::keys::Key;
use crate::text::{StackStr, sfmt};

mod retry;

pub use retry::{DEFAULT_RETRY, may_retry};

/// Binding slots per button.
pub const SLOTS: usize = 3;

/// The key bindings of the game buttons (plain data, indexed by `Button as usize`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Keymap {
    bindings: [[Option<Key>; SLOTS]; Button::ALL.len()],
    /// The retry key (`None`: no key retries).
    retry: Option<Key>,
}

impl Default for Keymap {
    /// The [`KeyPreset::Minotty`] keys.
    fn default() -> Self {
        Keymap::preset(KeyPreset::Minotty)
    }
}

/// Ready-made sets of keys. None binds a key that a terminal cannot send alone (a bare Shift,
/// Ctrl or Alt reaches the game only with the kitty keyboard protocol).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyPreset {
    /// The tetrs defaults (arrows move and drop, A/D rotate) plus common alternatives (Z/X
    /// rotate, Space hard drop, C hold) and S for a half turn (between A and D; rulesets
    /// without 180° rotation ignore it).
    Minotty,
    /// Like TETR.IO's defaults: Up and X rotate clockwise, Z counter-clockwise, A 180°, Space
    /// hard drop, C hold.
    TetrioLike,
    /// tetro-tui's "Control+": the minotty keys plus Q and E to teleport left and right and W
    /// to sonic drop (rulesets without teleports ignore them).
    ControlPlus,
    /// tetro-tui's "Guideline": Z counter-clockwise, X and Up clockwise, Space hard drop, C
    /// hold, no half turn (its bare Shift and Ctrl keys need the kitty protocol: left out).
    Guideline,
    /// tetro-tui's "Vim": H and L move, J soft and K hard drop, A and D rotate, Space hold.
    Vim,
}

impl KeyPreset {
    pub const ALL: [KeyPreset; 5] = [
        KeyPreset::Minotty,
        KeyPreset::TetrioLike,
        KeyPreset::ControlPlus,
        KeyPreset::Guideline,
        KeyPreset::Vim,
    ];

    pub fn name(self) -> &'static str {
        match self {
            KeyPreset::Minotty => "minotty",
            KeyPreset::TetrioLike => "TETR.IO-like",
            KeyPreset::ControlPlus => "Control+",
            KeyPreset::Guideline => "Guideline",
            KeyPreset::Vim => "Vim",
        }
    }

    /// Keys of the buttons its base preset leaves without (Control+'s teleports and sonic
    /// drop over the minotty keys).
    fn extra(self) -> &'static [(Button, &'static [Key])] {
        match self {
            KeyPreset::ControlPlus => &[
                (Button::SonicDrop, &[Key::Char('w')]),
                (Button::TeleportLeft, &[Key::Char('q')]),
                (Button::TeleportRight, &[Key::Char('e')]),
            ],
            KeyPreset::Minotty | KeyPreset::TetrioLike | KeyPreset::Guideline | KeyPreset::Vim => {
                &[]
            }
        }
    }

    /// The keys of each button, in slot order (buttons not listed have none).
    fn bindings(self) -> &'static [(Button, &'static [Key])] {
        match self {
            KeyPreset::Minotty => &[
                (Button::Left, &[Key::Left]),
                (Button::Right, &[Key::Right]),
                (Button::SoftDrop, &[Key::Down]),
                (Button::HardDrop, &[Key::Up, Key::Char(' ')]),
                (Button::RotateCcw, &[Key::Char('a'), Key::Char('z')]),
                (Button::RotateCw, &[Key::Char('d'), Key::Char('x')]),
                (Button::Rotate180, &[Key::Char('s')]),
                (Button::Hold, &[Key::Char('c')]),
            ],
            KeyPreset::TetrioLike => &[
                (Button::Left, &[Key::Left]),
                (Button::Right, &[Key::Right]),
                (Button::SoftDrop, &[Key::Down]),
                (Button::HardDrop, &[Key::Char(' ')]),
                (Button::RotateCw, &[Key::Up, Key::Char('x')]),
                (Button::RotateCcw, &[Key::Char('z')]),
                (Button::Rotate180, &[Key::Char('a')]),
                (Button::Hold, &[Key::Char('c')]),
            ],
            KeyPreset::ControlPlus => KeyPreset::Minotty.bindings(),
            KeyPreset::Guideline => &[
                (Button::Left, &[Key::Left]),
                (Button::Right, &[Key::Right]),
                (Button::SoftDrop, &[Key::Down]),
                (Button::HardDrop, &[Key::Char(' ')]),
                (Button::RotateCw, &[Key::Char('x'), Key::Up]),
                (Button::RotateCcw, &[Key::Char('z'), Key::Char('y')]),
                (Button::Hold, &[Key::Char('c')]),
            ],
            KeyPreset::Vim => &[
                (Button::Left, &[Key::Char('h')]),
                (Button::Right, &[Key::Char('l')]),
                (Button::SoftDrop, &[Key::Char('j')]),
                (Button::HardDrop, &[Key::Char('k')]),
                (Button::RotateCcw, &[Key::Char('a')]),
                (Button::RotateCw, &[Key::Char('d')]),
                (Button::Hold, &[Key::Char(' ')]),
            ],
        }
    }
}

/// What a [`Keymap::bind`] changed besides adding the key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Rebound {
    /// The button the key was taken from.
    pub taken_from: Option<Button>,
    /// The key pushed out of the button's last slot (every slot was taken), or the retry key
    /// a new one replaced.
    pub replaced: Option<Key>,
    /// The key was the retry key (no key retries now).
    pub took_retry: bool,
}

impl Keymap {
    /// The keys of `preset`.
    pub fn preset(preset: KeyPreset) -> Keymap {
        let mut map = Keymap::empty();
        for &(button, keys) in preset.bindings().iter().chain(preset.extra()) {
            for &key in keys {
                map.bind(button, key);
            }
        }
        map.retry = Some(Key::Char(DEFAULT_RETRY));
        map
    }

    /// Keys read back from storage: the minotty preset as it was before it had a half-turn key
    /// (issue 36) becomes today's, so that a player who kept the preset gets S for 180° and
    /// still has the preset; any other keys stay as they are.
    pub fn upgraded(self) -> Keymap {
        let new = Keymap::preset(KeyPreset::Minotty);
        let mut old = new.clone();
        old.clear(Button::Rotate180);
        if self == old { new } else { self }
    }

    /// The preset these keys are, if they are one.
    pub fn which_preset(&self) -> Option<KeyPreset> {
        KeyPreset::ALL
            .into_iter()
            .find(|&p| Keymap::preset(p) == *self)
    }

    /// A keymap with no bindings at all.
    pub fn empty() -> Keymap {
        Keymap {
            bindings: [[None; SLOTS]; Button::ALL.len()],
            retry: None,
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
    /// first free slot; when every slot is taken it replaces the last one. Returns what else
    /// changed, for the player to be told.
    pub fn bind(&mut self, button: Button, key: Key) -> Rebound {
        let key = normalize(key);
        let owner = self.lookup(key).map(|(b, _)| b);
        if owner == Some(button) {
            return Rebound::default();
        }
        let took_retry = self.retry == Some(key);
        self.unbind(key);
        let slots = &mut self.bindings[button as usize];
        let replaced = match slots.iter_mut().find(|s| s.is_none()) {
            Some(free) => {
                *free = Some(key);
                None
            }
            None => slots[SLOTS - 1].replace(key),
        };
        Rebound {
            taken_from: owner,
            replaced,
            took_retry,
        }
    }

    /// Removes `key` from whatever button (or retry) has it.
    pub fn unbind(&mut self, key: Key) {
        let key = normalize(key);
        if self.retry == Some(key) {
            self.retry = None;
        }
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
        // The half turn, between the two rotations (issue 36 item 2).
        assert_eq!(b(Key::Char('s')), Some(Button::Rotate180));
        assert_eq!(b(Key::Char('S')), Some(Button::Rotate180));
        assert_eq!(b(Key::Char('q')), None);
    }

    /// A bare Shift (or Ctrl, Alt) never reaches the game from a terminal without the kitty
    /// keyboard protocol: no preset binds one, so no button is left on a key that cannot be sent.
    #[test]
    fn no_preset_binds_a_key_terminals_cannot_send_alone() {
        for preset in KeyPreset::ALL {
            let map = Keymap::preset(preset);
            for key in [Key::Shift, Key::Ctrl, Key::Alt] {
                assert_eq!(map.lookup(key), None, "{preset:?} binds {key:?}");
            }
            for b in [
                Button::Left,
                Button::Right,
                Button::SoftDrop,
                Button::HardDrop,
                Button::RotateCw,
                Button::RotateCcw,
                Button::Rotate180,
                Button::Hold,
            ] {
                // tetro-tui's Guideline and Vim keys have no half turn.
                let none = b == Button::Rotate180
                    && matches!(preset, KeyPreset::Guideline | KeyPreset::Vim);
                assert_eq!(map.keys(b).next().is_none(), none, "{preset:?}: {b:?}");
            }
            assert_eq!(map.which_preset(), Some(preset));
        }
        assert_eq!(Keymap::default().which_preset(), Some(KeyPreset::Minotty));
    }

    #[test]
    fn the_minotty_keys_of_before_the_half_turn_become_today_s() {
        let mut old = Keymap::preset(KeyPreset::Minotty);
        old.clear(Button::Rotate180);
        assert_eq!(old.which_preset(), None);
        let up = old.clone().upgraded();
        assert_eq!(up.which_preset(), Some(KeyPreset::Minotty));
        assert_eq!(up.lookup(Key::Char('s')), Some((Button::Rotate180, 0)));
        // Keys of one's own stay as they are, and so do the presets.
        let mut own = old.clone();
        own.bind(Button::Hold, Key::Char('v'));
        assert_eq!(own.clone().upgraded(), own);
        for p in KeyPreset::ALL {
            assert_eq!(Keymap::preset(p).upgraded(), Keymap::preset(p));
        }
    }

    #[test]
    fn the_tetrio_like_preset_rotates_with_up() {
        let map = Keymap::preset(KeyPreset::TetrioLike);
        let b = |k| map.lookup(k).map(|(b, _)| b);
        assert_eq!(b(Key::Up), Some(Button::RotateCw));
        assert_eq!(b(Key::Char('x')), Some(Button::RotateCw));
        assert_eq!(b(Key::Char('z')), Some(Button::RotateCcw));
        assert_eq!(b(Key::Char('a')), Some(Button::Rotate180));
        assert_eq!(b(Key::Char(' ')), Some(Button::HardDrop));
        assert_eq!(b(Key::Char('c')), Some(Button::Hold));
        assert_eq!(b(Key::Char('d')), None);
        assert!(map.up_rotates());
        let mut custom = map.clone();
        custom.bind(Button::Hold, Key::Char('v'));
        assert_eq!(custom.which_preset(), None);
    }

    #[test]
    fn binding_says_what_it_took() {
        let mut map = Keymap::default();
        let r = map.bind(Button::Hold, Key::Char(' '));
        assert_eq!(r.taken_from, Some(Button::HardDrop));
        assert_eq!(r.replaced, None);
        assert_eq!(map.bind(Button::Hold, Key::Char(' ')), Rebound::default());
        map.bind(Button::Hold, Key::Char('v'));
        let r = map.bind(Button::Hold, Key::Char('b'));
        assert_eq!((r.taken_from, r.replaced), (None, Some(Key::Char('v'))));
    }

    #[test]
    fn binding_moves_a_key_and_up_rotates_toggles() {
        let mut map = Keymap::default();
        map.bind(Button::Hold, Key::Up);
        assert_eq!(map.lookup(Key::Up), Some((Button::Hold, 1)));
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
