//! A lobby seat kept for a player whose connection dropped: shown as not connected, taken
//! back by the same account, freed after the reconnect time; no match starts meanwhile.

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_protocol::RoomState;
use minotty_ui::{Request, Response};

use super::{Client, SharedVersus, battle};

fn shared(ttl_ms: u64) -> SharedVersus {
    SharedVersus::default().with_reconnect(Duration::from_millis(ttl_ms))
}

/// A room of ann (host, account 1) and bob (account 2); bob's connection drops.
async fn bob_drops(shared: &SharedVersus) -> (Client, String) {
    let mut ann = Client::new(shared, "ann", Some(1));
    ann.send(Request::CreateRoom(battle(4)));
    let code = ann.room().await.code;
    let mut bob = Client::new(shared, "bob", Some(2));
    bob.send(Request::JoinRoom {
        code: code.clone(),
        spectate: false,
    });
    bob.room().await;
    ann.room().await;
    // The session ends without leaving: its client goes (a disconnect).
    drop(bob.client.take());
    let view = ann.room().await;
    assert_eq!(view.seats.len(), 2, "the seat is kept");
    assert!(!view.seats[1].connected && view.seats[1].name == "bob");
    assert_eq!(shared.hub().kept_seats(), 1);
    (ann, code)
}

#[tokio::test(start_paused = true)]
async fn a_dropped_players_lobby_seat_is_theirs_again_when_they_reconnect() {
    let shared = shared(60_000);
    let (mut ann, code) = bob_drops(&shared).await;

    // No match while the room waits for bob.
    ann.send(Request::Room(RoomCommand::Start));
    let notice = ann
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(notice.contains("Waiting for bob"), "{notice}");

    // bob's new session is put straight back into the room, in the same seat.
    let mut back = Client::new(&shared, "bob", Some(2));
    let view = back.room().await;
    assert_eq!(view.code, code);
    assert_eq!(view.you, Some(1));
    assert!(view.seats[1].connected);
    let view = ann.room().await;
    assert!(view.seats.iter().all(|s| s.connected));
    assert_eq!(shared.hub().kept_seats(), 0);
    // And the match can start.
    ann.send(Request::Room(RoomCommand::Start));
    for c in [&mut ann, &mut back] {
        c.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
            .await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_kept_seat_is_freed_after_the_reconnect_time() {
    let shared = shared(300);
    let (mut ann, _) = bob_drops(&shared).await;
    let view = ann.room().await;
    assert_eq!(view.seats.len(), 1, "freed as a leave frees it");
    assert_eq!(view.state, RoomState::Lobby);
    assert_eq!(shared.hub().kept_seats(), 0);
    // bob comes back too late: a new session, in no room.
    let mut late = Client::new(&shared, "bob", Some(2));
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        !late.drain().iter().any(|r| matches!(r, Response::Room(_))),
        "no room for a late return"
    );
}

#[tokio::test(start_paused = true)]
async fn the_host_dropping_hands_the_host_on_and_a_guest_without_a_key_just_leaves() {
    let shared = shared(60_000);
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::CreateRoom(battle(4)));
    let code = ann.room().await.code;
    let mut bob = Client::new(&shared, "bob", Some(2));
    let mut guest = Client::new(&shared, "gus", None);
    for c in [&mut bob, &mut guest] {
        c.send(Request::JoinRoom {
            code: code.clone(),
            spectate: false,
        });
        c.room().await;
    }
    // The guest (no account, no key) cannot be recognised: a drop is a leave.
    drop(guest.client.take());
    let view = bob.wait(|r| match r {
        Response::Room(v) if v.seats.len() == 2 => Some(v),
        _ => None,
    });
    let view = view.await;
    assert!(view.seats.iter().all(|s| s.connected));
    // The host drops: bob hosts while ann's seat waits.
    drop(ann.client.take());
    let view = bob.room().await;
    assert!(view.host && !view.seats[0].connected);
    // Back: ann sits again, bob still hosts.
    let mut back = Client::new(&shared, "ann", Some(1));
    let view = back.room().await;
    assert_eq!(view.you, Some(0));
    assert!(!view.host);
}

#[tokio::test(start_paused = true)]
async fn a_drop_during_a_match_is_still_a_forfeit() {
    let shared = shared(60_000);
    let (mut c, _) = super::room_of(&shared, battle(2), &["ann", "bob"]).await;
    super::start(&mut c).await;
    drop(c[1].client.take());
    let result = super::result(&mut c[0]).await;
    assert_eq!(result.rows[0].name, "ann");
    assert_eq!(shared.hub().kept_seats(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_room_left_with_only_kept_seats_closes_and_keeps_nothing() {
    let shared = shared(60_000);
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::CreateRoom(battle(4)));
    ann.room().await;
    drop(ann.client.take());
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(shared.hub().room_count(), 0);
    assert_eq!(shared.hub().kept_seats(), 0);
    let mut back = Client::new(&shared, "ann", Some(1));
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(!back.drain().iter().any(|r| matches!(r, Response::Room(_))));
}
