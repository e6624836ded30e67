//! What the release synthesizer makes up, played on the game: a release, or a press it held
//! back as perhaps a repeat that turned out a tap ([`crate::release::Due`]).

use super::GameSession;
use crate::keymap::Keymap;
use crate::keys::Key;
use crate::release::Due;

impl GameSession {
    /// Plays a synthetic event of `key` due at front-end time `at`. Returns whether anything
    /// visible changed.
    pub(super) fn synthetic(&mut self, key: Key, at: u64, due: Due, keys: &Keymap) -> bool {
        let Some((button, slot)) = keys.lookup(key) else {
            return false;
        };
        let up = self.button(button, slot, false, at);
        match due {
            Due::Release => up,
            Due::Tap => self.button(button, slot, true, at) || up,
        }
    }
}
