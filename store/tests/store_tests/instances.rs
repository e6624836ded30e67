//! Several instances on one database: two `Store`s opened on one URL (each with its own pools,
//! as two `minotty serve` would be) writing at once. Accounts, keys, settings, games and
//! leaderboards must come out as if one instance had done it all: the bucket counts equal a
//! recount, every rank equals a recount, names and keys stay unique, an address gets its
//! registrations per day and no more, the latest key use wins, pruning keeps every best.
//! On SQLite the two share one file (its lock orders them); on PostgreSQL they share one
//! database and run truly concurrently.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::Duration;

use minotty_domain::{Period, Verdict};
use minotty_engine::{ModeKind, RulesetId};
use minotty_store::{
    Account, Board, FinishedGame, Page, RegisterError, Store, StoreError, StoredGame,
};
use sqlx::AnyPool;

use crate::support::{NOW, key, name, player, ranked, stats};

async fn two(url: &str) -> (Store, Store) {
    if url.starts_with("sqlite:") {
        // SQLite's migrator takes no lock: one process migrates a file at a time.
        let a = Store::open(url).await.expect("instance A opens");
        return (a, Store::open(url).await.expect("instance B opens"));
    }
    // Started together: the migrations run once (PostgreSQL's migrator holds an advisory
    // lock while it migrates).
    let (a, b) = tokio::join!(Store::open(url), Store::open(url));
    (a.expect("instance A opens"), b.expect("instance B opens"))
}

/// Stores a batch as the game writer does: a transient failure (a deadlock PostgreSQL broke,
/// a busy SQLite) is tried again. Returns the stored games and how many tries failed.
async fn insert(store: &Store, batch: &[(FinishedGame, Verdict)]) -> (Vec<StoredGame>, u32) {
    let mut retries = 0;
    loop {
        match store.insert_games(batch).await {
            Ok(stored) => return (stored, retries),
            Err(e) if e.is_transient() && retries < 50 => {
                retries += 1;
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Err(e) => panic!("storing a batch: {e}"),
        }
    }
}

/// Every bucket count equals the number of entries in its bucket, and every entry's bucket
/// has a count.
async fn counts_match_a_recount(pool: &AnyPool) {
    let wrong: Vec<(String, String, String, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT c.mode, c.ruleset, c.period, c.period_start, c.bucket, c.entries, \
         (SELECT COUNT(*) FROM leaderboard_best b WHERE b.mode = c.mode \
          AND b.ruleset = c.ruleset AND b.period = c.period \
          AND b.period_start = c.period_start AND b.bucket = c.bucket) \
         FROM leaderboard_counts c",
    )
    .fetch_all(pool)
    .await
    .expect("counts");
    assert!(!wrong.is_empty(), "there are counts");
    let wrong: Vec<_> = wrong.into_iter().filter(|r| r.5 != r.6).collect();
    assert!(
        wrong.is_empty(),
        "counts that differ from a recount: {wrong:?}"
    );
    let uncounted: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM leaderboard_best b WHERE NOT EXISTS (SELECT 1 FROM \
         leaderboard_counts c WHERE b.mode = c.mode AND b.ruleset = c.ruleset \
         AND b.period = c.period AND b.period_start = c.period_start AND b.bucket = c.bucket)",
    )
    .fetch_one(pool)
    .await
    .expect("uncounted");
    assert_eq!(uncounted, 0, "entries without a count");
}

/// Every leaderboard entry's game is stored.
async fn bests_are_stored(pool: &AnyPool) {
    let missing: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM leaderboard_best b \
         WHERE NOT EXISTS (SELECT 1 FROM games g WHERE g.id = b.game_id)",
    )
    .fetch_one(pool)
    .await
    .expect("count");
    assert_eq!(missing, 0, "entries whose game was deleted");
}

