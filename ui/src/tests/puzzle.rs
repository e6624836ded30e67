//! Puzzle mode in the App: the stage selector on the mode select, the game screen's stage box
//! and the stage's pieces as the preview, a stage cleared with keys (movegen's taps for the
//! stored solution), retries, the results, and the progress requests.

use minotty_bots::path_to;
use minotty_engine::puzzle::{self, STAGE_COUNT};
use minotty_engine::{Button, Mode, ModeKind, RulesetId};

use super::*;
use crate::{Request, Response};

/// An App whose keymap also has keys for sonic drop and the half turn (not bound by default),
/// which movegen's paths use under tetrs.
fn app_with_all_buttons() -> App {
    let mut a = app();
    let mut settings = a.settings().clone();
    settings.keys.bind(Button::SonicDrop, Key::Char('v'));
    settings.keys.bind(Button::Rotate180, Key::Char('s'));
    a.set_settings(settings);
    a
}

fn on_puzzle() -> App {
    let mut a = app_with_all_buttons();
    press(&mut a, Key::Enter, 0);
    let at = ModeKind::ALL
        .iter()
        .position(|&k| k == ModeKind::Puzzle)
        .unwrap();
    for _ in 0..at {
        press(&mut a, Key::Down, 0);
    }
    a
}

fn row_with(buf: &Buffer, text: &str) -> Option<String> {
    lines(buf).into_iter().find(|r| r.contains(text))
}

/// The player's key for `button` (the default bindings).
fn key_for(a: &App, button: Button) -> Key {
    a.settings().keys.keys(button).next().expect("a key")
}

/// Taps the player's key for `button` at `now`.
fn tap_button(a: &mut App, button: Button, now: u64) {
    let key = key_for(a, button);
    tap(a, key, now);
}

/// Plays the solution of the stage on screen with the player's keys, each tapped at `now`,
/// then lets the App run until the next piece (or stage) is in play. Returns the new time.
fn play_stage(a: &mut App, mut now: u64) -> u64 {
    let stage = a
        .game()
        .and_then(|g| g.puzzle_state())
        .expect("puzzle")
        .stage;
    for placed in puzzle::stage(stage).solution().expect("solution") {
        let path = path_to(a.game().expect("game"), placed).expect("a path");
        for b in path {
            tap_button(a, b, now);
        }
        now += 400;
        a.tick(now);
    }
    now
}

#[test]
fn the_mode_select_offers_the_stages_reached_at_both_sizes() {
    let mut a = on_puzzle();
    assert_eq!(a.take_requests(), [Request::PuzzleProgress]);
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let row = row_with(&buf, "Start at stage").expect("selector");
        assert!(row.contains("< 1 >"), "{w}x{h}: {row}");
        assert!(row_with(&buf, "First Drop").is_some(), "{w}x{h}");
        assert!(
            row_with(&buf, "Cleared 0 of 24 stages").is_some(),
            "{w}x{h}"
        );
        assert!(row_with(&buf, "Left/Right stage").is_some(), "{w}x{h}");
        assert!(
            row_with(&buf, "Ruleset: tetrs (Ocular)").is_some(),
            "{w}x{h}"
        );
    }
    // Nothing cleared: stage 1 is the only one.
    press(&mut a, Key::Right, 0);
    assert!(
        row_with(&draw(&a, 80, 24), "Start at stage")
            .unwrap()
            .contains("< 1 >")
    );

    a.deliver(
        Response::PuzzleProgress {
            cleared: 4,
            completed: false,
        },
        0,
    );
    assert_eq!(a.puzzle_cleared(), 4);
    assert!(!a.puzzle_completed());
    let buf = draw(&a, 80, 24);
    assert!(row_with(&buf, "Start at stage").unwrap().contains("< 5 >"));
    assert!(row_with(&buf, "Cleared 4 of 24 stages").is_some());
    press(&mut a, Key::Right, 0);
    assert!(
        row_with(&draw(&a, 80, 24), "Start at stage")
            .unwrap()
            .contains("< 5 >")
    );
    press(&mut a, Key::Left, 0);
    press(&mut a, Key::Left, 0);
    let buf = draw(&a, 200, 60);
    assert!(row_with(&buf, "Start at stage").unwrap().contains("< 3 >"));
    assert!(row_with(&buf, puzzle::stage(3).name).is_some());
    press(&mut a, Key::Enter, 0);
    let game = a.game().expect("a puzzle game");
    assert_eq!(*game.mode(), Mode::puzzle(3));
    assert_eq!(game.config().ruleset, RulesetId::Tetrs);
    // The progress is asked once per App.
    press(&mut a, Key::Esc, 10);
    assert!(!a.take_requests().contains(&Request::PuzzleProgress));
}

