//! The account screens' clock: a replay being watched plays on (the unreachable screen's
//! clock is the `unreachable` feature's).

use super::{AccountState, Sub};

impl AccountState {
    /// Advances a replay being watched; `true` when the screen changed.
    pub(in crate::app) fn tick_replay(&mut self, now: u64) -> bool {
        match &mut self.sub {
            Some(Sub::Replay(r)) => r.tick(now),
            _ => false,
        }
    }

    /// When the replay being watched next needs a tick.
    pub(in crate::app) fn replay_wakeup(&self) -> Option<u64> {
        match &self.sub {
            Some(Sub::Replay(r)) => r.wakeup(),
            _ => None,
        }
    }
}
