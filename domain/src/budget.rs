//! The one token bucket: `burst` tokens at most, refilled at a steady rate, over the caller's
//! milliseconds. Every rate of the server is one (input bytes and key events per session,
//! lobby and account requests per session, exec commands and cast exports per connection and
//! per address, new connections per address) and so is every limit of the store (wrong
//! passwords and password hashes per account and per address, kept in a bounded map of
//! buckets); nothing here reads a clock, so each is tested exactly.
//!
//! A bucket counts in units: a token is `unit` of them and each millisecond adds `per_ms`, so
//! that a rate a minute (a token of 60,000 units) and one token every `interval` ms (a token of
//! `interval` units, one added a millisecond) are both exact. A clock going backwards adds
//! nothing: the bucket waits until it passes the latest time seen.

/// A token bucket: `burst` tokens at most, refilled at a steady rate. It may also owe tokens
/// ([`TokenBucket::charge`]): the refill then pays the debt before it holds a token again.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    burst: u64,
    /// Units in one token.
    unit: u64,
    /// Units refilled each millisecond.
    per_ms: u64,
    /// Units missing from a full bucket: 0 when full, more than the burst's when in debt.
    missing: u64,
    last_ms: u64,
}

/// Units of one token for rates a second or a minute.
const UNIT: u64 = 60_000;

impl TokenBucket {
    /// A full bucket at time `now_ms`, refilled `per_sec` tokens a second.
    pub fn new(burst: u64, per_sec: u64, now_ms: u64) -> TokenBucket {
        TokenBucket::with_units(burst, UNIT, per_sec.saturating_mul(60), now_ms)
    }

    /// A full bucket at time `now_ms`, refilled `per_minute` tokens a minute.
    pub fn per_minute(burst: u32, per_minute: u32, now_ms: u64) -> TokenBucket {
        TokenBucket::with_units(u64::from(burst), UNIT, u64::from(per_minute), now_ms)
    }

    /// A full bucket at time `now_ms`, refilled one token every `interval_ms` milliseconds
    /// (at least one).
    pub fn every(burst: u64, interval_ms: u64, now_ms: u64) -> TokenBucket {
        TokenBucket::with_units(burst, interval_ms.max(1), 1, now_ms)
    }

    fn with_units(burst: u64, unit: u64, per_ms: u64, now_ms: u64) -> TokenBucket {
        TokenBucket {
            burst,
            unit,
            per_ms,
            missing: 0,
            last_ms: now_ms,
        }
    }

    /// Units in a full bucket.
    fn full(&self) -> u64 {
        self.burst.saturating_mul(self.unit)
    }

    fn refill(&mut self, now_ms: u64) {
        let elapsed = now_ms.saturating_sub(self.last_ms);
        self.last_ms = self.last_ms.max(now_ms);
        self.missing = self
            .missing
            .saturating_sub(elapsed.saturating_mul(self.per_ms));
    }

    /// Takes one token if there is one.
    pub fn try_take(&mut self, now_ms: u64) -> bool {
        self.try_take_n(1, now_ms) == 1
    }

    /// Takes up to `n` tokens and returns how many it took.
    pub fn try_take_n(&mut self, n: u64, now_ms: u64) -> u64 {
        let taken = n.min(self.available(now_ms));
        // At most what the bucket holds, so no overflow.
        self.missing += taken * self.unit;
        taken
    }

    /// Takes `n` tokens even when fewer are there: the bucket then owes the rest, and waits
    /// grow by the debt (for a count that must not be lost, such as a wrong password that was
    /// let through a moment before).
    pub fn charge(&mut self, n: u64, now_ms: u64) {
        self.refill(now_ms);
        self.missing = self.missing.saturating_add(n.saturating_mul(self.unit));
    }

    /// Gives back `n` tokens (paying the debt first), never filling past the burst.
    pub fn give_back(&mut self, n: u64) {
        self.missing = self.missing.saturating_sub(n.saturating_mul(self.unit));
    }

    /// Whole tokens available at `now_ms`.
    pub fn available(&mut self, now_ms: u64) -> u64 {
        self.refill(now_ms);
        self.full().saturating_sub(self.missing) / self.unit
    }

    /// Whether the bucket is full at `now_ms` (a full bucket is no different from a new one).
    pub fn is_full(&mut self, now_ms: u64) -> bool {
        self.refill(now_ms);
        self.missing == 0
    }

    /// Milliseconds from `now_ms` until one token is available (0 when one is, or never comes).
    pub fn wait_ms(&mut self, now_ms: u64) -> u64 {
        self.wait_n_ms(1, now_ms)
    }

    /// Milliseconds from `now_ms` until the refill has brought the `n` tokens missing (0 when
    /// they are there, or when nothing is refilled). For `n` above the burst this is how long
    /// the refill of the shortfall takes, though the bucket never holds that many: callers
    /// that take `n` at once refuse those.
    pub fn wait_n_ms(&mut self, n: u64, now_ms: u64) -> u64 {
        self.refill(now_ms);
        if self.per_ms == 0 {
            return 0;
        }
        let short = self
            .missing
            .saturating_add(n.saturating_mul(self.unit))
            .saturating_sub(self.full());
        short.div_ceil(self.per_ms)
    }

