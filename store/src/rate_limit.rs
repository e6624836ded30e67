//! Rate limits kept in memory: wrong passwords, and the password hashes a client may start.
//!
//! Each key has the one token bucket ([`TokenBucket`]): `burst` tries at once, then one per
//! `interval`; a try takes a token (`cost` tokens for work that costs more), and a key is
//! refused while its bucket holds too few. A try counted without a check (a wrong password let
//! through a moment before, by another connection) is still counted: the bucket owes it. The
//! buckets of one kind of key live in a map bounded by dropping full ones. Time is passed in
//! ([`super::UnixMs`]) so tests run without waiting.
//!
//! Wrong passwords ([`RateLimiter`]) are counted three ways: per account *and* client address
//! (its /64 for IPv6), which is the tight limit; per account from anywhere, a looser cap
//! against guesses spread over many addresses; and per address across accounts. The tight
//! limit is not per account alone on purpose: then anyone could keep a victim from linking a
//! key by typing wrong passwords for the victim's name, while now the attacker's tries fill
//! only the attacker's own (account, address) bucket, and one address cannot fill the
//! account's cap (it drains faster than one address may add to it). A success clears its
//! (account, address) bucket and the account's cap, and gives the address back its try.
//!
//! Password hashes ([`HashBudget`]: every argon2 run a client can start, a check or a new
//! hash) are counted per account and per address, successes included: changing one's own
//! password costs a core for tens of milliseconds each time.
//!
//! The limits live in one server process: with several instances, each counts on its own
//! (a shared store for them belongs with the move to PostgreSQL).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;

use minotty_domain::{AddressKey, ClientAddr, TokenBucket};

use super::UnixMs;

/// The limits on wrong passwords. Defaults: 5 tries per account from one address, then one a
/// minute; 30 per account from anywhere, then one every 12 seconds (so one address, or four,
/// cannot fill it); 20 per address, then one every 10 seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LimitConfig {
    pub pair_burst: u32,
    pub pair_interval_ms: i64,
    pub account_burst: u32,
    pub account_interval_ms: i64,
    pub ip_burst: u32,
    pub ip_interval_ms: i64,
}

impl Default for LimitConfig {
    fn default() -> Self {
        LimitConfig {
            pair_burst: 5,
            pair_interval_ms: 60_000,
            account_burst: 30,
            account_interval_ms: 12_000,
            ip_burst: 20,
            ip_interval_ms: 10_000,
        }
    }
}

/// The limits on password hashes started (checks and new hashes alike). Defaults: 10 per
/// account, then one a minute (a password change with the current password is two); 12 per
/// address, then one every 10 seconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashLimits {
    pub account_burst: u32,
    pub account_interval_ms: i64,
    pub ip_burst: u32,
    pub ip_interval_ms: i64,
}

impl Default for HashLimits {
    fn default() -> Self {
        HashLimits {
            // A player who sets a password, mistypes the current one twice, changes it and
            // links a key after one wrong try starts 7 hashes in a minute: 10 leaves room.
            account_burst: 10,
            account_interval_ms: 60_000,
            ip_burst: 12,
            ip_interval_ms: 10_000,
        }
    }
}

/// How long until the next try is allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryAfter {
    pub ms: i64,
}

/// Once this many keys are held, full buckets are dropped before another key is added.
const PRUNE_AT: usize = 10_000;

/// A bounded map of [`TokenBucket`]s of one kind of key: `burst` tries, then one every
/// `interval` ms. A key without a bucket has a full one; an interval of 0 or less limits
/// nothing (and keeps no key).
struct Buckets<K> {
    burst: u64,
    /// One try every this many ms; `None` for no limit.
    interval: Option<u64>,
    map: HashMap<K, TokenBucket>,
}

/// The store's clock ([`UnixMs`], wall ms that may be negative) in the bucket's ms: the one
/// conversion, saturating (a time before 1970 is 0).
fn bucket_ms(now: UnixMs) -> u64 {
    u64::try_from(now).unwrap_or(0)
}

impl<K: Hash + Eq> Buckets<K> {
    fn new(burst: u32, interval: i64) -> Buckets<K> {
        Buckets {
            // A burst of 0 still lets one try through.
            burst: u64::from(burst.max(1)),
            interval: u64::try_from(interval).ok().filter(|&i| i > 0),
            map: HashMap::new(),
        }
    }

