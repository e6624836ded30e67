//! Tests of `reconnect.rs`: the registry's bounds, per key, per address and in all.

use std::hash::{Hash, Hasher};
use std::net::{IpAddr, Ipv4Addr};

use minotty_domain::KeyFingerprint;

use super::*;

/// The parking key of a valid fingerprint made of `name` (the registry of real games takes
/// parsed keys only): `name` without its `SHA256:`, padded with `+` to 43 characters.
fn key(name: &str) -> ParkKey {
    ParkKey::of(&key_identity(name)).expect("a key is recognised")
}

fn key_identity(name: &str) -> Identity {
    let b64 = name.strip_prefix("SHA256:").unwrap_or(name);
    let fingerprint = KeyFingerprint::parse(&format!("SHA256:{b64:+<43}")).expect("a fingerprint");
    Identity::of_key(Some(fingerprint), "ssh-ed25519")
}

/// An address of its own for each key (the registry's bounds without the address's).
fn own(key: &str) -> ClientAddr {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    key.hash(&mut h);
    ClientAddr::new(IpAddr::V4(Ipv4Addr::from(h.finish() as u32)))
}

#[test]
fn a_value_waits_its_lifetime_and_no_longer() {
    let mut p = Parking::new(60_000, 10);
    assert!(p.park("a".into(), own("a"), 1, 1_000).is_empty());
    assert_eq!(p.next_expiry(), Some(61_000));
    assert_eq!(p.take("a", 60_999), Some((1, 59_999)));
    assert_eq!(p.take("a", 61_000), None, "taken once");

    p.park("b".into(), own("b"), 2, 1_000);
    assert_eq!(p.take("b", 61_000), None, "expired at 60 s");
    assert!(p.is_empty());

    p.park("c".into(), own("c"), 3, 0);
    p.park("d".into(), own("d"), 4, 30_000);
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
    p.park("k".into(), own("k"), 1, 0);
    assert_eq!(p.park("k".into(), own("k"), 2, 10_000), vec![1]);
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
        assert!(p.park(key.into(), own(key), i, i as u64).is_empty());
    }
    assert_eq!(
        p.park("d".into(), own("d"), 3, 10),
        vec![0],
        "a, the oldest"
    );
    assert_eq!(p.len(), 3);
    // Re-parking b makes it the newest: c is the oldest now.
    assert_eq!(p.park("b".into(), own("b"), 4, 11), vec![1]);
    assert_eq!(p.park("e".into(), own("e"), 5, 12), vec![2], "c");
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
    p.park("a".into(), own("a"), 1, 0);
    p.park("b".into(), own("b"), 2, 500);
    // At 1,200 a has expired: parking c evicts nothing else.
    assert_eq!(p.park("c".into(), own("c"), 3, 1_200), vec![1]);
    assert_eq!(p.len(), 2);
    let mut none = Parking::new(0, 10);
    assert_eq!(none.park("a".into(), own("a"), 1, 0), vec![1]);
    assert!(none.is_empty());
    let mut none = Parking::new(60_000, 0);
    assert_eq!(none.park("a".into(), own("a"), 1, 0), vec![1]);
    assert!(none.is_empty());
}

#[test]
fn many_keys_never_push_the_registry_past_its_cap() {
    // The attacker: a key per connection, each parking a game.
    let cap = 100;
    let mut p = Parking::new(60_000, cap);
    let mut displaced = 0;
    for i in 0..10_000u64 {
        displaced += p
            .park(format!("key{i}"), own(&format!("key{i}")), i, i / 10)
            .len();
        assert!(p.len() <= cap);
        assert_eq!(p.order.len(), p.len());
    }
    assert_eq!(p.len(), cap);
    assert_eq!(displaced, 10_000 - cap);
    // The newest stay.
    assert!(p.take("key9999", 1_000).is_some());
    assert!(p.take("key0", 1_000).is_none());
}

/// The attacker of issue 23: one address, a fresh key per connection, each parking a game.
/// Before the per-address share, the cap evicted the oldest games in all, everyone's.
#[test]
fn many_keys_of_one_address_never_evict_another_addresss_games() {
    const VICTIM: u64 = 1 << 40;
    let (cap, share) = (50, 8);
    let mut p = Parking::with_per_address(60_000, cap, share);
    let victim: ClientAddr = "198.51.100.7".parse().expect("ip");
    let attacker: ClientAddr = "203.0.113.9".parse().expect("ip");
    for i in 0..3u64 {
        assert!(
            p.park(format!("victim{i}"), victim, VICTIM + i, i)
                .is_empty()
        );
    }
    let mut displaced = 0;
    for i in 0..10_000u64 {
        let out = p.park(format!("attacker{i}"), attacker, i, 10 + i / 100);
        assert!(out.iter().all(|v| *v < VICTIM), "a victim's game went");
        displaced += out.len();
        assert!(p.count(attacker.key()) <= share);
    }
    assert_eq!(p.len(), 3 + share);
    assert_eq!(displaced, 10_000 - share);
    for i in 0..3u64 {
        assert_eq!(
            p.take(&format!("victim{i}"), 200).map(|(v, _)| v),
            Some(VICTIM + i)
        );
    }
    // The attacker keeps its newest games.
    assert!(p.take("attacker9999", 200).is_some());
    assert!(p.take("attacker0", 200).is_none());
    // An IPv6 client is one address per /64, whatever its interface part; a v4-mapped
    // address is the v4 address.
    let mut p = Parking::with_per_address(60_000, cap, 2);
    for i in 0..10u16 {
        let ip = IpAddr::V6(std::net::Ipv6Addr::new(0x2001, 0xdb8, 0, 1, i, i, i, i));
        p.park(format!("v6-{i}"), ip.into(), i, 0);
    }
    assert_eq!(p.len(), 2);
    p.park("a".into(), "192.0.2.1".parse().expect("ip"), 0, 0);
    p.park("b".into(), "::ffff:192.0.2.1".parse().expect("ip"), 0, 0);
    p.park("c".into(), "::ffff:192.0.2.1".parse().expect("ip"), 0, 0);
    assert_eq!(p.len(), 4);
    assert!(
        p.take("a", 1).is_none(),
        "the mapped address is the same client"
    );
}

