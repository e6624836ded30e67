//! Watching matches from the Live list: by the list's id, never by a room's code (which the
//! list and what a Live spectator is sent never tell); private players' matches unlisted;
//! spectators per room capped.

use minotty_protocol::LiveKind;
use minotty_protocol::RoomCommand;
use minotty_ui::{Request, Response};
use tokio::sync::mpsc;

use super::{Client, SharedVersus, battle, room_of, start};
use crate::live::LiveClient;
use crate::versus::MAX_SPECTATORS;

/// A third player's Live screen: the list it is sent.
async fn live_list(shared: &SharedVersus) -> Vec<minotty_protocol::LiveEntry> {
    let (tx, mut rx) = mpsc::channel(16);
    let mut live = LiveClient::new(shared.hub().live.clone(), tx);
    live.handle(Request::LiveList);
    match rx.recv().await {
        Some(Response::Live(entries)) => entries,
        other => panic!("no list: {other:?}"),
    }
}

#[tokio::test(start_paused = true)]
async fn the_live_list_tells_no_room_code_and_spectating_goes_by_its_id() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    let list = live_list(&shared).await;
    assert_eq!(list.len(), 1);
    assert!(matches!(list[0].kind, LiveKind::Match { .. }));
    assert!(
        !format!("{list:?}").contains(&code),
        "the room code {code} is on the list: {list:?}"
    );

    // Cat watches it from the list, by its id: a spectator's seat in the room, and nothing
    // she is sent tells her the code.
    let mut cat = Client::new(&shared, "cat", None);
    cat.send(Request::SpectateLive { id: list[0].id });
    let view = cat.room().await;
    assert_eq!((view.you, view.spectators), (None, 1));
    assert_eq!(view.code, "");
    let start = cat
        .wait(|r| match r {
            Response::MatchStart(s) => Some(s),
            _ => None,
        })
        .await;
    assert_eq!(start.players, ["ann", "bob"]);
    cat.wait(|r| matches!(r, Response::Opponents(_)).then_some(()))
        .await;
    // The players see their room as before: the code is theirs.
    assert_eq!(c[0].room().await.code, code);
    c[0].send(Request::LeaveRoom);
    cat.wait(|r| matches!(r, Response::MatchOver(_)).then_some(()))
        .await;
    c[1].send(Request::LeaveRoom);
    let closed = cat
        .wait(|r| match r {
            Response::RoomClosed { message } => Some(message),
            _ => None,
        })
        .await;
    let seen = format!("{closed} {:?}", cat.drain());
    assert!(!seen.contains(&code), "{seen}");

    // A match no longer listed cannot be watched by its old id, nor can a made-up one.
    let mut dan = Client::new(&shared, "dan", None);
    dan.send(Request::SpectateLive { id: list[0].id });
    assert!(dan.failed().await.contains("ended"));
    dan.send(Request::SpectateLive { id: 1 });
    assert!(dan.failed().await.contains("ended"));
}

#[tokio::test(start_paused = true)]
async fn a_private_players_match_is_not_listed() {
    let shared = SharedVersus::default();
    let (mut c, _code) = room_of(&shared, battle(2), &["ann", "shy"]).await;
    // Shy does not let others watch her games.
    c[1].client.as_mut().expect("a client").set_watchable(false);
    start(&mut c).await;
    assert!(
        live_list(&shared).await.is_empty(),
        "a private match is listed"
    );
    // Still counted by the server (a drain waits for it), and its id leads nowhere.
    let counted = shared.hub().live.list();
    assert_eq!(counted.len(), 1);
    let id = counted[0].id;
    assert!(shared.hub().live.watch(id).is_err(), "the TV watches it");
    let mut cat = Client::new(&shared, "cat", None);
    cat.send(Request::SpectateLive { id });
    assert!(cat.failed().await.contains("ended"));

    // After the match, shy lets others watch again: the rematch is listed.
    c[0].send(Request::Room(RoomCommand::Report {
        reports: vec![minotty_protocol::Report::Forfeited {
            progress: minotty_protocol::Progress::default(),
        }],
    }));
    c[1].wait(|r| matches!(r, Response::MatchOver(_)).then_some(()))
        .await;
    c[1].client.as_mut().expect("a client").set_watchable(true);
    c[0].send(Request::Room(RoomCommand::Rematch));
    c[1].send(Request::Room(RoomCommand::Rematch));
    c[1].wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
        .await;
    assert_eq!(live_list(&shared).await.len(), 1);
}

#[tokio::test(start_paused = true)]
async fn the_spectator_past_the_cap_is_refused_with_the_reason() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    let id = live_list(&shared).await[0].id;
    let mut watchers = Vec::new();
    for i in 0..MAX_SPECTATORS {
        // Each from an address of its own (one address holds only its share).
        let peer = format!("192.0.2.{i}");
        let mut w = Client::connected_from(&shared, &format!("w{i}"), None, &peer);
        // By code and from the Live list alike.
        if i % 2 == 0 {
            w.send(Request::JoinRoom {
                code: code.clone(),
                spectate: true,
            });
        } else {
            w.send(Request::SpectateLive { id });
        }
        w.room().await;
        watchers.push(w);
    }
    let mut late = Client::new(&shared, "late", None);
    late.send(Request::JoinRoom {
        code: code.clone(),
        spectate: true,
    });
    let refused = late.failed().await;
    assert!(refused.contains("spectators already"), "{refused}");
    let mut later = Client::new(&shared, "later", None);
    later.send(Request::SpectateLive { id });
    let refused = later.failed().await;
    assert!(
        refused.contains("spectators already") && !refused.contains(&code),
        "{refused}"
    );
    c[0].wait(|r| match r {
        Response::Room(v) if v.spectators as usize == MAX_SPECTATORS => Some(()),
        _ => None,
    })
    .await;
    let more = c[0]
        .drain()
        .into_iter()
        .any(|r| matches!(r, Response::Room(v) if v.spectators as usize > MAX_SPECTATORS));
    assert!(!more, "seated past the cap");
    // One leaves: the next gets the seat.
    watchers[0].send(Request::LeaveRoom);
    watchers[0]
        .wait(|r| matches!(r, Response::RoomClosed { .. }).then_some(()))
        .await;
    later.send(Request::SpectateLive { id });
    assert_eq!(later.room().await.spectators as usize, MAX_SPECTATORS);
}
