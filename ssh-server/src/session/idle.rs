//! When a session ends for doing nothing: a player idles out [`Limits::idle_timeout`] after
//! their last key (a game in play never does; a paused one counts from its pause), a watcher
//! after the longest watch ([`crate::live::MAX_WATCH`]) from their last key, and a stream
//! after the longest watch from its start. Time comes in (`now`): no clock is read here.
//!
//! [`Limits::idle_timeout`]: crate::config::Limits::idle_timeout

use std::time::Duration;

use tokio::time::Instant;

/// The idle side of one session.
#[derive(Clone, Copy, Debug)]
pub(super) struct Idleness {
    start: Instant,
    last_input: Instant,
    was_paused: bool,
    /// A stream without a terminal: it reads no keys.
    stream: bool,
    idle_timeout: Duration,
    max_watch: Duration,
}

/// Why idleness ends the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum IdleEnd {
    /// A player who pressed nothing for the idle timeout (not in a game in play).
    Idle,
    /// A watcher or stream past the longest watch.
    WatchLimit,
}

/// What the session is doing, as far as idleness goes.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Doing {
    pub paused: bool,
    pub in_game: bool,
    /// Watching on the Live screen's TV (with a terminal).
    pub watching_live: bool,
}

impl Idleness {
    pub(super) fn new(start: Instant, stream: bool, idle_timeout: Duration) -> Idleness {
        Idleness {
            start,
            last_input: start,
            was_paused: false,
            stream,
            idle_timeout,
            max_watch: crate::live::MAX_WATCH,
        }
    }

    /// A key (any input) arrived at `now`.
    pub(super) fn input(&mut self, now: Instant) {
        self.last_input = now;
    }

    /// The last input, for the input-latency figure.
    pub(super) fn last_input(&self) -> Instant {
        self.last_input
    }

    /// At `now`, doing `doing`: the moment idleness would end the session, and whether it
    /// ends it now. A game that just paused (by the player, or by itself) idles out an idle
    /// timeout after its pause, not at once.
    pub(super) fn check(&mut self, now: Instant, doing: Doing) -> (Instant, Option<IdleEnd>) {
        if doing.paused && !self.was_paused {
            self.last_input = self.last_input.max(now);
        }
        self.was_paused = doing.paused;
        // Watchers are not expected to press keys: no idle timeout, but a longest watch.
        let watching = self.stream || doing.watching_live;
        let deadline = if watching {
            let from = if self.stream {
                self.start
            } else {
                self.last_input
            };
            from.max(self.start) + self.max_watch
        } else {
            self.last_input + self.idle_timeout
        };
        let end = if watching && now >= deadline {
            Some(IdleEnd::WatchLimit)
        } else if now >= deadline && (!doing.in_game || doing.paused) {
            // A paused game idles out like a menu: it holds a slot and does nothing.
            Some(IdleEnd::Idle)
        } else {
            None
        };
        (deadline, end)
    }
}

#[cfg(test)]
#[path = "idle_tests.rs"]
mod tests;
