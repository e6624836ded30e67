//! The pauses a solo game makes by itself: when no key came for the idle threshold, and when
//! the terminal became too small to show it.

use super::Solo;
use crate::keymap::Keymap;

impl Solo {
    /// When the running solo game pauses itself for want of keys, if it can (the App asks
    /// only while the game screen shows).
    pub(in crate::app) fn idle_pause_due(&self) -> Option<u64> {
        let limit = self.idle_pause?;
        let s = self.session.as_ref()?;
        let running = !s.is_paused() && !s.is_over();
        (running && !s.is_versus()).then(|| self.last_key.saturating_add(limit))
    }

    /// Pauses the running solo game without the player asking (never a versus game, never one
    /// already paused or over); the pause menu opens at its first entry. The App calls it only
    /// while the game screen shows. Returns whether it paused.
    pub(in crate::app) fn auto_pause(&mut self, now: u64, keys: &Keymap) -> bool {
        let Some(s) = &mut self.session else {
            return false;
        };
        if s.is_paused() || s.is_over() || s.is_versus() {
            return false;
        }
        s.pause(now, keys);
        self.pause_cursor = 0;
        true
    }
}
