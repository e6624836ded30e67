//! A player's instance drained away mid-match (`RoomMsg::DrainedAway`, what the instance
//! sends when its `--drain-secs` ran out): not that player's forfeit but a match abandoned,
//! unrated, for everyone, each told so; out of a match it is a plain disconnect.

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_ui::{Request, Response};

use super::{Client, SharedVersus, battle, room_of, start};
use crate::versus::RoomMsg;

/// The message `c` is told the room closed with, and whether a match result came before it.
async fn told(c: &mut Client) -> (String, bool) {
    let mut result = false;
    let closed = c
        .wait(|r| match r {
            Response::RoomClosed { message } => Some(message),
            Response::MatchOver(_) => {
                result = true;
                None
            }
            _ => None,
        })
        .await;
    (closed, result)
}

/// Waits (generously) until the hub has no room open.
async fn no_room_left(shared: &SharedVersus) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while shared.hub().room_count() > 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the room stays open"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

#[tokio::test(start_paused = true)]
async fn a_player_drained_away_mid_match_abandons_it_for_everyone_unrated() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(3), &["ann", "bob", "cid"]).await;
    let mut dee = Client::new(&shared, "dee", None);
    dee.send(Request::JoinRoom {
        code: code.clone(),
        spectate: true,
    });
    dee.room().await;
    c[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    c[2].send(Request::Room(RoomCommand::Ready { ready: true }));
    start(&mut c).await;
    let bob = c[1].client.as_ref().map(|v| v.member_id()).unwrap();
    let room = shared
        .hub()
        .room(&minotty_domain::RoomCode::canonical(&code).expect("a code"))
        .unwrap();
    assert!(room.send(RoomMsg::DrainedAway { id: bob }));

    for who in [0, 2] {
        let (closed, result) = told(&mut c[who]).await;
        assert!(
            closed.contains("bob's server restarted") && closed.contains("abandoned, not rated"),
            "{closed}"
        );
        assert!(
            !result,
            "no result: the match is not decided by bob's drain"
        );
    }
    let (closed, result) = told(&mut dee).await;
    assert!(closed.contains("abandoned") && !result, "{closed}");
    // bob is told by his own instance, not by the room (which told everyone at once).
    assert!(
        !c[1]
            .drain()
            .iter()
            .any(|r| matches!(r, Response::RoomClosed { .. } | Response::MatchOver(_))),
        "nothing for bob"
    );
    // The room is gone, and nothing is listed as played.
    no_room_left(&shared).await;
    assert!(shared.hub().live.list().is_empty());
}

#[tokio::test(start_paused = true)]
async fn a_player_drained_away_in_the_lobby_just_leaves() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(3), &["ann", "bob", "cid"]).await;
    c[0].drain();
    let bob = c[1].client.as_ref().map(|v| v.member_id()).unwrap();
    let room = shared
        .hub()
        .room(&minotty_domain::RoomCode::canonical(&code).expect("a code"))
        .unwrap();
    assert!(room.send(RoomMsg::DrainedAway { id: bob }));
    let view = c[0].room().await;
    assert_eq!(view.seats.len(), 2, "{view:?}");
    assert!(view.seats.iter().all(|s| s.name != "bob"));
    assert_eq!(shared.hub().room_count(), 1);
}
