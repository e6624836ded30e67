//! This instance's own link to NATS, so that what is logged and told names the real cause: when
//! the link is down every other instance falls silent at once, and that is not their fault.
//!
//! The link is down when the client says it is disconnected
//! (`async_nats::Client::connection_state`), or when this instance's own heartbeat has not come
//! back through the NATS server for [`SILENT_AFTER`]: a partition (a stalled TCP link) leaves
//! the client "connected" for a long time, but nothing passes. [`SILENT_AFTER`] is shorter
//! than [`super::DEAD_AFTER`], so the link is found down before the silent peers are declared
//! dead in the same sweep. A change is logged once: at warn "lost the connection to NATS",
//! then "reconnected to NATS".

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use async_nats::connection::State;
use tokio::time::Instant;

use super::lock;

/// This instance's heartbeat not back for this long: its NATS link is down.
pub const SILENT_AFTER: Duration = Duration::from_secs(2);

/// What this instance knows of its own NATS link.
#[derive(Debug)]
pub(super) struct NatsLink {
    /// When this instance's own heartbeat last came back.
    echoed: Mutex<Instant>,
    down: AtomicBool,
}

/// Whether a link in `state`, whose last echo was `since_echo` ago, is down.
fn is_down(state: &State, since_echo: Duration) -> bool {
    *state != State::Connected || since_echo >= SILENT_AFTER
}

impl NatsLink {
    pub(super) fn new(now: Instant) -> NatsLink {
        NatsLink {
            echoed: Mutex::new(now),
            down: AtomicBool::new(false),
        }
    }

    /// This instance's own heartbeat came back at `now`.
    pub(super) fn echoed(&self, now: Instant) {
        *lock(&self.echoed) = now;
    }

    /// Whether the link was down at the latest [`NatsLink::check`].
    #[cfg(test)]
    pub(super) fn is_down(&self) -> bool {
        self.down.load(Ordering::Relaxed)
    }

    /// Looks at the link at `now` (the client's `state`), logs a change, and returns whether
    /// it is down.
    pub(super) fn check(&self, state: &State, now: Instant) -> bool {
        let since = now.saturating_duration_since(*lock(&self.echoed));
        let down = is_down(state, since);
        match (self.down.swap(down, Ordering::Relaxed), down) {
            (false, true) => tracing::warn!(
                client = %state,
                silent_ms = u64::try_from(since.as_millis()).unwrap_or(u64::MAX),
                "lost the connection to NATS: rooms and players of other instances are out of \
                 reach until it returns"
            ),
            (true, false) => tracing::info!("reconnected to NATS"),
            _ => {}
        }
        down
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn down_when_disconnected_or_when_the_own_heartbeat_stops_coming_back() {
        let t0 = Instant::now();
        let link = NatsLink::new(t0);
        assert!(!link.check(&State::Connected, t0 + Duration::from_millis(1500)));
        // A partition: the client still says connected, the heartbeat does not come back.
        assert!(link.check(&State::Connected, t0 + SILENT_AFTER));
        assert!(link.is_down());
        link.echoed(t0 + Duration::from_secs(3));
        assert!(!link.check(&State::Connected, t0 + Duration::from_secs(3)));
        assert!(!link.is_down());
        // The client knows it is disconnected: down at once.
        assert!(link.check(&State::Disconnected, t0 + Duration::from_secs(3)));
        assert!(SILENT_AFTER < super::super::DEAD_AFTER);
    }
}
