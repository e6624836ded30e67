//! Requests a second per client address (IPv4 address, IPv6 /64), in a bounded map: at most
//! [`MAX_TRACKED`] addresses; when it is full, the addresses whose buckets have refilled are
//! forgotten (they would start full anyway), and if none has, the new address is counted in
//! one shared overflow bucket, so that no number of addresses grows the map or escapes the
//! rate.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use minotty_domain::{AddressKey, ClientAddr, TokenBucket};

/// Addresses tracked at most.
pub const MAX_TRACKED: usize = 16_384;

#[derive(Debug)]
pub struct PerAddress {
    per_sec: u32,
    burst: u32,
    born: Instant,
    held: Mutex<Held>,
}

#[derive(Debug)]
struct Held {
    buckets: HashMap<AddressKey, (TokenBucket, u64)>,
    overflow: TokenBucket,
    /// When the map was last swept for refilled buckets (at most once per refill time, so
    /// that a full map costs one sweep, not one per request).
    swept: Option<u64>,
}

impl PerAddress {
    pub fn new(per_sec: u32, burst: u32) -> PerAddress {
        PerAddress {
            per_sec,
            burst,
            born: Instant::now(),
            held: Mutex::new(Held {
                buckets: HashMap::new(),
                overflow: TokenBucket::new(u64::from(burst), u64::from(per_sec), 0),
                swept: None,
            }),
        }
    }

    /// Whether a request from `client` may be answered now.
    pub fn allow(&self, client: ClientAddr) -> bool {
        let now = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.allow_at(client, now)
    }

    /// [`PerAddress::allow`] at `now_ms` since the map was made (tests).
    pub fn allow_at(&self, client: ClientAddr, now_ms: u64) -> bool {
        let key = client.key();
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if !held.buckets.contains_key(&key) && held.buckets.len() >= MAX_TRACKED {
            // A bucket idle this long is full again: forgetting it changes nothing.
            let refill_ms = u64::from(self.burst) * 1000 / u64::from(self.per_sec.max(1)) + 1;
            let due = held
                .swept
                .is_none_or(|at| now_ms.saturating_sub(at) >= refill_ms);
            if due {
                held.swept = Some(now_ms);
                held.buckets
                    .retain(|_, (_, seen)| now_ms.saturating_sub(*seen) < refill_ms);
            }
            if held.buckets.len() >= MAX_TRACKED {
                return held.overflow.try_take(now_ms);
            }
        }
        let (burst, per_sec) = (u64::from(self.burst), u64::from(self.per_sec));
        let (bucket, seen) = held
            .buckets
            .entry(key)
            .or_insert_with(|| (TokenBucket::new(burst, per_sec, now_ms), now_ms));
        *seen = now_ms;
        bucket.try_take(now_ms)
    }

    /// Addresses tracked now.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.held
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .buckets
            .len()
    }
}

#[cfg(test)]
mod tests {
    use std::net::{IpAddr, Ipv4Addr};

    use super::*;

    fn addr(i: u32) -> ClientAddr {
        ClientAddr::new(IpAddr::V4(Ipv4Addr::from(i)))
    }

    /// One address gets its burst, then the rate; another address is not held back by it.
    #[test]
    fn an_address_gets_its_burst_then_its_rate() {
        let rate = PerAddress::new(10, 40);
        let taken = (0..100).filter(|_| rate.allow_at(addr(1), 0)).count();
        assert_eq!(taken, 40);
        assert!(rate.allow_at(addr(2), 0), "another address has its own");
        // A second later: 10 more.
        let taken = (0..100).filter(|_| rate.allow_at(addr(1), 1000)).count();
        assert_eq!(taken, 10);
    }

    /// The attacker with a million addresses: the map never holds more than MAX_TRACKED, and
    /// the addresses past it share one bucket (no burst each).
    #[test]
    fn many_addresses_never_grow_the_map_nor_escape_the_rate() {
        let rate = PerAddress::new(10, 40);
        let mut allowed_past = 0;
        for i in 0..1_000_000u32 {
            let ok = rate.allow_at(addr(i), 0);
            if i as usize >= MAX_TRACKED {
                allowed_past += usize::from(ok);
            }
        }
        assert_eq!(rate.len(), MAX_TRACKED);
        assert_eq!(allowed_past, 40, "the overflow bucket's burst, no more");
        // Once the tracked buckets refilled, new addresses are tracked again.
        assert!(rate.allow_at(addr(2_000_000), 10_000));
        assert_eq!(rate.len(), 1);
    }
}