/// A full registry takes from the address holding the most, even when the oldest game in all
/// is someone else's.
#[test]
fn a_full_registry_evicts_from_the_address_holding_the_most() {
    let mut p = Parking::with_per_address(60_000, 6, 8);
    let (lone, crowd, newcomer): (ClientAddr, ClientAddr, ClientAddr) = (
        "198.51.100.1".parse().expect("ip"),
        "198.51.100.2".parse().expect("ip"),
        "198.51.100.3".parse().expect("ip"),
    );
    p.park("lone".into(), lone, 0, 0);
    for i in 1..=5u64 {
        p.park(format!("crowd{i}"), crowd, i, i);
    }
    assert_eq!(
        p.park("new".into(), newcomer, 9, 10),
        vec![1],
        "crowd's oldest"
    );
    assert!(p.take("lone", 11).is_some());
    assert_eq!(p.count(crowd.key()), 4);
    // Counts follow takes and expiry: nothing is left behind.
    let _ = p.expire(1_000_000);
    assert!(p.is_empty() && p.per.is_empty() && p.order.is_empty());
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
        games.park(
            &key(&format!("SHA256:key{i}")),
            own(&format!("SHA256:key{i}")),
            parked_game(),
        );
        assert!(games.len() <= 50);
    }
    assert_eq!(games.len(), 50);
    assert!(
        games.take(&key("SHA256:key499")).is_some(),
        "the newest stay"
    );
    assert!(
        games.take(&key("SHA256:key0")).is_none(),
        "the oldest went first"
    );
    // A key parking again replaces its own game, nobody else's.
    games.park(&key("SHA256:key498"), own("SHA256:key498"), parked_game());
    games.park(&key("SHA256:key498"), own("SHA256:key498"), parked_game());
    assert_eq!(games.len(), 49);
}

#[test]
fn real_games_of_one_address_stay_within_its_share() {
    let games = ParkedGames::with_per_address(Duration::from_secs(60), 50, 4);
    let home: ClientAddr = "192.0.2.10".parse().expect("ip");
    let attacker: ClientAddr = "192.0.2.66".parse().expect("ip");
    games.park(&key("SHA256:home"), home, parked_game());
    for i in 0..100 {
        games.park(&key(&format!("SHA256:evil{i}")), attacker, parked_game());
    }
    assert_eq!(games.len(), 5);
    assert!(
        games.take(&key("SHA256:home")).is_some(),
        "the other address's game survives"
    );
    let games = Arc::new(ParkedGames::new(Duration::from_secs(60), 10));
    let r = Reconnect::of(&games, &key_identity("SHA256:k"), home).expect("a key parks");
    r.park(parked_game().into());
    assert!(r.games.take(&key("SHA256:k")).is_some());
}

/// A linked browser's game waits for that account's browser, a key's for that key, and a
/// guest parks nothing: one registry, keyed on the identity whatever the front end.
#[test]
fn games_wait_for_the_identity_that_parked_them() {
    use minotty_domain::PlayerId;
    let games = Arc::new(ParkedGames::new(Duration::from_secs(60), 10));
    let home: ClientAddr = "192.0.2.7".parse().expect("ip");
    assert!(Reconnect::of(&games, &Identity::Guest, home).is_none());
    let web = Identity::Web {
        account: PlayerId(7),
    };
    let browser = Reconnect::of(&games, &web, home).expect("a linked browser parks");
    browser.park(parked_game().into());
    let other = Identity::Web {
        account: PlayerId(8),
    };
    assert!(games.take(&ParkKey::of(&other).expect("known")).is_none());
    assert!(games.take(&key("SHA256:7")).is_none());
    assert!(games.take(&browser.key).is_some());
    assert!(games.is_empty());
}

#[tokio::test(start_paused = true)]
async fn the_expiry_task_drops_games_at_their_time() {
    // On tokio's paused clock: a lifetime of 400 ms.
    let games = Arc::new(ParkedGames::new(Duration::from_millis(400), 10));
    let shutdown = CancellationToken::new();
    let task = tokio::spawn(Arc::clone(&games).run_expiry(shutdown.clone()));
    games.park(&key("a"), own("a"), parked_game());
    tokio::time::sleep(Duration::from_millis(200)).await;
    games.park(&key("b"), own("b"), parked_game());
    assert_eq!(games.len(), 2);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(games.len(), 1, "a expired at 400 ms, without anyone asking");
    assert!(
        games
            .take(&key("b"))
            .is_some_and(|(_, waited)| waited >= 300)
    );
    games.park(&key("c"), own("c"), parked_game());
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert!(games.is_empty());
    shutdown.cancel();
    task.await.expect("the task ends at shutdown");
}
