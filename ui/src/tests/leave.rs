//! Pause -> "Main menu" / "Restart" never throws a played game away without asking: modes
//! whose game so far is a result store it as ended, goal modes say it is lost.

use minotty_engine::{EndReason, ModeKind};

use super::{draw, playing, press, screen, tap};
use crate::keys::Key;
use crate::testutil::lines;

/// Locks one piece, pauses (answering 40 lines' "Pause?"), and picks the pause menu's entry
/// `index` (1 Restart, 5 Main menu).
fn pick_from_pause(kind: ModeKind, index: usize) -> (crate::App, u64) {
    let (mut a, now) = playing(kind);
    tap(&mut a, Key::Up, now + 100);
    press(&mut a, Key::Esc, now + 200);
    if kind == ModeKind::Sprint {
        press(&mut a, Key::Char('y'), now + 200);
    }
    assert!(screen(&a).contains("PAUSED"), "{}", screen(&a));
    for _ in 0..index {
        press(&mut a, Key::Down, now + 210);
    }
    press(&mut a, Key::Enter, now + 220);
    (a, now + 220)
}

/// The dialog titled `title` as drawn at 80 x 24: its 18 columns on each of its rows.
fn dialog(a: &crate::App, title: &str) -> Vec<String> {
    let rows = lines(&draw(a, 80, 24));
    let Some(top) = rows.iter().position(|r| r.contains(title)) else {
        return Vec::new();
    };
    let row = &rows[top];
    let byte = row.find('┌').or_else(|| row.find('╭')).unwrap_or(0);
    let x = row[..byte].chars().count();
    rows[top..top + 7]
        .iter()
        .map(|r| r.chars().skip(x).take(18).collect())
        .collect()
}

#[test]
fn leaving_a_marathon_asks_and_stores_it_as_ended() {
    let (mut a, now) = pick_from_pause(ModeKind::Marathon, 5);
    assert_eq!(
        dialog(&a, "MAIN MENU"),
        [
            "┌── MAIN MENU ───┐",
            "│ End this game  │",
            "│  here? It is   │",
            "│ stored as is.  │",
            "│                │",
            "│ y end  n stay  │",
            "└────────────────┘",
        ]
    );
    assert!(a.take_finished_game().is_none(), "nothing stored yet");
    assert_eq!(
        a.next_wakeup(),
        None,
        "the clock stands behind the question"
    );
    // n: back to the pause menu, the game intact.
    press(&mut a, Key::Char('n'), now + 10);
    assert!(screen(&a).contains("Resume"), "{}", screen(&a));
    assert!(a.game().is_some_and(|g| g.outcome().is_none()));
    // y: the game ends there and is handed over to be stored; the main menu shows.
    press(&mut a, Key::Enter, now + 20);
    press(&mut a, Key::Char('y'), now + 30);
    let finished = a.take_finished_game().expect("the game is stored");
    assert_eq!(
        (finished.kind, finished.reason),
        (ModeKind::Marathon, EndReason::Forfeit)
    );
    assert_eq!(finished.stats.pieces, 1);
    assert!(a.game().is_none());
    assert!(screen(&a).contains("Play"), "{}", screen(&a));
}

#[test]
fn leaving_40_lines_says_the_game_is_lost() {
    let (mut a, now) = pick_from_pause(ModeKind::Sprint, 5);
    assert_eq!(
        dialog(&a, "MAIN MENU"),
        [
            "┌── MAIN MENU ───┐",
            "│ Leave and lose │",
            "│ this game? It  │",
            "│ is not stored. │",
            "│                │",
            "│ y leave n stay │",
            "└────────────────┘",
        ]
    );
    // Other keys do nothing; Esc stays.
    press(&mut a, Key::Down, now + 10);
    press(&mut a, Key::Esc, now + 400);
    assert!(screen(&a).contains("Resume"), "{}", screen(&a));
    press(&mut a, Key::Enter, now + 410);
    press(&mut a, Key::Char('y'), now + 420);
    assert!(
        a.take_finished_game().is_none(),
        "a 40 lines left unfinished is not stored"
    );
    assert!(a.game().is_none());
}

#[test]
fn restarting_a_marathon_asks_then_stores_it_and_starts_afresh() {
    let (mut a, now) = pick_from_pause(ModeKind::Marathon, 1);
    assert_eq!(dialog(&a, "RESTART")[0], "┌─── RESTART ────┐");
    press(&mut a, Key::Char('y'), now + 10);
    let finished = a.take_finished_game().expect("the game is stored");
    assert_eq!(finished.stats.pieces, 1);
    assert!(
        a.game().is_some_and(|g| g.stats().pieces == 0),
        "a fresh game"
    );
}

#[test]
fn a_game_not_yet_played_is_left_at_once() {
    let mut a = super::app();
    a.play(ModeKind::Marathon, 0);
    press(&mut a, Key::Esc, 500); // paused in the countdown
    for _ in 0..5 {
        press(&mut a, Key::Down, 510);
    }
    press(&mut a, Key::Enter, 520);
    assert!(a.game().is_none());
    assert!(a.take_finished_game().is_none());
}

#[test]
fn ctrl_c_over_the_question_asks_to_quit() {
    let (mut a, now) = pick_from_pause(ModeKind::Marathon, 5);
    a.handle_key(super::ctrl('c'), now + 10);
    assert!(screen(&a).contains("Quit minotty?"), "{}", screen(&a));
    press(&mut a, Key::Char('n'), now + 20);
    assert!(screen(&a).contains("Resume"), "back on the pause menu");
}