#[test]
fn the_game_screen_shows_stage_attempt_and_the_stages_pieces_without_hold() {
    let mut a = app_with_all_buttons();
    a.play(ModeKind::Puzzle, 0);
    a.tick(COUNTDOWN_MS);
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let s = lines(&buf).join("\n");
        assert!(s.contains("STAGE 1/24"), "{w}x{h}\n{s}");
        assert!(s.contains("First Drop"), "{w}x{h}\n{s}");
        assert!(s.contains("attempt 1/5"), "{w}x{h}\n{s}");
        assert!(s.contains("Puzzle · tetrs"), "{w}x{h}\n{s}");
        assert!(!s.contains("HOLD"), "{w}x{h}\n{s}");
        // Stage 1 has one piece: nothing comes next.
        assert!(!s.contains("NEXT"), "{w}x{h}\n{s}");
        assert!(row_with(&buf, "PIECES LEFT").unwrap().contains('1'));
    }
    // Stage 1 played with keys: stage 2 is set up, its second piece in the preview.
    let now = play_stage(&mut a, COUNTDOWN_MS + 10);
    assert_eq!(
        a.game().and_then(|g| g.puzzle_state()).map(|p| p.stage),
        Some(2)
    );
    assert_eq!(a.take_requests(), [Request::PuzzleCleared { stage: 1 }]);
    assert_eq!(a.puzzle_cleared(), 1);
    for (w, h) in [(80, 24), (200, 60)] {
        let s = lines(&draw(&a, w, h)).join("\n");
        assert!(s.contains("STAGE 2/24"), "{w}x{h}\n{s}");
        assert!(s.contains(puzzle::stage(2).name), "{w}x{h}\n{s}");
        assert!(s.contains("NEXT"), "{w}x{h}\n{s}");
        assert!(
            s.contains("STAGE 2\n") || s.contains("STAGE 2 "),
            "{w}x{h}\n{s}"
        );
    }
    // A wrong drop: the stage comes back for attempt 2.
    let pieces = puzzle::stage(2).pieces().count();
    let mut t = now;
    for _ in 0..pieces {
        tap_button(&mut a, Button::HardDrop, t);
        t += 400;
        a.tick(t);
    }
    let s = screen(&a);
    assert!(s.contains("attempt 2/5"), "{s}");
    assert!(s.contains("ATTEMPT 2/5"), "the note of a retry\n{s}");
    assert!(a.take_requests().is_empty());
}

#[test]
fn five_failed_attempts_end_the_game_and_the_results_name_the_stage() {
    let mut a = app();
    a.play(ModeKind::Puzzle, 0);
    let mut t = COUNTDOWN_MS;
    a.tick(t);
    // Stage 1 has one piece: a drop anywhere else fails it.
    for _ in 0..5 {
        tap_button(&mut a, Button::Left, t);
        tap_button(&mut a, Button::HardDrop, t);
        t += 400;
        a.tick(t);
    }
    let game = a.game().expect("game");
    assert!(game.is_over());
    assert!(screen(&a).contains("OUT OF ATTEMPTS"));
    press(&mut a, Key::Enter, t);
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let s = lines(&buf).join("\n");
        assert!(s.contains("Out of attempts at stage 1"), "{w}x{h}\n{s}");
        let row = row_with(&buf, "Stage reached").expect("stage row");
        assert!(row.contains("1: First Drop"), "{row}");
        let row = row_with(&buf, "Stages cleared").expect("cleared row");
        assert!(row.contains("0 (from stage 1)"), "{row}");
    }
    assert_eq!(a.puzzle_cleared(), 0);
}

#[test]
fn completed_progress_unlocks_and_tiny_terminals_do_not_panic() {
    let mut a = on_puzzle();
    a.deliver(
        Response::PuzzleProgress {
            cleared: 0,
            completed: true,
        },
        0,
    );
    assert!(a.puzzle_completed());
    assert_eq!(a.puzzle_cleared(), STAGE_COUNT);
    let buf = draw(&a, 80, 24);
    assert!(row_with(&buf, "Start at stage").unwrap().contains("< 24 >"));
    assert!(row_with(&buf, "Grand Finale").is_some());
    press(&mut a, Key::Enter, 0);
    a.tick(COUNTDOWN_MS);
    for (w, h) in [(1, 1), (10, 5), (40, 12), (79, 23)] {
        draw(&a, w, h);
    }
    // Progress never shrinks.
    a.deliver(
        Response::PuzzleProgress {
            cleared: 3,
            completed: false,
        },
        0,
    );
    assert!(a.puzzle_completed());
}

#[test]
fn signing_in_hands_the_sessions_progress_to_the_account() {
    let mut a = on_puzzle();
    assert_eq!(a.take_requests(), [Request::PuzzleProgress]);
    // Offline or a guest: nothing stored, the App keeps what it saw.
    a.deliver(Response::Offline, 0);
    a.play(ModeKind::Puzzle, 0);
    a.tick(COUNTDOWN_MS);
    play_stage(&mut a, COUNTDOWN_MS + 10);
    assert_eq!(a.take_requests(), [Request::PuzzleCleared { stage: 1 }]);
    a.deliver(
        Response::SignedIn {
            name: "ada".into(),
            has_password: false,
            settings: None,
        },
        5000,
    );
    assert_eq!(
        a.take_requests(),
        [Request::PuzzleCleared { stage: 1 }, Request::PuzzleProgress]
    );
}
