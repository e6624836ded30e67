//! Solo games kept for a player whose connection dropped mid-game.
//!
//! When a session ends because its connection dropped (client EOF or close, a failed write; not
//! a quit, an idle timeout, a removed key or a shutdown) while a solo game is in progress, the
//! session takes the game out of its App, paused ([`minotty_ui::App::park_game`]), and parks it
//! here under the player's identity ([`ParkKey`]: the SSH key's fingerprint, or the account of
//! a linked browser). A session of the same identity that starts within `--reconnect-secs`
//! takes it back and offers it to the player ("Enter resume, Esc discard"). Guests
//! (keyboard-interactive clients, browsers not linked) park nothing.
//!
//! Bounds: one game per key (a newer one replaces the older), at most
//! [`DEFAULT_MAX_PER_ADDRESS`] games per client address (IPv4 address, IPv6 /64: an address
//! over it loses its own oldest game, never another address's), at most `--max-parked` games in
//! all (when full, the oldest game of the address holding the most goes first, so many keys or
//! many addresses of one client evict their own games before anyone else's), each gone
//! `--reconnect-secs` after it was parked. One task
//! for the whole server drops the expired games ([`ParkedGames::run_expiry`]); there is no task
//! per game. A game that is not taken back is dropped like a game the player left for the main
//! menu: no mode stores an abandoned game.

use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use minotty_ui::ParkedGame;
use tokio::sync::Notify;
use tokio::time::{Instant, sleep_until};
use tokio_util::sync::CancellationToken;

use minotty_domain::{AddressKey, ClientAddr};

use crate::live::LiveHold;
use crate::services::Identity;

/// Seconds a parked game waits by default.
pub const DEFAULT_SECS: u64 = 60;
/// Parked games held at most by default, server-wide.
pub const DEFAULT_MAX: usize = 1_000;
/// Parked games held at most per client address (IPv4 address, IPv6 /64): as many as the
/// connections one address may hold by default (`--max-per-ip`).
pub const DEFAULT_MAX_PER_ADDRESS: usize = 16;

/// The registry itself, over any value and the caller's milliseconds (tests drive it with a
/// fake clock).
#[derive(Debug)]
pub struct Parking<T> {
    ttl_ms: u64,
    cap: usize,
    /// Entries of one address at most.
    per_address: usize,
    entries: HashMap<String, Slot<T>>,
    /// Entries per address (the client's key, [`ClientAddr::key`]); no zeros.
    per: HashMap<AddressKey, usize>,
    /// Every entry by (parked at, sequence): the oldest first, for expiry and eviction.
    order: BTreeMap<(u64, u64), String>,
    seq: u64,
}

#[derive(Debug)]
struct Slot<T> {
    value: T,
    address: AddressKey,
    parked_at: u64,
    seq: u64,
}

impl<T> Parking<T> {
    /// A registry whose entries live `ttl_ms` and that holds at most `cap` of them (either 0:
    /// nothing is ever kept).
    pub fn new(ttl_ms: u64, cap: usize) -> Parking<T> {
        Parking::with_per_address(ttl_ms, cap, DEFAULT_MAX_PER_ADDRESS)
    }

    /// The same, holding at most `per_address` entries of one address (at least 1).
    pub fn with_per_address(ttl_ms: u64, cap: usize, per_address: usize) -> Parking<T> {
        Parking {
            ttl_ms,
            cap,
            per_address: per_address.max(1),
            entries: HashMap::new(),
            per: HashMap::new(),
            order: BTreeMap::new(),
            seq: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Parks `value` under `key`, for a client at `address`, at `now`. Returns what it
    /// displaced: the key's older value, the address's oldest entries evicted to stay within
    /// its share, the entries evicted to stay within the cap (the oldest of the address holding
    /// the most), and entries that expired. With a cap or lifetime of 0 the value itself comes
    /// back.
    pub fn park(&mut self, key: String, address: ClientAddr, value: T, now: u64) -> Vec<T> {
        let mut out = self.expire(now);
        if self.cap == 0 || self.ttl_ms == 0 {
            out.push(value);
            return out;
        }
        let address = address.key();
        if let Some(old) = self.remove(&key) {
            out.push(old);
        }
        // An address over its share makes room from its own games.
        while self.count(address) >= self.per_address {
            let Some(oldest) = self.oldest_where(|a| a == address) else {
                break;
            };
            out.extend(self.remove(&oldest));
        }
        // A full registry: the address holding the most loses its oldest.
        while self.entries.len() >= self.cap {
            let most = self.per.values().copied().max().unwrap_or(0);
            let fullest = |a: AddressKey| self.per.get(&a).copied().unwrap_or(0) == most;
            let Some(victim) = self.oldest_where(fullest) else {
                break;
            };
            out.extend(self.remove(&victim));
        }
        self.seq += 1;
        let seq = self.seq;
        self.order.insert((now, seq), key.clone());
        *self.per.entry(address).or_insert(0) += 1;
        self.entries.insert(
            key,
            Slot {
                value,
                address,
                parked_at: now,
                seq,
            },
        );
        out
    }

    /// Entries parked from `address` (its key).
    fn count(&self, address: AddressKey) -> usize {
        self.per.get(&address).copied().unwrap_or(0)
    }

    /// The key of the oldest entry whose address passes `pick`.
    fn oldest_where(&self, pick: impl Fn(AddressKey) -> bool) -> Option<String> {
        self.order
            .values()
            .find(|key| self.entries.get(*key).is_some_and(|s| pick(s.address)))
            .cloned()
    }

    /// Takes the value parked under `key` at `now`, with how long it waited; `None` when there
    /// is none or it has expired.
    pub fn take(&mut self, key: &str, now: u64) -> Option<(T, u64)> {
        let slot = self.remove_slot(key)?;
        let waited = now.saturating_sub(slot.parked_at);
        (waited < self.ttl_ms).then_some((slot.value, waited))
    }

    /// Removes and returns every entry that has expired at `now`.
    pub fn expire(&mut self, now: u64) -> Vec<T> {
        let mut out = Vec::new();
        while let Some((&(at, _), key)) = self.order.first_key_value() {
            if now < at.saturating_add(self.ttl_ms) {
                break;
            }
            let key = key.clone();
            match self.remove(&key) {
                Some(value) => out.push(value),
                // Never happens (the order and the map agree); without this it would loop.
                None => {
                    self.order.pop_first();
                }
            }
        }
        out
    }

    /// When the next entry expires.
    pub fn next_expiry(&self) -> Option<u64> {
        self.order
            .first_key_value()
            .map(|(&(at, _), _)| at.saturating_add(self.ttl_ms))
    }

    fn remove(&mut self, key: &str) -> Option<T> {
        self.remove_slot(key).map(|slot| slot.value)
    }

    /// Takes `key`'s entry out of the map, the order and its address's count.
    fn remove_slot(&mut self, key: &str) -> Option<Slot<T>> {
        let slot = self.entries.remove(key)?;
        self.order.remove(&(slot.parked_at, slot.seq));
        if let Some(n) = self.per.get_mut(&slot.address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.per.remove(&slot.address);
            }
        }
        Some(slot)
    }
}

/// A parked game, and its listing on the live directory when it was listed: its watchers wait
/// with it and see it go on when it is resumed.
#[derive(Debug)]
pub struct Parked {
    pub game: ParkedGame,
    pub live: Option<LiveHold>,
}

impl From<ParkedGame> for Parked {
    fn from(game: ParkedGame) -> Parked {
        Parked { game, live: None }
    }
}

/// The server's parked games, shared by every session.
#[derive(Debug)]
pub struct ParkedGames {
    parking: Mutex<Parking<Parked>>,
    start: Instant,
    /// Wakes the expiry task when a game is parked (the next expiry may be sooner).
    parked: Notify,
}

impl ParkedGames {
    /// At most `cap` games, [`DEFAULT_MAX_PER_ADDRESS`] of one address, each kept `ttl`.
    pub fn new(ttl: Duration, cap: usize) -> ParkedGames {
        ParkedGames::with_per_address(ttl, cap, DEFAULT_MAX_PER_ADDRESS)
    }

