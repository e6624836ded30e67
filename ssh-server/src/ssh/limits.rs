//! Connection limits applied before the SSH handshake, so that refusing costs no cryptography:
//! a global cap; caps per address at several prefix lengths (IPv4 address and /24; IPv6 /64,
//! /56 and /48, since one IPv6 subscriber holds a whole prefix); a cap on connections that have
//! not logged in yet, with random early drop between its start and full marks (as OpenSSH's
//! `MaxStartups`); and a rate of new connections per source (IPv4 address, IPv6 /64). The
//! prefixes are [`ClientAddr`]'s keys (`minotty_domain::address`): an IPv4-mapped peer of a
//! `[::]` listener counts as its IPv4 address.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

pub use crate::config::connections::{ConnectionLimits, Startups};
use minotty_domain::{AddressKey, ClientAddr, TokenBucket};

/// Why a connection was turned away.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    ServerFull,
    TooManyFromAddress,
    TooManyFromNetwork,
    TooManyLoggingIn,
    TooFast,
}

impl Refusal {
    /// The line the player reads.
    pub fn message(self, limit: usize) -> String {
        match self {
            Refusal::ServerFull => {
                "minotty: the server is full right now, please try again in a minute".to_owned()
            }
            Refusal::TooManyFromAddress => format!(
                "minotty: too many connections from your address (limit {limit}), close one and try again"
            ),
            Refusal::TooManyFromNetwork => format!(
                "minotty: too many connections from your network (limit {limit}), please try again later"
            ),
            Refusal::TooManyLoggingIn => {
                "minotty: too many players are logging in right now, please try again in a few seconds"
                    .to_owned()
            }
            Refusal::TooFast => format!(
                "minotty: too many new connections from your address (at most {limit} a minute), wait a moment"
            ),
        }
    }
}

/// Sources whose connection rate is remembered; past this, sources with a full bucket are
/// forgotten first.
const MAX_RATE_SOURCES: usize = 65_536;

/// Counts open connections in total, per prefix and not yet logged in, and new connections per
/// source.
#[derive(Debug)]
pub struct ConnectionLimiter {
    limits: ConnectionLimits,
    born: Instant,
    counts: Mutex<Counts>,
}

#[derive(Debug, Default)]
struct Counts {
    total: usize,
    logging_in: usize,
    per_prefix: HashMap<AddressKey, usize>,
    rates: HashMap<AddressKey, TokenBucket>,
}

/// The prefixes an address counts against (`minotty_domain::address`: the client's /32 or /64
/// first, the key of its rate), with their caps and what exceeding each means.
fn prefixes(ip: ClientAddr, limits: &ConnectionLimits) -> Vec<(AddressKey, usize, Refusal)> {
    let mut keys = vec![
        (
            ip.key(),
            limits.max_per_address,
            Refusal::TooManyFromAddress,
        ),
        (
            ip.network(),
            limits.max_per_subnet,
            Refusal::TooManyFromNetwork,
        ),
    ];
    if let Some(site) = ip.site() {
        keys.push((site, limits.max_per_site, Refusal::TooManyFromNetwork));
    }
    keys
}

impl ConnectionLimiter {
    pub fn new(limits: ConnectionLimits) -> Arc<ConnectionLimiter> {
        Arc::new(ConnectionLimiter {
            limits,
            born: Instant::now(),
            counts: Mutex::new(Counts::default()),
        })
    }

    /// Takes a slot for a connection from `ip`; the slot is freed when the permit drops.
    pub fn try_acquire(self: &Arc<Self>, ip: ClientAddr) -> Result<ConnectionPermit, Refusal> {
        let now_ms = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.try_acquire_at(ip, now_ms, rand::random_range(0..100))
    }

