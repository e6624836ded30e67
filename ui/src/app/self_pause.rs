//! The pauses a solo game makes by itself: when no key came for the idle threshold, and when
//! the terminal became too small to show it.

use super::{App, Screen};

impl App {
    /// When the running solo game on screen pauses itself for want of keys, if it can.
    pub(super) fn idle_pause_due(&self) -> Option<u64> {
        let limit = self.idle_pause?;
        let s = self.session.as_ref()?;
        let running = self.screen == Screen::Game && !s.is_paused() && !s.is_over();
        (running && !s.is_versus()).then(|| self.last_key.saturating_add(limit))
    }

    /// Pauses the running solo game on screen without the player asking (never a versus game,
    /// never one already paused or over); the pause menu opens at its first entry.
    pub(super) fn auto_pause(&mut self, now: u64) {
        let Some(s) = &mut self.session else { return };
        if self.screen != Screen::Game || s.is_paused() || s.is_over() || s.is_versus() {
            return;
        }
        s.pause(now, &self.settings.keys);
        self.pause_cursor = 0;
        self.dirty = true;
    }
}
