//! Ranked seasons in the store: each calendar quarter's board beside the all-time one, the
//! deviation grown by idle weeks before a series is rated, and the rated population that
//! letter ranks come from.

use minotty_domain::ranked::{IDLE_PERIOD_MS, Season, idle_grown};
use minotty_domain::{KeyFingerprint, Period, PlayerId, PlayerName};
use minotty_engine::rating::Rating;
use minotty_engine::versus::MatchKind;
use minotty_store::both;
use minotty_store::{MatchPlayer, NewKey, NewMatch, Page, Store, UnixMs};
use sqlx::AnyPool;

/// 2024-03-31T23:00Z: an hour before 2024 Q2.
const Q1_END: UnixMs = 1_711_926_000_000;
const HOUR: UnixMs = 3_600_000;

async fn store(pool: AnyPool) -> Store {
    Store::from_pool(pool).await.expect("store")
}

async fn player(store: &Store, name: &str, n: u32) -> PlayerId {
    let fingerprint = format!("SHA256:{:0>43}", format!("skey{n}"));
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(&fingerprint).expect("fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    store
        .register(&PlayerName::parse(name).expect("name"), &key, Q1_END)
        .await
        .expect("registers")
        .id
}

fn seat(seat: u32, player: PlayerId, place: u32, rating: (Rating, Rating)) -> MatchPlayer {
    MatchPlayer {
        seat,
        player: Some(player),
        name: format!("p{seat}"),
        place,
        kos: 0,
        forfeited: false,
        lines: 1,
        pieces: 2,
        attack_sent: 0,
        garbage_received: 0,
        time_ms: 1_000,
        rating: Some(rating),
        replay: None,
        bot: None,
        replay_check: None,
    }
}

fn r(rating: f64, deviation: f64) -> Rating {
    Rating {
        rating,
        deviation,
        volatility: 0.06,
    }
}

/// A rated series at `at` that `w` won from `wb` to `wa` and `l` lost from `lb` to `la`.
fn series(at: UnixMs, w: (PlayerId, Rating, Rating), l: (PlayerId, Rating, Rating)) -> NewMatch {
    NewMatch {
        kind: MatchKind::Battle,
        ranked: true,
        room: "S7QK".into(),
        seed: 3,
        started_at: at - 1_000,
        ended_at: at,
        players: vec![seat(0, w.0, 1, (w.1, w.2)), seat(1, l.0, 2, (l.1, l.2))],
        settings: None,
    }
}

both!(each_season_has_its_board_and_all_time_goes_on);
async fn each_season_has_its_board_and_all_time_goes_on(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await;
    let bob = player(&store, "bob", 2).await;
    let cid = player(&store, "cid", 3).await;
    let new = Rating::default();
    // Q1: ann beats bob.
    let (a1, b1) = (r(1700.0, 300.0), r(1300.0, 300.0));
    store
        .record_match(&series(Q1_END, (ann, new, a1), (bob, new, b1)))
        .await
        .expect("stored");
    // Q2, two hours later: bob beats cid.
    let (b2, c1) = (r(1400.0, 250.0), r(1200.0, 300.0));
    store
        .record_match(&series(Q1_END + 2 * HOUR, (bob, b1, b2), (cid, new, c1)))
        .await
        .expect("stored");
    let (q1, q2) = (Season::of(Q1_END), Season::of(Q1_END + 2 * HOUR));
    assert_eq!((q1.name(), q2.name()), ("2024 Q1".into(), "2024 Q2".into()));
    let names = |e: Vec<minotty_store::RatingEntry>| {
        e.iter()
            .map(|e| (e.rank, e.name.to_string(), e.rating, e.games, e.wins))
            .collect::<Vec<_>>()
    };
    let board = |s| store.season_board(s, Page::top(10));
    assert_eq!(
        names(board(q1).await.expect("q1")),
        [
            (1, "ann".into(), 1700.0, 1, 1),
            (2, "bob".into(), 1300.0, 1, 0)
        ]
    );
    // The new season starts empty: bob's record there is his Q2 series only.
    assert_eq!(
        names(board(q2).await.expect("q2")),
        [
            (1, "bob".into(), 1400.0, 1, 1),
            (2, "cid".into(), 1200.0, 1, 0)
        ]
    );
    assert_eq!(store.season_board_size(q1).await.expect("size"), 2);
    assert_eq!(store.season_board_size(q2).await.expect("size"), 2);
    assert_eq!(
        store
            .season_board_size(Season(q2.0 + 1))
            .await
            .expect("size"),
        0
    );
    let own = store
        .season_rank_of(bob, q2)
        .await
        .expect("own")
        .expect("on it");
    assert_eq!((own.rank, own.games, own.wins), (1, 1, 1));
    assert_eq!(store.season_rank_of(cid, q1).await.expect("own"), None);
    // All time keeps everything: bob has two series, rated 1400 now.
    let all = store
        .rating_board(Period::AllTime, Q1_END + 2 * HOUR, Page::top(10))
        .await
        .expect("all");
    assert_eq!(
        names(all),
        [
            (1, "ann".into(), 1700.0, 1, 1),
            (2, "bob".into(), 1400.0, 2, 1),
            (3, "cid".into(), 1200.0, 1, 0)
        ]
    );
}

both!(a_rating_idle_for_weeks_is_rated_from_its_grown_deviation);
async fn a_rating_idle_for_weeks_is_rated_from_its_grown_deviation(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await;
    let bob = player(&store, "bob", 2).await;
    let (a, b) = (r(1800.0, 60.0), r(1700.0, 60.0));
    store
        .record_match(&series(
            Q1_END,
            (ann, Rating::default(), a),
            (bob, Rating::default(), b),
        ))
        .await
        .expect("stored");
    // Three weeks later the queue read both ratings grown: the room's results stand.
    let later = Q1_END + 3 * IDLE_PERIOD_MS + HOUR;
    let (ga, gb) = (idle_grown(a, Q1_END, later), idle_grown(b, Q1_END, later));
    assert!(ga.deviation > 60.0 && ga.deviation < 80.0, "{ga:?}");
    let (a2, b2) = (r(1790.0, 70.0), r(1710.0, 70.0));
    store
        .record_match(&series(later, (bob, gb, b2), (ann, ga, a2)))
        .await
        .expect("stored");
    let stored = store.rating_of(ann).await.expect("read").expect("rated");
    assert_eq!(
        stored.rating, a2,
        "the room's rating from the grown one stands"
    );
    // A room that started from the ungrown rating is recomputed from the grown one.
    let much_later = later + 2 * IDLE_PERIOD_MS;
    let claimed = (r(1000.0, 10.0), r(1000.0, 10.0));
    store
        .record_match(&series(
            much_later,
            (ann, a2, claimed.0),
            (bob, b2, claimed.1),
        ))
        .await
        .expect("stored");
    let stored = store.rating_of(ann).await.expect("read").expect("rated");
    assert!(stored.rating.rating > 1790.0, "{stored:?}");
    assert!(stored.rating.deviation > 60.0, "{stored:?}");
}

both!(the_rated_population_is_the_placed_players_with_a_low_deviation);
async fn the_rated_population_is_the_placed_players_with_a_low_deviation(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await;
    let bob = player(&store, "bob", 2).await;
    let cid = player(&store, "cid", 3).await;
    // ann and bob play ten series (placed); cid one.
    let mut at = Q1_END;
    let (mut a, mut b) = (Rating::default(), Rating::default());
    for i in 0..10 {
        let (a2, b2) = (
            r(1600.0 + f64::from(i), 90.0),
            r(1400.0 - f64::from(i), 120.0),
        );
        store
            .record_match(&series(at, (ann, a, a2), (bob, b, b2)))
            .await
            .expect("stored");
        (a, b) = (a2, b2);
        at += HOUR;
    }
    let c = r(1500.0, 60.0);
    store
        .record_match(&series(
            at,
            (cid, Rating::default(), c),
            (ann, a, r(1605.0, 80.0)),
        ))
        .await
        .expect("stored");
    // ann: placed, deviation 80: in; bob: placed but deviation 120: out; cid: placing: out.
    assert_eq!(store.rated_population().await.expect("read"), vec![1605.0]);
}
