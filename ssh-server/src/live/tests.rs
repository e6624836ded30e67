//! The live directory: publishing, unpublishing, opting out, the order, the bounds.

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_engine::versus::MatchKind;
use minotty_engine::{Button, Game, GameConfig, Input, Mode, ModeKind};
use minotty_protocol::LiveKind;
use minotty_ui::{Request, Response};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::*;
use minotty_domain::RoomCode;

fn code(s: &str) -> RoomCode {
    RoomCode::canonical(s).expect("a code")
}

/// The `i`-th room code (distinct for every `i` below 31^6).
fn numbered(i: usize) -> RoomCode {
    RoomCode::from_positions(std::array::from_fn(|d| i / 31usize.pow(d as u32) % 31))
}

fn marathon(seed: u32) -> Game {
    Game::new(
        GameConfig {
            mode: Mode::marathon(),
            ..GameConfig::default()
        },
        seed,
    )
}

/// Plays `pieces` hard drops, one every 100 ms of game time from `*at`.
fn drop_pieces(game: &mut Game, at: &mut u64, pieces: u32) {
    let target = game.stats().pieces + pieces;
    while game.stats().pieces < target && game.outcome().is_none() {
        *at += 100;
        game.update(*at, Some(Input::Press(Button::HardDrop)));
        *at += 1;
        game.update(*at, Some(Input::Release(Button::HardDrop)));
    }
}

/// The solo frame a watch channel holds.
fn solo_frame(rx: &FrameRx) -> LiveFrame {
    match rx.borrow().as_deref() {
        Some(LiveUpdate::Solo(f)) => f.clone(),
        other => panic!("expected a solo frame, got {other:?}"),
    }
}

fn client(dir: &LiveDirectory) -> (LiveClient, mpsc::Receiver<Response>) {
    let (tx, rx) = mpsc::channel(256);
    (LiveClient::new(dir.clone(), tx), rx)
}

async fn next(rx: &mut mpsc::Receiver<Response>) -> Response {
    tokio::time::timeout(Duration::from_secs(5), rx.recv())
        .await
        .expect("a response in time")
        .expect("channel open")
}

#[test]
fn a_game_is_listed_while_played_and_gone_after() {
    let dir = LiveDirectory::default();
    let mut publisher = SoloPublisher::new(dir.clone());
    let mut game = marathon(7);
    let now = Instant::now();
    publisher.update(Some((1, &game)), true, || "ada".into(), now);
    let list = dir.list();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0].players, ["ada"]);
    assert_eq!(list[0].kind, LiveKind::Solo);
    assert_eq!(list[0].mode, ModeKind::Marathon);
    assert_eq!(list[0].stats.pieces, 0);

    // The numbers follow the game once a piece.
    let mut at = 0;
    game.update(1000, None);
    drop_pieces(&mut game, &mut at, 3);
    publisher.update(Some((1, &game)), true, || unreachable!("named once"), now);
    assert_eq!(dir.list()[0].stats.pieces, 3);
    assert_eq!(dir.list()[0].stats.score, game.stats().score);

    // The game ended (the App no longer has one in progress): unlisted.
    publisher.update(None, true, || "ada".into(), now);
    assert!(dir.is_empty());
    // A new game is a new entry.
    publisher.update(Some((2, &game)), true, || "ada".into(), now);
    let id = dir.list()[0].id;
    publisher.update(Some((3, &game)), true, || "ada".into(), now);
    assert_eq!(dir.len(), 1);
    assert_ne!(dir.list()[0].id, id);
    // The session ends: unlisted.
    drop(publisher);
    assert!(dir.is_empty());
}

#[test]
fn a_player_who_opted_out_is_never_listed() {
    let dir = LiveDirectory::default();
    let mut publisher = SoloPublisher::new(dir.clone());
    let game = marathon(1);
    let now = Instant::now();
    publisher.update(Some((1, &game)), false, || "shy".into(), now);
    assert!(dir.is_empty());
    // Turning it on lists the game; off again in the middle of it unlists it.
    publisher.update(Some((1, &game)), true, || "shy".into(), now);
    assert_eq!(dir.len(), 1);
    publisher.update(Some((1, &game)), false, || "shy".into(), now);
    assert!(dir.is_empty());
}

