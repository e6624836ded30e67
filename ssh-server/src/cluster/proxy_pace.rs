//! A proxy task's timed rules, with time coming in (tested on tokio's paused clock in
//! `proxy_tests.rs`): it wakes for each response of its member and on a tick every
//! [`HEARTBEAT_EVERY`] (the first one [`HEARTBEAT_EVERY`] after it starts), and it is idle
//! (its work done) once it is out of any room and not queued, after it relayed an answer or,
//! never admitted, [`PROXY_ADMISSION`] after it was made. [`order`]: what it publishes first
//! for each response.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::{Instant, Interval};

use super::HEARTBEAT_EVERY;

/// A proxy that never got into its room (refused, full) is done after this long.
pub(super) const PROXY_ADMISSION: Duration = Duration::from_secs(5);

/// What wakes a proxy task, and when its work is done.
#[derive(Debug)]
pub(super) struct ProxyPace {
    tick: Interval,
    born: Instant,
    answered: bool,
}

impl ProxyPace {
    /// For a proxy made at `born`, whose task starts now.
    pub(super) fn new(born: Instant) -> ProxyPace {
        let start = Instant::now() + HEARTBEAT_EVERY;
        ProxyPace {
            tick: tokio::time::interval_at(start, HEARTBEAT_EVERY),
            born,
            answered: false,
        }
    }

    /// The next wake: `Some(Some(r))` a response for the member, `Some(None)` a tick, `None`
    /// when the member's channel closed.
    pub(super) async fn next<T>(&mut self, rx: &mut mpsc::Receiver<T>) -> Option<Option<T>> {
        tokio::select! {
            r = rx.recv() => r.map(Some),
            _ = self.tick.tick() => Some(None),
        }
    }

    /// The proxy relayed an answer to its member's instance.
    pub(super) fn answered(&mut self) {
        self.answered = true;
    }

    /// Whether the proxy's work is done at `now`: out of its room and not waiting in the queue
    /// (after the room had its say, or never admitted).
    pub(super) fn idle(&self, linked: bool, queued: bool, now: Instant) -> bool {
        !linked && !queued && (self.answered || now.duration_since(self.born) >= PROXY_ADMISSION)
    }
}

/// One of the two things a proxy may publish for a response of its member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    /// `Linked`/`Unlinked`, when the member's room changed.
    Link,
    /// The response itself.
    Relay,
}

/// In which order a proxy publishes for one response, its member linked to a room before
/// (`was_linked`) and now (`linked`): the link first (a session hears `Linked` before its new
/// room's first word), except when the member is out of its room: then the room's last word
/// (its `RoomClosed`) goes before `Unlinked`, so that an instance that heard `Unlinked` heard
/// the word too (NATS keeps one connection's order), whatever is lost if this instance exits
/// right after.
pub(super) fn order(was_linked: bool, linked: bool) -> [Step; 2] {
    if was_linked && !linked {
        [Step::Relay, Step::Link]
    } else {
        [Step::Link, Step::Relay]
    }
}
