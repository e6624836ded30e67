//! The cluster's counters in `/metrics`: messages of other instances dropped unread, by
//! reason, and the sizes of what other instances can make this one hold (peers, proxies).
//! The cluster counts (`cluster/checks.rs`); the metrics render, without knowing the cluster.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};

/// Why a message of the cluster was dropped unread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// No valid seal: no or a wrong cluster key, a changed subject or payload.
    Unauthenticated,
    /// Sealed too long ago (or in the future), or already received: a replay.
    Stale,
    /// A subject part (instance id, room code) outside `cluster::checks::valid_part`.
    BadSubjectPart,
    /// Does not decode, or says something its sender may not say (another instance's id).
    Malformed,
    /// Would grow a bounded table past its cap (peers, proxies of one peer).
    OverCap,
    /// A join from an instance not heard from (no heartbeat yet, or dead).
    UnknownPeer,
    /// Sealed in another version of the cluster's wire form (an instance of another minotty
    /// version).
    Version,
}

const REASONS: [(DropReason, &str); 7] = [
    (DropReason::Unauthenticated, "unauthenticated"),
    (DropReason::Stale, "stale"),
    (DropReason::BadSubjectPart, "bad_subject_part"),
    (DropReason::Malformed, "malformed"),
    (DropReason::OverCap, "over_cap"),
    (DropReason::UnknownPeer, "unknown_peer"),
    (DropReason::Version, "version"),
];

static DROPPED: [AtomicU64; 7] = [
    AtomicU64::new(0),
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

/// Counts a message dropped for `reason`.
pub fn count_drop(reason: DropReason) {
    DROPPED[index(reason)].fetch_add(1, Ordering::Relaxed);
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