#[test]
fn the_list_puts_matches_first_then_solo_games_by_pace() {
    let dir = LiveDirectory::default();
    let now = Instant::now();
    // slow: 10 pieces in 60 s; fast: 30 pieces in 30 s; fresh: 3 pieces in 0.6 s (its pace is
    // counted over the floor of 20 s, so it does not lead).
    let mut publishers = Vec::new();
    for (name, pieces, step) in [("slow", 10, 6000), ("fast", 30, 1000), ("fresh", 3, 200)] {
        let mut game = marathon(3);
        let mut at = 0;
        game.update(0, None);
        for _ in 0..pieces {
            at += step - 1;
            game.update(at, Some(Input::Press(Button::HardDrop)));
            at += 1;
            game.update(at, Some(Input::Release(Button::HardDrop)));
        }
        let mut p = SoloPublisher::new(dir.clone());
        p.update(Some((1, &game)), true, || name.into(), now);
        publishers.push(p);
    }
    let pair = dir.publish_match(
        &code("K7PQ3M"),
        MatchKind::Battle,
        vec!["ann".into(), "bo".into()],
        false,
    );
    let four = dir.publish_match(
        &code("ABCDEF"),
        MatchKind::Race,
        vec!["a".into(), "b".into(), "c".into(), "d".into()],
        false,
    );
    let order: Vec<String> = dir.list().iter().map(|e| e.players.join("+")).collect();
    assert_eq!(order, ["a+b+c+d", "ann+bo", "fast", "slow", "fresh"]);
    let first = &dir.list()[0];
    assert_eq!(
        first.kind,
        LiveKind::Match {
            kind: MatchKind::Race
        }
    );
    drop(four);
    drop(pair);
    assert_eq!(dir.len(), 3);
}

#[test]
fn the_list_is_bounded() {
    let dir = LiveDirectory::default();
    let listings: Vec<MatchListing> = (0..MAX_LISTED + 20)
        .map(|i| dir.publish_match(&numbered(i), MatchKind::Battle, vec!["x".into()], false))
        .collect();
    assert_eq!(dir.len(), MAX_LISTED + 20);
    assert_eq!(dir.list().len(), MAX_LISTED);
    drop(listings);
    assert!(dir.is_empty());
}

#[tokio::test(start_paused = true)]
async fn frames_go_out_only_while_watched_and_at_a_bounded_rate() {
    let dir = LiveDirectory::default();
    let mut publisher = SoloPublisher::new(dir.clone());
    let mut game = marathon(9);
    game.update(1000, None);
    let t0 = Instant::now();
    publisher.update(Some((1, &game)), true, || "ada".into(), t0);
    // Nobody watches: no frame, nothing due.
    assert!(publisher.next_due().is_none());
    let id = publisher.id().unwrap();
    let (rx, guard) = dir.watch(id).unwrap();
    assert!(
        rx.borrow().is_none(),
        "no frame was made before anyone watched"
    );
    assert_eq!(dir.list()[0].watchers, 1);
    publisher.update(Some((1, &game)), true, || unreachable!(), t0);
    let first = solo_frame(&rx);
    assert_eq!(first.player, "ada");
    assert_eq!(first.board, minotty_protocol::snapshot(&game));
    // The game moves on within the interval: no new frame until it has passed.
    let mut at = 1000;
    drop_pieces(&mut game, &mut at, 2);
    publisher.update(
        Some((1, &game)),
        true,
        || unreachable!(),
        t0 + FRAME_INTERVAL / 2,
    );
    assert_eq!(solo_frame(&rx).stats.pieces, 0);
    assert_eq!(publisher.next_due(), Some(t0 + FRAME_INTERVAL));
    publisher.update(
        Some((1, &game)),
        true,
        || unreachable!(),
        t0 + FRAME_INTERVAL,
    );
    assert_eq!(solo_frame(&rx).stats.pieces, 2);
    // The watcher leaves: nothing is due any more.
    drop(guard);
    assert_eq!(dir.watchers(), 0);
    assert!(publisher.next_due().is_none());
}

/// ada's marathon (seed 5) at 1000 ms, listed by its publisher: the directory, the publisher,
/// the game and its id.
fn ada_listed() -> (LiveDirectory, SoloPublisher, Game, u64) {
    let dir = LiveDirectory::default();
    let mut publisher = SoloPublisher::new(dir.clone());
    let mut game = marathon(5);
    game.update(1000, None);
    publisher.update(Some((1, &game)), true, || "ada".into(), Instant::now());
    let id = publisher.id().unwrap();
    (dir, publisher, game, id)
}

