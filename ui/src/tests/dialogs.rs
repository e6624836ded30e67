//! A question either stops the game it covers or does not cover it (issue 36): every question
//! a solo game asks is held up for seconds of front-end time, and either the game's state
//! stands still behind it (the pause menu, the leave question, the quit question of a game it
//! pauses), or the game runs on and its board stays in view, cell for cell what a twin game
//! without the question shows ("PAUSE?" in 40 lines, ultra and master; the quit question
//! there).

use minotty_engine::ModeKind;

use super::*;
use crate::testutil::lines;

/// What moves while a game runs: its clock, its active piece and its pieces and lines.
fn state(a: &App) -> (u64, Option<(i8, i8)>, u32, u32) {
    let g = a.game().expect("a game");
    let piece = g.active().map(|p| (p.placed.x, p.placed.y));
    (g.now(), piece, g.stats().pieces, g.stats().lines)
}

/// The 80 x 24 frame from the board's left edge rightwards (the board, the next queue), row by
/// row: what a question asked beside the board must leave as it is.
fn right_of_stats(a: &App) -> Vec<String> {
    lines(&draw(a, 80, 24))
        .iter()
        .map(|r| r.chars().skip(32).collect())
        .collect()
}

/// Every cell of a `w` x `h` frame but those of the question's place beside the board
/// (`screens::game::question_area`), row by row.
fn beyond_question(a: &App, w: u16, h: u16) -> Vec<String> {
    let area = ratatui::layout::Rect::new(0, 0, w, h);
    let question = crate::screens::game::question_area(area, a.settings());
    let buf = draw(a, w, h);
    (0..h)
        .map(|y| {
            (0..w)
                .filter(|&x| !question.contains(ratatui::layout::Position { x, y }))
                .filter_map(|x| buf.cell((x, y)).map(|c| c.symbol().to_owned()))
                .collect()
        })
        .collect()
}

/// Holds the question `twin` does not have open on `a` for 3 s of front-end time and checks
/// every 250 ms that `a`'s game runs as `twin`'s does and that its board and queue are drawn
/// as `twin`'s are, `title` on screen beside them. Under "PAUSE?" a game key plays (both get
/// it); the quit question takes keys for itself.
fn runs_in_view(mut a: App, mut twin: App, from: u64, title: &str) {
    let start = state(&a);
    for step in 1..=12 {
        let t = from + step * 250;
        if step == 6 && title == "PAUSE?" {
            tap(&mut twin, Key::Left, t);
            tap(&mut a, Key::Left, t);
        }
        a.tick(t);
        twin.tick(t);
        let s = screen(&a);
        assert!(s.contains(title), "{title} gone at {t}:\n{s}");
        assert_eq!(state(&a), state(&twin), "at {t}");
        assert_eq!(board_rows(&a), board_rows(&twin), "the board at {t}:\n{s}");
        assert_eq!(right_of_stats(&a), right_of_stats(&twin), "at {t}:\n{s}");
        if step % 4 == 0 {
            for (w, h) in [(200, 60), (120, 40), (60, 24)] {
                assert_eq!(
                    beyond_question(&a, w, h),
                    beyond_question(&twin, w, h),
                    "{w}x{h}"
                );
            }
        }
    }
    let end = state(&a);
    assert!(end.0 >= start.0 + 3_000, "the clock ran behind {title}");
    assert_ne!(end.1, start.1, "the piece moved behind {title}");
}

#[test]
fn the_pause_question_of_each_timed_mode_leaves_the_running_game_in_view() {
    for kind in [ModeKind::Sprint, ModeKind::Ultra, ModeKind::Master] {
        let (mut a, now) = playing(kind);
        let (twin, _) = playing(kind);
        press(&mut a, Key::Esc, now);
        assert!(screen(&a).contains("PAUSE?"), "{kind:?}:\n{}", screen(&a));
        runs_in_view(a, twin, now, "PAUSE?");
    }
}

#[test]
fn the_quit_question_of_a_timed_game_leaves_the_running_game_in_view() {
    for kind in [ModeKind::Sprint, ModeKind::Ultra, ModeKind::Master] {
        let (mut a, now) = playing(kind);
        let (twin, _) = playing(kind);
        a.handle_key(ctrl('c'), now);
        assert!(screen(&a).contains("Quit minotty?"), "{kind:?}");
        runs_in_view(a, twin, now, "Quit minotty?");
    }
}

/// Holds `a`'s open question `title` for a minute, a game key pressed and ticks and wakeups
/// followed meanwhile, and checks that nothing of the game moved.
fn stands_still(a: &mut App, from: u64, title: &str) {
    let before = state(a);
    assert!(screen(a).contains(title), "{title}:\n{}", screen(a));
    for step in 1..=60 {
        let t = from + step * 1_000;
        if step == 30 {
            tap(a, Key::Down, t); // soft drop (or a menu move: never the game)
        }
        a.tick(t);
        wakeups(a, t);
        assert_eq!(state(a), before, "{title} at {t}");
    }
    assert!(screen(a).contains(title), "{title}:\n{}", screen(a));
}

#[test]
fn the_pause_menu_stops_the_game_it_covers() {
    for kind in [ModeKind::Sprint, ModeKind::Marathon] {
        let (mut a, now) = playing(kind);
        press(&mut a, Key::Esc, now + 100);
        if kind == ModeKind::Sprint {
            press(&mut a, Key::Char('y'), now + 100);
        }
        stands_still(&mut a, now + 100, "PAUSED");
    }
}

#[test]
fn the_leave_question_stops_the_game_it_covers() {
    let (mut a, now) = playing(ModeKind::Marathon);
    tap(&mut a, Key::Up, now + 100); // a piece locked: the game was played
    press(&mut a, Key::Esc, now + 200);
    for _ in 0..5 {
        press(&mut a, Key::Down, now + 210);
    }
    press(&mut a, Key::Enter, now + 220); // Main menu
    stands_still(&mut a, now + 220, "MAIN MENU");
}

#[test]
fn the_quit_question_of_an_untimed_game_pauses_it() {
    for kind in [ModeKind::Marathon, ModeKind::Cheese] {
        let (mut a, now) = playing(kind);
        a.handle_key(ctrl('c'), now + 100);
        stands_still(&mut a, now + 100, "Quit minotty?");
    }
}
