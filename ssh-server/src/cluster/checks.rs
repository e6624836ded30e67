//! What an instance checks in every message of another before acting on it, and the counts of
//! what it dropped (`minotty_cluster_dropped_total{reason}` in `/metrics`, kept by
//! `metrics/cluster.rs`), with the sizes of what other instances can make it hold (peers,
//! proxies).
//!
//! A subject part taken from a message (an instance id, a room code) is formatted into a NATS
//! subject only when [`valid_part`] accepts it: the NATS protocol is text, so a part holding a
//! space, a dot, a wildcard or a line break would publish elsewhere or inject a command.

use std::sync::atomic::{AtomicU64, Ordering};

pub use crate::metrics::cluster::{DropReason, dropped_count, render, set_sizes};

/// The longest subject part read from another instance (an instance id is at most 32
/// characters of name, a dash and 8 hex digits).
pub const MAX_PART: usize = 48;

/// Whether `s` may be formatted into a subject: 1 to [`MAX_PART`] of `[A-Za-z0-9_-]`.
pub fn valid_part(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_PART
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// Counts a dropped message (and logs it at debug: a flood must not flood the log).
pub fn dropped(reason: DropReason, subject: &str) {
    crate::metrics::cluster::count_drop(reason);
    tracing::debug!(?reason, subject = %subject.escape_debug(), "a cluster message was dropped");
    if reason == DropReason::Unauthenticated && due(&UNSEALED_WARNED, since_start()) {
        // Otherwise an instance started with another cluster key serves alone, unexplained.
        tracing::warn!(
            dropped = dropped_count(reason),
            "cluster messages without a valid seal are being dropped: does every instance have \
             the same --cluster-key? (or something else publishes on NATS)"
        );
    }
    if reason == DropReason::Version && due(&VERSION_WARNED, since_start()) {
        tracing::warn!(
            dropped = dropped_count(reason),
            "cluster messages sealed by another minotty version are being dropped: every \
             instance of a cluster must run the same version (upgrade them together)"
        );
    }
}

/// When the warning about messages of another version was last logged (as
/// [`UNSEALED_WARNED`]).
static VERSION_WARNED: AtomicU64 = AtomicU64::new(0);

/// Seconds since the first call, for [`due`].
fn since_start() -> u64 {
    static START: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
    START
        .get_or_init(std::time::Instant::now)
        .elapsed()
        .as_secs()
}

/// When the warning about unsealed messages was last logged (seconds after start, plus one;
/// 0: never).
static UNSEALED_WARNED: AtomicU64 = AtomicU64::new(0);

/// Whether a warning last logged at `last` is due again at `now` (at most one a minute).
fn due(last: &AtomicU64, now: u64) -> bool {
    let previous = last.load(Ordering::Relaxed);
    if previous != 0 && now + 1 < previous + 60 {
        return false;
    }
    last.compare_exchange(previous, now + 1, Ordering::Relaxed, Ordering::Relaxed)
        .is_ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_unsealed_warning_is_logged_at_most_once_a_minute() {
        let last = std::sync::atomic::AtomicU64::new(0);
        let logged: Vec<u64> = (0..200).filter(|&now| super::due(&last, now)).collect();
        assert_eq!(logged, vec![0, 60, 120, 180]);
    }

    use super::*;

    #[test]
    fn subject_parts_are_plain_and_bounded() {
        for ok in [
            "a",
            "minotty-0a1b2c3d",
            "K7PQ3M",
            "x_y-Z9",
            &"a".repeat(MAX_PART),
        ] {
            assert!(valid_part(ok), "{ok}");
        }
        let long = "a".repeat(MAX_PART + 1);
        for bad in [
            "",
            "a.b",
            "a b",
            "*",
            ">",
            "a\r\nSUB injected.proof 1\r\n",
            "é",
            "a\0",
            long.as_str(),
        ] {
            assert!(!valid_part(bad), "{bad:?}");
        }
    }

    #[test]
    fn drops_are_counted_by_reason() {
        let before = dropped_count(DropReason::Stale);
        dropped(DropReason::Stale, "minotty.heartbeat");
        assert_eq!(dropped_count(DropReason::Stale), before + 1);
        let mut o = String::new();
        render(&mut o);
        assert!(
            o.contains("minotty_cluster_dropped_total{reason=\"stale\"}"),
            "{o}"
        );
        assert!(o.contains("minotty_cluster_proxies "), "{o}");
    }
}
