//! Shares of one pool per client address: a pool of `total` places of which one address
//! ([`minotty_domain::ClientAddr::key`]: IPv4 address, IPv6 /64) holds at most `per_address`,
//! so that one client can never hold them all while another waits. The server's pools with a
//! share each: cast exports (`commands/cast_export.rs`), bot seats and TBP bot processes
//! (`versus/bot.rs`); a room's spectator places count their share in the room itself.
//!
//! A place is a [`Share`], given back when it drops. A holder without an address (a bot, a
//! player of another instance that sent none) counts against the total only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use minotty_domain::AddressKey;

/// Why no place was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// Every place of the pool is held.
    Pool,
    /// The address holds its share.
    Address,
}

/// A pool of places with a share per address.
#[derive(Debug)]
pub struct Shares {
    total: usize,
    per_address: usize,
    held: Arc<Mutex<Held>>,
}

#[derive(Debug, Default)]
struct Held {
    total: usize,
    per: HashMap<AddressKey, usize>,
}

impl Shares {
    /// `total` places, at most `per_address` of them for one address (at least one, at most
    /// `total`).
    pub fn new(total: usize, per_address: usize) -> Shares {
        Shares {
            total,
            per_address: per_address.clamp(1, total.max(1)),
            held: Arc::default(),
        }
    }

    /// The share of one address.
    pub fn per_address(&self) -> usize {
        self.per_address
    }

    /// A place for `address` (`None`: counted in the total only).
    pub fn take(&self, address: Option<AddressKey>) -> Result<Share, Full> {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        if held.total >= self.total {
            return Err(Full::Pool);
        }
        if let Some(key) = address {
            if held.per.get(&key).copied().unwrap_or(0) >= self.per_address {
                return Err(Full::Address);
            }
            *held.per.entry(key).or_insert(0) += 1;
        }
        held.total += 1;
        Ok(Share {
            held: Arc::clone(&self.held),
            address,
        })
    }

    /// Places held now, in all and by `address`.
    pub fn held(&self, address: Option<AddressKey>) -> (usize, usize) {
        let held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let by = address.and_then(|a| held.per.get(&a).copied()).unwrap_or(0);
        (held.total, by)
    }
}

/// One place of a [`Shares`] pool, given back on drop.
#[derive(Debug)]
pub struct Share {
    held: Arc<Mutex<Held>>,
    address: Option<AddressKey>,
}

impl Drop for Share {
    fn drop(&mut self) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.total = held.total.saturating_sub(1);
        if let Some(key) = self.address
            && let Some(n) = held.per.get_mut(&key)
        {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.per.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_domain::ClientAddr;

    fn key(s: &str) -> Option<AddressKey> {
        Some(ClientAddr::new(s.parse().unwrap()).key())
    }

    #[test]
    fn shares_table() {
        // (total, per address, takes by address, expected outcome of each)
        type Row = (
            usize,
            usize,
            &'static [&'static str],
            &'static [Result<(), Full>],
        );
        const OK: Result<(), Full> = Ok(());
        let table: &[Row] = &[
            // One address cannot take both of two places; another gets the second.
            (
                2,
                1,
                &["192.0.2.1", "192.0.2.1", "192.0.2.2", "192.0.2.3"],
                &[OK, Err(Full::Address), OK, Err(Full::Pool)],
            ),
            // The mapped form is the same client; an IPv6 /64 is one client.
            (
                8,
                2,
                &[
                    "192.0.2.1",
                    "::ffff:192.0.2.1",
                    "::ffff:192.0.2.1",
                    "2001:db8::1",
                    "2001:db8::2",
                    "2001:db8::3",
                    "2001:db8:0:1::1",
                ],
                &[OK, OK, Err(Full::Address), OK, OK, Err(Full::Address), OK],
            ),
            // No address: the total only.
            (2, 1, &["", "", ""], &[OK, OK, Err(Full::Pool)]),
            // A share of 0 is one; a share over the total is the total.
            (1, 0, &["192.0.2.1", "192.0.2.2"], &[OK, Err(Full::Pool)]),
        ];
        for (i, &(total, per, takes, expected)) in table.iter().enumerate() {
            let pool = Shares::new(total, per);
            let mut held = Vec::new();
            for (j, (&who, want)) in takes.iter().zip(expected).enumerate() {
                let address = if who.is_empty() { None } else { key(who) };
                let got = pool.take(address);
                assert_eq!(
                    got.as_ref().map(|_| ()).map_err(|e| *e),
                    *want,
                    "row {i} take {j}"
                );
                held.extend(got.ok());
            }
        }
    }

    #[test]
    fn a_place_comes_back_when_its_share_drops() {
        let pool = Shares::new(3, 2);
        let a = key("198.51.100.1");
        let first = pool.take(a).unwrap();
        let _second = pool.take(a).unwrap();
        assert_eq!(pool.take(a).unwrap_err(), Full::Address);
        assert_eq!(pool.held(a), (2, 2));
        drop(first);
        assert_eq!(pool.held(a), (1, 1));
        let _third = pool.take(a).unwrap();
        assert_eq!(pool.held(None), (2, 0));
    }
}
