//! The climb's leaderboard in the store: a player's highest run of each day, the boards of all
//! time, the month and today, and the bound of one row per player and day.

use minotty_domain::{KeyFingerprint, Period, PlayerId, PlayerName};
use minotty_store::both;
use minotty_store::{ClimbRecord, NewKey, Page, Store, UnixMs};
use sqlx::AnyPool;

/// 2024-03-31T12:00Z.
const NOON: UnixMs = 1_711_886_400_000;
const DAY: UnixMs = 86_400_000;

async fn store(pool: AnyPool) -> Store {
    Store::from_pool(pool).await.expect("store")
}

async fn player(store: &Store, name: &str, n: u32) -> PlayerId {
    let fingerprint = format!("SHA256:{:0>43}", format!("ckey{n}"));
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(&fingerprint).expect("fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    store
        .register(
            &PlayerName::parse(name).expect("name"),
            &key,
            NOON - 40 * DAY,
        )
        .await
        .expect("registers")
        .id
}

fn run(player: PlayerId, height: u32, ended_at: UnixMs) -> ClimbRecord {
    ClimbRecord {
        player,
        height,
        time_ms: u64::from(height) * 1_000,
        ended_at,
    }
}

fn board(entries: &[minotty_store::ClimbEntry]) -> Vec<(u64, String, u32)> {
    entries
        .iter()
        .map(|e| (e.rank, e.name.as_str().to_owned(), e.height))
        .collect()
}

both!(a_players_highest_run_ranks_in_each_period);
async fn a_players_highest_run_ranks_in_each_period(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await;
    let bob = player(&store, "bob", 2).await;
    let cat = player(&store, "cat", 3).await;
    let page = Page::top(10);
    // Ann climbed 900 m a month and a half ago, 120 m today; Bob 300 m today then 200 m
    // (lower: kept out); Cat 300 m today too, after Bob; a run of 0 m is no entry.
    store
        .record_climb(run(ann, 900, NOON - 45 * DAY))
        .await
        .unwrap();
    store.record_climb(run(ann, 120, NOON)).await.unwrap();
    store.record_climb(run(bob, 300, NOON + 1)).await.unwrap();
    store.record_climb(run(bob, 200, NOON + 2)).await.unwrap();
    store.record_climb(run(cat, 300, NOON + 3)).await.unwrap();
    store.record_climb(run(cat, 0, NOON + 4)).await.unwrap();
    let now = NOON + 10;
    let all = store.climb_board(Period::AllTime, now, page).await.unwrap();
    assert_eq!(
        board(&all),
        [
            (1, "ann".into(), 900),
            (2, "bob".into(), 300),
            (2, "cat".into(), 300)
        ]
    );
    let today = store.climb_board(Period::Today, now, page).await.unwrap();
    assert_eq!(
        board(&today),
        [
            (1, "bob".into(), 300),
            (1, "cat".into(), 300),
            (3, "ann".into(), 120)
        ]
    );
    assert_eq!(
        store.climb_board_size(Period::AllTime, now).await.unwrap(),
        3
    );
    assert_eq!(store.climb_board_size(Period::Month, now).await.unwrap(), 3);
    let own = store
        .climb_rank_of(ann, Period::Today, now)
        .await
        .unwrap()
        .expect("on today's board");
    assert_eq!((own.rank, own.height, own.time_ms), (3, 120, 120_000));
    // Tomorrow's board is empty until someone climbs.
    let tomorrow = now + DAY;
    assert!(
        store
            .climb_board(Period::Today, tomorrow, page)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        store
            .climb_rank_of(bob, Period::Today, tomorrow)
            .await
            .unwrap(),
        None
    );
}

both!(many_runs_in_a_day_keep_one_row);
async fn many_runs_in_a_day_keep_one_row(pool: AnyPool) {
    let store = store(pool.clone()).await;
    let ann = player(&store, "ann", 1).await;
    // The attacker's pattern: hundreds of runs in a day, rising and falling.
    for i in 0..300u32 {
        let height = (i * 37) % 500 + 1;
        store
            .record_climb(run(ann, height, NOON + i64::from(i)))
            .await
            .unwrap();
    }
    store.record_climb(run(ann, 40, NOON + DAY)).await.unwrap();
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM climb_bests")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(rows, 2, "one row per player and day");
    let best = store
        .climb_rank_of(ann, Period::AllTime, NOON + DAY)
        .await
        .unwrap()
        .expect("on the board");
    assert_eq!(best.height, 500);
}
