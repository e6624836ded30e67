//! What one client can cost the store: logins that never wait for the writer, new accounts
//! per address per day, and stored games per player.

use std::collections::BTreeSet;
use std::net::IpAddr;
use std::time::Duration;

use minotty_domain::{GameId, Period, Unranked, Verdict};
use minotty_engine::ModeKind;
use minotty_store::{Account, FinishedGame, PRUNE_EVERY, RegisterError, Store};
use sqlx::sqlite::SqliteConnection;
use sqlx::{AnyPool, Connection};

use crate::support::{DAY, NOW, key, name, player, ranked, stats, store};

fn ip(s: &str) -> IpAddr {
    s.parse().expect("address")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_login_answers_while_the_writer_is_busy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("busy.db").display());
    let store = Store::open(&url).await.expect("opens");
    let alice = player(&store, "alice", 1).await;

    // Another connection holds the write lock, as a long transaction would...
    let mut other = SqliteConnection::connect(&url).await.expect("connects");
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .expect("begins");
    sqlx::query("UPDATE players SET created_at = created_at")
        .execute(&mut other)
        .await
        .expect("writes");
    // ...and the store's one writer connection waits for it with a registration.
    let waiting = tokio::spawn({
        let store = store.clone();
        async move { store.register(&name("bob"), &key(2), NOW).await }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(!waiting.is_finished(), "the writer is busy");

    let found = tokio::time::timeout(
        Duration::from_secs(2),
        store.account_by_key(&key(1).fingerprint, NOW + 5),
    )
    .await
    .expect("a login does not wait for the writer")
    .expect("query");
    assert_eq!(found, Some(alice.clone()));

    sqlx::query("COMMIT")
        .execute(&mut other)
        .await
        .expect("commits");
    waiting
        .await
        .expect("task")
        .expect("bob registers once the lock is free");
    // The use is written later, in a batch.
    let keys = store.keys(alice.id).await.expect("keys");
    assert_eq!(keys[0].last_used_at, NOW);
    assert_eq!(store.flush_key_uses().await.expect("flushes"), 1);
    let keys = store.keys(alice.id).await.expect("keys");
    assert_eq!(keys[0].last_used_at, NOW + 5);
    // Closing writes what is left.
    store
        .account_by_key(&key(1).fingerprint, NOW + 9)
        .await
        .expect("query");
    store.close().await;
    let again = Store::open(&url).await.expect("reopens");
    let keys = again.keys(alice.id).await.expect("keys");
    assert_eq!(keys[0].last_used_at, NOW + 9);
}

both!(key_uses_keep_the_latest_time_and_never_go_back);
async fn key_uses_keep_the_latest_time_and_never_go_back(pool: AnyPool) {
    let store = store(pool).await;
    let alice = player(&store, "alice", 1).await;
    for t in [NOW + 30, NOW + 10, NOW + 20] {
        store
            .account_by_key(&key(1).fingerprint, t)
            .await
            .expect("query");
    }
    // An unknown key is not noted.
    store
        .account_by_key(&key(9).fingerprint, NOW + 40)
        .await
        .expect("query");
    assert_eq!(store.flush_key_uses().await.expect("flushes"), 1);
    assert_eq!(store.flush_key_uses().await.expect("flushes"), 0);
    store
        .account_by_key(&key(1).fingerprint, NOW + 1)
        .await
        .expect("query");
    store.flush_key_uses().await.expect("flushes");
    let keys = store.keys(alice.id).await.expect("keys");
    assert_eq!(keys[0].last_used_at, NOW + 30);
}

both!(registrations_are_limited_per_address_per_day);
async fn registrations_are_limited_per_address_per_day(pool: AnyPool) {
    let store = store(pool).await.with_registration_limit(3);
    let mut n = 0;
    let mut register = |who: &'static str, at: i64| {
        n += 1;
        let store = store.clone();
        let (name_n, key_n) = (format!("player{n}"), n);
        async move {
            store
                .register_from(&name(&name_n), &key(key_n), ip(who), at)
                .await
        }
    };
    for i in 0..3 {
        register("203.0.113.9", NOW + i).await.expect("registers");
    }
    let refused = register("203.0.113.9", NOW + 10).await;
    assert!(
        matches!(refused, Err(RegisterError::TooMany)),
        "{refused:?}"
    );
    assert_eq!(
        refused.unwrap_err().to_string(),
        "too many new accounts from your address today; try again tomorrow"
    );
    // Nothing of the refused registration was kept.
    assert_eq!(store.account_by_name(&name("player4")).await.unwrap(), None);
    register("203.0.113.10", NOW + 10)
        .await
        .expect("another address");
    // IPv6 counts by /64.
    for i in 0..3 {
        let host: &'static str = ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ff::1"][i];
        register(host, NOW).await.expect("registers");
    }
    assert!(matches!(
        register("2001:db8:1:2:abcd::9", NOW).await,
        Err(RegisterError::TooMany)
    ));
    register("2001:db8:1:3::1", NOW).await.expect("another /64");
    // The server's own machine (tests, the load tool) is not limited.
    for _ in 0..5 {
        register("127.0.0.1", NOW).await.expect("loopback");
        register("::1", NOW).await.expect("loopback");
    }
    // A day after the first three, the address may register again.
    register("203.0.113.9", NOW + DAY + 1)
        .await
        .expect("a day later");
    // Without an address (tests, imports) nothing is limited.
    store
        .register(&name("imported"), &key(999), NOW)
        .await
        .expect("registers");
}

