//! Rate limits of versus: a token bucket per session for lobby-type requests, and the back-off
//! after wrong room codes, per session and per source address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Duration;

use tokio::time::Instant;

/// Lobby-type requests (ready, start, join, leave, ...) a session may send at once.
pub const REQUEST_BURST: f64 = 20.0;
/// ... and per second after that.
pub const REQUESTS_PER_SEC: f64 = 10.0;

/// Wrong room codes allowed before the back-off starts.
pub const FREE_FAILURES: u32 = 5;
/// The first back-off; each further wrong code doubles it, up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_secs(30);
pub const MAX_BACKOFF: Duration = Duration::from_secs(600);
/// Wrong codes are forgotten after this long without one.
pub const FAILURE_MEMORY: Duration = Duration::from_secs(30 * 60);
/// The most addresses remembered; past it the oldest are forgotten first.
const MAX_ADDRESSES: usize = 65_536;

/// A token bucket: `burst` tokens, refilled at `rate` per second.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    burst: f64,
    rate: f64,
    at: Instant,
}

impl Bucket {
    pub fn new(burst: f64, rate: f64, now: Instant) -> Bucket {
        Bucket {
            tokens: burst,
            burst,
            rate,
            at: now,
        }
    }

    /// The bucket for a session's lobby requests.
    pub fn requests(now: Instant) -> Bucket {
        Bucket::new(REQUEST_BURST, REQUESTS_PER_SEC, now)
    }

    /// Takes a token; `false` when there is none.
    pub fn take(&mut self, now: Instant) -> bool {
        let dt = now.saturating_duration_since(self.at).as_secs_f64();
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Wrong room codes of one session or one address.
#[derive(Clone, Copy, Debug)]
pub struct Failures {
    count: u32,
    last: Instant,
}

impl Failures {
    pub fn new(now: Instant) -> Failures {
        Failures {
            count: 0,
            last: now,
        }
    }

    /// When another code may be tried, if not now.
    pub fn blocked_until(&self, now: Instant) -> Option<Instant> {
        if now.saturating_duration_since(self.last) >= FAILURE_MEMORY {
            return None;
        }
        let over = self.count.checked_sub(FREE_FAILURES)?;
        let backoff = FIRST_BACKOFF
            .saturating_mul(1u32 << over.min(16))
            .min(MAX_BACKOFF);
        let until = self.last + backoff;
        (until > now).then_some(until)
    }

    /// Counts a wrong code at `now`.
    pub fn fail(&mut self, now: Instant) {
        if now.saturating_duration_since(self.last) >= FAILURE_MEMORY {
            self.count = 0;
        }
        self.count = self.count.saturating_add(1);
        self.last = now;
    }
}

/// The part of an address that identifies one client: the whole IPv4 address, an IPv6 /64.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
    }
}

/// Wrong room codes per address, shared by every session.
#[derive(Debug, Default)]
pub struct AddressFailures {
    by_address: HashMap<IpAddr, Failures>,
}

impl AddressFailures {
    pub fn blocked_until(&self, ip: IpAddr, now: Instant) -> Option<Instant> {
        self.by_address
            .get(&address_key(ip))
            .and_then(|f| f.blocked_until(now))
    }

    pub fn fail(&mut self, ip: IpAddr, now: Instant) {
        if self.by_address.len() >= MAX_ADDRESSES {
            self.by_address
                .retain(|_, f| now.saturating_duration_since(f.last) < FAILURE_MEMORY);
            if self.by_address.len() >= MAX_ADDRESSES {
                // Still full: forget the address that failed longest ago.
                let oldest = self.by_address.iter().min_by_key(|(_, f)| f.last);
                if let Some((&ip, _)) = oldest {
                    self.by_address.remove(&ip);
                }
            }
        }
        self.by_address
            .entry(address_key(ip))
            .or_insert_with(|| Failures::new(now))
            .fail(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let t = Instant::now();
        let mut b = Bucket::new(3.0, 2.0, t);
        assert!((0..3).all(|_| b.take(t)));
        assert!(!b.take(t));
        assert!(b.take(t + Duration::from_millis(500)));
        assert!(!b.take(t + Duration::from_millis(500)));
        // A long pause refills only up to the burst.
        let later = t + Duration::from_secs(100);
        assert_eq!((0..10).filter(|_| b.take(later)).count(), 3);
    }

    #[test]
    fn wrong_codes_back_off_after_the_free_ones_and_double() {
        let t = Instant::now();
        let mut f = Failures::new(t);
        for _ in 0..FREE_FAILURES {
            assert_eq!(f.blocked_until(t), None);
            f.fail(t);
        }
        assert_eq!(f.blocked_until(t), Some(t + FIRST_BACKOFF));
        let t2 = t + FIRST_BACKOFF;
        assert_eq!(f.blocked_until(t2), None);
        f.fail(t2);
        assert_eq!(f.blocked_until(t2), Some(t2 + FIRST_BACKOFF * 2));
        // Forgotten after a long quiet time.
        assert_eq!(f.blocked_until(t2 + FAILURE_MEMORY), None);
    }

    #[test]
    fn addresses_share_a_v6_64_and_stay_bounded() {
        let t = Instant::now();
        let mut a = AddressFailures::default();
        let one: IpAddr = "2001:db8::1".parse().unwrap();
        let other: IpAddr = "2001:db8::ffff:2".parse().unwrap();
        for _ in 0..=FREE_FAILURES {
            a.fail(one, t);
        }
        assert!(a.blocked_until(other, t).is_some());
        assert!(a.blocked_until("2001:db9::1".parse().unwrap(), t).is_none());
        for i in 0..(MAX_ADDRESSES as u32 + 10) {
            a.fail(IpAddr::V4(i.into()), t);
        }
        assert!(a.by_address.len() <= MAX_ADDRESSES);
    }
}
