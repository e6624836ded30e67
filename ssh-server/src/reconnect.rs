//! Solo games kept for a player whose connection dropped mid-game.
//!
//! When a session ends because its connection dropped (client EOF or close, a failed write; not
//! a quit, an idle timeout, a removed key or a shutdown) while a solo game is in progress, the
//! session takes the game out of its App, paused ([`minotty_ui::App::park_game`]), and parks it
//! here under the SSH key's fingerprint. A session of the same key that starts within
//! `--reconnect-secs` takes it back and offers it to the player ("Enter resume, Esc discard").
//! Keyboard-interactive clients have no key and park nothing.
//!
//! Bounds: one game per key (a newer one replaces the older), at most `--max-parked` games in
//! all (the oldest evicted first), each gone `--reconnect-secs` after it was parked. One task
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

/// Seconds a parked game waits by default.
pub const DEFAULT_SECS: u64 = 60;
/// Parked games held at most by default, server-wide.
pub const DEFAULT_MAX: usize = 1_000;

/// The registry itself, over any value and the caller's milliseconds (tests drive it with a
/// fake clock).
#[derive(Debug)]
pub struct Parking<T> {
    ttl_ms: u64,
    cap: usize,
    entries: HashMap<String, Slot<T>>,
    /// Every entry by (parked at, sequence): the oldest first, for expiry and eviction.
    order: BTreeMap<(u64, u64), String>,
    seq: u64,
}

#[derive(Debug)]
struct Slot<T> {
    value: T,
    parked_at: u64,
    seq: u64,
}

