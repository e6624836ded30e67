//! A solo game parked when a connection dropped and resumed by a later App of the same player
//! is the same game: the time away is one pause, and the end, stats and replay are those of a
//! game the player paused themselves for as long.

use minotty_engine::{Input, ModeKind};

use super::*;
use crate::testutil::lines;

/// The keys of the script, one every 150 ms: moves, rotations and hard drops (Up).
const SCRIPT: [Key; 11] = [
    Key::Left,
    Key::Up,
    Key::Right,
    Key::Right,
    Key::Up,
    Key::Char('x'),
    Key::Up,
    Key::Left,
    Key::Left,
    Key::Char('z'),
    Key::Up,
];
const STEP: u64 = 150;

fn script_key(i: usize) -> Key {
    SCRIPT[i % SCRIPT.len()]
}

/// Plays keys `from..to` of the script, the first at `t0`; returns the time after the last.
fn play_keys(a: &mut App, from: usize, to: usize, t0: u64) -> u64 {
    let mut t = t0;
    for i in from..to {
        a.tick(t);
        if !a.in_game() {
            break;
        }
        tap(a, script_key(i), t);
        t += STEP;
    }
    t
}

fn text(a: &App, w: u16, h: u16) -> String {
    lines(&draw(a, w, h)).join("\n")
}

/// The reconnecting App: a fresh App whose clock starts at 0, as a new session's does.
fn new_app() -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 99,
        ..AppContext::default()
    })
}

#[test]
fn a_parked_and_resumed_game_is_the_game_paused_as_long() {
    const DROP_AT: usize = 23;
    let (mut dropped, now) = playing(ModeKind::Marathon);
    let (mut paused, _) = playing(ModeKind::Marathon);
    let t = play_keys(&mut dropped, 0, DROP_AT, now + 100);
    assert_eq!(play_keys(&mut paused, 0, DROP_AT, now + 100), t);
    // The connection drops: the game leaves the App, paused.
    let parked = dropped.park_game(t).expect("a running solo game parks");
    let before = (*parked.game().stats(), parked.game().now());
    assert!(before.0.pieces >= 5, "{before:?}");
    assert!(dropped.game().is_none() && !dropped.in_game());
    assert!(dropped.take_finished_game().is_none(), "not finished");
    assert!(dropped.park_game(t).is_none(), "parked once");
    assert_eq!(parked.kind(), ModeKind::Marathon);
    assert!(parked.game().paused());
    // The other player pauses at the same moment.
    press(&mut paused, Key::Esc, t);
    assert!(paused.game_paused());

    // 45 s later the same player connects again; the new App's clock starts at 0.
    let mut back = new_app();
    back.tick(400);
    back.offer_parked(parked, 45_000, 400);
    assert!(back.parked_offered());
    let s = text(&back, 80, 24);
    assert!(
        s.contains("Your Marathon game from 0:45 ago is waiting"),
        "{s}"
    );
    assert!(
        s.contains("Enter resume") && s.contains("Esc discard"),
        "{s}"
    );
    let stats = format!("score {}, {} lines", before.0.score, before.0.lines);
    assert!(s.contains(&stats), "{s}");
    // The clock of the offer moves on by the second.
    assert_eq!(back.next_wakeup(), Some(1_400));
    back.tick(1_400);
    assert!(back.take_dirty());
    assert!(text(&back, 80, 24).contains("from 0:46 ago"));
    // Other keys wait for an answer.
    tap(&mut back, Key::Down, 1_500);
    tap(&mut back, Key::Char('q'), 1_500);
    assert!(back.parked_offered() && !back.in_game());

    // Enter: the game is back, paused, the pause menu open; its clock has not moved.
    assert_eq!(back.resumed_game(), None, "not answered yet");
    press(&mut back, Key::Enter, 2_000);
    assert!(!back.parked_offered());
    // The front end is told which game is the resumed one (its watchers stay on it).
    let live = back.live_game().map(|(no, _)| no);
    assert!(live.is_some());
    assert_eq!(back.resumed_game(), live);
    assert!(back.game_paused());
    let s = screen(&back);
    assert!(s.contains("PAUSED"), "{s}");
    assert_eq!(back.game().map(|g| (*g.stats(), g.now())), Some(before));
    back.tick(30_000);
    assert_eq!(back.game().map(|g| g.now()), Some(before.1));

    // Both resume (Enter on "Resume") and play the rest of the script to the end.
    press(&mut back, Key::Enter, 30_000);
    press(&mut paused, Key::Enter, t + 10_000);
    assert!(!back.game_paused() && !paused.game_paused());
    let end_back = play_keys(&mut back, DROP_AT, 2_000, 30_000 + STEP);
    let end_paused = play_keys(&mut paused, DROP_AT, 2_000, t + 10_000 + STEP);
    wakeups(&mut back, end_back + 5_000);
    wakeups(&mut paused, end_paused + 5_000);

    let a = back.take_finished_game().expect("the resumed game ended");
    let b = paused.take_finished_game().expect("the paused game ended");
    assert_eq!(a.stats, b.stats);
    assert_eq!((a.reason, a.won), (b.reason, b.won));
    assert_eq!(a.replay.to_bytes(), b.replay.to_bytes(), "the same replay");
    let pauses: Vec<_> = a
        .replay
        .inputs
        .iter()
        .filter(|(_, i)| *i == Input::Pause)
        .collect();
    assert_eq!(pauses.len(), 1, "the time away is one pause");
    assert_eq!(pauses[0].0, before.1);
    let verified = a.replay.verify().expect("the replay plays");
    assert_eq!(verified.stats, a.stats);
    assert!(a.stats.pieces > before.0.pieces);
}

