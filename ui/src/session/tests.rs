//! Session tests: the clock mapping, the countdown, pauses, wakeups and key handling.

use minotty_engine::{Button, ModeKind};

use super::*;
use crate::keys::{Key, KeyKind};

fn session(synthesize: bool) -> (GameSession, Keymap) {
    let settings = Settings::default();
    let setup = GameSetup {
        seed: Some(99),
        ..GameSetup::preset(ModeKind::Sprint, minotty_engine::RulesetId::Standard)
    };
    (
        GameSession::new(setup, 0, &settings, synthesize, 10_000),
        settings.keys,
    )
}

#[test]
fn the_countdown_counts_and_wakes_on_each_step() {
    let (mut s, keys) = session(false);
    assert_eq!(s.countdown(), Some(3));
    assert_eq!(s.next_wakeup(), Some(11_000));
    s.tick(10_999, &keys);
    assert_eq!(s.countdown(), Some(3));
    s.tick(11_000, &keys);
    assert_eq!(s.countdown(), Some(2));
    assert_eq!(s.next_wakeup(), Some(12_000));
    s.tick(12_999, &keys);
    assert_eq!((s.countdown(), s.next_wakeup()), (Some(1), Some(13_000)));
    assert_eq!(s.game_time(), 0);
    s.tick(13_250, &keys);
    assert_eq!(s.countdown(), None);
    assert_eq!(s.game_time(), 250);
    assert_eq!(s.game().now(), 250);
}

#[test]
fn game_time_leaves_out_pauses() {
    let (mut s, keys) = session(false);
    s.tick(14_000, &keys);
    s.pause(14_000, &keys);
    assert_eq!(s.next_wakeup(), None);
    s.tick(20_000, &keys);
    assert_eq!(s.game_time(), 1000);
    s.resume(20_000);
    s.tick(20_500, &keys);
    assert_eq!(s.game_time(), 1500);
    s.pause(21_000, &keys);
    s.resume(30_000);
    s.tick(30_100, &keys);
    assert_eq!((s.game_time(), s.game().now()), (2100, 2100));
}

#[test]
fn pausing_in_the_countdown_restarts_it() {
    let (mut s, keys) = session(false);
    s.pause(11_500, &keys);
    s.resume(50_000);
    assert_eq!(s.countdown(), Some(3));
    s.tick(53_000, &keys);
    assert_eq!((s.state(), s.game_time()), (RunState::Running, 0));
}

#[test]
fn wakeups_follow_the_engine_and_the_clock() {
    let (mut s, keys) = session(false);
    s.tick(13_000, &keys);
    // The clock's tenths wake the session, each once; "GO!" goes away after 600 ms, and the
    // first gravity step (1 s at level 0) comes with the clock's tenth at 0:01.0.
    assert_eq!(s.next_wakeup(), Some(13_100));
    s.tick(13_150, &keys);
    assert_eq!(s.next_wakeup(), Some(13_200));
    s.tick(13_900, &keys);
    assert_eq!(s.next_wakeup(), Some(14_000));
    s.tick(13_990, &keys);
    assert_eq!(s.next_wakeup(), Some(14_000));
    let y = s.game().active().map(|a| a.placed.y);
    s.tick(14_000, &keys);
    assert_eq!(s.game().active().map(|a| a.placed.y), y.map(|y| y + 1));
}

#[test]
fn movement_held_through_the_countdown_counts_from_time_zero() {
    let (mut s, keys) = session(false);
    let x0 = s.game().active().map(|a| a.placed.x).unwrap_or(0);
    s.key(Key::Left, KeyKind::Press, &keys, 12_000);
    s.key(Key::Char('x'), KeyKind::Press, &keys, 12_000);
    assert_eq!(
        s.game().active().map(|a| a.placed.x),
        Some(x0),
        "no move yet"
    );
    s.tick(13_000, &keys);
    assert!(s.game().is_held(Button::Left));
    assert!(
        !s.game().is_held(Button::RotateCw),
        "rotation must be pressed again"
    );
    s.tick(13_149, &keys);
    assert_eq!(s.game().active().map(|a| a.placed.x), Some(x0 - 1));
    s.tick(13_150, &keys);
    assert_eq!(
        s.game().active().map(|a| a.placed.x),
        Some(x0 - 2),
        "DAS from time 0"
    );
}

#[test]
fn two_keys_of_one_button_release_it_together() {
    let (mut s, keys) = session(false);
    s.tick(13_000, &keys);
    s.key(Key::Char('z'), KeyKind::Press, &keys, 13_010);
    s.key(Key::Char('a'), KeyKind::Press, &keys, 13_020);
    s.key(Key::Char('z'), KeyKind::Release, &keys, 13_030);
    assert!(s.game().is_held(Button::RotateCcw));
    s.key(Key::Char('a'), KeyKind::Release, &keys, 13_040);
    assert!(!s.game().is_held(Button::RotateCcw));
}