impl<T> Parking<T> {
    /// A registry whose entries live `ttl_ms` and that holds at most `cap` of them (either 0:
    /// nothing is ever kept).
    pub fn new(ttl_ms: u64, cap: usize) -> Parking<T> {
        Parking {
            ttl_ms,
            cap,
            entries: HashMap::new(),
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

    /// Parks `value` under `key` at `now`. Returns what it displaced: the key's older value,
    /// the oldest entries evicted to stay within the cap, and entries that expired. With a cap
    /// or lifetime of 0 the value itself comes back.
    pub fn park(&mut self, key: String, value: T, now: u64) -> Vec<T> {
        let mut out = self.expire(now);
        if self.cap == 0 || self.ttl_ms == 0 {
            out.push(value);
            return out;
        }
        if let Some(old) = self.remove(&key) {
            out.push(old);
        }
        while self.entries.len() >= self.cap {
            let Some((_, oldest)) = self.order.pop_first() else {
                break;
            };
            if let Some(slot) = self.entries.remove(&oldest) {
                out.push(slot.value);
            }
        }
        self.seq += 1;
        let seq = self.seq;
        self.order.insert((now, seq), key.clone());
        self.entries.insert(
            key,
            Slot {
                value,
                parked_at: now,
                seq,
            },
        );
        out
    }

    /// Takes the value parked under `key` at `now`, with how long it waited; `None` when there
    /// is none or it has expired.
    pub fn take(&mut self, key: &str, now: u64) -> Option<(T, u64)> {
        let slot = self.entries.remove(key)?;
        self.order.remove(&(slot.parked_at, slot.seq));
        let waited = now.saturating_sub(slot.parked_at);
        (waited < self.ttl_ms).then_some((slot.value, waited))
    }

    /// Removes and returns every entry that has expired at `now`.
    pub fn expire(&mut self, now: u64) -> Vec<T> {
        let mut out = Vec::new();
        while let Some((&(at, _), _)) = self.order.first_key_value() {
            if now < at.saturating_add(self.ttl_ms) {
                break;
            }
            if let Some((_, key)) = self.order.pop_first()
                && let Some(slot) = self.entries.remove(&key)
            {
                out.push(slot.value);
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
        let slot = self.entries.remove(key)?;
        self.order.remove(&(slot.parked_at, slot.seq));
        Some(slot.value)
    }
}

/// The server's parked games, shared by every session.
#[derive(Debug)]
pub struct ParkedGames {
    parking: Mutex<Parking<ParkedGame>>,
    start: Instant,
    /// Wakes the expiry task when a game is parked (the next expiry may be sooner).
    parked: Notify,
}

impl ParkedGames {
    pub fn new(ttl: Duration, cap: usize) -> ParkedGames {
        ParkedGames {
            parking: Mutex::new(Parking::new(
                u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
                cap,
            )),
            start: Instant::now(),
            parked: Notify::new(),
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn lock(&self) -> MutexGuard<'_, Parking<ParkedGame>> {
        // A panic while holding the lock left a consistent map (no method panics midway).
        self.parking.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Parks the game of the key `fingerprint`.
    pub fn park(&self, fingerprint: &str, game: ParkedGame) {
        let now = self.now();
        let displaced = self.lock().park(fingerprint.to_owned(), game, now);
        // Dropped outside the lock.
        drop(displaced);
        self.parked.notify_one();
    }

    /// Takes back the game parked for the key `fingerprint`, with how long it waited (ms).
    pub fn take(&self, fingerprint: &str) -> Option<(ParkedGame, u64)> {
        let now = self.now();
        self.lock().take(fingerprint, now)
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

/// What a session needs to park its game or take one back: the registry and the player's key.
#[derive(Clone, Debug)]
pub struct Reconnect {
    pub games: Arc<ParkedGames>,
    pub fingerprint: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_waits_its_lifetime_and_no_longer() {
        let mut p = Parking::new(60_000, 10);
        assert!(p.park("a".into(), 1, 1_000).is_empty());
        assert_eq!(p.next_expiry(), Some(61_000));
        assert_eq!(p.take("a", 60_999), Some((1, 59_999)));
        assert_eq!(p.take("a", 61_000), None, "taken once");

        p.park("b".into(), 2, 1_000);
        assert_eq!(p.take("b", 61_000), None, "expired at 60 s");
        assert!(p.is_empty());

        p.park("c".into(), 3, 0);
        p.park("d".into(), 4, 30_000);
        assert!(p.expire(59_999).is_empty());
        assert_eq!(p.expire(60_000), vec![3]);
        assert_eq!(p.next_expiry(), Some(90_000));
        assert_eq!(p.expire(200_000), vec![4]);
        assert_eq!(p.next_expiry(), None);
        assert!(p.is_empty() && p.order.is_empty());
    }

    #[test]
    fn a_newer_game_of_the_same_key_replaces_the_older() {
        let mut p = Parking::new(60_000, 10);
        p.park("k".into(), 1, 0);
        assert_eq!(p.park("k".into(), 2, 10_000), vec![1]);
        assert_eq!(p.len(), 1);
        // Its lifetime counts from the newer park.
        assert_eq!(p.next_expiry(), Some(70_000));
        assert_eq!(p.take("k", 65_000), Some((2, 55_000)));
        assert_eq!(p.order.len(), 0);
    }

    #[test]
    fn the_cap_evicts_the_oldest_first() {
        let mut p = Parking::new(60_000, 3);
        for (i, key) in ["a", "b", "c"].into_iter().enumerate() {
            assert!(p.park(key.into(), i, i as u64).is_empty());
        }
        assert_eq!(p.park("d".into(), 3, 10), vec![0], "a, the oldest");
        assert_eq!(p.len(), 3);
        // Re-parking b makes it the newest: c is the oldest now.
        assert_eq!(p.park("b".into(), 4, 11), vec![1]);
        assert_eq!(p.park("e".into(), 5, 12), vec![2], "c");
        assert_eq!(p.take("a", 20), None);
        assert_eq!(p.take("c", 20), None);
        assert_eq!(p.take("d", 20).map(|(v, _)| v), Some(3));
        assert_eq!(p.take("b", 20).map(|(v, _)| v), Some(4));
        assert_eq!(p.take("e", 20).map(|(v, _)| v), Some(5));
        assert!(p.is_empty() && p.order.is_empty());
    }

    #[test]
    fn parking_expires_first_and_a_zero_cap_or_lifetime_keeps_nothing() {
        let mut p = Parking::new(1_000, 2);
        p.park("a".into(), 1, 0);
        p.park("b".into(), 2, 500);
        // At 1,200 a has expired: parking c evicts nothing else.
        assert_eq!(p.park("c".into(), 3, 1_200), vec![1]);
        assert_eq!(p.len(), 2);
        let mut none = Parking::new(0, 10);
        assert_eq!(none.park("a".into(), 1, 0), vec![1]);
        assert!(none.is_empty());
        let mut none = Parking::new(60_000, 0);
        assert_eq!(none.park("a".into(), 1, 0), vec![1]);
        assert!(none.is_empty());
    }

    #[test]
    fn many_keys_never_push_the_registry_past_its_cap() {
        // The attacker: a key per connection, each parking a game.
        let cap = 100;
        let mut p = Parking::new(60_000, cap);
        let mut displaced = 0;
        for i in 0..10_000u64 {
            displaced += p.park(format!("key{i}"), i, i / 10).len();
            assert!(p.len() <= cap);
            assert_eq!(p.order.len(), p.len());
        }
        assert_eq!(p.len(), cap);
        assert_eq!(displaced, 10_000 - cap);
        // The newest stay.
        assert!(p.take("key9999", 1_000).is_some());
        assert!(p.take("key0", 1_000).is_none());
    }

    fn parked_game() -> ParkedGame {
        let mut app = minotty_ui::App::new(minotty_ui::AppContext::default());
        app.play(minotty_engine::ModeKind::Marathon, 0);
        app.tick(5_000);
        app.park_game(5_000).expect("a game in progress parks")
    }

    #[test]
    fn many_keys_parking_real_games_stay_within_the_cap() {
        // The attacker of the server: 500 keys, each dropping a connection mid-game.
        let games = ParkedGames::new(Duration::from_secs(60), 50);
        for i in 0..500 {
            games.park(&format!("SHA256:key{i}"), parked_game());
            assert!(games.len() <= 50);
        }
        assert_eq!(games.len(), 50);
        assert!(games.take("SHA256:key499").is_some(), "the newest stay");
        assert!(games.take("SHA256:key0").is_none(), "the oldest went first");
        // A key parking again replaces its own game, nobody else's.
        games.park("SHA256:key498", parked_game());
        games.park("SHA256:key498", parked_game());
        assert_eq!(games.len(), 49);
    }

    #[tokio::test]
    async fn the_expiry_task_drops_games_at_their_time() {
        // Real time, scaled down: a lifetime of 400 ms.
        let games = Arc::new(ParkedGames::new(Duration::from_millis(400), 10));
        let shutdown = CancellationToken::new();
        let task = tokio::spawn(Arc::clone(&games).run_expiry(shutdown.clone()));
        games.park("a", parked_game());
        tokio::time::sleep(Duration::from_millis(200)).await;
        games.park("b", parked_game());
        assert_eq!(games.len(), 2);
        tokio::time::sleep(Duration::from_millis(300)).await;
        assert_eq!(games.len(), 1, "a expired at 400 ms, without anyone asking");
        assert!(games.take("b").is_some_and(|(_, waited)| waited >= 300));
        games.park("c", parked_game());
        tokio::time::sleep(Duration::from_millis(600)).await;
        assert!(games.is_empty());
        shutdown.cancel();
        task.await.expect("the task ends at shutdown");
    }
}