    /// The same with `per_address` games of one address at most.
    pub fn with_per_address(ttl: Duration, cap: usize, per_address: usize) -> ParkedGames {
        ParkedGames {
            parking: Mutex::new(Parking::with_per_address(
                u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
                cap,
                per_address,
            )),
            start: Instant::now(),
            parked: Notify::new(),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn lock(&self) -> MutexGuard<'_, Parking<Parked>> {
        // A panic while holding the lock left a consistent map (no method panics midway).
        self.parking.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Parks the game of the player `key`, whose client connected from `address`.
    pub fn park(&self, key: &ParkKey, address: ClientAddr, game: impl Into<Parked>) {
        let now = self.now();
        let displaced = self.lock().park(key.0.clone(), address, game.into(), now);
        // Dropped outside the lock.
        drop(displaced);
        self.parked.notify_one();
    }

    /// Takes back the game parked for the player `key`, with how long it waited (ms).
    pub fn take(&self, key: &ParkKey) -> Option<(Parked, u64)> {
        let now = self.now();
        self.lock().take(&key.0, now)
    }

    /// Games parked now.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops the expired games, each at its time, until `shutdown`: the one timer of the
    /// registry.
    pub async fn run_expiry(self: Arc<Self>, shutdown: CancellationToken) {
        loop {
            let (expired, next) = {
                let mut parking = self.lock();
                let expired = parking.expire(self.now());
                (expired, parking.next_expiry())
            };
            drop(expired);
            let wake = next.map(|at| self.start + Duration::from_millis(at));
            tokio::select! {
                () = shutdown.cancelled() => return,
                () = self.parked.notified() => {}
                () = async {
                    match wake {
                        Some(at) => sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                } => {}
            }
        }
    }
}

/// Who a parked game waits for: the [`Identity`] of a player a front end recognises when
/// they come back (guests have none).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ParkKey(String);

impl ParkKey {
    /// The key of `identity`; `None` for a guest.
    pub fn of(identity: &Identity) -> Option<ParkKey> {
        match identity {
            // `SHA256:...`: never the shape of a browser's key below.
            Identity::Key { fingerprint, .. } => Some(ParkKey(fingerprint.as_str().to_owned())),
            Identity::Web { account } => Some(ParkKey(format!("web:{}", account.0))),
            Identity::Guest => None,
        }
    }
}

/// What a session needs to park its game or take one back: the registry and the player's key.
#[derive(Clone, Debug)]
pub struct Reconnect {
    pub games: Arc<ParkedGames>,
    pub key: ParkKey,
    /// The client's address: a game parked counts against its share.
    pub address: ClientAddr,
}

impl Reconnect {
    /// What a session of `identity` from `address` parks into `games`; `None` for a guest.
    pub fn of(
        games: &Arc<ParkedGames>,
        identity: &Identity,
        address: ClientAddr,
    ) -> Option<Reconnect> {
        ParkKey::of(identity).map(|key| Reconnect {
            games: Arc::clone(games),
            key,
            address,
        })
    }

    /// Parks `game` for this player, counted against this address.
    pub fn park(&self, game: Parked) {
        self.games.park(&self.key, self.address, game);
    }
}

#[cfg(test)]
#[path = "reconnect_tests.rs"]
mod tests;