    fn fresh(&self, interval: u64, now: u64) -> TokenBucket {
        TokenBucket::every(self.burst, interval, now)
    }

    /// The wait before `cost` more tries of `key` fit, or `None` when they fit now (more than
    /// `burst` at once never fit: the wait is then for the shortfall).
    fn wait(&self, key: &K, cost: u32, now: UnixMs) -> Option<i64> {
        let interval = self.interval?;
        let now = bucket_ms(now);
        let mut bucket = match self.map.get(key) {
            Some(bucket) => bucket.clone(),
            None => self.fresh(interval, now),
        };
        let ms = bucket.wait_n_ms(u64::from(cost), now);
        (ms > 0).then(|| i64::try_from(ms).unwrap_or(i64::MAX))
    }

    /// Counts `cost` tries, even past the burst (then the key owes them).
    fn add(&mut self, key: K, cost: u32, now: UnixMs) {
        let Some(interval) = self.interval else {
            return;
        };
        let now = bucket_ms(now);
        if !self.map.contains_key(&key) && self.map.len() >= PRUNE_AT {
            self.map.retain(|_, bucket| !bucket.is_full(now));
        }
        let fresh = self.fresh(interval, now);
        self.map
            .entry(key)
            .or_insert(fresh)
            .charge(u64::from(cost), now);
    }

    /// Gives back `cost` tries, never past the burst.
    fn give_back(&mut self, key: &K, cost: u32) {
        if let Some(bucket) = self.map.get_mut(key) {
            bucket.give_back(u64::from(cost));
        }
    }

    /// Forgets `key`: its bucket is full again.
    fn clear(&mut self, key: &K) {
        self.map.remove(key);
    }

    fn len(&self) -> usize {
        self.map.len()
    }
}

/// The wrong-password limits ([`LimitConfig`]) and the hash budget ([`HashBudget`]).
pub struct RateLimiter {
    /// Keyed by the folded account name (so that unknown names are limited like real ones)
    /// and the address's key.
    pairs: Buckets<(String, AddressKey)>,
    accounts: Buckets<String>,
    ips: Buckets<AddressKey>,
    pub(crate) hashes: HashBudget,
}

impl RateLimiter {
    pub fn new(c: LimitConfig) -> RateLimiter {
        RateLimiter {
            pairs: Buckets::new(c.pair_burst, c.pair_interval_ms),
            accounts: Buckets::new(c.account_burst, c.account_interval_ms),
            ips: Buckets::new(c.ip_burst, c.ip_interval_ms),
            hashes: HashBudget::new(HashLimits::default()),
        }
    }

    /// Whether a try for `account` from `ip` is allowed now; if not, how long to wait.
    pub fn check(&self, account: &str, ip: IpAddr, now: UnixMs) -> Result<(), RetryAfter> {
        let ip = net(ip);
        let waits = [
            self.pairs.wait(&(account.to_owned(), ip), 1, now),
            self.accounts.wait(&account.to_owned(), 1, now),
            self.ips.wait(&ip, 1, now),
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

    /// Counts a wrong password (or an unknown name) against every key.
    pub fn record_failure(&mut self, account: &str, ip: IpAddr, now: UnixMs) {
        let ip = net(ip);
        self.pairs.add((account.to_owned(), ip), 1, now);
        self.accounts.add(account.to_owned(), 1, now);
        self.ips.add(ip, 1, now);
    }

    /// After a right password: forgets the account's failures (from this address and in all)
    /// and gives the address back the try that [`RateLimiter::begin_attempt`] counted.
    pub fn record_success(&mut self, account: &str, ip: IpAddr) {
        let ip = net(ip);
        self.pairs.clear(&(account.to_owned(), ip));
        self.accounts.clear(&account.to_owned());
        self.ips.give_back(&ip, 1);
    }

    /// Gives back a try that [`RateLimiter::begin_attempt`] counted but that was never checked
    /// (the server was too busy to check the password).
    pub fn refund(&mut self, account: &str, ip: IpAddr) {
        let ip = net(ip);
        self.pairs.give_back(&(account.to_owned(), ip), 1);
        self.accounts.give_back(&account.to_owned(), 1);
        self.ips.give_back(&ip, 1);
    }

    /// How many keys are held (for tests and metrics).
    pub fn len(&self) -> usize {
        self.pairs.len() + self.accounts.len() + self.ips.len() + self.hashes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Sizes only: the keys are account names and addresses, not for logs.
impl std::fmt::Debug for RateLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimiter")
            .field("pairs", &self.pairs.len())
            .field("accounts", &self.accounts.len())
            .field("addresses", &self.ips.len())
            .field("hash_keys", &self.hashes.len())
            .finish()
    }
}

/// How many password hashes each account and each address may start ([`HashLimits`]).
/// Its `Debug` shows sizes only.
pub struct HashBudget {
    accounts: Buckets<String>,
    ips: Buckets<AddressKey>,
}

impl std::fmt::Debug for HashBudget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HashBudget")
            .field("keys", &self.len())
            .finish()
    }
}