/// Ranked 40-lines games of `who` ending at each time, `time_ms` each.
fn sprints(who: &Account, times: &[(i64, u64)]) -> Vec<(FinishedGame, Verdict)> {
    times
        .iter()
        .map(|&(at, time_ms)| ranked(who, ModeKind::Sprint, stats(time_ms, 0, 40, 100, 0), at))
        .collect()
}

async fn stored_ids(store: &Store, who: &Account) -> BTreeSet<i64> {
    store
        .recent_games(who.id, 1_000)
        .await
        .expect("games")
        .iter()
        .map(|g| g.id.0)
        .collect()
}

both!(old_games_are_pruned_but_every_best_is_kept);
async fn old_games_are_pruned_but_every_best_is_kept(pool: AnyPool) {
    let store = store(pool).await.with_game_limit(5, 1);
    let ada = player(&store, "ada", 1).await;
    let t0 = NOW - 10 * DAY;
    // The best (all time, its month, its day); twelve worse games the same day; the best of
    // the next day (worse than the first); five newer worse games; one unranked game.
    let mut games = sprints(&ada, &[(t0, 60_000)]);
    games.extend(sprints(
        &ada,
        &(1..=12)
            .map(|i| (t0 + i * 1000, 90_000))
            .collect::<Vec<_>>(),
    ));
    games.extend(sprints(&ada, &[(t0 + DAY, 80_000)]));
    games.extend(sprints(
        &ada,
        &(1..=4)
            .map(|i| (t0 + DAY + i * 1000, 95_000))
            .collect::<Vec<_>>(),
    ));
    let mut unranked = sprints(&ada, &[(t0 + DAY + 9_000, 99_000)]).remove(0);
    unranked.1 = Verdict::Unranked(Unranked::GoalMissed);
    games.push(unranked);
    let mut ids = Vec::new();
    // One at a time, as the writer stores them.
    for game in &games {
        let stored = store
            .insert_games(std::slice::from_ref(game))
            .await
            .expect("stores");
        ids.push(stored[0].id.0);
    }
    let best = ids[0];
    let day_best = ids[13];
    let newest: Vec<i64> = ids[ids.len() - 5..].to_vec();
    let mut want: BTreeSet<i64> = newest.into_iter().collect();
    want.extend([best, day_best]);
    assert_eq!(stored_ids(&store, &ada).await, want);
    // The boards still lead to their games.
    let entry = store
        .rank_of(ModeKind::Sprint, Period::AllTime, NOW, ada.id)
        .await
        .expect("rank")
        .expect("on the board");
    assert_eq!(entry.game, GameId(best));
    assert!(store.replay(GameId(best)).await.expect("replay").is_some());

    // The same games stored in one batch by another player end the same way.
    let bob = player(&store, "bob", 2).await;
    let batch: Vec<(FinishedGame, Verdict)> = games
        .iter()
        .map(|(g, v)| {
            let mut g = g.clone();
            g.player = bob.id;
            (g, v.clone())
        })
        .collect();
    let stored = store.insert_games(&batch).await.expect("stores");
    let ids: Vec<i64> = stored.iter().map(|s| s.id.0).collect();
    let mut want: BTreeSet<i64> = ids[ids.len() - 5..].iter().copied().collect();
    want.extend([ids[0], ids[13]]);
    assert_eq!(stored_ids(&store, &bob).await, want);
    // Ada's games were not touched by Bob's.
    assert_eq!(stored_ids(&store, &ada).await.len(), 7);
}

both!(pruning_now_and_then_keeps_the_excess_under_one_round);
async fn pruning_now_and_then_keeps_the_excess_under_one_round(pool: AnyPool) {
    let store = store(pool).await.with_game_limit(5, PRUNE_EVERY);
    let ada = player(&store, "ada", 1).await;
    let t0 = NOW - 10 * DAY;
    let mut most = 0;
    for i in 0..100 {
        let mut game = sprints(&ada, &[(t0 + i * 1000, 90_000)]).remove(0);
        game.1 = Verdict::Unranked(Unranked::GoalMissed);
        store
            .insert_games(std::slice::from_ref(&game))
            .await
            .expect("stores");
        most = most.max(stored_ids(&store, &ada).await.len());
    }
    let bound = 5 + PRUNE_EVERY as usize * 2;
    assert!(most <= bound, "{most} games at most, bound {bound}");
    assert!(most > 5, "pruned now and then, not at every game");
    // A batch of many games is pruned at once.
    let batch: Vec<_> = (0..40)
        .map(|i| {
            let mut game = sprints(&ada, &[(t0 + DAY + i * 1000, 90_000)]).remove(0);
            game.1 = Verdict::Unranked(Unranked::GoalMissed);
            game
        })
        .collect();
    store.insert_games(&batch).await.expect("stores");
    assert_eq!(stored_ids(&store, &ada).await.len(), 5);
}