    /// [`ConnectionLimiter::try_acquire`] at `now_ms` (since the limiter was made) with the
    /// random early drop's roll `roll` (0..100) given: deterministic, for tests.
    pub fn try_acquire_at(
        self: &Arc<Self>,
        ip: ClientAddr,
        now_ms: u64,
        roll: u32,
    ) -> Result<ConnectionPermit, Refusal> {
        let limits = &self.limits;
        let keys = prefixes(ip, limits);
        let mut counts = self.counts.lock().unwrap_or_else(PoisonError::into_inner);
        if counts.total >= limits.max_total {
            return Err(Refusal::ServerFull);
        }
        for (prefix, cap, refusal) in &keys {
            if counts.per_prefix.get(prefix).copied().unwrap_or(0) >= *cap {
                return Err(*refusal);
            }
        }
        let s = limits.startups;
        if counts.logging_in >= s.full {
            return Err(Refusal::TooManyLoggingIn);
        }
        if counts.logging_in >= s.start {
            // From `rate` % at `start` up to 100 % at `full`.
            let span = (s.full - s.start).max(1) as u64;
            let over = (counts.logging_in - s.start) as u64;
            let p = u64::from(s.rate) + (100 - u64::from(s.rate)) * over / span;
            if u64::from(roll) < p {
                return Err(Refusal::TooManyLoggingIn);
            }
        }
        // The rate counts attempts that got this far (a refused flood does not refill itself).
        let source = keys[0].0;
        if counts.rates.len() >= MAX_RATE_SOURCES && !counts.rates.contains_key(&source) {
            // A source whose bucket has refilled is no different from a new one: forget it.
            counts.rates.retain(|_, bucket| !bucket.is_full(now_ms));
            if counts.rates.len() >= MAX_RATE_SOURCES {
                return Err(Refusal::ServerFull);
            }
        }
        let bucket = counts.rates.entry(source).or_insert_with(|| {
            TokenBucket::per_minute(limits.connects_burst, limits.connects_per_minute, now_ms)
        });
        if !bucket.try_take(now_ms) {
            return Err(Refusal::TooFast);
        }
        for (prefix, _, _) in &keys {
            *counts.per_prefix.entry(*prefix).or_insert(0) += 1;
        }
        counts.total += 1;
        counts.logging_in += 1;
        Ok(ConnectionPermit {
            limiter: Arc::clone(self),
            prefixes: keys.into_iter().map(|(p, _, _)| p).collect(),
            logging_in: true,
        })
    }

    /// Open connections in total.
    pub fn total(&self) -> usize {
        self.counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .total
    }

    /// Open connections that have not logged in.
    pub fn logging_in(&self) -> usize {
        self.counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .logging_in
    }

    /// The number a refusal's message quotes.
    pub fn limit_for(&self, refusal: Refusal) -> usize {
        let l = &self.limits;
        match refusal {
            Refusal::ServerFull => l.max_total,
            Refusal::TooManyFromAddress => l.max_per_address,
            Refusal::TooManyFromNetwork => l.max_per_subnet,
            Refusal::TooManyLoggingIn => l.startups.full,
            Refusal::TooFast => l.connects_per_minute as usize,
        }
    }
}

/// One open connection's slot.
#[derive(Debug)]
pub struct ConnectionPermit {
    limiter: Arc<ConnectionLimiter>,
    prefixes: Vec<AddressKey>,
    logging_in: bool,
}

impl ConnectionPermit {
    /// The connection has logged in: it no longer counts against the startups cap.
    pub fn logged_in(&mut self) {
        if std::mem::take(&mut self.logging_in) {
            let mut counts = self
                .limiter
                .counts
                .lock()
                .unwrap_or_else(PoisonError::into_inner);
            counts.logging_in = counts.logging_in.saturating_sub(1);
        }
    }
}

impl Drop for ConnectionPermit {
    fn drop(&mut self) {
        let mut counts = self
            .limiter
            .counts
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        counts.total = counts.total.saturating_sub(1);
        if self.logging_in {
            counts.logging_in = counts.logging_in.saturating_sub(1);
        }
        for prefix in &self.prefixes {
            if let Some(per) = counts.per_prefix.get_mut(prefix) {
                *per = per.saturating_sub(1);
                if *per == 0 {
                    counts.per_prefix.remove(prefix);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "limits_tests.rs"]
mod tests;
