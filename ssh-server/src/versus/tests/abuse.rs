//! Hostile or broken sessions against rooms and the queue: floods of requests, sessions that
//! stop reading, code guessing, a second connection of a ranked player, panics.

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_protocol::{Progress, Report};
use minotty_ui::{Request, Response};
use tokio::sync::mpsc;

use super::{Client, battle, room_of, start};
use crate::services::versus::SharedVersus;
use crate::versus::limits::{FREE_FAILURES, REQUEST_BURST};
use crate::versus::{BACKLOG_MAX, QueueMsg, RoomMsg, SessionTx};

fn count(responses: &[Response], f: impl Fn(&Response) -> bool) -> usize {
    responses.iter().filter(|r| f(r)).count()
}

fn is_view(r: &Response) -> bool {
    matches!(r, Response::Room(_))
}

/// Lets the room and forwarding tasks run, then takes everything the client got.
async fn settle(c: &mut Client) -> Vec<Response> {
    tokio::time::sleep(Duration::from_millis(200)).await;
    c.drain()
}

#[tokio::test(start_paused = true)]
async fn a_view_goes_out_only_when_it_changed() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(3), &["ann", "bob", "cid"]).await;
    for cl in c.iter_mut() {
        settle(cl).await;
    }
    // bob says "ready" ten times: one change.
    for _ in 0..10 {
        c[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    }
    let got = settle(&mut c[2]).await;
    assert_eq!(count(&got, is_view), 1, "{got:?}");
    let got = settle(&mut c[0]).await;
    assert_eq!(count(&got, is_view), 1, "{got:?}");
    // Asking to join the room one is in gets the view again, unchanged or not.
    let code = c[1].room().await.code;
    c[2].send(Request::JoinRoom {
        code,
        spectate: false,
    });
    assert_eq!(c[2].room().await.seats.len(), 3);
}

#[tokio::test(start_paused = true)]
async fn a_hundred_thousand_ready_presses_reach_the_others_as_a_few_views() {
    let shared = SharedVersus::default();
    let names = ["ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal"];
    let (mut c, _) = room_of(&shared, battle(8), &names).await;
    for cl in c.iter_mut() {
        settle(cl).await;
    }
    // A key held down: ready, not ready, ready... as fast as the session can send.
    for i in 0..100_000 {
        c[7].send(Request::Room(RoomCommand::Ready { ready: i % 2 == 0 }));
        if i % 10_000 == 0 {
            tokio::task::yield_now().await;
        }
    }
    let flooder = settle(&mut c[7]).await;
    let notices = count(
        &flooder,
        |r| matches!(r, Response::Notice { message } if message.contains("Too many requests")),
    );
    assert_eq!(notices, 1, "one notice for the whole flood");
    let bound = REQUEST_BURST as usize + 5;
    for (i, cl) in c.iter_mut().enumerate().take(7) {
        let got = settle(cl).await;
        assert!(got.len() <= bound, "member {i} got {} responses", got.len());
    }
    // The others are still heard at once.
    c[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    let view = c[0]
        .wait(|r| match r {
            Response::Room(v) if v.seats[1].ready => Some(v),
            _ => None,
        })
        .await;
    assert!(view.seats[1].ready);
}

#[tokio::test(start_paused = true)]
async fn reports_are_not_rate_limited() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    c[1].drain();
    for i in 0..200 {
        c[0].report(vec![Report::Attack { lines: 1 }]);
        if i % 50 == 0 {
            tokio::task::yield_now().await;
        }
    }
    let got = settle(&mut c[1]).await;
    assert_eq!(
        count(&got, |r| matches!(r, Response::Garbage { .. })),
        200,
        "every attack arrives"
    );
}

#[tokio::test]
async fn a_session_tx_bounds_its_backlog_and_marks_the_session_behind() {
    let (tx, _rx) = mpsc::channel(4);
    let out = SessionTx::new(tx);
    let garbage = |lines| Response::Garbage { lines, from: 0 };
    let mut sent = 0;
    for i in 0..5 * BACKLOG_MAX {
        if out.send(garbage((i % 4) as u8 + 1)) {
            sent += 1;
        }
    }
    assert_eq!(out.backlog_len(), BACKLOG_MAX);
    assert_eq!(sent, 4 + BACKLOG_MAX);
    assert!(out.overflowed());
    // One last word still gets in; nothing after it.
    assert!(out.send_last(Response::Notice {
        message: "bye".into()
    }));
    assert!(!out.send(garbage(1)));
    assert_eq!(out.backlog_len(), BACKLOG_MAX + 1);
    // Room views waiting one after the other: the latest replaces the one before.
    let (tx, _rx) = mpsc::channel(1);
    let views = SessionTx::new(tx);
    views.send(garbage(1));
    let view = |n: u32| {
        Response::Room(minotty_protocol::RoomView {
            code: "AAAAAA".into(),
            options: battle(2),
            seats: Vec::new(),
            spectators: n,
            you: None,
            host: false,
            state: minotty_protocol::RoomState::Lobby,
            ranked: false,
            listed: false,
            tbp_bots: Vec::new(),
        })
    };
    for n in 0..100 {
        views.send(view(n));
    }
    assert_eq!(views.backlog_len(), 1);
}

#[tokio::test(start_paused = true)]
async fn a_player_who_stops_reading_forfeits_and_the_room_goes_on() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    // bob reads nothing while ann attacks far beyond his queue and backlog.
    let attacks = 256 + BACKLOG_MAX + 100;
    for i in 0..attacks {
        c[0].report(vec![Report::Attack { lines: 1 }]);
        if i % 100 == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    let result = super::result(&mut c[0]).await;
    assert_eq!(result.rows[0].name, "ann");
    assert!(result.rows[1].forfeited);
    // ann's room stays open for her.
    assert_eq!(shared.hub().room_count(), 1);
}

