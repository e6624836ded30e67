//! Abstract key events: what every front end (SSH session, local terminal) turns its input into.

/// A key, independent of any terminal library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Key {
    Char(char),
    Up,
    Down,
    Left,
    Right,
    Enter,
    Esc,
    Backspace,
    Tab,
    BackTab,
    Delete,
    Insert,
    Home,
    End,
    PageUp,
    PageDown,
    F(u8),
    /// A modifier pressed on its own (only reported by terminals with the kitty protocol).
    Shift,
    Ctrl,
    Alt,
}

/// Modifiers held with a key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Mods {
    pub shift: bool,
    pub ctrl: bool,
    pub alt: bool,
}

/// Press, auto-repeat, or release.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyKind {
    Press,
    Repeat,
    Release,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyEvent {
    pub key: Key,
    pub mods: Mods,
    pub kind: KeyKind,
}

impl KeyEvent {
    pub fn press(key: Key) -> KeyEvent {
        KeyEvent {
            key,
            mods: Mods::default(),
            kind: KeyKind::Press,
        }
    }
}
