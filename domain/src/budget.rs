//! The one token bucket: `burst` tokens at most, refilled at a steady rate, over the caller's
//! milliseconds. Every rate of the server is one (input bytes and key events per session,
//! lobby and account requests per session, exec commands and cast exports per connection and
//! per address, new connections per address); nothing here reads a clock, so each is tested
//! exactly.

/// A token bucket: `burst` tokens at most, refilled at a steady rate.
#[derive(Clone, Debug)]
pub struct TokenBucket {
    burst: u64,
    /// Refill in tokens a minute.
    per_minute: u64,
    /// Tokens in 1/60,000ths, so that a rate a minute adds a whole number each millisecond.
    units: u64,
    last_ms: u64,
}

/// Units of one token.
const UNIT: u64 = 60_000;

impl TokenBucket {
    /// A full bucket at time `now_ms`, refilled `per_sec` tokens a second.
    pub fn new(burst: u64, per_sec: u64, now_ms: u64) -> TokenBucket {
        TokenBucket {
            burst,
            per_minute: per_sec.saturating_mul(60),
            units: burst.saturating_mul(UNIT),
            last_ms: now_ms,
        }
    }

    /// A full bucket at time `now_ms`, refilled `per_minute` tokens a minute.
    pub fn per_minute(burst: u32, per_minute: u32, now_ms: u64) -> TokenBucket {
        TokenBucket {
            burst: u64::from(burst),
            per_minute: u64::from(per_minute),
            units: u64::from(burst) * UNIT,
            last_ms: now_ms,
        }
    }

    fn refill(&mut self, now_ms: u64) {
        let elapsed = now_ms.saturating_sub(self.last_ms);
        self.last_ms = self.last_ms.max(now_ms);
        let added = elapsed.saturating_mul(self.per_minute);
        self.units = self
            .units
            .saturating_add(added)
            .min(self.burst.saturating_mul(UNIT));
    }

    /// Takes one token if there is one.
    pub fn try_take(&mut self, now_ms: u64) -> bool {
        self.try_take_n(1, now_ms) == 1
    }

    /// Takes up to `n` tokens and returns how many it took.
    pub fn try_take_n(&mut self, n: u64, now_ms: u64) -> u64 {
        self.refill(now_ms);
        let taken = n.min(self.units / UNIT);
        self.units -= taken * UNIT;
        taken
    }

    /// Whole tokens available at `now_ms`.
    pub fn available(&mut self, now_ms: u64) -> u64 {
        self.refill(now_ms);
        self.units / UNIT
    }

    /// Whether the bucket is full at `now_ms` (a full bucket is no different from a new one).
    pub fn is_full(&mut self, now_ms: u64) -> bool {
        self.available(now_ms) >= self.burst
    }

    /// Milliseconds from `now_ms` until one token is available (0 when one is, or never comes).
    pub fn wait_ms(&mut self, now_ms: u64) -> u64 {
        self.refill(now_ms);
        if self.units >= UNIT || self.per_minute == 0 {
            return 0;
        }
        (UNIT - self.units).div_ceil(self.per_minute)
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
    }
    use Step::{Look, Take};

    #[test]
    fn buckets_table() {
        // (bucket, steps): per second and per minute rates, bursts, refills capped at the
        // burst, time going backwards, a rate of zero.
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
