//! Process-wide counts of work the server turned down, read by tests that show a bound by
//! counting (never by timing) and available to operators' tooling. Relaxed atomics: a count,
//! not a synchronisation.

use std::sync::atomic::{AtomicU64, Ordering};

static INPUT_BYTES_DROPPED: AtomicU64 = AtomicU64::new(0);

/// A session discarded `n` bytes of client input unparsed (past its input budget).
pub fn input_dropped(n: usize) {
    let n = u64::try_from(n).unwrap_or(u64::MAX);
    INPUT_BYTES_DROPPED.fetch_add(n, Ordering::Relaxed);
}

/// Bytes of client input discarded unparsed since the process started, by every session.
pub fn input_bytes_dropped() -> u64 {
    INPUT_BYTES_DROPPED.load(Ordering::Relaxed)
}
