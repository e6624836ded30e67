//! What a retry and the leave question need of a session.

use super::{GameSession, RunState};

impl GameSession {
    /// Ends the countdown now: a retried game starts at once (the retry key was the player's
    /// "ready"). Nothing happens to a session not counting down.
    pub fn skip_countdown(&mut self) {
        if let RunState::Countdown { .. } = self.state {
            self.start(self.now);
        }
    }

    /// Whether any of the game has been played: its clock ran or it ended (leaving a game
    /// still at 0:00.0 loses nothing).
    pub fn played(&self) -> bool {
        self.is_over() || self.game_time() > self.base
    }
}
