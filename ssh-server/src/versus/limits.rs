//! Rate limits of versus: a token bucket per session for lobby-type requests, and the back-off
//! after wrong room codes, per session and per client address ([`ClientAddr::key`]: IPv4
//! address, IPv6 /64; an IPv4-mapped address is its IPv4 address).

use std::collections::HashMap;
use std::time::Duration;

use minotty_domain::{AddressKey, ClientAddr, TokenBucket};

use tokio::time::Instant;

/// Lobby-type requests (ready, start, join, leave, ...) a session may send at once.
pub const REQUEST_BURST: u64 = 20;
/// ... and per second after that.
pub const REQUESTS_PER_SEC: u64 = 10;

/// Settings changes a room takes from one member at once ...
pub const SETTINGS_BURST: u32 = 5;
/// ... and per minute after that (beyond, a change is refused with a notice).
pub const SETTINGS_PER_MINUTE: u32 = 30;

/// Team changes a room takes from one member at once ...
pub const TEAM_BURST: u32 = 10;
/// ... and per minute after that (beyond, a change is refused with a notice).
pub const TEAM_CHANGES_PER_MINUTE: u32 = 60;

/// Wrong room codes allowed before the back-off starts.
pub const FREE_FAILURES: u32 = 5;
/// The first back-off; each further wrong code doubles it, up to [`MAX_BACKOFF`].
pub const FIRST_BACKOFF: Duration = Duration::from_secs(30);
pub const MAX_BACKOFF: Duration = Duration::from_secs(600);
/// Wrong codes are forgotten after this long without one.
pub const FAILURE_MEMORY: Duration = Duration::from_secs(30 * 60);
/// The most addresses remembered; past it the oldest are forgotten first.
const MAX_ADDRESSES: usize = 65_536;

/// The bucket for a session's lobby requests (the one token bucket, over the session's
/// milliseconds).
pub fn requests(now_ms: u64) -> TokenBucket {
    TokenBucket::new(REQUEST_BURST, REQUESTS_PER_SEC, now_ms)
}

/// The bucket for one member's settings changes in one room, over the room's milliseconds.
pub fn settings_changes(now_ms: u64) -> TokenBucket {
    TokenBucket::per_minute(SETTINGS_BURST, SETTINGS_PER_MINUTE, now_ms)
}

/// The bucket for one member's team changes in one room, over the room's milliseconds.
pub fn team_changes(now_ms: u64) -> TokenBucket {
    TokenBucket::per_minute(TEAM_BURST, TEAM_CHANGES_PER_MINUTE, now_ms)
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

/// Wrong room codes per address, shared by every session.
#[derive(Debug, Default)]
pub struct AddressFailures {
    by_address: HashMap<AddressKey, Failures>,
}

impl AddressFailures {
    pub fn blocked_until(&self, ip: ClientAddr, now: Instant) -> Option<Instant> {
        self.by_address
            .get(&ip.key())
            .and_then(|f| f.blocked_until(now))
    }

    pub fn fail(&mut self, ip: ClientAddr, now: Instant) {
        if self.by_address.len() >= MAX_ADDRESSES {
            self.by_address
                .retain(|_, f| now.saturating_duration_since(f.last) < FAILURE_MEMORY);
            if self.by_address.len() >= MAX_ADDRESSES {
                // Still full: forget the address that failed longest ago.
                let oldest = self.by_address.iter().min_by_key(|(_, f)| f.last);
                if let Some((&key, _)) = oldest {
                    self.by_address.remove(&key);
                }
            }
        }
        self.by_address
            .entry(ip.key())
            .or_insert_with(|| Failures::new(now))
            .fail(now);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn addr(s: &str) -> ClientAddr {
        ClientAddr::new(s.parse().unwrap())
    }

    /// A `[::]` listener reports every IPv4 client as `::ffff:a.b.c.d`: one client's wrong
    /// codes block it, in either form, and no other IPv4 client (they all shared the IPv6 /64
    /// `::` before).
    #[test]
    fn ipv4_clients_of_a_v6_listener_keep_their_own_wrong_codes() {
        let t = Instant::now();
        let mut a = AddressFailures::default();
        let guesser = addr("::ffff:198.51.100.7");
        for _ in 0..=FREE_FAILURES + 1 {
            a.fail(guesser, t);
        }
        assert!(a.blocked_until(guesser, t).is_some());
        assert!(
            a.blocked_until(addr("198.51.100.7"), t).is_some(),
            "the plain form"
        );
        for other in ["::ffff:203.0.113.9", "203.0.113.9", "::ffff:198.51.100.8"] {
            assert_eq!(a.blocked_until(addr(other), t), None, "{other}");
        }
        // And the other way round: wrong codes in the plain form count for the mapped one.
        let plain = addr("192.0.2.33");
        for _ in 0..=FREE_FAILURES {
            a.fail(plain, t);
        }
        assert!(a.blocked_until(addr("::ffff:192.0.2.33"), t).is_some());
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
        let one = addr("2001:db8::1");
        let other = addr("2001:db8::ffff:2");
        for _ in 0..=FREE_FAILURES {
            a.fail(one, t);
        }
        assert!(a.blocked_until(other, t).is_some());
        assert!(a.blocked_until(addr("2001:db9::1"), t).is_none());
        for i in 0..(MAX_ADDRESSES as u32 + 10) {
            a.fail(ClientAddr::new(std::net::Ipv4Addr::from(i).into()), t);
        }
        assert!(a.by_address.len() <= MAX_ADDRESSES);
    }
}
