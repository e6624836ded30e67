//! When a session applies the client's window size.
//!
//! Window changes are merged before they reach the session: the handler keeps only the latest
//! size in a `watch` (no queue, no allocation) and the session is woken by the first change
//! only. Applying a size costs a repaint of the whole screen at that size (at the largest
//! size drawn, 500x200, that is 100,000 cells cleared, rendered and compared), so sizes are
//! applied once the client stops changing them: [`RESIZE_QUIET`] after the last change, or
//! [`RESIZE_MAX_WAIT`] after the first of a stream that never pauses. A flood of changes
//! therefore costs one repaint (plus one per [`RESIZE_MAX_WAIT`] while it lasts), not one per
//! 100 ms, and the sizes it passes through are never drawn (nor their buffers allocated). The
//! session does not learn of every change: it looks at the watch again when its wait is over,
//! so a flood also costs it at most one wakeup per [`RESIZE_QUIET`].

use std::time::Duration;

use tokio::time::Instant;

/// A size is applied once no change has come for this long (a terminal being dragged sends a
/// change every few milliseconds; one that was resized once sends one).
pub const RESIZE_QUIET: Duration = Duration::from_millis(50);
/// ... or at the latest this long after the first change of a stream that never pauses.
pub const RESIZE_MAX_WAIT: Duration = Duration::from_secs(1);

/// What [`Resizer::check`] decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Check {
    /// Apply the latest size now.
    Apply,
    /// Look again at this time (the client is still changing its size).
    Wait(Instant),
}

/// The session's side of window changes: whether a size is waiting to be applied, and when to
/// look at it next. Time comes in as arguments, so the rule is tested without a clock.
#[derive(Debug, Default)]
pub struct Resizer {
    /// When the first change not applied yet was seen.
    pending_since: Option<Instant>,
    /// When to look again.
    check_at: Option<Instant>,
    /// Sizes applied so far (each a full repaint).
    applied: u64,
}

impl Resizer {
    pub fn new() -> Resizer {
        Resizer::default()
    }

    /// Whether a change is waiting: the session then stops listening for changes (it looks at
    /// the latest size when [`Resizer::due`] comes).
    pub fn pending(&self) -> bool {
        self.pending_since.is_some()
    }

    /// The session saw a change at `now` (after none was pending).
    pub fn changed(&mut self, now: Instant) {
        if self.pending_since.is_none() {
            self.pending_since = Some(now);
        }
        self.check_at = Some(now + RESIZE_QUIET);
    }

    /// When the session must look again, if a change is pending.
    pub fn due(&self) -> Option<Instant> {
        self.check_at
    }

    /// At `now` (at or after [`Resizer::due`]): `more` says whether the client changed its size
    /// again since the session last looked. Apply when it did not, or when the stream of
    /// changes has lasted [`RESIZE_MAX_WAIT`].
    pub fn check(&mut self, now: Instant, more: bool) -> Check {
        let since = self.pending_since.unwrap_or(now);
        let deadline = since + RESIZE_MAX_WAIT;
        if more && now < deadline {
            let at = (now + RESIZE_QUIET).min(deadline);
            self.check_at = Some(at);
            return Check::Wait(at);
        }
        self.pending_since = None;
        self.check_at = None;
        self.applied += 1;
        Check::Apply
    }

