//! Versus in the store: matches with their players and replays, ranked ratings and the rating
//! board (periods, ranks, ties, paging).

use minotty_domain::{KeyFingerprint, Period, PlayerId, PlayerName};
use minotty_engine::rating::{DEFAULT_TAU, Outcome, Rating};
use minotty_engine::versus::MatchKind;
use minotty_engine::{Game, GameConfig, Mode, Replay};
use minotty_store::{Account, MatchPlayer, NewKey, NewMatch, Page, Store, UnixMs};
use minotty_store::{both, instances};
use sqlx::AnyPool;

/// 2024-02-29T13:14:15.678Z.
const NOW: UnixMs = 1_709_212_455_678;
const DAY: UnixMs = 86_400_000;

async fn store(pool: AnyPool) -> Store {
    Store::from_pool(pool).await.expect("store")
}

async fn player(store: &Store, name: &str, n: u32) -> Account {
    let fingerprint = format!("SHA256:{:0>43}", format!("vkey{n}"));
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(&fingerprint).expect("fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    store
        .register(&PlayerName::parse(name).expect("name"), &key, NOW)
        .await
        .expect("registers")
}

fn seat(seat: u32, player: Option<PlayerId>, name: &str, place: u32) -> MatchPlayer {
    MatchPlayer {
        seat,
        player,
        name: name.into(),
        place,
        kos: u32::from(place == 1),
        forfeited: false,
        lines: 10 + seat,
        pieces: 50,
        attack_sent: 12,
        garbage_received: 4,
        time_ms: 60_000,
        rating: None,
        replay: None,
        bot: None,
        replay_check: None,
    }
}

fn rating(r: f64) -> Rating {
    Rating {
        rating: r,
        ..Rating::default()
    }
}

/// A ranked 1v1 at `at` that `winner` won, with the ratings after.
fn ranked(at: UnixMs, winner: (PlayerId, f64), loser: (PlayerId, f64)) -> NewMatch {
    let mut w = seat(0, Some(winner.0), "w", 1);
    w.rating = Some((Rating::default(), rating(winner.1)));
    let mut l = seat(1, Some(loser.0), "l", 2);
    l.rating = Some((Rating::default(), rating(loser.1)));
    NewMatch {
        kind: MatchKind::Battle,
        ranked: true,
        room: "K7PQ".into(),
        seed: 7,
        started_at: at - 60_000,
        ended_at: at,
        players: vec![w, l],
        settings: None,
    }
}

both!(a_match_is_stored_with_players_and_replays);
async fn a_match_is_stored_with_players_and_replays(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await;
    let game = Game::new(
        GameConfig {
            mode: Mode::sprint(),
            ..GameConfig::default()
        },
        42,
    );
    let replay = game.replay();
    let mut a = seat(0, Some(ann.id), "ann", 1);
    a.replay = Some(replay.to_bytes());
    let mut guest = seat(1, None, "guest", 2);
    guest.forfeited = true;
    let m = NewMatch {
        kind: MatchKind::Race,
        ranked: false,
        room: "ABCD".into(),
        seed: 42,
        started_at: NOW - 1000,
        ended_at: NOW,
        players: vec![a.clone(), guest.clone()],
        settings: None,
    };
    let id = store.record_match(&m).await.expect("stored");
    let stored = store.match_players(id).await.expect("read");
    assert_eq!(stored, vec![a, guest]);
    let back = Replay::from_bytes(stored[0].replay.as_deref().expect("replay")).expect("decodes");
    assert_eq!(back, replay);
    assert_eq!(
        store.recent_matches(ann.id, 10).await.expect("recent"),
        [id]
    );
    // A private room changes no rating.
    assert_eq!(store.rating_of(ann.id).await.expect("rating"), None);
}

both!(a_match_against_a_bot_is_stored_with_the_bot_marked);
async fn a_match_against_a_bot_is_stored_with_the_bot_marked(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await;
    let a = seat(0, Some(ann.id), "ann", 2);
    let mut bot = seat(1, None, "Bot level 3", 1);
    bot.bot = Some("level 3".into());
    let m = NewMatch {
        kind: MatchKind::Battle,
        ranked: false,
        room: "BOTS22".into(),
        seed: 7,
        started_at: NOW - 1000,
        ended_at: NOW,
        players: vec![a.clone(), bot.clone()],
        settings: None,
    };
    let id = store.record_match(&m).await.expect("stored");
    let stored = store.match_players(id).await.expect("read");
    assert_eq!(stored, vec![a, bot]);
    assert_eq!(stored[0].bot, None);
    assert_eq!(stored[1].bot.as_deref(), Some("level 3"));
    assert_eq!(store.rating_of(ann.id).await.expect("rating"), None);
}

both!(ranked_matches_update_ratings_and_the_board);
async fn ranked_matches_update_ratings_and_the_board(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await.id;
    let bob = player(&store, "bob", 2).await.id;
    let cid = player(&store, "cid", 3).await.id;
    store
        .record_match(&ranked(NOW - 40 * DAY, (ann, 1662.0), (bob, 1338.0)))
        .await
        .expect("stored");
    // bob starts the second match from his stored rating.
    let mut second = ranked(NOW, (bob, 1400.0), (cid, 1300.0));
    second.players[0].rating = Some((rating(1338.0), rating(1400.0)));
    store.record_match(&second).await.expect("stored");

    let a = store.rating_of(ann).await.expect("read").expect("rated");
    assert_eq!((a.rating.rating, a.games, a.wins), (1662.0, 1, 1));
    let b = store.rating_of(bob).await.expect("read").expect("rated");
    assert_eq!(
        (b.rating.rating, b.games, b.wins, b.last_match_at),
        (1400.0, 2, 1, NOW)
    );

    let board = |e: Vec<minotty_store::RatingEntry>| {
        e.iter()
            .map(|e| (e.rank, e.name.to_string()))
            .collect::<Vec<_>>()
    };
    let all = store
        .rating_board(Period::AllTime, NOW, Page::top(10))
        .await
        .expect("board");
    assert_eq!(
        board(all),
        [(1, "ann".into()), (2, "bob".into()), (3, "cid".into())]
    );
    // This month: ann's only match was 40 days ago.
    let month = store
        .rating_board(Period::Month, NOW, Page::top(10))
        .await
        .expect("board");
    assert_eq!(board(month), [(1, "bob".into()), (2, "cid".into())]);
    assert_eq!(
        store
            .rating_board_size(Period::AllTime, NOW)
            .await
            .expect("size"),
        3
    );
    assert_eq!(
        store
            .rating_board_size(Period::Today, NOW)
            .await
            .expect("size"),
        2
    );
    let page = store
        .rating_board(
            Period::AllTime,
            NOW,
            Page {
                offset: 1,
                limit: 1,
            },
        )
        .await
        .expect("page");
    assert_eq!(board(page), [(2, "bob".into())]);

    let own = store
        .rating_rank_of(cid, Period::AllTime, NOW)
        .await
        .expect("rank")
        .expect("on the board");
    assert_eq!((own.rank, own.games, own.wins), (3, 1, 0));
    assert_eq!(
        store
            .rating_rank_of(ann, Period::Today, NOW)
            .await
            .expect("rank"),
        None
    );
}

both!(equal_ratings_share_a_rank);
async fn equal_ratings_share_a_rank(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await.id;
    let bob = player(&store, "bob", 2).await.id;
    let cid = player(&store, "cid", 3).await.id;
    let dan = player(&store, "dan", 4).await.id;
    store
        .record_match(&ranked(NOW, (ann, 1600.0), (bob, 1400.0)))
        .await
        .expect("stored");
    store
        .record_match(&ranked(NOW, (cid, 1600.0), (dan, 1400.0)))
        .await
        .expect("stored");
    let ranks: Vec<(u64, PlayerId)> = store
        .rating_board(Period::Today, NOW, Page::top(10))
        .await
        .expect("board")
        .iter()
        .map(|e| (e.rank, e.player))
        .collect();
    assert_eq!(ranks, [(1, ann), (1, cid), (3, bob), (3, dan)]);
}

/// `r` after one game against a default-rated opponent.
fn after(r: Rating, won: bool) -> Rating {
    r.update(
        &[Outcome {
            opponent: Rating::default(),
            score: if won { 1.0 } else { 0.0 },
        }],
        DEFAULT_TAU,
    )
}

/// A ranked match from `start` for both players, `winner` first, in room `room`, with the
/// ratings each would have after it.
fn from_start(start: Rating, winner: PlayerId, loser: PlayerId, room: &str) -> NewMatch {
    let mut m = ranked(NOW, (winner, 0.0), (loser, 0.0));
    m.players[0].rating = Some((start, after(start, true)));
    m.players[1].rating = Some((start, after(start, false)));
    m.room = room.into();
    m
}

/// Asserts that the player's stored rating took both a win and a loss from `start`, in either
/// order (whichever was written second started from the first's result: neither is lost).
async fn assert_won_and_lost(store: &Store, player: PlayerId, start: Rating) {
    let stored = store.rating_of(player).await.expect("read").expect("rated");
    assert_eq!((stored.games, stored.wins), (2, 1));
    let win_then_loss = after(after(start, true), false);
    let loss_then_win = after(after(start, false), true);
    assert!(
        stored.rating == win_then_loss || stored.rating == loss_then_win,
        "{:?} is not both results ({win_then_loss:?} or {loss_then_win:?})",
        stored.rating
    );
}

both!(concurrent_results_of_one_account_both_count);
async fn concurrent_results_of_one_account_both_count(pool: AnyPool) {
    let store = store(pool).await;
    let ann = player(&store, "ann", 1).await.id;
    let bob = player(&store, "bob", 2).await.id;
    let cid = player(&store, "cid", 3).await.id;
    let start = Rating::default();
    // Two matches ann played from the same rating: she beat bob and lost to cid. Each room
    // computed her rating after from that same start.
    let won = from_start(start, ann, bob, "AAAAAA");
    let lost = from_start(start, cid, ann, "BBBBBB");
    let (a, b) = tokio::join!(store.record_match(&won), store.record_match(&lost));
    a.expect("stored");
    b.expect("stored");
    assert_won_and_lost(&store, ann, start).await;
    // The stored match shows the rating it really started from.
    let seats: Vec<MatchPlayer> = {
        let mut all = Vec::new();
        for id in [1, 2] {
            all.extend(
                store
                    .match_players(minotty_store::MatchId(id))
                    .await
                    .expect("players"),
            );
        }
        all
    };
    let befores: Vec<f64> = seats
        .iter()
        .filter(|p| p.player == Some(ann))
        .filter_map(|p| p.rating.map(|(b, _)| b.rating))
        .collect();
    assert_eq!(befores.len(), 2);
    assert!(befores.contains(&1500.0) && befores.iter().any(|&b| b != 1500.0));
}

instances!(ranked_results_of_one_account_on_two_instances_both_count);
/// Two instances store ranked matches of one account at once: the second to write starts from
/// the first's rating (PostgreSQL: the account rows are locked in id order; SQLite: one writer
/// at a time), so neither result is lost.
async fn ranked_results_of_one_account_on_two_instances_both_count(url: String) {
    let a = Store::open(&url).await.expect("instance A");
    let b = Store::open(&url).await.expect("instance B");
    let start = Rating::default();
    for round in 0..4u32 {
        let ann = player(&a, &format!("ann{round}"), 10 * round + 1).await.id;
        let bob = player(&b, &format!("bob{round}"), 10 * round + 2).await.id;
        let cid = player(&a, &format!("cid{round}"), 10 * round + 3).await.id;
        // Ann beat bob on A while cid beat her on B.
        let won = from_start(start, ann, bob, "AAAAAA");
        let lost = from_start(start, cid, ann, "BBBBBB");
        let (x, y) = tokio::join!(a.record_match(&won), b.record_match(&lost));
        x.expect("stored on A");
        y.expect("stored on B");
        for store in [&a, &b] {
            assert_won_and_lost(store, ann, start).await;
        }
    }
}

instances!(a_rated_series_end_follows_unrated_games_on_one_connection);
/// A ranked series stores its games unrated, then its last game rated, all through the one
/// write connection of an instance: the rated seats follow unrated ones on that connection's
/// cached statements (sqlx's `Any` once prepared a NULL rating as `real` on PostgreSQL, and
/// the rated seat was refused).
async fn a_rated_series_end_follows_unrated_games_on_one_connection(url: String) {
    let store = Store::open(&url).await.expect("store");
    let ann = player(&store, "ann", 1).await.id;
    let bob = player(&store, "bob", 2).await.id;
    for game in 0..2 {
        let mut unrated = ranked(NOW - 1_000 + game, (ann, 0.0), (bob, 0.0));
        unrated.ranked = false;
        for p in &mut unrated.players {
            p.rating = None;
        }
        store.record_match(&unrated).await.expect("an unrated game");
    }
    store
        .record_match(&ranked(NOW, (ann, 1662.0), (bob, 1338.0)))
        .await
        .expect("the rated end of the series");
    let board = store
        .rating_board(Period::AllTime, NOW, Page::top(10))
        .await
        .unwrap();
    let names: Vec<(&str, u32)> = board.iter().map(|e| (e.name.as_str(), e.games)).collect();
    assert_eq!(names, [("ann", 1), ("bob", 1)]);
}