#[tokio::test(start_paused = true)]
async fn wrong_room_codes_back_off_per_session_and_per_address() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(4), &["ann", "bob"]).await;
    drop(c.pop());
    let mut guesser = Client::connected_from(&shared, "mal", None, "10.0.0.7");
    for i in 0..FREE_FAILURES {
        guesser.send(Request::JoinRoom {
            code: format!("ZZZZZ{}", i + 2),
            spectate: false,
        });
        let msg = guesser.failed().await;
        assert!(msg.starts_with("There is no room"), "{msg}");
    }
    // Now even the right code waits.
    guesser.send(Request::JoinRoom {
        code: code.clone(),
        spectate: false,
    });
    let msg = guesser.failed().await;
    assert!(
        msg.contains("Too many wrong room codes: try again in"),
        "{msg}"
    );
    // Another session from the same address waits too; other addresses do not.
    let mut again = Client::connected_from(&shared, "mal2", None, "10.0.0.7");
    again.send(Request::JoinRoom {
        code: code.clone(),
        spectate: false,
    });
    assert!(again.failed().await.contains("Too many wrong room codes"));
    let mut friend = Client::connected_from(&shared, "dan", None, "10.0.0.8");
    friend.send(Request::JoinRoom {
        code,
        spectate: false,
    });
    assert_eq!(friend.room().await.seats.len(), 2);
}

#[tokio::test(start_paused = true)]
async fn one_ranked_match_per_account() {
    let shared = SharedVersus::default();
    let mut ann = Client::new(&shared, "ann", Some(1));
    let mut ann2 = Client::new(&shared, "ann", Some(1));
    let mut bob = Client::new(&shared, "bob", Some(2));
    ann.send(Request::QuickMatch);
    ann.wait(|r| matches!(r, Response::Queued { .. }).then_some(()))
        .await;
    ann2.send(Request::QuickMatch);
    assert!(
        ann2.failed()
            .await
            .contains("already queued or in a ranked match")
    );
    bob.send(Request::QuickMatch);
    for c in [&mut ann, &mut bob] {
        c.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
            .await;
    }
    // During the match: refused.
    ann2.send(Request::QuickMatch);
    assert!(ann2.failed().await.contains("one ranked match at a time"));
    bob.report(vec![Report::Finished {
        won: false,
        progress: Progress::default(),
    }]);
    super::result(&mut ann).await;
    // Between two games of the series (first to 3): still refused.
    ann2.send(Request::QuickMatch);
    assert!(ann2.failed().await.contains("ranked"));
    // bob leaves the series, which ends it (his loss).
    bob.send(Request::LeaveRoom);
    super::result(&mut ann).await;
    // Over: the other connection may queue.
    ann2.send(Request::QuickMatch);
    ann2.wait(|r| matches!(r, Response::Queued { .. }).then_some(()))
        .await;
}

#[tokio::test(start_paused = true)]
async fn a_panicking_room_closes_alone() {
    let shared = SharedVersus::default();
    let (mut a, code_a) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    let (mut b, code_b) = room_of(&shared, battle(2), &["cid", "dan"]).await;
    let room = shared
        .hub()
        .room(&minotty_domain::RoomCode::canonical(&code_a).expect("a code"))
        .expect("room a");
    assert!(room.send(RoomMsg::Panic));
    for c in a.iter_mut() {
        let msg = super::closed(c).await;
        assert!(msg.contains("went wrong"), "{msg}");
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(
        shared
            .hub()
            .room(&minotty_domain::RoomCode::canonical(&code_a).expect("a code"))
            .is_none()
    );
    assert_eq!(shared.hub().room_count(), 1);
    // The other room plays on; ann can open a new one.
    b[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    let view = b[0]
        .wait(|r| match r {
            Response::Room(v) if v.seats[1].ready => Some(v),
            _ => None,
        })
        .await;
    assert_eq!(view.code, code_b);
    a[0].send(Request::CreateRoom(battle(2)));
    assert_ne!(a[0].room().await.code, code_a);
}

#[tokio::test(start_paused = true)]
async fn a_panicking_queue_goes_on() {
    let shared = SharedVersus::default();
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::QuickMatch);
    ann.wait(|r| matches!(r, Response::Queued { .. }).then_some(()))
        .await;
    shared
        .hub()
        .queue()
        .send(QueueMsg::Panic)
        .expect("queue open");
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut bob = Client::new(&shared, "bob", Some(2));
    bob.send(Request::QuickMatch);
    for c in [&mut ann, &mut bob] {
        c.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
            .await;
    }
}

/// A typed room code is parsed once, where the App's request arrives: surrounding space and
/// case do not matter, and anything else that is not a code gets the same message as before
/// the `RoomCode` type.
#[tokio::test]
async fn typed_room_codes_are_parsed_where_the_request_arrives() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(4), &["ann", "bob"]).await;
    drop(c.pop());
    let mut typist = Client::connected_from(&shared, "cat", None, "10.0.0.9");
    typist.send(Request::JoinRoom {
        code: "k0\u{1b}[2J".into(),
        spectate: false,
    });
    assert_eq!(
        typist.failed().await,
        "\"k0[2J\" is not a room code: codes are 6 letters and digits, like K7PQ3M."
    );
    typist.send(Request::JoinRoom {
        code: format!("  {}  ", code.to_ascii_lowercase()),
        spectate: false,
    });
    assert_eq!(typist.room().await.code, code);
}