    /// The most tokens the bucket holds.
    pub fn burst(&self) -> u64 {
        self.burst
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    enum Step {
        /// Take `n` at `ms`: how many were taken.
        Take(u64, u64, u64),
        /// At `ms`: tokens available, and the wait for one.
        Look(u64, u64, u64),
        /// At `ms`: the wait for `n`.
        Wait(u64, u64, u64),
        /// Charge `n` at `ms` (going into debt if need be).
        Charge(u64, u64),
        /// Give back `n`.
        Give(u64),
        /// At `ms`: whether the bucket is full.
        Full(u64, bool),
    }
    use Step::{Charge, Full, Give, Look, Take, Wait};

    #[test]
    fn buckets_table() {
        // (bucket, steps): per second and per minute rates, one token every so many ms, bursts,
        // refills capped at the burst, time going backwards, a rate of zero, waits for several
        // tokens, debts and tokens given back.
        let table: Vec<(TokenBucket, Vec<Step>)> = vec![
            (
                TokenBucket::new(3, 2, 0),
                vec![
                    Take(10, 0, 3),
                    Look(0, 0, 500),
                    Take(1, 499, 0),
                    Take(1, 500, 1),
                    // A long quiet time refills only up to the burst.
                    Look(1_000_000, 3, 0),
                    // Time going backwards adds nothing.
                    Take(3, 10, 3),
                    Look(5, 0, 500),
                ],
            ),
            (
                TokenBucket::per_minute(2, 30, 0),
                vec![
                    Take(5, 0, 2),
                    Look(0, 0, 2000),
                    Take(1, 1999, 0),
                    Take(1, 2000, 1),
                ],
            ),
            (
                // Lobby requests: a burst of 20, then 10 a second.
                TokenBucket::new(20, 10, 1_000),
                vec![
                    Take(25, 1_000, 20),
                    Take(1, 1_050, 0),
                    Take(1, 1_100, 1),
                    Take(100, 2_100, 10),
                ],
            ),
            (
                TokenBucket::per_minute(1, 0, 0),
                vec![Take(1, 0, 1), Look(u64::MAX, 0, 0), Take(1, u64::MAX, 0)],
            ),
            (
                // The store's wrong passwords per (account, address) in its tests: 3, then one
                // a second.
                TokenBucket::every(3, 1_000, 0),
                vec![
                    Full(0, true),
                    Take(3, 0, 3),
                    Full(0, false),
                    Look(0, 0, 1_000),
                    Look(999, 0, 1),
                    Take(1, 1_000, 1),
                    Look(1_500, 0, 500),
                    Wait(3, 1_500, 2_500),
                    // More than the burst: the refill of the shortfall (never held at once).
                    Wait(4, 1_500, 3_500),
                    // A debt of two: waits grow by it.
                    Charge(2, 1_500),
                    Look(1_500, 0, 2_500),
                    // Given back: the debt first, then tokens.
                    Give(3),
                    Look(1_500, 1, 0),
                    Wait(3, 1_500, 1_500),
                    // Never past the burst.
                    Give(10),
                    Full(1_500, true),
                    Look(1_500, 3, 0),
                    Take(4, 1_500, 3),
                ],
            ),
            (
                // A debt over a rate a minute: 3 charged against a burst of 2, 30 a minute.
                TokenBucket::per_minute(2, 30, 0),
                vec![
                    Charge(3, 0),
                    Look(0, 0, 4_000),
                    Look(2_000, 0, 2_000),
                    Look(4_000, 1, 0),
                    Full(5_999, false),
                    Full(6_000, true),
                ],
            ),
            (
                // An interval of 0 is one of a millisecond; debts saturate.
                TokenBucket::every(2, 0, 0),
                vec![
                    Take(5, 0, 2),
                    Look(0, 0, 1),
                    Take(1, 1, 1),
                    Charge(u64::MAX, 1),
                    Look(1, 0, u64::MAX - 2),
                    Take(1, 1_000, 0),
                    Look(u64::MAX, 1, 0),
                ],
            ),
        ];
        for (i, (mut bucket, steps)) in table.into_iter().enumerate() {
            for (j, step) in steps.into_iter().enumerate() {
                match step {
                    Take(n, ms, taken) => {
                        assert_eq!(bucket.try_take_n(n, ms), taken, "bucket {i} step {j}")
                    }
                    Look(ms, available, wait) => {
                        assert_eq!(bucket.available(ms), available, "bucket {i} step {j}");
                        assert_eq!(bucket.wait_ms(ms), wait, "bucket {i} step {j}");
                    }
                    Wait(n, ms, wait) => {
                        assert_eq!(bucket.wait_n_ms(n, ms), wait, "bucket {i} step {j}")
                    }
                    Charge(n, ms) => bucket.charge(n, ms),
                    Give(n) => bucket.give_back(n),
                    Full(ms, full) => assert_eq!(bucket.is_full(ms), full, "bucket {i} step {j}"),
                }
            }
        }
    }

    #[test]
    fn a_bucket_is_full_again_after_its_refill() {
        let mut b = TokenBucket::per_minute(2, 60, 0);
        assert!(b.is_full(0));
        b.try_take(0);
        assert!(!b.is_full(999));
        assert!(b.is_full(1_000));
    }
}
