//! What an instance checks in every message of another before acting on it, and the counts of
//! what it dropped (`minotty_cluster_dropped_total{reason}` in `/metrics`), with the sizes of
//! what other instances can make it hold (peers, proxies).
//!
//! A subject part taken from a message (an instance id, a room code) is formatted into a NATS
//! subject only when [`valid_part`] accepts it: the NATS protocol is text, so a part holding a
//! space, a dot, a wildcard or a line break would publish elsewhere or inject a command.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

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

/// Why a message of the cluster was dropped unread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// No valid seal: no or a wrong cluster key, a changed subject or payload.
    Unauthenticated,
    /// Sealed too long ago (or in the future), or already received: a replay.
    Stale,
    /// A subject part (instance id, room code) outside [`valid_part`].
    BadSubjectPart,
    /// Does not decode, or says something its sender may not say (another instance's id).
    Malformed,
    /// Would grow a bounded table past its cap (peers, proxies of one peer).
    OverCap,
    /// A join from an instance not heard from (no heartbeat yet, or dead).
    UnknownPeer,
}

const REASONS: [(DropReason, &str); 6] = [
    (DropReason::Unauthenticated, "unauthenticated"),
    (DropReason::Stale, "stale"),
    (DropReason::BadSubjectPart, "bad_subject_part"),
    (DropReason::Malformed, "malformed"),
    (DropReason::OverCap, "over_cap"),
    (DropReason::UnknownPeer, "unknown_peer"),
];

static DROPPED: [AtomicU64; 6] = [
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
    AtomicU64::new(0),
];
static PEERS: AtomicI64 = AtomicI64::new(0);
static PROXIES: AtomicI64 = AtomicI64::new(0);

fn index(reason: DropReason) -> usize {
    REASONS.iter().position(|(r, _)| *r == reason).unwrap_or(0)
}

/// Counts a dropped message (and logs it at debug: a flood must not flood the log).
pub fn dropped(reason: DropReason, subject: &str) {
    DROPPED[index(reason)].fetch_add(1, Ordering::Relaxed);
    tracing::debug!(?reason, subject = %subject.escape_debug(), "a cluster message was dropped");
    if reason == DropReason::Unauthenticated && due(&UNSEALED_WARNED, since_start()) {
        // Otherwise an instance started with another cluster key serves alone, unexplained.
        tracing::warn!(
            dropped = dropped_count(reason),
            "cluster messages without a valid seal are being dropped: does every instance have \
             the same --cluster-key? (or something else publishes on NATS)"
        );
    }
}

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

/// Messages dropped for `reason` so far.
pub fn dropped_count(reason: DropReason) -> u64 {
    DROPPED[index(reason)].load(Ordering::Relaxed)
}

/// The peer map's and the proxy table's sizes now.
pub fn set_sizes(peers: usize, proxies: usize) {
    PEERS.store(i64::try_from(peers).unwrap_or(i64::MAX), Ordering::Relaxed);
    PROXIES.store(
        i64::try_from(proxies).unwrap_or(i64::MAX),
        Ordering::Relaxed,
    );
}

/// The cluster's lines of `/metrics`.
pub fn render(o: &mut String) {
    let _ = writeln!(
        o,
        "# HELP minotty_cluster_dropped_total Messages of the cluster dropped unread, by reason.\n\
         # TYPE minotty_cluster_dropped_total counter"
    );
    for (i, (_, name)) in REASONS.iter().enumerate() {
        let n = DROPPED[i].load(Ordering::Relaxed);
        let _ = writeln!(o, "minotty_cluster_dropped_total{{reason=\"{name}\"}} {n}");
    }
    let _ = writeln!(
        o,
        "# HELP minotty_cluster_peers Other instances known now.\n\
         # TYPE minotty_cluster_peers gauge\n\
         minotty_cluster_peers {}\n\
         # HELP minotty_cluster_proxies Members of other instances seated here.\n\
         # TYPE minotty_cluster_proxies gauge\n\
         minotty_cluster_proxies {}",
        PEERS.load(Ordering::Relaxed),
        PROXIES.load(Ordering::Relaxed)
    );
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