#[test]
fn a_forfeit_ends_the_game_and_the_results_follow() {
    let (mut s, keys) = session(true);
    s.tick(13_000, &keys);
    s.forfeit(13_500, &keys);
    assert!(s.is_over());
    assert_eq!(s.next_wakeup(), Some(13_500 + OVER_MS));
    s.tick(13_500 + OVER_MS - 1, &keys);
    assert!(!s.results_due());
    s.tick(13_500 + OVER_MS, &keys);
    assert!(s.results_due());
    assert_eq!(s.next_wakeup(), None);
}

fn versus(countdown_ms: u64) -> (GameSession, Keymap) {
    let settings = Settings::default();
    let mode = minotty_engine::Mode::custom(1, false, None);
    (
        GameSession::new_versus(
            mode,
            &Default::default(),
            5,
            &settings,
            false,
            10_000,
            countdown_ms,
        ),
        settings.keys,
    )
}

#[test]
fn a_versus_clock_never_pauses() {
    let (mut s, keys) = versus(2000);
    assert!(s.is_versus());
    assert_eq!(s.countdown(), Some(2));
    s.tick(12_000, &keys);
    assert_eq!(s.state(), RunState::Running);
    s.pause(12_500, &keys);
    assert!(!s.is_paused());
    s.tick(14_000, &keys);
    assert_eq!(s.game_time(), 2000);
    // A solo session still pauses.
    let (mut solo, keys) = session(false);
    solo.tick(14_000, &keys);
    solo.pause(14_000, &keys);
    assert!(solo.is_paused() && !solo.is_versus());
}

#[test]
fn versus_garbage_and_events_are_collected() {
    let (mut s, keys) = versus(1000);
    // Early garbage waits for the start, then queues at game time 0.
    s.garbage(3, 10_500, &keys);
    assert_eq!(s.game().garbage().pending(), (0, 0));
    s.tick(11_000, &keys);
    assert_eq!(s.game().garbage().pending(), (0, 3));
    // (The first piece spawned when the session was made, before anything was collected.)
    let (events, _) = s.take_versus_events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e.kind, EventKind::GarbageQueued { lines: 3, .. }))
    );
    assert_eq!(s.take_versus_events(), (Vec::new(), false));
    s.garbage(2, 11_100, &keys);
    assert_eq!(s.game().garbage().pending(), (0, 5));
    s.key(Key::Up, KeyKind::Press, &keys, 11_700);
    let (events, _) = s.take_versus_events();
    assert!(
        events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Lock { .. }))
    );
    assert!(
        events
            .iter()
            .any(|e| matches!(e.kind, EventKind::GarbageRisen { .. }))
    );
    // Solo sessions collect nothing.
    let (mut solo, keys) = session(false);
    solo.tick(14_000, &keys);
    assert_eq!(solo.take_versus_events(), (Vec::new(), false));
}

/// A session whose first piece, hard-dropped at game time 100, clears the bottom row (the
/// next piece spawns after the 180 ms line clear delay, at 280), on a terminal without key
/// releases (every key a press; the session releases it).
fn after_a_clearing_drop() -> (GameSession, Keymap) {
    let (mut s, keys) = session(true);
    s.tick(13_100, &keys);
    let ghost = s.game().ghost().expect("a piece");
    let mut board = minotty_engine::Board::new();
    let bottom = minotty_engine::board::HEIGHT - 1;
    for x in 0..minotty_engine::board::WIDTH {
        if !ghost.cells().contains(&(x as i8, bottom as i8)) {
            board.set(x, bottom, minotty_engine::Cell::Garbage);
        }
    }
    s.game_mut().set_board(board);
    s.key(Key::Char(' '), KeyKind::Press, &keys, 13_100);
    assert_eq!(s.game().stats().lines, 1);
    assert!(s.game().active().is_none(), "in the line clear delay");
    (s, keys)
}

/// Issue 36: a tap 50 ms after a clearing drop moved nothing and a hard drop 60 ms after one
/// placed nothing; the session hands both to the engine, which now keeps them for the spawn.
#[test]
fn presses_in_the_line_clear_delay_reach_the_next_piece() {
    let (mut s, keys) = after_a_clearing_drop();
    s.key(Key::Left, KeyKind::Press, &keys, 13_150);
    s.tick(13_280, &keys);
    let x = s.game().active().map(|a| a.placed.x);
    assert_eq!(
        x,
        Some(minotty_engine::game::SPAWN_X - 1),
        "one move at spawn"
    );
    // The session's release came before DAS ran out: no second move.
    s.tick(13_500, &keys);
    assert_eq!(s.game().active().map(|a| a.placed.x), x);

    let (mut s, keys) = after_a_clearing_drop();
    s.key(Key::Char(' '), KeyKind::Press, &keys, 13_160);
    s.tick(13_280, &keys);
    assert_eq!(s.game().stats().pieces, 2, "dropped at spawn");

    let (mut s, keys) = after_a_clearing_drop();
    s.key(Key::Char('x'), KeyKind::Press, &keys, 13_150);
    s.tick(13_280, &keys);
    let a = s.game().active().expect("a piece");
    assert_eq!(
        a.placed.rotation,
        minotty_engine::Rotation::East,
        "turned at spawn"
    );
}
