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

/// Work that time alone makes (the App's deadlines: a clock's tenths, gravity, effects; paced
/// frames) is done on the server's beat, a grid this fine shared by every session: the
/// sessions due within one beat wake together, and the runtime's threads handle them in one
/// go instead of sleeping and waking for each (under load that was a tenth of the server's
/// CPU). Such a frame goes out at most a beat late; keys are never held back.
const BEAT: Duration = Duration::from_millis(8);

/// `at`, or the first beat after it (the beats count from the first time asked for).
pub(super) fn on_beat(at: Instant) -> Instant {
    static EPOCH: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    beat_after(at, *EPOCH.get_or_init(Instant::now))
}

/// `at`, or the first beat after it, the beats counted from `epoch` (a time before it:
/// unchanged).
fn beat_after(at: Instant, epoch: Instant) -> Instant {
    let Some(since) = at.checked_duration_since(epoch) else {
        return at;
    };
    let beat = BEAT.as_nanos();
    let beats = since.as_nanos().div_ceil(beat);
    let Ok(nanos) = u64::try_from(beats * beat) else {
        return at;
    };
    epoch + Duration::from_nanos(nanos)
}

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

    /// Something that time alone makes due at `at`: woken for on the beat ([`on_beat`]).
    pub(super) fn on_beat(&mut self, at: Option<Instant>) {
        self.by(at.map(on_beat));
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
    fn time_made_work_wakes_on_the_beat() {
        let epoch = Instant::now();
        let ms = Duration::from_millis;
        assert_eq!(beat_after(epoch, epoch), epoch, "a time on the beat stays");
        assert_eq!(beat_after(epoch + ms(3), epoch), epoch + BEAT);
        assert_eq!(beat_after(epoch + BEAT, epoch), epoch + BEAT);
        assert_eq!(
            beat_after(epoch + BEAT + Duration::from_nanos(1), epoch),
            epoch + BEAT * 2
        );
        // Sessions' deadlines within one beat wake together.
        let due = [ms(9), ms(11), ms(13), BEAT * 2];
        assert!(
            due.iter()
                .all(|&d| beat_after(epoch + d, epoch) == epoch + BEAT * 2)
        );
        // Before the epoch: as asked.
        let later = epoch + ms(100);
        assert_eq!(beat_after(epoch, later), epoch);
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
