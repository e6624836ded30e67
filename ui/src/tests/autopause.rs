//! A solo game pauses itself when the terminal is too small to show it and when no key
//! arrives for the idle threshold; such a pause counts like the player's own (it is in the
//! replay, so a timed game is no longer ranked). A versus match never pauses.

use minotty_engine::{Game, ModeKind};

use super::*;
use crate::testutil::lines;

fn text(a: &App, w: u16, h: u16) -> String {
    lines(&draw(a, w, h)).join("\n")
}

#[test]
fn a_too_small_terminal_stops_the_clock_and_shows_the_pause_menu_once_big_again() {
    let (mut a, now) = playing(ModeKind::Sprint);
    a.set_size(80, 24, now);
    a.tick(now + 500);
    assert_eq!(game_ms(&a), 500);

    a.set_size(50, 20, now + 600);
    assert!(text(&a, 50, 20).contains("enlarge"));
    assert!(a.game_paused());
    assert!(a.game().is_some_and(Game::paused));
    assert_eq!(
        pauses(&a),
        1,
        "recorded like a pause: the 40 lines game is unranked"
    );
    for t in [1_000, 5_000, 60_000] {
        a.tick(now + t);
        assert_eq!(game_ms(&a), 600, "the clock stands still at +{t}");
    }
    assert_eq!(a.next_wakeup(), None, "no wakeups while paused");
    // A key pressed blind does not resume a game the player cannot see.
    press(&mut a, Key::Esc, now + 61_000);
    press(&mut a, Key::Enter, now + 61_100);
    a.tick(now + 62_000);
    assert!(a.game_paused());
    assert_eq!(game_ms(&a), 600);

    // Big enough again: the pause menu, not the game running on.
    a.set_size(80, 24, now + 63_000);
    assert!(a.take_dirty());
    let s = screen(&a);
    assert!(s.contains("PAUSED") && s.contains("Not ranked"), "{s}");
    a.tick(now + 70_000);
    assert_eq!(game_ms(&a), 600);
    // The player resumes, and the clock runs from where it stopped.
    press(&mut a, Key::Esc, now + 71_000);
    assert!(!a.game_paused());
    a.tick(now + 72_000);
    assert_eq!(game_ms(&a), 1_600);
    assert_eq!(pauses(&a), 1);
}

#[test]
fn shrinking_while_resized_within_limits_or_outside_a_game_pauses_nothing() {
    let mut a = app();
    a.set_size(40, 10, 0);
    a.set_size(100, 40, 10);
    assert!(!a.in_game());
    let (mut g, now) = playing(ModeKind::Marathon);
    g.set_size(60, 24, now);
    g.tick(now + 1_000);
    assert!(!g.game_paused());
    assert_eq!(game_ms(&g), 1_000);
    // One column short is too small.
    g.set_size(59, 24, now + 1_100);
    assert!(g.game_paused());
}

#[test]
fn a_game_started_in_a_too_small_terminal_waits_paused_in_its_countdown() {
    let mut a = app();
    a.set_size(50, 20, 0);
    a.play(ModeKind::Sprint, 100);
    a.tick(100);
    assert!(a.game_paused());
    a.tick(10_000);
    assert_eq!(game_ms(&a), 0);
    assert_eq!(pauses(&a), 0, "a pause in the countdown costs nothing");
    a.set_size(80, 24, 11_000);
    press(&mut a, Key::Esc, 11_100);
    assert!(!a.game_paused());
    a.tick(11_100 + COUNTDOWN_MS + 500);
    assert_eq!(game_ms(&a), 500);
}

fn idle_app(limit: u64) -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        idle_pause_ms: Some(limit),
        ..AppContext::default()
    })
}

#[test]
fn a_game_without_keys_for_the_idle_threshold_pauses_itself() {
    let mut a = idle_app(10_000);
    a.play(ModeKind::Marathon, 0);
    a.tick(COUNTDOWN_MS);
    // The deadline counts from the game's start, then from the last key.
    assert!(a.next_wakeup().is_some_and(|w| w <= 10_000));
    a.tick(6_000);
    tap(&mut a, Key::Left, 6_000);
    a.tick(15_999);
    assert!(!a.game_paused(), "a key 10 s ago is not idle yet");
    let wakes = wakeups(&mut a, 16_000);
    assert_eq!(
        wakes.last(),
        Some(&16_000),
        "woken at the deadline: {wakes:?}"
    );
    assert!(a.game_paused());
    assert_eq!(game_ms(&a), 16_000 - COUNTDOWN_MS);
    assert!(screen(&a).contains("PAUSED"));
    assert_eq!(pauses(&a), 1);
    a.tick(100_000);
    assert_eq!(game_ms(&a), 16_000 - COUNTDOWN_MS);
    // The player comes back and resumes.
    press(&mut a, Key::Esc, 100_000);
    assert!(!a.game_paused());
    a.tick(101_000);
    assert_eq!(game_ms(&a), 17_000 - COUNTDOWN_MS);
}

#[test]
fn without_an_idle_threshold_a_game_never_pauses_itself() {
    let (mut a, now) = playing(ModeKind::Marathon);
    assert!(a.next_wakeup().is_some());
    a.tick(now + 20_000);
    assert!(!a.game_paused());
    assert_eq!(pauses(&a), 0);
}