impl HashBudget {
    pub fn new(c: HashLimits) -> HashBudget {
        HashBudget {
            accounts: Buckets::new(c.account_burst, c.account_interval_ms),
            ips: Buckets::new(c.ip_burst, c.ip_interval_ms),
        }
    }

    /// Takes `cost` hashes for `account` (its folded name) from `ip`, or says how long to wait
    /// when either has too few left (then nothing is taken).
    pub fn take(
        &mut self,
        account: &str,
        ip: IpAddr,
        cost: u32,
        now: UnixMs,
    ) -> Result<(), RetryAfter> {
        let ip = net(ip);
        let account = account.to_owned();
        let waits = [
            self.accounts.wait(&account, cost, now),
            self.ips.wait(&ip, cost, now),
        ];
        if let Some(ms) = waits.into_iter().flatten().max() {
            return Err(RetryAfter { ms });
        }
        self.accounts.add(account, cost, now);
        self.ips.add(ip, cost, now);
        Ok(())
    }

    /// Gives back hashes that were taken but never run (the pool was full).
    pub fn give_back(&mut self, account: &str, ip: IpAddr, cost: u32) {
        let ip = net(ip);
        let account = account.to_owned();
        self.accounts.give_back(&account, cost);
        self.ips.give_back(&ip, cost);
    }