#[test]
fn esc_discards_the_parked_game() {
    let (mut a, now) = playing(ModeKind::Sprint);
    play_keys(&mut a, 0, 6, now + 100);
    let parked = a.park_game(now + 1_000).expect("parks");
    let mut back = new_app();
    back.offer_parked(parked, 1_000, 0);
    assert!(text(&back, 80, 24).contains("Your 40 Lines game from 0:01 ago"));
    press(&mut back, Key::Esc, 500);
    assert!(!back.parked_offered());
    assert_eq!(back.resumed_game(), None, "discarded: nothing resumed");
    assert!(back.game().is_none() && !back.in_game());
    assert!(back.take_finished_game().is_none(), "discarded, not stored");
    let s = screen(&back);
    assert!(!s.contains("GAME WAITING"), "{s}");
    assert_eq!(back.park_game(600).map(|p| p.kind()), None);
}

#[test]
fn only_a_solo_game_in_progress_parks() {
    let mut a = app();
    assert!(a.park_game(0).is_none(), "no game");
    let (mut over, now) = playing(ModeKind::Marathon);
    let end = play_keys(&mut over, 0, 2_000, now + 100);
    wakeups(&mut over, end + 5_000);
    assert!(over.take_finished_game().is_some());
    assert!(over.park_game(end + 5_000).is_none(), "a game that is over");

    // A game paused by the player parks as it is (one pause in its replay).
    let (mut p, now) = playing(ModeKind::Marathon);
    play_keys(&mut p, 0, 4, now + 100);
    press(&mut p, Key::Esc, now + 1_000);
    let parked = p.park_game(now + 2_000).expect("a paused game parks");
    let pauses = parked
        .game()
        .inputs()
        .iter()
        .filter(|(_, i)| *i == Input::Pause)
        .count();
    assert_eq!(pauses, 1);
}

#[test]
fn a_game_parked_in_its_countdown_counts_down_again() {
    let mut a = app();
    a.play(ModeKind::Marathon, 0);
    a.tick(1_200);
    let parked = a.park_game(1_200).expect("counting down parks");
    let mut back = new_app();
    back.offer_parked(parked, 5_000, 100);
    press(&mut back, Key::Enter, 200);
    assert!(back.game_paused());
    press(&mut back, Key::Enter, 300);
    back.tick(300 + 2_999);
    assert_eq!(back.game().map(|g| g.now()), Some(0), "still counting down");
    back.tick(300 + 3_000 + 700);
    assert_eq!(back.game().map(|g| g.now()), Some(700));
}

#[test]
fn a_newer_connection_dropping_while_offered_parks_the_offer_again() {
    let (mut a, now) = playing(ModeKind::Marathon);
    play_keys(&mut a, 0, 5, now + 100);
    let parked = a.park_game(now + 1_000).expect("parks");
    let stats = Some(*parked.game().stats());
    let mut back = new_app();
    back.offer_parked(parked, 2_000, 0);
    let again = back.park_game(100).expect("the offer parks again");
    assert_eq!(Some(*again.game().stats()), stats);
    assert!(!back.parked_offered());
}

#[test]
fn the_offer_draws_at_every_size() {
    let (mut a, now) = playing(ModeKind::Marathon);
    play_keys(&mut a, 0, 5, now + 100);
    let mut back = new_app();
    back.offer_parked(a.park_game(now + 1_000).expect("parks"), 59_000, 0);
    let big = text(&back, 200, 60);
    assert!(
        big.contains("Your Marathon game from 0:59 ago is waiting"),
        "{big}"
    );
    for (w, h) in [(60, 24), (1, 1), (10, 3), (59, 23), (300, 100)] {
        let _ = draw(&back, w, h);
    }
}

#[test]
fn a_lobby_seat_kept_for_a_dropped_player_shows_reconnecting() {
    use crate::Response;
    use minotty_engine::versus::MatchKind;
    use minotty_protocol::{RoomLimit, RoomSettings, RoomState, RoomView, SeatView};
    let seat = |name: &str, connected: bool| SeatView {
        team: None,
        name: name.into(),
        ready: false,
        host: name == "ada",
        connected,
        rating: None,
        bot: None,
    };
    let view = |state: RoomState| RoomView {
        code: "K7PQ3M".into(),
        options: RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None),
        seats: vec![seat("ada", true), seat("bob", false)],
        spectators: 0,
        you: Some(0),
        host: true,
        state,
        ranked: false,
        listed: false,
        tbp_bots: Vec::new(),
    };
    let mut a = app();
    a.deliver(Response::Room(view(RoomState::Lobby)), 0);
    for (w, h) in [(80, 24), (200, 60)] {
        let s = text(&a, w, h);
        let bob = s.lines().find(|l| l.contains("bob")).unwrap_or_default();
        assert!(bob.contains("reconnecting..."), "{s}");
        let ada = s
            .lines()
            .find(|l| l.contains("ada  ") || l.contains("host"))
            .unwrap_or_default();
        assert!(!ada.contains("reconnecting"), "{s}");
    }
    a.deliver(Response::Room(view(RoomState::Results)), 10);
    assert!(screen(&a).contains("reconnecting..."));
}
