//! One key, R, retries 40 lines, ultra, cheese and combo at once: from play, the pause menu,
//! the final board and the results; the new game's clock runs from the key, no countdown.

use minotty_engine::{Button, ModeKind};

use super::{playing, press, screen, tap};
use crate::keys::Key;
use crate::settings::Settings;

/// A fresh game, running: no piece locked, no countdown showing, its clock at `ms`.
fn assert_fresh_at(a: &crate::App, ms: u64) {
    let g = a.game().expect("a game");
    assert_eq!(g.stats().pieces, 0, "a fresh game");
    assert_eq!(g.now(), ms, "its clock runs from the key");
    assert!(a.in_game());
}

#[test]
fn r_retries_40_lines_at_once_from_play() {
    let (mut a, now) = playing(ModeKind::Sprint);
    tap(&mut a, Key::Up, now + 100);
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(1));
    press(&mut a, Key::Char('r'), now + 300);
    a.tick(now + 800);
    assert_fresh_at(&a, 500);
    assert!(!screen(&a).contains("Esc resumes"));
    let rows = crate::testutil::lines(&super::draw(&a, 80, 24));
    let footer = rows.iter().find(|r| r.contains("Esc pause"));
    assert_eq!(
        footer.map(String::as_str).unwrap_or_default(),
        "              R retry   Esc pause   Ctrl+S snapshot   Ctrl+C quit               ",
        "the footer tells of R"
    );
    // The new game takes keys at once.
    tap(&mut a, Key::Up, now + 900);
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(1));
}

#[test]
fn r_retries_from_the_pause_menu_and_the_results() {
    for kind in [ModeKind::Sprint, ModeKind::Ultra, ModeKind::Cheese] {
        let (mut a, now) = playing(kind);
        tap(&mut a, Key::Up, now + 100);
        press(&mut a, Key::Esc, now + 200);
        press(&mut a, Key::Char('y'), now + 200); // timed modes ask before pausing
        assert!(a.game_paused(), "{kind:?}");
        press(&mut a, Key::Char('r'), now + 5000);
        a.tick(now + 5100);
        assert_fresh_at(&a, 100);
    }
    // From the results (any mode): Ctrl+D forfeits, Enter skips to the results.
    let (mut a, now) = playing(ModeKind::Marathon);
    a.handle_key(super::ctrl('d'), now + 100);
    press(&mut a, Key::Enter, now + 200);
    assert!(screen(&a).contains("RESULTS"), "{}", screen(&a));
    press(&mut a, Key::Char('r'), now + 300);
    a.tick(now + 400);
    assert_fresh_at(&a, 100);
}

#[test]
fn r_on_the_final_board_retries() {
    let (mut a, now) = playing(ModeKind::Marathon);
    a.handle_key(super::ctrl('d'), now + 100);
    assert!(a.game().is_some_and(|g| g.outcome().is_some()));
    press(&mut a, Key::Char('r'), now + 200);
    a.tick(now + 250);
    assert_fresh_at(&a, 50);
}

#[test]
fn r_in_a_marathon_asks_from_the_pause_menu_and_does_nothing_in_play() {
    let (mut a, now) = playing(ModeKind::Marathon);
    tap(&mut a, Key::Up, now + 100);
    press(&mut a, Key::Char('r'), now + 200);
    assert_eq!(
        a.game().map(|g| g.stats().pieces),
        Some(1),
        "no retry in play"
    );
    press(&mut a, Key::Esc, now + 300);
    press(&mut a, Key::Char('r'), now + 400);
    assert!(screen(&a).contains("RESTART"), "{}", screen(&a));
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(1), "asked first");
}

#[test]
fn r_bound_to_a_button_is_that_button() {
    let mut settings = Settings::default();
    settings.keys.bind(Button::Hold, Key::Char('r'));
    let mut a = crate::App::with_settings(
        crate::AppContext {
            player_name: "ada".into(),
            seed: 7,
            ..crate::AppContext::default()
        },
        settings,
    );
    a.play(ModeKind::Sprint, 0);
    let now = crate::session::COUNTDOWN_MS;
    a.tick(now);
    tap(&mut a, Key::Char('r'), now + 100);
    let g = a.game().expect("game");
    assert!(g.hold_piece().is_some(), "R held the piece");
    assert_eq!(g.now(), 100, "the same game");
}

/// The pause dialog as drawn at 80 x 24: its 16 columns on each of its rows.
fn pause_dialog(a: &crate::App) -> Vec<String> {
    let rows = crate::testutil::lines(&super::draw(a, 80, 24));
    let Some(top) = rows.iter().position(|r| r.contains("PAUSED")) else {
        return Vec::new();
    };
    let byte = rows[top].find('┌').unwrap_or(0);
    let x = rows[top][..byte].chars().count();
    rows[top..]
        .iter()
        .map(|r| r.chars().skip(x).take(16).collect::<String>())
        .take(12)
        .collect()
}

#[test]
fn the_pause_menu_of_40_lines_tells_of_r() {
    let (mut a, now) = playing(ModeKind::Sprint);
    press(&mut a, Key::Esc, now + 200);
    press(&mut a, Key::Char('y'), now + 200);
    assert_eq!(
        pause_dialog(&a),
        [
            "┌─── PAUSED ───┐",
            "│    Resume    │",
            "│   Restart    │",
            "│   Settings   │",
            "│     Help     │",
            "│   Forfeit    │",
            "│  Main menu   │",
            "│              │",
            "│ Esc resumes  │",
            "│  R retries   │",
            "│  Not ranked  │",
            "└──────────────┘",
        ]
    );
}

/// A finished game's final board waits for Enter ("FINISHED! Enter: results" never moves on
/// by itself), and the Enter that opened the results, pressed again at once, held or
/// repeated, does not confirm their first entry, Retry; a later Enter does.
#[test]
fn the_final_board_waits_for_enter_and_a_late_enter_does_not_retry() {
    let (mut a, now) = playing(ModeKind::Sprint);
    tap(&mut a, Key::Up, now + 100);
    a.handle_key(super::ctrl('d'), now + 200);
    super::wakeups(&mut a, now + 60_000);
    assert_eq!(a.next_wakeup(), None, "nothing is due on the final board");
    let s = screen(&a);
    assert!(
        s.contains("Enter: results") && !s.contains("RESULTS"),
        "{s}"
    );
    press(&mut a, Key::Enter, now + 60_000);
    assert!(screen(&a).contains("RESULTS"), "{}", screen(&a));
    // The same Enter again (a double press, a key repeat without release events).
    for dt in [30, 120, 250, 390] {
        press(&mut a, Key::Enter, now + 60_000 + dt);
        let s = screen(&a);
        assert!(s.contains("RESULTS"), "Enter at +{dt} ms retried:\n{s}");
        assert_eq!(a.game().map(|g| g.stats().pieces), Some(1), "+{dt} ms");
    }
    press(&mut a, Key::Enter, now + 60_600);
    assert!(!screen(&a).contains("RESULTS"), "{}", screen(&a));
    assert_fresh_at(&a, 0);
}
