//! When the session loop wakes next, from everything that is due: the earliest of its
//! deadlines, never later than the idle deadline (or a second from now), never in the past
//! (a wakeup in the past must not spin the loop). Time comes in (`now`).

use std::time::Duration;

use tokio::time::Instant;

/// The next wakeup, gathered from what is due.
#[derive(Clone, Copy, Debug)]
pub(super) struct Wake {
    now: Instant,
    at: Instant,
}

/// The shortest sleep: a wakeup in the past wakes this much after `now`.
const MIN_SLEEP: Duration = Duration::from_millis(1);

/// The longest sleep when the idle deadline has passed already.
const IDLE_RECHECK: Duration = Duration::from_secs(1);

impl Wake {
    /// At `now`, with the session's idle deadline.
    pub(super) fn new(now: Instant, idle_deadline: Instant) -> Wake {
        Wake {
            now,
            at: idle_deadline.max(now + IDLE_RECHECK),
        }
    }

    /// Something due at `at` (nothing: `None`).
    pub(super) fn by(&mut self, at: Option<Instant>) {
        if let Some(at) = at {
            self.at = self.at.min(at);
        }
    }

    /// Something to do on the next turn.
    pub(super) fn at_once(&mut self) {
        self.at = self.now;
    }

    /// When to wake.
    pub(super) fn at(self) -> Instant {
        self.at.max(self.now + MIN_SLEEP)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_earliest_due_wins_within_the_idle_deadline() {
        let t0 = Instant::now();
        let idle = t0 + Duration::from_secs(600);
        let mut wake = Wake::new(t0, idle);
        assert_eq!(wake.at(), idle);
        wake.by(None);
        wake.by(Some(t0 + Duration::from_millis(16)));
        wake.by(Some(t0 + Duration::from_secs(2)));
        assert_eq!(wake.at(), t0 + Duration::from_millis(16));
    }

    #[test]
    fn a_past_deadline_never_spins() {
        let t0 = Instant::now();
        let now = t0 + Duration::from_secs(10);
        // The idle deadline passed (a game in play): rechecked a second from now.
        assert_eq!(Wake::new(now, t0).at(), now + IDLE_RECHECK);
        let mut wake = Wake::new(now, t0);
        wake.by(Some(t0));
        assert_eq!(wake.at(), now + MIN_SLEEP);
        let mut wake = Wake::new(now, now + Duration::from_secs(60));
        wake.at_once();
        assert_eq!(wake.at(), now + MIN_SLEEP);
    }
}
