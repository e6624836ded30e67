//! One truth per match on the room's owner (`room/contact.rs`): a member whose instance is out
//! of reach is not a forfeit. An unsettled match is abandoned (nothing stored, everyone told);
//! a match over with that member's replay in hand stands.

use minotty_protocol::{Progress, Report};
use minotty_ui::Response;

use super::{Client, battle, closed, result, room_of, start, stored_matches, temp_store};
use crate::services::versus::SharedVersus;
use crate::versus::{ContactLoss, RoomMsg};
use minotty_store::Store;

fn lost(shared: &SharedVersus, code: &str, c: &Client, cause: ContactLoss) {
    let id = c.client.as_ref().unwrap().member_id();
    let room = shared
        .hub()
        .room(&minotty_domain::RoomCode::canonical(code).expect("a code"))
        .expect("the room");
    assert!(room.send(RoomMsg::LostContact { id, cause }));
}

fn replay(seed: u32) -> Report {
    let game = minotty_engine::Game::new(
        minotty_engine::GameConfig {
            mode: battle(2).mode(),
            ..minotty_engine::GameConfig::default()
        },
        seed,
    );
    Report::Replay(Box::new(game.replay()))
}

/// ann and bob in a two-player battle room of versus services on a store of their own.
async fn ann_and_bob() -> (tempfile::TempDir, Store, SharedVersus, Vec<Client>, String) {
    let (dir, store) = temp_store().await;
    let shared = SharedVersus::new(Some(store.clone()), None);
    let (c, code) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    (dir, store, shared, c, code)
}

/// The hub shuts down with no room left over, and `store` then holds `matches` matches.
async fn assert_stored_after_shutdown(
    shared: &SharedVersus,
    store: &Store,
    matches: usize,
    why: &str,
) {
    assert_eq!(
        shared
            .hub()
            .shutdown(std::time::Duration::from_secs(20))
            .await,
        0
    );
    assert_eq!(stored_matches(store, 1).await, matches, "{why}");
}

#[tokio::test]
async fn a_match_running_when_a_players_server_is_lost_is_abandoned_not_a_forfeit() {
    let (_dir, store, shared, mut c, code) = ann_and_bob().await;
    start(&mut c).await;
    lost(&shared, &code, &c[1], ContactLoss::Peer);
    let told = closed(&mut c[0]).await;
    assert!(
        told.contains("Lost contact with bob's server") && told.contains("abandoned, not rated"),
        "{told}"
    );
    assert!(
        !c[0]
            .drain()
            .iter()
            .any(|r| matches!(r, Response::MatchOver(_))),
        "ann did not win by bob's server falling silent"
    );
    assert_stored_after_shutdown(&shared, &store, 0, "nothing stored").await;
}

#[tokio::test]
async fn a_result_shown_before_the_lost_players_replay_came_does_not_count() {
    let (_dir, store, shared, mut c, code) = ann_and_bob().await;
    let seed = start(&mut c).await;
    // ann tops out: bob wins, but bob's instance falls silent before his replay arrives.
    c[0].report(vec![
        Report::Finished {
            won: false,
            progress: Progress::default(),
        },
        replay(seed),
    ]);
    result(&mut c[0]).await;
    lost(&shared, &code, &c[1], ContactLoss::OwnLink);
    let told = closed(&mut c[0]).await;
    assert!(
        told.starts_with("This server lost its cluster link (NATS)")
            && told.contains("the result shown does not count"),
        "{told}"
    );
    assert_stored_after_shutdown(&shared, &store, 0, "nothing stored").await;
}

#[tokio::test]
async fn a_result_with_the_lost_players_replay_in_hand_stands() {
    let (_dir, store, shared, mut c, code) = ann_and_bob().await;
    let seed = start(&mut c).await;
    // bob tops out (his replay with it); ann's replay has not come yet when bob's server is
    // lost: the result is settled, bob's instance saw his game end.
    // (As a client sends them: the report that ends the game, then its replay, in one batch.)
    c[1].report(vec![
        Report::Finished {
            won: false,
            progress: Progress::default(),
        },
        replay(seed),
    ]);
    result(&mut c[0]).await;
    lost(&shared, &code, &c[1], ContactLoss::Peer);
    // On tokio's paused clock until the room has handled the loss (nothing in between waits
    // on the database): the sleep ends once every task is idle, so the room has read its
    // inbox by then, and a 100 ms window is all that passes. Then real time for the store.
    tokio::time::pause();
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let seen = c[0].drain();
    tokio::time::resume();
    assert!(
        !seen
            .iter()
            .any(|r| matches!(r, Response::RoomClosed { .. })),
        "the room stays open for ann: {seen:?}"
    );
    assert_stored_after_shutdown(&shared, &store, 1, "the result is stored").await;
}
