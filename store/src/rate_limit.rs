//! Rate limits on wrong passwords, per account and per client address, kept in memory.
//!
//! Each key has a leaky bucket written as the time it drains empty (the generic cell rate
//! algorithm): a failure adds `interval` to it, and a key is refused while the bucket holds
//! `burst` failures or more. So a key gets `burst` tries at once, then one per `interval`.
//! Time is passed in ([`super::UnixMs`]) so tests run without waiting. A success clears the
//! account's bucket but not the address's.
//!
//! The limits live in one server process: with several instances, each counts on its own
//! (a shared store for them belongs with the move to PostgreSQL).

use std::collections::HashMap;
use std::net::IpAddr;

use minotty_domain::{AddressKey, ClientAddr};

use super::UnixMs;

/// The limits. Defaults: 5 tries per account, then one a minute; 20 per address, then one
/// every 10 seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitConfig {
    pub account_burst: u32,
    pub account_interval_ms: i64,
    pub ip_burst: u32,
    pub ip_interval_ms: i64,
}

impl Default for LimitConfig {
    fn default() -> Self {
        LimitConfig {
            account_burst: 5,
            account_interval_ms: 60_000,
            ip_burst: 20,
            ip_interval_ms: 10_000,
        }
    }
}

/// How long until the next try is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryAfter {
    pub ms: i64,
}

/// Once this many keys are held, drained ones are dropped before another is added.
const PRUNE_AT: usize = 10_000;

pub struct RateLimiter {
    config: LimitConfig,
    /// Keyed by the folded account name, so that unknown names are limited like real ones.
    accounts: HashMap<String, UnixMs>,
    ips: HashMap<AddressKey, UnixMs>,
}

impl RateLimiter {
    pub fn new(config: LimitConfig) -> RateLimiter {
        RateLimiter {
            config,
            accounts: HashMap::new(),
            ips: HashMap::new(),
        }
    }

    /// Whether a try for `account` from `ip` is allowed now; if not, how long to wait.
    pub fn check(&self, account: &str, ip: IpAddr, now: UnixMs) -> Result<(), RetryAfter> {
        let c = &self.config;
        let waits = [
            wait(
                self.accounts.get(account),
                c.account_burst,
                c.account_interval_ms,
                now,
            ),
            wait(self.ips.get(&net(ip)), c.ip_burst, c.ip_interval_ms, now),
        ];
        match waits.into_iter().flatten().max() {
            Some(ms) => Err(RetryAfter { ms }),
            None => Ok(()),
        }
    }

    /// Checks the limits and, when the try is allowed, counts it as a failure until
    /// [`RateLimiter::record_success`] says otherwise.
    pub fn begin_attempt(
        &mut self,
        account: &str,
        ip: IpAddr,
        now: UnixMs,
    ) -> Result<(), RetryAfter> {
        self.check(account, ip, now)?;
        self.record_failure(account, ip, now);
        Ok(())
    }

    /// Counts a wrong password (or an unknown name) against both keys.
    pub fn record_failure(&mut self, account: &str, ip: IpAddr, now: UnixMs) {
        let c = self.config;
        if !self.accounts.contains_key(account) {
            prune(&mut self.accounts, now);
        }
        let tat = self.accounts.entry(account.to_owned()).or_insert(now);
        *tat = (*tat).max(now).saturating_add(c.account_interval_ms);
        let ip = net(ip);
        if !self.ips.contains_key(&ip) {
            prune(&mut self.ips, now);
        }
        let tat = self.ips.entry(ip).or_insert(now);
        *tat = (*tat).max(now).saturating_add(c.ip_interval_ms);
    }

    /// After a right password: forgets the account's failures and gives the address back the
    /// try that [`RateLimiter::begin_attempt`] counted.
    pub fn record_success(&mut self, account: &str, ip: IpAddr) {
        self.accounts.remove(account);
        if let Some(tat) = self.ips.get_mut(&net(ip)) {
            *tat = tat.saturating_sub(self.config.ip_interval_ms);
        }
    }

    /// Gives back a try that [`RateLimiter::begin_attempt`] counted but that was never checked
    /// (the server was too busy to check the password).
    pub fn refund(&mut self, account: &str, ip: IpAddr) {
        if let Some(tat) = self.accounts.get_mut(account) {
            *tat = tat.saturating_sub(self.config.account_interval_ms);
        }
        if let Some(tat) = self.ips.get_mut(&net(ip)) {
            *tat = tat.saturating_sub(self.config.ip_interval_ms);
        }
    }

