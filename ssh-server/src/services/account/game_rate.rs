//! How many finished games each account may store a minute ([`GAMES_BURST`], then
//! [`GAMES_PER_MINUTE`]), across its sessions: one connection retrying at once stored 47 games
//! in 20 s. A game past the rate that could rank (`minotty_domain::eligible`: a cheap look at
//! its mode, stats and outcome, no re-simulation) is still judged and stored, so no record is
//! ever lost to the rate; any other is not stored, and the player is told
//! ([`NOT_STORED`]). Games kept per account are bounded apart from this (the store's
//! `KEEP_GAMES` newest besides the bests and `REPLAY_QUOTA` bytes of replays, each replay at
//! most `MAX_INPUTS` inputs).

use std::collections::HashMap;

use minotty_domain::PlayerId;

use crate::budget::TokenBucket;

/// Games an account may store at once, and a minute after that.
pub const GAMES_BURST: u32 = 12;
pub const GAMES_PER_MINUTE: u32 = 6;
/// What a game past the rate that could not rank is answered.
pub const NOT_STORED: &str =
    "not stored: too many games in a minute (games that can rank are always stored)";

/// Once this many accounts are held, those with a full bucket are dropped first.
const PRUNE_AT: usize = 10_000;

/// The accounts' buckets of stored games, over milliseconds the caller passes in.
#[derive(Debug, Default)]
pub struct GameRate {
    buckets: HashMap<PlayerId, TokenBucket>,
}

impl GameRate {
    /// Whether `player`'s game at `now_ms` is stored: within the rate, or past it but able to
    /// rank (`may_rank`; such a game takes no token).
    pub fn admit(&mut self, player: PlayerId, may_rank: bool, now_ms: u64) -> bool {
        if !self.buckets.contains_key(&player) && self.buckets.len() >= PRUNE_AT {
            self.buckets
                .retain(|_, b| b.available(now_ms) < u64::from(GAMES_BURST));
        }
        let bucket = self
            .buckets
            .entry(player)
            .or_insert_with(|| TokenBucket::per_minute(GAMES_BURST, GAMES_PER_MINUTE, now_ms));
        bucket.try_take(now_ms) || may_rank
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_retrying_account_stores_its_burst_then_six_a_minute_but_every_game_that_can_rank() {
        let mut rate = GameRate::default();
        let (mallory, ada) = (PlayerId(1), PlayerId(2));
        // 47 games in 20 s that cannot rank (the retry key, at once).
        let stored = (0..47u64)
            .filter(|i| rate.admit(mallory, false, i * 20_000 / 47))
            .count();
        assert_eq!(stored, 12 + 1, "the burst and the 20 s's refill");
        // A game that can rank, past the rate: stored.
        assert!(rate.admit(mallory, true, 20_000));
        assert!(!rate.admit(mallory, false, 20_000));
        // Another account is not affected.
        assert!(rate.admit(ada, false, 20_000));
        // A minute later: six more.
        let later = (0..20u64)
            .filter(|i| rate.admit(mallory, false, 80_000 + i))
            .count();
        assert_eq!(later, 6);
    }
}