#[tokio::test(start_paused = true)]
async fn a_watcher_gets_frames_then_the_end() {
    let (dir, mut publisher, mut game, id) = ada_listed();
    let (mut watcher, mut rx) = client(&dir);
    watcher.handle(Request::LiveList);
    match next(&mut rx).await {
        Response::Live(list) => assert_eq!(list[0].id, id),
        other => panic!("expected the list, got {other:?}"),
    }
    watcher.handle(Request::WatchLive { id });
    // The watcher is counted at once; the player's next turn makes the first frame.
    assert_eq!(dir.watchers(), 1);
    let mut at = 1000;
    drop_pieces(&mut game, &mut at, 1);
    publisher.update(Some((1, &game)), true, || unreachable!(), Instant::now());
    match next(&mut rx).await {
        Response::LiveFrame(f) => {
            assert_eq!(f.id, id);
            assert_eq!(f.stats.pieces, 1);
        }
        other => panic!("expected a frame, got {other:?}"),
    }
    // The game ends: the watcher is told, and no longer counted.
    publisher.update(None, true, || unreachable!(), Instant::now());
    match next(&mut rx).await {
        Response::LiveEnded { id: ended } => assert_eq!(ended, id),
        other => panic!("expected the end, got {other:?}"),
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(dir.watchers(), 0);
    // Watching a game that is gone is refused.
    watcher.handle(Request::WatchLive { id });
    assert!(matches!(next(&mut rx).await, Response::LiveFailed { .. }));
}

#[tokio::test(start_paused = true)]
async fn a_watcher_of_a_parked_game_is_told_it_is_parked_not_over() {
    let (dir, mut publisher, mut game, id) = ada_listed();
    let (mut watcher, mut rx) = client(&dir);
    watcher.handle(Request::WatchLive { id });
    let mut at = 1000;
    drop_pieces(&mut game, &mut at, 1);
    publisher.update(Some((1, &game)), true, || unreachable!(), Instant::now());
    assert!(matches!(next(&mut rx).await, Response::LiveFrame(_)));
    // The player drops: the session parks the game.
    let hold = publisher.park().expect("a listed game leaves a hold");
    drop(publisher);
    match next(&mut rx).await {
        Response::LiveParked { id: parked } => assert_eq!(parked, id),
        other => panic!("expected the game parked, got {other:?}"),
    }
    assert!(dir.list().is_empty(), "a parked game is not listed");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(rx.try_recv().is_err(), "one word, then nothing");
    assert_eq!(dir.watchers(), 1, "the watcher waits with the game");
    // Never taken back (expired, or discarded): it ended for its watcher.
    drop(hold);
    match next(&mut rx).await {
        Response::LiveEnded { id: ended } => assert_eq!(ended, id),
        other => panic!("expected the end, got {other:?}"),
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(dir.watchers(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_resumed_game_goes_on_for_its_watchers_under_the_same_id() {
    let (dir, mut publisher, mut game, id) = ada_listed();
    let (mut watcher, mut rx) = client(&dir);
    watcher.handle(Request::WatchLive { id });
    let mut at = 1000;
    drop_pieces(&mut game, &mut at, 1);
    publisher.update(Some((1, &game)), true, || unreachable!(), Instant::now());
    assert!(matches!(next(&mut rx).await, Response::LiveFrame(_)));
    let hold = publisher.park().expect("a hold");
    drop(publisher);
    assert!(matches!(next(&mut rx).await, Response::LiveParked { .. }));
    // The player's new session: offered the game, it waits for the answer; that session
    // drops too before an answer: the game is parked again, its watcher still on it.
    let mut dropped = SoloPublisher::new(dir.clone());
    dropped.hold(hold);
    dropped.update(None, true, || unreachable!("not listed"), Instant::now());
    let hold = dropped.park().expect("the hold goes on with the game");
    drop(dropped);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(rx.try_recv().is_err(), "nothing ended for the watcher");
    let mut back = SoloPublisher::new(dir.clone());
    back.hold(hold);
    back.update(
        None,
        true,
        || unreachable!("not listed yet"),
        Instant::now(),
    );
    assert!(dir.list().is_empty());
    // Resumed as that App's game 7: listed again under the old id, and its watcher sees it
    // move again.
    back.answered(Some(7));
    back.update(
        Some((7, &game)),
        true,
        || unreachable!("the name is kept"),
        Instant::now(),
    );
    assert_eq!(back.id(), Some(id));
    assert_eq!(dir.list().first().map(|e| e.id), Some(id));
    drop_pieces(&mut game, &mut at, 2);
    tokio::time::sleep(FRAME_INTERVAL).await;
    back.update(Some((7, &game)), true, || unreachable!(), Instant::now());
    let mut pieces = 0;
    while pieces < 3 {
        match next(&mut rx).await {
            Response::LiveFrame(f) => {
                assert_eq!((f.id, f.player.as_str()), (id, "ada"));
                pieces = f.stats.pieces;
            }
            other => panic!("expected frames, got {other:?}"),
        }
    }
    assert_eq!(dir.watchers(), 1);
    // The resumed game ends: as any game does.
    back.update(None, true, || unreachable!(), Instant::now());
    assert!(matches!(next(&mut rx).await, Response::LiveEnded { .. }));
}

#[tokio::test(start_paused = true)]
async fn a_parked_game_discarded_or_another_game_ends_it_for_its_watchers() {
    for resumed in [None, Some(3)] {
        let (dir, mut publisher, game, id) = ada_listed();
        let (mut watcher, mut rx) = client(&dir);
        watcher.handle(Request::WatchLive { id });
        publisher.update(Some((1, &game)), true, || unreachable!(), Instant::now());
        assert!(matches!(next(&mut rx).await, Response::LiveFrame(_)));
        let hold = publisher.park().expect("a hold");
        assert!(matches!(next(&mut rx).await, Response::LiveParked { .. }));
        let mut back = SoloPublisher::new(dir.clone());
        back.hold(hold);
        back.answered(resumed);
        // Game 4 is not the resumed game 3: a new game, a new id.
        back.update(Some((4, &game)), true, || "ada".into(), Instant::now());
        assert_ne!(back.id(), Some(id), "{resumed:?}");
        match next(&mut rx).await {
            Response::LiveEnded { id: ended } => assert_eq!(ended, id),
            other => panic!("expected the end ({resumed:?}), got {other:?}"),
        }
    }
}

#[tokio::test(start_paused = true)]
async fn watchers_are_bounded_per_game_and_server_wide() {
    let dir = LiveDirectory::default();
    let game = marathon(2);
    let mut publishers: Vec<SoloPublisher> = Vec::new();
    let mut ids = Vec::new();
    for i in 0..(MAX_WATCHERS / MAX_WATCHERS_PER_GAME + 1) {
        let mut p = SoloPublisher::new(dir.clone());
        p.update(Some((1, &game)), true, || format!("p{i}"), Instant::now());
        ids.push(p.id().unwrap());
        publishers.push(p);
    }
    let mut guards = Vec::new();
    for _ in 0..MAX_WATCHERS_PER_GAME {
        guards.push(dir.watch(ids[0]).expect("room for a watcher"));
    }
    assert!(dir.watch(ids[0]).is_err(), "one game has a bound");
    // Fill the server with watchers of other games.
    for &id in &ids[1..] {
        while dir.watchers() < MAX_WATCHERS {
            match dir.watch(id) {
                Ok(g) => guards.push(g),
                Err(_) => break,
            }
        }
    }
    assert_eq!(dir.watchers(), MAX_WATCHERS);
    let last = *ids.last().unwrap();
    assert!(dir.watch(last).is_err(), "the server has a bound");
    guards.pop();
    assert!(dir.watch(last).is_ok());
    drop(guards);
}

/// An attacker on one connection: many watches, flapping in and out, list floods. One watch
/// at a time is held, requests go through a budget, and nothing is left counted after.
#[tokio::test(start_paused = true)]
async fn one_session_flapping_watches_is_bounded() {
    let dir = LiveDirectory::default();
    let game = marathon(4);
    let mut publishers: Vec<SoloPublisher> = (0..4)
        .map(|i| {
            let mut p = SoloPublisher::new(dir.clone());
            p.update(Some((1, &game)), true, || format!("p{i}"), Instant::now());
            p
        })
        .collect();
    let ids: Vec<u64> = publishers.iter().map(|p| p.id().unwrap()).collect();
    let (mut attacker, mut rx) = client(&dir);
    for i in 0..10_000 {
        let request = match i % 3 {
            0 => Request::WatchLive { id: ids[i % 4] },
            1 => Request::StopWatching,
            _ => Request::LiveList,
        };
        attacker.handle(request);
        assert!(dir.watchers() <= 1, "one watch at a time");
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(dir.watchers() <= 1);
    // The burst went through, the rest was refused with one notice.
    let mut answers = Vec::new();
    while let Ok(r) = rx.try_recv() {
        answers.push(r);
    }
    let refusals = answers
        .iter()
        .filter(|r| matches!(r, Response::LiveFailed { message } if message.contains("Too many")))
        .count();
    // (Two if a token came back during the loop.)
    assert!((1..=2).contains(&refusals), "{answers:?}");
    assert!(
        answers.len() <= REQUEST_BURST as usize + 4,
        "{}",
        answers.len()
    );
    drop(attacker);
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(dir.watchers(), 0);
    for p in &mut publishers {
        assert!(p.next_due().is_none());
    }
}

/// A versus match is listed from its start to its end, through the room's own task.
#[tokio::test(start_paused = true)]
async fn a_room_lists_its_match_while_it_is_played() {
    use minotty_protocol::{RoomLimit, RoomSettings};

    use crate::services::Who;
    use crate::services::versus::{SharedVersus, VersusClient};

    let shared = SharedVersus::default();
    let dir = shared.hub().live.clone();
    let member = |name: &str| {
        let (tx, rx) = mpsc::channel(256);
        let (_sender, account) = tokio::sync::watch::channel(None);
        let who = Who {
            ssh_user: name.to_owned(),
            identity: crate::services::Identity::Guest,
            peer: "127.0.0.1".parse().unwrap(),
            account,
        };
        (VersusClient::new(&shared, who, tx), rx)
    };
    let (mut ann, mut ann_rx) = member("ann");
    let (mut bo, mut bo_rx) = member("bo");
    ann.handle(Request::CreateRoom(RoomSettings::new(
        MatchKind::Battle,
        2,
        RoomLimit::None,
    )));
    let code = loop {
        if let Response::Room(view) = next(&mut ann_rx).await {
            break view.code;
        }
    };
    bo.handle(Request::JoinRoom {
        code: code.clone(),
        spectate: false,
    });
    while !matches!(next(&mut bo_rx).await, Response::Room(_)) {}
    assert!(dir.is_empty(), "a lobby is not listed");
    ann.handle(Request::Room(RoomCommand::Start));
    while !matches!(next(&mut bo_rx).await, Response::MatchStart(_)) {}
    let listed = dir.list();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].players, ["ann", "bo"]);
    assert_eq!(
        listed[0].kind,
        LiveKind::Match {
            kind: MatchKind::Battle
        }
    );
    // The TV watches it here: the room publishes its spectators' view while watched.
    let id = listed[0].id;
    let (mut tv, mut tv_rx) = client(&dir);
    tv.handle(Request::WatchLive { id });
    let mut rows = vec![[0u8; 10]; 20];
    rows[19] = [8, 8, 8, 8, 8, 8, 8, 8, 8, 0];
    let board = minotty_protocol::BoardSnapshot { rows };
    bo.handle(Request::Room(RoomCommand::Report {
        reports: vec![minotty_protocol::Report::Board(board.clone())],
    }));
    let frame = loop {
        if let Response::LiveMatchFrame(f) = next(&mut tv_rx).await
            && f.boards.iter().any(|b| b.board == board)
        {
            break f;
        }
    };
    assert_eq!(frame.id, id);
    let names: Vec<&str> = frame.boards.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(names, ["ann", "bo"]);
    // Ann leaves (a forfeit): the match is over, no longer listed.
    ann.handle(Request::LeaveRoom);
    while !matches!(next(&mut bo_rx).await, Response::MatchOver(_)) {}
    // The TV is told the match ended.
    loop {
        if let Response::LiveEnded { id: ended } = next(&mut tv_rx).await {
            assert_eq!(ended, id);
            break;
        }
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while !dir.is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert!(dir.is_empty());
}

/// A watch runs as a task the client owns (counted in its set), and the task ends with the
/// client: once it is dropped every sender of the session's response channel is gone (the
/// task held one) and the watcher is no longer counted, while the watched game goes on.
#[tokio::test(start_paused = true)]
async fn a_watch_task_is_owned_by_its_client_and_ends_with_it() {
    let dir = LiveDirectory::default();
    let mut publisher = SoloPublisher::new(dir.clone());
    let mut game = marathon(5);
    game.update(1000, None);
    publisher.update(Some((1, &game)), true, || "ada".into(), Instant::now());
    let id = publisher.id().expect("listed");
    let (mut live, mut rx) = client(&dir);
    assert_eq!(live.tasks.len(), 0);
    live.handle(Request::WatchLive { id });
    assert_eq!(live.tasks.len(), 1, "the watch's task");
    assert_eq!(dir.watchers(), 1);
    drop(live);
    let rest = tokio::time::timeout(Duration::from_secs(5), async {
        let mut rest = 0;
        while rx.recv().await.is_some() {
            rest += 1;
        }
        rest
    })
    .await
    .expect("every sender dropped: the task ended");
    assert!(rest <= 1, "at most the frame sent before the end: {rest}");
    assert_eq!(dir.watchers(), 0);
    assert!(publisher.id().is_some(), "the game goes on");
}