instances!(games_from_two_instances_keep_boards_and_ranks_exact);
async fn games_from_two_instances_keep_boards_and_ranks_exact(url: String) {
    let (a, b) = two(&url).await;
    let mut players: Vec<Account> = Vec::new();
    for i in 0..6u32 {
        let on = if i % 2 == 0 { &a } else { &b };
        players.push(player(on, &format!("player{i}"), i).await);
    }
    // Both instances store the same players' games at once, in batches of three (as the
    // writer batches them), sprint times spread over many buckets.
    let work = |store: Store, salt: u64| {
        let players = players.clone();
        tokio::spawn(async move {
            let mut best: HashMap<i64, u64> = HashMap::new();
            let mut retries = 0;
            for round in 0..25u64 {
                let batch: Vec<_> = (0..3u64)
                    .map(|k| {
                        let n = round * 3 + k + salt;
                        let p = &players[usize::try_from(n).expect("small") % players.len()];
                        let time = 20_000 + (n * 7_919 + salt * 104_729) % 60_000;
                        let at = NOW + i64::try_from(round).expect("small");
                        let e = best.entry(p.id.0).or_insert(u64::MAX);
                        *e = (*e).min(time);
                        ranked(p, ModeKind::Sprint, stats(time, 0, 40, 100, 0), at)
                    })
                    .collect();
                retries += insert(&store, &batch).await.1;
            }
            (best, retries)
        })
    };
    let (one, other) = tokio::join!(work(a.clone(), 0), work(b.clone(), 1));
    let (mut best, r1) = one.expect("A's games");
    let (best_b, r2) = other.expect("B's games");
    eprintln!("transient failures retried: {}", r1 + r2);
    for (p, t) in best_b {
        let e = best.entry(p).or_insert(u64::MAX);
        *e = (*e).min(t);
    }

    let pool = crate::store_db::raw(&url).await;
    counts_match_a_recount(&pool).await;
    bests_are_stored(&pool).await;
    for period in [Period::AllTime, Period::Month, Period::Today] {
        for store in [&a, &b] {
            let size = store.board_size(ModeKind::Sprint, period, NOW).await;
            assert_eq!(size.expect("size"), 6, "{period:?}");
        }
    }
    // Each player's entry is their best game from either instance, and their rank is one
    // more than the players with a better time, on both instances.
    let board = Board::new(ModeKind::Sprint, RulesetId::Standard);
    for p in &players {
        let mine = best[&p.id.0];
        let better = best.values().filter(|&&t| t < mine).count();
        for store in [&a, &b] {
            let entry = store
                .rank_of(board, Period::AllTime, NOW, p.id)
                .await
                .expect("rank")
                .expect("on the board");
            assert_eq!(entry.time_ms, mine);
            assert_eq!(entry.rank, 1 + u64::try_from(better).expect("small"));
        }
    }
    let top_a = a
        .leaderboard(board, Period::Today, NOW, Page::top(10))
        .await;
    let top_b = b
        .leaderboard(board, Period::Today, NOW, Page::top(10))
        .await;
    assert_eq!(top_a.expect("A's board"), top_b.expect("B's board"));
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(games, 150, "every game of both instances is stored");
}

instances!(names_keys_and_registrations_per_address_hold_across_instances);
async fn names_keys_and_registrations_per_address_hold_across_instances(url: String) {
    let (a, b) = two(&url).await;
    let (a, b) = (a.with_registration_limit(3), b.with_registration_limit(3));
    // The same name (in another case) from both at once: one account.
    for i in 0..8u32 {
        let (na, nb) = (name(&format!("racer{i}")), name(&format!("RACER{i}")));
        let (ka, kb) = (key(100 + i), key(200 + i));
        let (x, y) = tokio::join!(a.register(&na, &ka, NOW), b.register(&nb, &kb, NOW));
        match (x, y) {
            (Ok(_), Err(RegisterError::NameTaken)) | (Err(RegisterError::NameTaken), Ok(_)) => {}
            other => panic!("one of two registrations of a name: {other:?}"),
        }
    }
    // The same key under two names at once: one account has it.
    for i in 0..8u32 {
        let (na, nb) = (name(&format!("keya{i}")), name(&format!("keyb{i}")));
        let k = key(300 + i);
        let (x, y) = tokio::join!(a.register(&na, &k, NOW), b.register(&nb, &k, NOW));
        let ok = usize::from(x.is_ok()) + usize::from(y.is_ok());
        assert_eq!(ok, 1, "one of two accounts gets the key: {x:?} {y:?}");
    }
    // One address reaching both instances at once gets its 3 a day, not 3 on each.
    let ip: IpAddr = "203.0.113.7".parse().expect("address");
    let from = |store: Store, side: &'static str| {
        tokio::spawn(async move {
            let mut ok = 0;
            for i in 0..4u32 {
                let n = name(&format!("{side}addr{i}"));
                let k = key(if side == "a" { 400 } else { 500 } + i);
                match store.register_from(&n, &k, ip, NOW).await {
                    Ok(_) => ok += 1,
                    Err(RegisterError::TooMany) => {}
                    Err(e) => panic!("registering: {e:?}"),
                }
            }
            ok
        })
    };
    let (x, y) = tokio::join!(from(a.clone(), "a"), from(b.clone(), "b"));
    assert_eq!(x.expect("A") + y.expect("B"), 3);
}

