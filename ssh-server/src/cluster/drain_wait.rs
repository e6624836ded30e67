//! The drain's wait for running matches, with what runs coming in (tested on tokio's paused
//! clock in `drain_tests.rs`): it looks every [`LOOK_EVERY`]; it ends once nothing ran for
//! [`AFTER_LAST_MATCH`] (at once when nothing ran at all), and at the first look at or after
//! its cap at the latest, saying what still ran then.

use std::time::Duration;

use tokio::time::Instant;

/// After the last match ended, how long the drain still lets its players see the results and
/// their games' replays reach the rooms (a room waits [`crate::versus::REPLAY_GRACE`] for them).
pub(super) const AFTER_LAST_MATCH: Duration = Duration::from_secs(3);

/// How often the drain logs what it still waits for.
const LOG_EVERY: Duration = Duration::from_secs(10);

/// How often the drain looks at what still runs.
pub(super) const LOOK_EVERY: Duration = Duration::from_millis(500);

/// What the drain counts: matches of this instance's rooms, and matches its players play in
/// rooms of other instances.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Running {
    pub local_rooms: usize,
    pub remote_matches: usize,
}

impl Running {
    pub fn total(self) -> usize {
        self.local_rooms + self.remote_matches
    }
}

/// How the wait ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum DrainEnd {
    /// Nothing ran for [`AFTER_LAST_MATCH`] (or nothing ran at all).
    Drained,
    /// The cap came first; what ran at that look (possibly nothing, within the
    /// [`AFTER_LAST_MATCH`] after the last match).
    TimeUp(Running),
}

/// Waits until nothing `running` says ran for [`AFTER_LAST_MATCH`], at most `cap` (from now).
pub(super) async fn wait_for_matches(
    cap: Duration,
    mut running: impl FnMut() -> Running,
) -> DrainEnd {
    let deadline = Instant::now() + cap;
    let mut told: Option<Instant> = None;
    let mut last_running: Option<Instant> = None;
    loop {
        let running = running();
        let now = Instant::now();
        if running.total() > 0 {
            last_running = Some(now);
        } else if last_running.is_none_or(|t| now.duration_since(t) >= AFTER_LAST_MATCH) {
            tracing::info!("drained: no match is running");
            return DrainEnd::Drained;
        }
        if now >= deadline {
            return DrainEnd::TimeUp(running);
        }
        if told.is_none_or(|t| t.elapsed() >= LOG_EVERY) {
            told = Some(now);
            tracing::info!(
                local_rooms = running.local_rooms,
                remote_matches = running.remote_matches,
                "draining: waiting for matches to end"
            );
        }
        tokio::time::sleep(LOOK_EVERY).await;
    }
}