    /// Sizes applied so far.
    pub fn applied(&self) -> u64 {
        self.applied
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the session's side against changes arriving at `changes` (offsets from the
    /// start, in order): the session is woken by a change only when none is pending, and
    /// otherwise looks at the watch when the resizer says. Returns when each size was applied.
    fn simulate(changes: &[Duration]) -> (Vec<Duration>, u64) {
        let start = Instant::now();
        let mut r = Resizer::new();
        let mut applied_at = Vec::new();
        let mut seen = 0; // changes the session has looked at
        let mut wakeups = 0;
        let end = changes.last().copied().unwrap_or_default() + RESIZE_MAX_WAIT * 2;
        let mut now = Duration::ZERO;
        while now <= end {
            // The next event: the resizer's check, or (when nothing is pending) a change.
            let next_change = changes.get(seen).copied();
            let next = match r.due() {
                Some(at) => Some(at.duration_since(start)),
                None => next_change,
            };
            let Some(next) = next else { break };
            now = next.max(now);
            wakeups += 1;
            let arrived = changes.partition_point(|&c| c <= now);
            if r.pending() {
                let more = arrived > seen;
                seen = arrived;
                if r.check(start + now, more) == Check::Apply {
                    applied_at.push(now);
                }
            } else {
                seen = arrived;
                r.changed(start + now);
            }
        }
        assert_eq!(r.applied(), applied_at.len() as u64);
        (applied_at, wakeups)
    }

    fn every(n: u32, gap: Duration) -> Vec<Duration> {
        (0..n).map(|i| gap * i).collect()
    }

    #[test]
    fn one_change_is_applied_once_after_the_quiet_time() {
        let (applied, wakeups) = simulate(&[Duration::from_millis(7)]);
        assert_eq!(applied, vec![Duration::from_millis(7) + RESIZE_QUIET]);
        assert_eq!(wakeups, 2);
    }

    #[test]
    fn a_flood_of_20000_changes_is_one_resize_and_a_few_wakeups() {
        // 20,000 changes 10 us apart (0.2 s, as fast as a release client sends them).
        let flood = every(20_000, Duration::from_micros(10));
        let last = *flood.last().expect("changes");
        let (applied, wakeups) = simulate(&flood);
        // One size applied, the last one, once the flood is over.
        assert_eq!(applied.len(), 1, "{applied:?}");
        assert!(applied[0] > last && applied[0] <= last + RESIZE_QUIET * 2);
        // Woken by the first change, then once per quiet period while it lasts.
        let periods = (last.as_micros() / RESIZE_QUIET.as_micros()) as u64;
        assert!(wakeups <= periods + 3, "{wakeups} wakeups");
    }

    #[test]
    fn a_stream_that_never_pauses_is_applied_once_per_max_wait() {
        // A change every 10 ms for 5 s: never quiet for RESIZE_QUIET.
        let stream = every(500, Duration::from_millis(10));
        let (applied, _) = simulate(&stream);
        // Once per RESIZE_MAX_WAIT while it lasts, and once when it stops.
        assert!((5..=6).contains(&applied.len()), "{applied:?}");
        assert!(
            applied
                .last()
                .is_some_and(|&t| t > Duration::from_millis(4990))
        );
    }

    #[test]
    fn alternating_sizes_reuse_the_screen_buffer() {
        use crate::terminal::RemoteTerminal;
        use ratatui::widgets::{Paragraph, Widget};
        let mut term = RemoteTerminal::new(100, 40);
        term.resize(290, 60);
        let first = term.capacity();
        assert!(first.0 >= 290 * 60);
        for i in 0..1_000u16 {
            term.resize(290 - i % 2, 60);
            // The buffer was neither grown nor moved: nothing was allocated.
            assert_eq!(term.capacity(), first, "resize {i}");
        }
        term.draw(|area, buf| Paragraph::new("last").render(area, buf));
        assert!(String::from_utf8_lossy(&term.take_output()).contains("last"));
        // A window larger than the drawn area holds no more than it.
        term.resize(500, 200);
        let cap = usize::from(crate::terminal::DRAW_COLS) * usize::from(crate::terminal::DRAW_ROWS);
        assert!(term.capacity().0 <= cap, "{:?}", term.capacity());
        // Back to a small window: the large buffer is given back.
        term.resize(80, 24);
        assert!(term.capacity().0 < 290 * 60 / 4, "{:?}", term.capacity());
        assert_eq!(term.size(), (80, 24));
    }

    #[test]
    fn changes_apart_are_each_applied() {
        let apart = every(4, RESIZE_QUIET * 3);
        let (applied, _) = simulate(&apart);
        assert_eq!(applied.len(), 4);
    }
}
