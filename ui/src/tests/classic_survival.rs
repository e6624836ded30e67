//! Classic and Survival in the App: listed on the mode menu with their options, started from
//! it and played with a few keys.

use minotty_engine::{Mode, ModeKind};

use super::*;
use crate::Key;
use crate::session::COUNTDOWN_MS;

/// The mode select with the cursor on `kind`.
fn on_mode(kind: ModeKind) -> App {
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    let at = ModeKind::ALL.iter().position(|&k| k == kind).unwrap();
    for _ in 0..at {
        press(&mut a, Key::Down, 0);
    }
    a
}

/// The 80 x 24 frame's rows, without trailing blanks.
fn rows(a: &App) -> Vec<String> {
    let rows = crate::testutil::lines(&draw(a, 80, 24));
    rows.iter().map(|r| r.trim_end().to_owned()).collect()
}

#[test]
fn the_mode_menu_at_80x24_on_classic() {
    let mut a = on_mode(ModeKind::Classic);
    let expected = [
        "",
        "  ┌───────────────────────────── CHOOSE A MODE ──────────────────────────────┐",
        "  │                                                                          │",
        "  │  40 Lines           Classic                                              │",
        "  │  Marathon                                                                │",
        "  │  Ultra              The NES game's speeds, level-ups and scoring, from   │",
        "  │  Master             the start level you choose.                          │",
        "  │  Cheese                                                                  │",
        "  │  Combo              Start level                                    < 0 > │",
        "  │  Custom             799 ms a row, the first level-up after 10 lines      │",
        "  │  Endless                                                                 │",
        "  │  Puzzle             Lock delay (L)                                   off │",
        "  │  Descent            As on the NES: a piece locks at the first step       │",
        "  │  Classic            gravity cannot move it down.                         │",
        "  │  Survival                                                                │",
        "  │  Ascent             Ruleset: standard                                    │",
        "  │                                                                          │",
        "  │                                                                          │",
        "  │                                                                          │",
        "  │                                                                          │",
        "  │                                                                          │",
        "  │ Up/Down mode   Left/Right level   L lock delay   Enter start   Esc back  │",
        "  └──────────────────────────────────────────────────────────────────────────┘",
        "",
    ];
    assert_eq!(rows(&a), expected, "{}", rows(&a).join("\n"));
    // Left/Right pick the start level (0-19), L the lock delay.
    press(&mut a, Key::Left, 0);
    assert!(rows(&a)[8].contains("< 0 >"), "no level below 0");
    for _ in 0..25 {
        press(&mut a, Key::Right, 0);
    }
    let r = rows(&a);
    assert!(r[8].ends_with("< 19 > │"), "{}", r[8]);
    assert!(
        r[9].contains("33 ms a row, the first level-up after 140 lines"),
        "{}",
        r[9]
    );
    press(&mut a, Key::Char('l'), 0);
    let r = rows(&a);
    assert!(r[11].ends_with(" on │"), "{}", r[11]);
    assert!(r[12].contains("waits 500 ms before it locks"), "{}", r[12]);
    assert!(r.join("\n").contains("Unranked"), "{}", r.join("\n"));
    press(&mut a, Key::Char('L'), 0);
    assert!(rows(&a)[11].ends_with(" off │"));
}

#[test]
fn the_mode_menu_describes_survival() {
    let a = on_mode(ModeKind::Survival);
    let s = rows(&a).join("\n");
    for part in [
        "Garbage rises from below",
        "every 10 s",
        "0.5 s sooner",
        "1 s",
        "Ruleset: standard",
        "Up/Down choose   Enter start   Esc back",
    ] {
        assert!(s.contains(part), "{part}:\n{s}");
    }
}

/// Classic from level 18 without lock delay, started from the menu: the NES game's speed at
/// that level, a piece moved and hard-dropped (no points for it).
#[test]
fn classic_starts_from_the_menu_and_plays() {
    let mut a = on_mode(ModeKind::Classic);
    for _ in 0..18 {
        press(&mut a, Key::Right, 0);
    }
    press(&mut a, Key::Enter, 0);
    a.tick(COUNTDOWN_MS);
    let game = a.game().expect("a classic game");
    assert_eq!(game.mode(), &Mode::classic(18, false));
    assert_eq!(game.level(), 18);
    assert_eq!(game.gravity_interval(), Some(50));
    let t = COUNTDOWN_MS;
    tap(&mut a, Key::Left, t + 10);
    tap(&mut a, Key::Char('x'), t + 20);
    tap(&mut a, Key::Char(' '), t + 30);
    let game = a.game().expect("still playing");
    assert_eq!(game.stats().pieces, 1);
    assert_eq!(
        game.stats().score,
        0,
        "a hard drop scores nothing on the NES"
    );
    let s = screen(&a);
    assert!(s.contains("Classic"), "{s}");
    assert!(s.contains("LEVEL") && s.contains("18"), "{s}");
    // The next piece, left to gravity, locks at the first step it cannot fall.
    let before = a.game().unwrap().stats().pieces;
    a.tick(t + 30 + 3_000);
    assert!(a.game().unwrap().stats().pieces > before);
    // And the game with its lock delay, from the menu again.
    let mut b = on_mode(ModeKind::Classic);
    press(&mut b, Key::Char('l'), 0);
    press(&mut b, Key::Enter, 0);
    b.tick(COUNTDOWN_MS);
    assert_eq!(b.game().expect("game").mode(), &Mode::classic(0, true));
}

/// Survival from the menu: a few keys, then its first row rises 10 s into the game; it is not
/// snapshotted (Ctrl+S says so) and its footer offers the savepoint instead.
#[test]
fn survival_starts_from_the_menu_and_its_rows_rise() {
    let mut a = on_mode(ModeKind::Survival);
    press(&mut a, Key::Enter, 0);
    a.tick(COUNTDOWN_MS);
    let game = a.game().expect("a survival game");
    assert_eq!(game.mode(), &Mode::survival());
    let t = COUNTDOWN_MS;
    tap(&mut a, Key::Left, t + 10);
    tap(&mut a, Key::Char(' '), t + 20);
    assert_eq!(a.game().unwrap().stats().pieces, 1);
    let s = screen(&a);
    assert!(s.contains("Survival"), "{s}");
    assert!(
        s.contains("Ctrl+S savepoint") && !s.contains("Ctrl+S snapshot"),
        "{s}"
    );
    a.tick(t + 9_999);
    assert_eq!(a.game().unwrap().stats().garbage_received, 0);
    a.tick(t + 10_000);
    let game = a.game().expect("still playing");
    assert_eq!(game.stats().garbage_received, 1, "the first row rose");
    let bottom = minotty_engine::board::HEIGHT - 1;
    let open = (0..minotty_engine::board::WIDTH)
        .filter(|&x| game.board().cell(x, bottom) == minotty_engine::Cell::Empty)
        .count();
    assert_eq!(open, 1);
    a.handle_key(ctrl('s'), t + 10_100);
    let s = screen(&a);
    assert!(s.contains("Survival games cannot be snapshotted"), "{s}");
    assert!(
        a.take_requests()
            .iter()
            .all(|r| !matches!(r, crate::Request::SaveSnapshot { .. }))
    );
}
