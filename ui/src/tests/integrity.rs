//! Game integrity as a player meets it: a pause in a timed mode is asked for first and makes
//! the game unranked (recorded in its replay), a flood of keys ends the game at the input
//! limit with a clear message, and the replay viewer refuses a replay over that limit.

use minotty_engine::{Button, EndReason, Game, GameConfig, Input, MAX_INPUTS, Mode, ModeKind};

use super::*;
use crate::screens::account_replay::ReplayScreen;

#[test]
fn in_40_lines_esc_asks_before_a_pause_and_the_game_runs_on_meanwhile() {
    let (mut a, now) = playing(ModeKind::Sprint);
    press(&mut a, Key::Esc, now + 100);
    let s = screen(&a);
    for part in [
        "PAUSE?",
        "Pausing ends",
        "ranking for this",
        "y pause  n play",
    ] {
        assert!(s.contains(part), "{part} missing:\n{s}");
    }
    assert!(!s.contains("PAUSED"), "{s}");
    // The clock runs behind the question, and game keys still play.
    a.tick(now + 1_100);
    assert_eq!(game_ms(&a), 1_100);
    let x0 = piece_x(&a);
    tap(&mut a, Key::Left, now + 1_150);
    assert_eq!(piece_x(&a), x0 - 1);
    // No: the question closes, nothing is recorded.
    press(&mut a, Key::Char('n'), now + 1_200);
    assert!(!screen(&a).contains("PAUSE?"));
    assert_eq!(pauses(&a), 0);

    // Yes: the game pauses, the pause is in the replay, and the menu says what it cost.
    press(&mut a, Key::Esc, now + 1_300);
    press(&mut a, Key::Char('y'), now + 1_400);
    let s = screen(&a);
    assert!(s.contains("PAUSED") && s.contains("Not ranked"), "{s}");
    assert_eq!(pauses(&a), 1);
    assert!(a.game().is_some_and(Game::paused));
    a.tick(now + 60_000);
    assert_eq!(game_ms(&a), 1_400, "the clock stands still");

    // Once unranked, a later Esc pauses at once.
    press(&mut a, Key::Esc, now + 61_000); // resume
    press(&mut a, Key::Esc, now + 62_000);
    assert!(screen(&a).contains("PAUSED"), "{}", screen(&a));
    assert_eq!(pauses(&a), 2);
}

#[test]
fn a_held_esc_opens_the_question_once_and_does_not_answer_it() {
    let (mut a, now) = playing(ModeKind::Ultra);
    a.set_release_events(false);
    for i in 0..20 {
        press(&mut a, Key::Esc, now + 10 + i * 33);
    }
    let s = screen(&a);
    assert!(s.contains("PAUSE?") && !s.contains("PAUSED"), "{s}");
    assert_eq!(pauses(&a), 0);
}

#[test]
fn untimed_modes_pause_at_once_and_stay_ranked() {
    let (mut a, now) = playing(ModeKind::Marathon);
    press(&mut a, Key::Esc, now + 100);
    let s = screen(&a);
    assert!(s.contains("PAUSED") && !s.contains("Not ranked"), "{s}");
    // The pause is recorded all the same; the store ignores it outside timed modes.
    assert_eq!(pauses(&a), 1);
}

#[test]
fn a_pause_during_the_countdown_is_free() {
    let mut a = app();
    a.play(ModeKind::Sprint, 0);
    press(&mut a, Key::Esc, 500);
    assert!(screen(&a).contains("PAUSED"), "{}", screen(&a));
    assert!(!screen(&a).contains("Not ranked"));
    assert_eq!(pauses(&a), 0);
}

#[test]
fn ctrl_c_in_40_lines_asks_to_quit_without_pausing() {
    let (mut a, now) = playing(ModeKind::Sprint);
    a.handle_key(ctrl('c'), now + 10);
    assert!(screen(&a).contains("Quit minotty?"));
    assert!(a.next_wakeup().is_some(), "the game runs behind the dialog");
    press(&mut a, Key::Char('n'), now + 20);
    assert!(!screen(&a).contains("PAUSED"));
    assert_eq!(pauses(&a), 0);
}

#[test]
fn a_paused_ultra_game_says_not_ranked_on_its_results() {
    let (mut a, now) = playing(ModeKind::Ultra);
    press(&mut a, Key::Esc, now + 100);
    press(&mut a, Key::Char('y'), now + 100);
    press(&mut a, Key::Esc, now + 5_000); // resume
    let end = now + 5_000 - 100 + 180_000;
    wakeups(&mut a, end + 5_000);
    press(&mut a, Key::Enter, end + 5_000); // the final board waits for Enter
    let s = screen(&a);
    assert!(s.contains("RESULTS: Ultra"), "{s}");
    assert!(s.contains("Paused: not ranked"), "{s}");
    let finished = a.take_finished_game().expect("finished");
    assert!(
        finished
            .replay
            .inputs
            .iter()
            .any(|(_, i)| *i == Input::Pause)
    );
}

/// `n` with a comma every three digits, as the results write it.
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn a_key_flood_ends_the_game_at_the_input_limit_and_says_why() {
    let (mut a, now) = playing(ModeKind::Sprint);
    // Taps with real releases, all in one millisecond: two inputs each.
    for _ in 0..MAX_INPUTS / 2 + 10 {
        tap(&mut a, Key::Left, now + 10);
    }
    let game = a.game().expect("a game");
    assert_eq!(game.outcome(), Some((EndReason::InputLimit, false)));
    assert_eq!(game.inputs().len(), MAX_INPUTS);
    assert!(screen(&a).contains("TOO MANY KEYS"), "{}", screen(&a));
    let finished = a.take_finished_game().expect("finished");
    assert_eq!(finished.reason, EndReason::InputLimit);
    wakeups(&mut a, now + 10_000);
    press(&mut a, Key::Enter, now + 10_000); // the final board waits for Enter
    let s = screen(&a);
    let line = format!("Ended at {} inputs: not ranked", grouped(MAX_INPUTS));
    assert!(s.contains(&line), "{line} missing:\n{s}");
}

#[test]
fn the_replay_viewer_refuses_a_replay_over_the_input_limit() {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::sprint(),
            ..GameConfig::default()
        },
        3,
    );
    game.update(0, None);
    let mut replay = game.replay();
    replay.inputs = (0..=MAX_INPUTS as u64)
        .map(|t| (t, Input::Press(Button::Left)))
        .collect();
    let err = ReplayScreen::new(replay, "bob".into(), 1, 0).expect_err("refused");
    assert!(err.to_string().contains("more than the limit"), "{err}");
}