instances!(accounts_settings_and_key_uses_are_the_same_on_every_instance);
async fn accounts_settings_and_key_uses_are_the_same_on_every_instance(url: String) {
    let (a, b) = two(&url).await;
    let alice = player(&a, "alice", 1).await;
    // Registered on A, she logs in on B.
    let found = b.account_by_key(&key(1).fingerprint, NOW + 10).await;
    assert_eq!(found.expect("login on B"), Some(alice.clone()));
    // Settings saved on one are read on the other; the last save wins on both.
    a.save_settings(alice.id, r#"{"das":100}"#, NOW + 1)
        .await
        .expect("saves on A");
    assert_eq!(
        b.settings(alice.id).await.expect("reads on B").as_deref(),
        Some(r#"{"das":100}"#)
    );
    b.save_settings(alice.id, r#"{"das":80}"#, NOW + 2)
        .await
        .expect("saves on B");
    for store in [&a, &b] {
        assert_eq!(
            store.settings(alice.id).await.expect("reads").as_deref(),
            Some(r#"{"das":80}"#)
        );
    }
    // Each instance noted a use of her key; whichever flushes last, the latest use stays.
    a.account_by_key(&key(1).fingerprint, NOW + 30)
        .await
        .expect("login on A");
    let (x, y) = tokio::join!(b.flush_key_uses(), a.flush_key_uses());
    x.expect("B flushes");
    y.expect("A flushes");
    b.account_by_key(&key(1).fingerprint, NOW + 20)
        .await
        .expect("login on B");
    b.flush_key_uses().await.expect("B flushes again");
    for store in [&a, &b] {
        let keys = store.keys(alice.id).await.expect("keys");
        assert_eq!(keys.len(), 1);
        assert_eq!(keys[0].last_used_at, NOW + 30);
    }
}

instances!(pruning_on_two_instances_keeps_every_best);
async fn pruning_on_two_instances_keeps_every_best(url: String) {
    let (a, b) = two(&url).await;
    // Keep 5 games besides the bests, pruned at every game.
    let (a, b) = (a.with_game_limit(5, 1), b.with_game_limit(5, 1));
    let alice = player(&a, "alice", 1).await;
    let work = |store: Store, salt: u64| {
        let alice = alice.clone();
        tokio::spawn(async move {
            for i in 0..30u64 {
                // One day: the boards keep one best, the rest is pruned past the newest 5.
                let at = NOW + i64::try_from(i * 2 + salt).expect("small");
                let time = 30_000 + (i * 7_919 + salt * 31) % 20_000;
                let game = ranked(&alice, ModeKind::Sprint, stats(time, 0, 40, 100, 0), at);
                insert(&store, &[game]).await;
            }
        })
    };
    let (x, y) = tokio::join!(work(a.clone(), 0), work(b.clone(), 1));
    x.expect("A's games");
    y.expect("B's games");
    let pool = crate::store_db::raw(&url).await;
    bests_are_stored(&pool).await;
    counts_match_a_recount(&pool).await;
    let games: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&pool)
        .await
        .expect("count");
    // 60 games, a best among them: the rest is the newest 5 (and a few a prune's window has
    // not reached yet, as on one instance).
    let bests: i64 = sqlx::query_scalar("SELECT COUNT(DISTINCT game_id) FROM leaderboard_best")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert!(games <= bests + 5 + 3, "{games} games for {bests} bests");
    let newest = a.recent_games(alice.id, 5).await.expect("recent");
    assert_eq!(newest.len(), 5, "the newest games are kept");
}

/// PostgreSQL only: two transactions of two instances that lock two rows in opposite orders
/// deadlock; PostgreSQL aborts one with 40P01, and the store calls that transient, so the game
/// writer tries the batch again (as it does a busy SQLite, `writer.rs`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deadlock_between_instances_is_transient() {
    let Some(db) = crate::store_db::PgDatabase::create("deadlock").await else {
        return;
    };
    let store = Store::open(&db.url).await.expect("migrates");
    store.record_start("a", NOW).await.expect("a row");
    store.close().await;
    let pool = crate::store_db::raw(&db.url).await;
    sqlx::query("INSERT INTO server_meta (key, value, updated_at) VALUES ('x', '', 0)")
        .execute(&pool)
        .await
        .expect("another row");
    let (mut one, mut two) = (
        pool.begin().await.expect("tx"),
        pool.begin().await.expect("tx"),
    );
    let touch = "UPDATE server_meta SET updated_at = updated_at + 1 WHERE key = $1";
    let first = ["created_at", "x"];
    sqlx::query(touch)
        .bind(first[0])
        .execute(&mut *one)
        .await
        .expect("locks");
    sqlx::query(touch)
        .bind(first[1])
        .execute(&mut *two)
        .await
        .expect("locks");
    let (x, y) = tokio::join!(
        sqlx::query(touch).bind(first[1]).execute(&mut *one),
        sqlx::query(touch).bind(first[0]).execute(&mut *two)
    );
    let error = match (x, y) {
        (Err(e), Ok(_)) | (Ok(_), Err(e)) => StoreError::from(e),
        other => panic!("one of the two is aborted: {other:?}"),
    };
    assert!(error.to_string().contains("deadlock"), "{error}");
    assert!(error.is_transient(), "{error}");
    drop((one, two));
    pool.close().await;
    db.drop().await;
}