    fn len(&self) -> usize {
        self.accounts.len() + self.ips.len()
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
        pair_burst: 3,
        pair_interval_ms: 1_000,
        account_burst: 8,
        account_interval_ms: 250,
        ip_burst: 50,
        ip_interval_ms: 10,
    };

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn an_account_from_one_address_gets_its_burst_then_one_try_per_interval() {
        let mut l = RateLimiter::new(CONFIG);
        let a = ip("10.0.0.1");
        for i in 0..3 {
            assert_eq!(l.begin_attempt("alice", a, 0), Ok(()), "try {i}");
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
    fn an_attackers_wrong_passwords_do_not_lock_the_victim_out_from_elsewhere() {
        let mut l = RateLimiter::new(CONFIG);
        let (attacker, victim) = (ip("198.51.100.7"), ip("192.0.2.1"));
        // The attacker tries victim's name as fast as allowed for ten minutes.
        let mut tried = 0;
        for t in (0..600_000).step_by(100) {
            if l.begin_attempt("victim", attacker, t).is_ok() {
                tried += 1;
            }
            // The victim's own tries from home are let through all along.
            assert_eq!(l.check("victim", victim, t), Ok(()), "at {t} ms");
        }
        // The attacker got its burst and one a second (the pair's interval), no more.
        assert_eq!(tried, 3 + 599, "{tried}");
        // Many addresses together are held by the account's cap (8, then one per 250 ms).
        let mut spread = 0;
        for i in 0..40 {
            if l.begin_attempt("bob", ip(&format!("203.0.113.{i}")), 0)
                .is_ok()
            {
                spread += 1;
            }
        }
        assert_eq!(spread, 8);
    }

    #[test]
    fn an_address_is_limited_across_accounts_and_ipv6_by_its_64() {
        let mut l = RateLimiter::new(LimitConfig {
            ip_burst: 5,
            ip_interval_ms: 100,
            ..CONFIG
        });
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
    fn hashes_cost_their_number_and_a_refusal_takes_nothing() {
        let mut b = HashBudget::new(HashLimits {
            account_burst: 4,
            account_interval_ms: 1_000,
            ip_burst: 6,
            ip_interval_ms: 100,
        });
        let (home, other) = (ip("192.0.2.1"), ip("192.0.2.2"));
        assert_eq!(b.take("alice", home, 2, 0), Ok(()));
        assert_eq!(b.take("alice", home, 2, 0), Ok(()));
        // Alice's 4 are used: even one more waits, from anywhere.
        assert_eq!(b.take("alice", other, 1, 0), Err(RetryAfter { ms: 1_000 }));
        // The address has 2 left: a change of two fits, one of three does not, for anyone.
        assert_eq!(b.take("bob", home, 3, 0), Err(RetryAfter { ms: 100 }));
        assert_eq!(b.take("bob", home, 2, 0), Ok(()));
        assert!(b.take("carol", home, 1, 0).is_err());
        assert_eq!(b.take("carol", other, 1, 0), Ok(()));
        b.give_back("carol", other, 1);
        b.give_back("bob", home, 2);
        assert_eq!(b.take("carol", home, 2, 0), Ok(()));
        // More than the burst at once is never allowed... but a burst's worth is, once drained.
        assert!(b.take("dave", other, 7, 10_000).is_err());
        assert_eq!(b.take("dave", other, 4, 10_000), Ok(()));
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

    #[test]
    fn tries_let_through_together_by_many_connections_are_all_counted() {
        let mut l = RateLimiter::new(CONFIG);
        let a = ip("10.0.0.1");
        // Two tries, then four connections are checked at once before any is counted (the
        // store checks, hashes, then counts): all four pass, and all four count.
        l.begin_attempt("alice", a, 0).unwrap();
        l.begin_attempt("alice", a, 0).unwrap();
        for _ in 0..4 {
            assert_eq!(l.check("alice", a, 0), Ok(()));
        }
        for _ in 0..4 {
            l.record_failure("alice", a, 0);
        }
        // Six counted against a burst of three: three tries owed, a wait of four intervals.
        assert_eq!(l.check("alice", a, 0), Err(RetryAfter { ms: 4_000 }));
        assert_eq!(l.check("alice", a, 3_999), Err(RetryAfter { ms: 1 }));
        assert_eq!(l.check("alice", a, 4_000), Ok(()));
    }

    #[test]
    fn waits_are_exact_for_any_interval_and_odd_clocks_do_not_panic() {
        let mut l = RateLimiter::new(LimitConfig {
            pair_burst: 1,
            pair_interval_ms: 7,
            ..CONFIG
        });
        let a = ip("10.0.0.1");
        // Seven ms is no whole rate a minute: the wait is still exact.
        l.begin_attempt("alice", a, 100).unwrap();
        assert_eq!(l.check("alice", a, 100), Err(RetryAfter { ms: 7 }));
        assert_eq!(l.check("alice", a, 106), Err(RetryAfter { ms: 1 }));
        assert_eq!(l.check("alice", a, 107), Ok(()));
        let mut b = HashBudget::new(HashLimits {
            account_burst: 2,
            account_interval_ms: 60_001,
            ip_burst: 100,
            ip_interval_ms: 1,
        });
        b.take("bob", a, 2, 0).unwrap();
        assert_eq!(b.take("bob", a, 1, 0), Err(RetryAfter { ms: 60_001 }));
        assert_eq!(b.take("bob", a, 2, 60_001), Err(RetryAfter { ms: 60_001 }));
        assert_eq!(b.take("bob", a, 1, 60_001), Ok(()));

        // A clock that goes back stands still for the buckets: refused until it passes the
        // latest time seen and the refill is due, the wait told being the refill's.
        let mut l = RateLimiter::new(CONFIG);
        for _ in 0..3 {
            l.begin_attempt("carol", a, 10_000).unwrap();
        }
        assert_eq!(l.check("carol", a, 5_000), Err(RetryAfter { ms: 1_000 }));
        assert_eq!(l.check("carol", a, 10_999), Err(RetryAfter { ms: 1 }));
        assert_eq!(l.check("carol", a, 11_000), Ok(()));
        // Times before 1970 are 0; the ends of the clock neither panic nor wrap.
        for now in [i64::MIN, -1, i64::MAX, 0, i64::MIN] {
            let _ = l.begin_attempt("dave", a, now);
            let _ = l.check("dave", a, now);
            l.record_failure("dave", a, now);
            l.refund("dave", a);
        }
        assert!(l.check("dave", a, i64::MIN).is_err());
        assert_eq!(l.check("erin", a, i64::MIN), Ok(()));
    }
}
