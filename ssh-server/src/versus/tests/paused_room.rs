//! A room's timed rules on tokio's paused clock (`start_paused`): the countdown, a battle's time
//! limit, the pace of the opponents' boards, a rematch, a kept seat's time. Time only moves when
//! every task waits, so each figure below is exact, not a bound on a busy machine.

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_engine::versus::MatchKind;
use minotty_protocol::{Progress, Report, RoomLimit, RoomSettings, RoomState};
use minotty_ui::{Request, Response};
use tokio::time::{Instant, sleep};

use super::{Client, battle, board, result, room_of, start};
use crate::services::versus::SharedVersus;
use crate::versus::{COUNTDOWN, OPPONENTS_INTERVAL};

fn has(responses: &[Response], f: impl Fn(&Response) -> bool) -> bool {
    responses.iter().any(f)
}

fn is_result(r: &Response) -> bool {
    matches!(r, Response::MatchOver(_))
}

fn is_start(r: &Response) -> bool {
    matches!(r, Response::MatchStart(_))
}

#[tokio::test(start_paused = true)]
async fn a_spectator_who_comes_during_the_countdown_is_told_what_is_left_of_it() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    sleep(Duration::from_millis(1_200)).await;
    let mut eve = Client::new(&shared, "eve", None);
    eve.send(Request::JoinRoom {
        code: code.clone(),
        spectate: true,
    });
    let seen = eve
        .wait(|r| match r {
            Response::MatchStart(s) => Some(s),
            _ => None,
        })
        .await;
    assert_eq!(seen.you, None);
    assert_eq!(seen.countdown_ms, 1_800, "3000 ms less the 1200 ms gone");
    // After the countdown: nothing is left of it.
    sleep(Duration::from_millis(2_000)).await;
    let mut late = Client::new(&shared, "lea", None);
    late.send(Request::JoinRoom {
        code,
        spectate: true,
    });
    let seen = late
        .wait(|r| match r {
            Response::MatchStart(s) => Some(s),
            _ => None,
        })
        .await;
    assert_eq!(seen.countdown_ms, 0);
}

#[tokio::test(start_paused = true)]
async fn a_battle_time_limit_ends_the_match_at_its_second_counted_from_go() {
    let shared = SharedVersus::default();
    let options = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::Seconds(10));
    let (mut c, _) = room_of(&shared, options, &["ann", "bob"]).await;
    start(&mut c).await;
    let began = Instant::now();
    c[1].report(vec![Report::Attack { lines: 2 }]);
    // The countdown does not count: one millisecond before go + 10 s, nothing is decided.
    sleep(COUNTDOWN + Duration::from_secs(10) - Duration::from_millis(1)).await;
    for cl in c.iter_mut() {
        assert!(!has(&cl.drain(), is_result), "decided early");
    }
    let over = result(&mut c[0]).await;
    assert_eq!(began.elapsed(), COUNTDOWN + Duration::from_secs(10));
    let names: Vec<&str> = over.rows.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["bob", "ann"], "the most attack wins");
    // Neither told a time of their own: the match's, from go.
    assert!(over.rows.iter().all(|r| r.time_ms == 10_000), "{over:?}");
}

#[tokio::test(start_paused = true)]
async fn a_steady_stream_of_boards_reaches_the_opponent_once_per_interval() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2), &["ann", "bob"]).await;
    start(&mut c).await;
    sleep(COUNTDOWN).await;
    c[1].drain();
    // A board every 10 ms for one second: a hundred reports.
    for i in 0..100 {
        c[0].report(vec![Report::Board(board(i % 5 + 1))]);
        sleep(Duration::from_millis(10)).await;
    }
    sleep(OPPONENTS_INTERVAL).await;
    let sends = c[1]
        .drain()
        .iter()
        .filter(|r| matches!(r, Response::Opponents(_)))
        .count();
    // One second in 50 ms intervals: 20 (one more when the first and the last fall on an
    // interval's edges).
    let per_second = (1_000 / OPPONENTS_INTERVAL.as_millis()) as usize;
    assert!(
        (per_second..=per_second + 1).contains(&sends),
        "{sends} sends of a hundred boards"
    );
}

#[tokio::test(start_paused = true)]
async fn a_rematch_waits_for_everyone_however_long_and_then_counts_down_again() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(3), &["ann", "bob", "cid"]).await;
    start(&mut c).await;
    let out = Report::Finished {
        won: false,
        progress: Progress::default(),
    };
    c[1].report(vec![out.clone()]);
    c[2].report(vec![out]);
    for cl in c.iter_mut() {
        assert_eq!(result(cl).await.rows[0].name, "ann");
    }
    c[0].send(Request::Room(RoomCommand::Rematch));
    c[1].send(Request::Room(RoomCommand::Rematch));
    // An hour later cid has not asked: no match, the others wait in the lobby, ready.
    sleep(Duration::from_secs(3_600)).await;
    let mut views = Vec::new();
    for cl in c.iter_mut() {
        let got = cl.drain();
        assert!(!has(&got, is_start), "a rematch without cid");
        views.extend(got.into_iter().filter_map(|r| match r {
            Response::Room(v) => Some(v),
            _ => None,
        }));
    }
    let last = views.last().expect("the room's view");
    assert_eq!(last.state, RoomState::Lobby);
    let ready: Vec<bool> = last.seats.iter().map(|s| s.ready).collect();
    assert_eq!(ready, [true, true, false]);
    // cid asks: it starts at once, with a countdown of its own and the same seats.
    c[2].send(Request::Room(RoomCommand::Rematch));
    for (i, cl) in c.iter_mut().enumerate() {
        let again = cl
            .wait(|r| match r {
                Response::MatchStart(s) => Some(s),
                _ => None,
            })
            .await;
        assert_eq!(again.countdown_ms, 3_000);
        assert_eq!(again.you, Some(i));
        assert_eq!(again.players, ["ann", "bob", "cid"]);
    }
}

#[tokio::test(start_paused = true)]
async fn a_kept_seat_is_held_for_exactly_the_reconnect_time() {
    let ttl = Duration::from_secs(60);
    let shared = SharedVersus::default().with_reconnect(ttl);
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::CreateRoom(battle(4)));
    let code = ann.room().await.code;
    let mut bob = Client::new(&shared, "bob", Some(2));
    bob.send(Request::JoinRoom {
        code,
        spectate: false,
    });
    bob.room().await;
    drop(bob.client.take());
    let view = ann
        .wait(|r| match r {
            Response::Room(v) if v.seats.len() == 2 && !v.seats[1].connected => Some(v),
            _ => None,
        })
        .await;
    assert_eq!(view.seats[1].name, "bob");
    let dropped = Instant::now();
    sleep(ttl - Duration::from_millis(1)).await;
    assert_eq!(
        shared.hub().kept_seats(),
        1,
        "still kept a millisecond before"
    );
    let view = ann
        .wait(|r| match r {
            Response::Room(v) if v.seats.len() == 1 => Some(v),
            _ => None,
        })
        .await;
    assert_eq!(
        dropped.elapsed(),
        ttl,
        "freed at the reconnect time, not later"
    );
    assert_eq!(view.seats[0].name, "ann");
    assert_eq!(shared.hub().kept_seats(), 0);
}
