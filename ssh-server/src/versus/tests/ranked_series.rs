//! Ranked as a series (`minotty_domain::ranked`): the quick match plays first to 3 at 1500,
//! every game but the last unrated, the series rated once at its end (stored once: one
//! rated record), the next game started by itself after the pause, and a player who leaves
//! between two games loses the series.

use std::time::Duration;

use minotty_domain::PlayerId;
use minotty_protocol::{MatchResult, Progress, Report, RoomCommand};
use minotty_ui::{Request, Response};

use super::{Client, result, temp_store};
use crate::services::versus::SharedVersus;

fn top_out() -> Vec<Report> {
    vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]
}

async fn match_start(c: &mut Client) {
    c.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
        .await;
}

/// ann and bob queue and are paired: both have seen the series' first `MatchStart`.
async fn paired(shared: &SharedVersus, ann: i64, bob: i64) -> (Client, Client) {
    let mut a = Client::new(shared, "ann", Some(ann));
    let mut b = Client::new(shared, "bob", Some(bob));
    a.send(Request::QuickMatch);
    a.wait(|r| matches!(r, Response::Queued { .. }).then_some(()))
        .await;
    b.send(Request::QuickMatch);
    match_start(&mut a).await;
    match_start(&mut b).await;
    (a, b)
}

/// From the first game of a ranked series of `first_to` (both saw its `MatchStart`): bob
/// tops out every game (the next started by both asking for it), and every result but the
/// last is unrated; ann's last result.
pub(super) async fn ann_wins_the_series(
    ann: &mut Client,
    bob: &mut Client,
    first_to: u8,
) -> MatchResult {
    for game in 1..=first_to {
        if game > 1 {
            ann.send(Request::Room(RoomCommand::Rematch));
            bob.send(Request::Room(RoomCommand::Rematch));
            match_start(ann).await;
            match_start(bob).await;
        }
        bob.report(top_out());
        let r = result(ann).await;
        let you = r.you.expect("ann's seat");
        let s = r.series.clone().expect("a ranked match is a series");
        assert_eq!((s.first_to, s.win_by), (first_to, 1));
        assert_eq!(s.wins[you], game, "game {game}");
        let last = game == first_to;
        assert_eq!(s.over, last, "game {game}");
        assert_eq!(s.winner, last.then_some(you));
        assert!(r.ranked);
        assert_eq!(
            r.rows.iter().all(|row| row.rating.is_some()),
            last,
            "rated at the series' end only (game {game})"
        );
        if last {
            return r;
        }
    }
    unreachable!("a series of at least one game")
}

#[tokio::test(start_paused = true)]
async fn a_quick_match_at_1500_is_first_to_3_rated_once() {
    let shared = SharedVersus::default();
    let (mut ann, mut bob) = paired(&shared, 1, 2).await;
    let r = ann_wins_the_series(&mut ann, &mut bob, 3).await;
    let (before, after) = r.rows[0].rating.expect("rated");
    assert!(
        (before - 1500.0).abs() < 1e-9 && after > 1600.0,
        "one win's worth: {before} -> {after}"
    );
    let rated = shared.hub().rating_of(PlayerId(1)).await;
    assert!((rated.rating - after).abs() < 1e-9);
}

#[tokio::test(start_paused = true)]
async fn the_next_game_of_a_ranked_series_starts_by_itself() {
    let shared = SharedVersus::default();
    let (mut ann, mut bob) = paired(&shared, 1, 2).await;
    bob.report(top_out());
    result(&mut ann).await;
    // Nobody asks for the next game: it starts after the pause anyway.
    tokio::time::sleep(Duration::from_secs(9)).await;
    assert!(
        !ann.drain()
            .iter()
            .any(|r| matches!(r, Response::MatchStart(_)))
    );
    tokio::time::sleep(Duration::from_secs(2)).await;
    match_start(&mut ann).await;
    match_start(&mut bob).await;
}

#[tokio::test(start_paused = true)]
async fn a_player_who_leaves_between_games_loses_the_series() {
    let shared = SharedVersus::default();
    let (mut ann, mut bob) = paired(&shared, 1, 2).await;
    // ann tops out: bob leads 1-0, then leaves.
    ann.report(top_out());
    result(&mut ann).await;
    let first = result(&mut bob).await;
    assert!(first.rows.iter().all(|row| row.rating.is_none()));
    bob.send(Request::LeaveRoom);
    let told = bob
        .wait(|r| match r {
            Response::RoomClosed { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(told.contains("counts as a loss"), "{told}");
    // ann wins the series there and then, rated.
    let r = result(&mut ann).await;
    let you = r.you.expect("ann's seat");
    let s = r.series.expect("the series' score");
    assert_eq!((s.over, s.winner), (true, Some(you)));
    assert_eq!(s.wins[1 - you], 1, "bob's one game stands");
    let ann_row = r.rows.iter().find(|row| row.name == "ann").expect("ann");
    let (before, after) = ann_row.rating.expect("rated");
    assert!(after > before, "{before} -> {after}");
    let bob_row = r.rows.iter().find(|row| row.name == "bob").expect("bob");
    assert!(bob_row.forfeited);
    let (before, after) = bob_row.rating.expect("rated");
    assert!(after < before, "{before} -> {after}");
}

#[tokio::test(start_paused = true)]
async fn a_player_who_leaves_during_a_game_loses_the_series() {
    let shared = SharedVersus::default();
    let (mut ann, mut bob) = paired(&shared, 1, 2).await;
    bob.send(Request::LeaveRoom);
    let r = result(&mut ann).await;
    let s = r.series.expect("the series' score");
    assert_eq!((s.over, s.winner), (true, r.you));
    assert!(r.rows.iter().all(|row| row.rating.is_some()));
}

/// With a store: three games stored, one of them rated; the account's record counts one
/// rated series.
#[tokio::test]
async fn a_ranked_series_is_stored_with_one_rated_record() {
    let (_dir, store) = temp_store().await;
    let mut ids = Vec::new();
    for (i, name) in ["ann", "bob"].iter().enumerate() {
        let key = minotty_store::NewKey {
            fingerprint: minotty_domain::KeyFingerprint::parse(&format!(
                "SHA256:{:0>43}",
                format!("series{i}")
            ))
            .unwrap(),
            algorithm: "ssh-ed25519".into(),
        };
        let account = store
            .register(&minotty_domain::PlayerName::parse(name).unwrap(), &key, 1)
            .await
            .unwrap();
        ids.push(account.id);
    }
    let shared = SharedVersus::new(Some(store.clone()), None);
    let (mut ann, mut bob) = paired(&shared, ids[0].0, ids[1].0).await;
    ann_wins_the_series(&mut ann, &mut bob, 3).await;
    let mut history = Vec::new();
    for _ in 0..200 {
        history = store.match_history(ids[0], 10).await.unwrap();
        if history.len() == 3 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(history.len(), 3, "every game of the series is stored");
    let rated: Vec<bool> = history.iter().map(|m| m.rating.is_some()).collect();
    assert_eq!(
        rated,
        [true, false, false],
        "newest first: only the last is rated"
    );
    let stored = store.rating_of(ids[0]).await.unwrap().expect("rated");
    assert_eq!((stored.games, stored.wins), (1, 1), "one rated series, won");
    let bob = store.rating_of(ids[1]).await.unwrap().expect("rated");
    assert_eq!((bob.games, bob.wins), (1, 0));
}