    /// How many keys are held (for tests and metrics).
    pub fn len(&self) -> usize {
        self.accounts.len() + self.ips.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Sizes only: the keys are account names and addresses, not for logs.
impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimiter")
            .field("config", &self.config)
            .field("accounts", &self.accounts.len())
            .field("addresses", &self.ips.len())
            .finish()
    }
}

/// The wait for a key whose bucket drains empty at `tat`, or `None` when a try is allowed: a
/// try is allowed when one more failure would leave at most `burst` in the bucket.
fn wait(tat: Option<&UnixMs>, burst: u32, interval: i64, now: UnixMs) -> Option<i64> {
    let tat = *tat?;
    let room = interval.saturating_mul(i64::from(burst.max(1) - 1));
    let allowed_from = tat.saturating_sub(room);
    (allowed_from > now).then(|| allowed_from - now)
}

fn prune<K: std::hash::Hash + Eq>(map: &mut HashMap<K, UnixMs>, now: UnixMs) {
    if map.len() >= PRUNE_AT {
        map.retain(|_, tat| *tat > now);
    }
}

/// The key of an address: one client ([`ClientAddr::key`]: IPv4 as is, an IPv4-mapped
/// address as its IPv4, IPv6 by its /64 network, since one client usually holds a whole /64 and
/// could otherwise take a fresh address for every try).
pub(super) fn net(ip: IpAddr) -> AddressKey {
    ClientAddr::new(ip).key()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: LimitConfig = LimitConfig {
        account_burst: 3,
        account_interval_ms: 1_000,
        ip_burst: 5,
        ip_interval_ms: 100,
    };

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_account_gets_its_burst_then_one_try_per_interval() {
        let mut l = RateLimiter::new(CONFIG);
        let a = ip("10.0.0.1");
        for i in 0..3 {
            assert_eq!(l.check("alice", a, 0), Ok(()), "try {i}");
            l.record_failure("alice", ip(&format!("10.0.1.{i}")), 0);
        }
        assert_eq!(l.check("alice", a, 0), Err(RetryAfter { ms: 1_000 }));
        assert_eq!(l.check("alice", a, 999), Err(RetryAfter { ms: 1 }));
        assert_eq!(l.check("alice", a, 1_000), Ok(()));
        l.record_failure("alice", a, 1_000);
        assert_eq!(l.check("alice", a, 1_500), Err(RetryAfter { ms: 500 }));
        assert_eq!(l.check("alice", a, 2_000), Ok(()));
        // Other accounts are not affected by alice's failures.
        assert_eq!(l.check("bob", a, 2_000), Ok(()));
        assert_eq!(l.begin_attempt("alice", a, 2_000), Ok(()));
        assert!(l.begin_attempt("alice", a, 2_000).is_err());
        l.record_success("alice", a);
        assert_eq!(l.check("alice", a, 2_000), Ok(()));
        // A try given back (never checked) does not count either.
        for _ in 0..3 {
            l.begin_attempt("carol", a, 3_000).unwrap();
        }
        assert!(l.check("carol", a, 3_000).is_err());
        l.refund("carol", a);
        assert_eq!(l.check("carol", a, 3_000), Ok(()));
    }

    #[test]
    fn an_address_is_limited_across_accounts_and_ipv6_by_its_64() {
        let mut l = RateLimiter::new(CONFIG);
        for i in 0..5 {
            let host = ip(&format!("2001:db8:1:2::{i}"));
            assert_eq!(l.begin_attempt(&format!("user{i}"), host, 0), Ok(()));
        }
        let same_net = ip("2001:db8:1:2:ffff::1");
        assert_eq!(
            l.begin_attempt("fresh", same_net, 0),
            Err(RetryAfter { ms: 100 })
        );
        assert_eq!(l.check("fresh", ip("2001:db8:1:3::1"), 0), Ok(()));
        // A success gives back its own try, not the address's earlier failures.
        l.record_success("user4", same_net);
        assert_eq!(l.begin_attempt("fresh", same_net, 0), Ok(()));
        assert!(l.check("fresh", same_net, 0).is_err());
        assert_eq!(l.check("fresh", same_net, 99), Err(RetryAfter { ms: 1 }));
        assert_eq!(l.check("fresh", same_net, 100), Ok(()));
        assert_eq!(net(ip("::ffff:10.1.2.3")), net(ip("10.1.2.3")));
    }

    #[test]
    fn drained_keys_are_pruned_when_the_map_is_large() {
        let mut l = RateLimiter::new(CONFIG);
        for i in 0..PRUNE_AT {
            l.record_failure(&i.to_string(), ip("10.0.0.1"), 0);
        }
        assert_eq!(l.accounts.len(), PRUNE_AT);
        l.record_failure("late", ip("10.0.0.1"), 10_000);
        assert_eq!(l.accounts.len(), 1);
    }
}
