//! Claims on ranked play: an account queues or plays a ranked match on one connection at a
//! time, server-wide (a cluster's leader holds the claims of its queue).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::{Hub, lock};
use minotty_domain::PlayerId;

/// An account's claim on ranked play (the queue, then its match), released with
/// [`Hub::release_ranked`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankedClaim {
    pub player: PlayerId,
    pub token: u64,
}

/// A ranked series between two of its games (counted while held: a drain waits for the
/// series, whose next game starts by itself).
#[derive(Debug)]
pub struct SeriesPause(Arc<AtomicUsize>);

impl Drop for SeriesPause {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Hub {
    /// A series of one of this instance's rooms pauses before its next game.
    pub fn series_pause(&self) -> SeriesPause {
        self.series_pauses.fetch_add(1, Ordering::Relaxed);
        SeriesPause(Arc::clone(&self.series_pauses))
    }

    /// Ranked series of this instance's rooms between two of their games.
    pub fn paused_series(&self) -> usize {
        self.series_pauses.load(Ordering::Relaxed)
    }

    /// Claims ranked play for `player`: `None` while another session of the account is
    /// queued or plays a ranked match.
    pub fn claim_ranked(&self, player: PlayerId) -> Option<RankedClaim> {
        let mut ranked = lock(&self.ranked);
        if ranked.contains_key(&player) {
            return None;
        }
        let token = self.next_claim.fetch_add(1, Ordering::Relaxed) + 1;
        ranked.insert(player, token);
        Some(RankedClaim { player, token })
    }

    /// Ends `claim` (queue left, match over); a newer claim of the account stays.
    pub fn release_ranked(&self, claim: RankedClaim) {
        let mut ranked = lock(&self.ranked);
        if ranked.get(&claim.player) == Some(&claim.token) {
            ranked.remove(&claim.player);
        }
    }

    /// Whether `claim` still holds.
    pub fn holds_ranked(&self, claim: RankedClaim) -> bool {
        lock(&self.ranked).get(&claim.player) == Some(&claim.token)
    }
}
