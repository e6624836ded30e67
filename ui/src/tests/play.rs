//! Playing: input, timing, animations, robustness.

use minotty_bots::{Weights, best_plan};
use minotty_engine::board::{BUFFER_HEIGHT, VISIBLE_HEIGHT};
use minotty_engine::{Button, ModeKind, Phase};
use ratatui::style::Color;

use super::*;
use crate::session::COUNTDOWN_MS;
use crate::testutil::lines;
use crate::{App, AppContext, Key, KeyEvent, KeyKind, Mods, Settings};

#[test]
fn countdown_then_game_time() {
    let mut a = app();
    a.play(ModeKind::Sprint, 1000);
    assert_eq!(a.next_wakeup(), Some(2000));
    a.tick(2500);
    assert_eq!(a.next_wakeup(), Some(3000));
    let s = screen(&a);
    assert!(s.contains("TIME        0:00.0"), "{s}");
    a.tick(4000 + 1234);
    assert_eq!(a.game().map(|g| g.now()), Some(1234));
    assert!(screen(&a).contains("0:01.2"));
}

#[test]
fn a_hard_drop_lands_on_the_bottom_row() {
    let (mut a, now) = playing(ModeKind::Sprint);
    let before = board_rows(&a);
    assert!(!before[19].contains("██") && before[19].contains("░░"));
    tap(&mut a, Key::Up, now + 10);
    let after = board_rows(&a);
    assert!(after[19].contains("██"), "{}", after.join("\n"));
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(1));
    // The piece that locked flashes white for 120 ms.
    let bottom = 1 << (BUFFER_HEIGHT + VISIBLE_HEIGHT - 1);
    let white = Color::Indexed(231);
    assert!(row_colours(&a, bottom).contains(&white));
    a.tick(now + 10 + 119);
    assert!(row_colours(&a, bottom).contains(&white));
    a.tick(now + 10 + 120);
    assert!(!row_colours(&a, bottom).contains(&white));
}

/// The PPS row of the stats as drawn.
fn pps_row(a: &App) -> String {
    screen(a)
        .lines()
        .find(|l| l.contains("PPS"))
        .and_then(|l| l.split("PPS").nth(1))
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn pieces_per_second_count_to_the_last_lock_and_hold_still_while_a_piece_falls() {
    let (mut a, now) = playing(ModeKind::Sprint);
    assert_eq!(pps_row(&a), "0.00");
    // The first piece locks 2 s into the game: 0.50 pieces a second, then and later.
    a.tick(now + 2_000);
    tap(&mut a, Key::Up, now + 2_000);
    let lock_time = a.game().map(|g| g.now()).expect("a game");
    let expected = format!("{:.2}", 1000.0 / lock_time as f64);
    assert_eq!(pps_row(&a), expected);
    for later in [500, 1_700, 3_100] {
        a.tick(now + 2_000 + later);
        assert_eq!(pps_row(&a), expected, "{later} ms after the lock");
    }
}

#[test]
fn pause_and_resume_release_held_keys() {
    let (mut a, now) = playing(ModeKind::Sprint);
    let x0 = piece_x(&a);
    press(&mut a, Key::Left, now + 10); // held, never released
    assert_eq!(piece_x(&a), x0 - 1);
    press(&mut a, Key::Esc, now + 50);
    press(&mut a, Key::Char('y'), now + 50); // 40 lines asks before pausing
    press(&mut a, Key::Esc, now + 5_000);
    assert_eq!(a.game().map(|g| g.is_held(Button::Left)), Some(false));
    a.tick(now + 6_000);
    assert_eq!(piece_x(&a), x0 - 1, "no auto-shift after resuming");
    // The late release of the key is harmless.
    release(&mut a, Key::Left, now + 6_100);
    assert_eq!(piece_x(&a), x0 - 1);
}

#[test]
fn synthetic_releases_make_a_tap_move_once() {
    // With releases reported, a press never released slides the piece to the wall.
    let (mut held, now) = playing(ModeKind::Sprint);
    let x0 = piece_x(&held);
    press(&mut held, Key::Left, now + 100);
    held.tick(now + 1_000);
    assert!(piece_x(&held) < x0 - 1);

    // Without them, the same press is a tap: one column, released before DAS.
    let (mut a, now) = playing(ModeKind::Sprint);
    a.set_release_events(false);
    press(&mut a, Key::Left, now + 100);
    assert_eq!(piece_x(&a), x0 - 1);
    let release = now + 100 + 149;
    assert!(wakeups(&mut a, release).contains(&release));
    assert_eq!(a.game().map(|g| g.is_held(Button::Left)), Some(false));
    a.tick(now + 1_000);
    assert_eq!(piece_x(&a), x0 - 1);
    assert_eq!(a.game().map(|g| g.is_held(Button::Left)), Some(false));
}

#[test]
fn synthetic_releases_let_a_repeating_key_auto_shift() {
    let (mut a, now) = playing(ModeKind::Sprint);
    a.set_release_events(false);
    let x0 = piece_x(&a);
    // The terminal repeats the key after a 250 ms delay, then every 30 ms. (Repeats every
    // 30 ms from the press itself are taps: no terminal repeats that soon, a player does.)
    press(&mut a, Key::Right, now + 100);
    for i in 0..12 {
        press(&mut a, Key::Right, now + 350 + i * 30);
    }
    // DAS (150 ms) charged while repeats kept the key down: the piece auto-shifted.
    assert!(piece_x(&a) >= x0 + 3, "{} {}", piece_x(&a), x0);
    // Repeats stop: the key is released 80 ms (the clamp of 2 x 30 ms) after the last one.
    let last = now + 350 + 11 * 30;
    assert!(wakeups(&mut a, last + 79).iter().all(|&w| w < last + 80));
    assert_eq!(a.game().map(|g| g.is_held(Button::Right)), Some(true));
    assert_eq!(a.next_wakeup(), Some(last + 80));
    a.tick(last + 80);
    assert_eq!(a.game().map(|g| g.is_held(Button::Right)), Some(false));
}

#[test]
fn a_held_esc_without_releases_pauses_once() {
    // Marathon pauses at once (40 lines asks first: `tests/integrity.rs`).
    let (mut a, now) = playing(ModeKind::Marathon);
    a.set_release_events(false);
    press(&mut a, Key::Esc, now + 10);
    for i in 1..20 {
        press(&mut a, Key::Esc, now + 10 + i * 33);
    }
    assert!(screen(&a).contains("Esc resumes"), "still paused");
    press(&mut a, Key::Esc, now + 2_000);
    assert!(!screen(&a).contains("Esc resumes"), "a fresh press resumes");
}

#[test]
fn esc_never_quits_and_quitting_asks_first() {
    let mut a = app();
    for t in 0..20 {
        press(&mut a, Key::Esc, t);
    }
    assert!(!a.should_quit());
    press(&mut a, Key::Char('q'), 30);
    assert!(screen(&a).contains("Quit minotty?") && !a.should_quit());
    press(&mut a, Key::Esc, 31);
    assert!(!screen(&a).contains("Quit minotty?") && !a.should_quit());
    press(&mut a, Key::Char('q'), 32);
    press(&mut a, Key::Enter, 33);
    assert!(a.should_quit());

    // Ctrl+C in a game pauses it and asks; staying keeps the game.
    let (mut g, now) = playing(ModeKind::Marathon);
    g.handle_key(ctrl('c'), now + 10);
    assert!(screen(&g).contains("Quit minotty?") && !g.should_quit());
    assert_eq!(
        g.next_wakeup(),
        None,
        "the game is paused behind the dialog"
    );
    press(&mut g, Key::Char('n'), now + 20);
    assert!(screen(&g).contains("PAUSED"));
    g.handle_key(ctrl('c'), now + 30);
    press(&mut g, Key::Char('y'), now + 40);
    assert!(g.should_quit());
}

#[test]
fn dirty_only_when_something_visible_changed() {
    let mut a = app();
    assert!(a.take_dirty());
    a.tick(100);
    assert!(!a.take_dirty(), "the menu does not change on its own");
    assert_eq!(a.next_wakeup(), None);
    release(&mut a, Key::Down, 150);
    assert!(!a.take_dirty(), "a release means nothing in a menu");
    press(&mut a, Key::Down, 200);
    assert!(a.take_dirty());

    let (mut g, now) = playing(ModeKind::Sprint);
    g.take_dirty();
    g.tick(now + 10);
    assert!(
        !g.take_dirty(),
        "nothing visible changed within the same second"
    );
    g.tick(now + 700);
    g.take_dirty(); // "GO!" went away
    g.tick(now + 750);
    assert!(
        !g.take_dirty(),
        "nothing visible changed within the same tenth (0:00.7)"
    );
    let wake = g.next_wakeup().expect("wakeup");
    assert!(wake <= now + 800, "{wake}");
    g.tick(now + 800);
    assert!(g.take_dirty(), "the clock reached 0:00.8");
}

#[test]
fn a_line_clear_flashes_and_names_the_clear() {
    let mut settings = Settings::default();
    settings.keys.bind(Button::Rotate180, Key::Char('w'));
    let mut a = App::new(AppContext {
        settings,
        seed: 3,
        ..AppContext::default()
    });
    a.play(ModeKind::Combo, 0);
    let mut now = COUNTDOWN_MS;
    a.tick(now);
    let weights = Weights::default();
    let mut saw_flash = false;
    for _ in 0..10 {
        let Some(plan) = a.game().and_then(|g| best_plan(g, &weights)) else {
            break;
        };
        for b in plan.buttons {
            let key = a.settings().keys.keys(b).next().expect("bound");
            now += 5;
            tap(&mut a, key, now);
        }
        if let Some(Phase::Clearing { rows, .. }) = a.game().map(|g| g.phase()) {
            let s = lines(&draw(&a, 80, 24)).join("\n");
            assert!(s.contains("SINGLE") || s.contains("DOUBLE"), "{s}");
            // The cleared rows flash: lit (white) now, dark (their own colours) 60 ms later.
            let lit = row_colours(&a, rows);
            assert!(!lit.is_empty() && lit.iter().all(|&c| c == Color::Indexed(231)));
            a.tick(now + 60);
            let dark = row_colours(&a, rows);
            assert!(!dark.is_empty() && dark.iter().all(|&c| c != Color::Indexed(231)));
            a.tick(now + 120);
            assert_eq!(row_colours(&a, rows), lit);
            saw_flash = true;
            break;
        }
        now += 300;
        a.tick(now);
    }
    assert!(saw_flash, "the bot cleared no line in combo mode");
}

/// The colours of the cells drawn for the board rows in `rows` (bit `y` for board row `y`).
fn row_colours(app: &App, rows: u64) -> Vec<Color> {
    let buf = draw(app, 80, 24);
    let text = lines(&buf);
    let edge = "┌────────────────────┐";
    let Some(top) = text.iter().position(|r| r.contains(edge)) else {
        return Vec::new();
    };
    let byte = text[top].find(edge).unwrap_or(0);
    let x0 = text[top][..byte].chars().count() as u16 + 1;
    let mut colours = Vec::new();
    for vy in 0..VISIBLE_HEIGHT {
        if rows & (1 << (BUFFER_HEIGHT + vy)) == 0 {
            continue;
        }
        let y = top as u16 + 1 + vy as u16;
        colours.extend((0..20).filter_map(|dx| buf.cell((x0 + dx, y)).and_then(|c| c.fg.into())));
    }
    colours
}

#[test]
fn no_key_and_no_size_panics() {
    let keys = [
        Key::Up,
        Key::Down,
        Key::Left,
        Key::Right,
        Key::Enter,
        Key::Esc,
        Key::Char(' '),
        Key::Char('q'),
        Key::Char('x'),
        Key::Char('7'),
        Key::Backspace,
        Key::Tab,
        Key::F(1),
        Key::Shift,
        Key::Char('界'),
    ];
    let sizes = [
        (0, 0),
        (1, 1),
        (5, 2),
        (59, 23),
        (60, 24),
        (61, 25),
        (300, 100),
    ];
    let mut a = app();
    a.set_release_events(false);
    let mut rng = 12345u64;
    let mut now = 0;
    for step in 0..3000 {
        rng = rng
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let r = (rng >> 33) as usize;
        now += (r % 120) as u64;
        let kind = [KeyKind::Press, KeyKind::Repeat, KeyKind::Release][r / 7 % 3];
        let mods = Mods {
            ctrl: r.is_multiple_of(29) && !r.is_multiple_of(3),
            ..Mods::default()
        };
        let key = keys[r / 3 % keys.len()];
        // Never answer the quit dialog with yes, so the run goes on.
        if key == Key::Char('q') || (key == Key::Enter && screen(&a).contains("Quit minotty?")) {
            continue;
        }
        a.handle_key(KeyEvent { key, mods, kind }, now);
        a.tick(now);
        if step % 10 == 0 {
            let (w, h) = sizes[r / 11 % sizes.len()];
            draw(&a, w, h);
        }
    }
    assert!(!a.should_quit());
}

#[test]
fn the_final_board_waits_for_enter_behind_the_quit_dialog_and_after_it() {
    let (mut a, now) = playing(ModeKind::Sprint);
    a.handle_key(ctrl('d'), now + 100);
    assert!(screen(&a).contains("FORFEIT"));
    a.handle_key(ctrl('c'), now + 200);
    a.tick(now + 5_000);
    assert!(screen(&a).contains("Quit minotty?"));
    press(&mut a, Key::Esc, now + 5_100);
    wakeups(&mut a, now + 60_000);
    let s = screen(&a);
    assert!(s.contains("FORFEIT") && s.contains("Enter: results"), "{s}");
    assert!(!s.contains("RESULTS"), "{s}");
    press(&mut a, Key::Enter, now + 60_000);
    assert!(screen(&a).contains("RESULTS"), "{}", screen(&a));
    assert!(!a.in_game());
}

/// Issue 41: pieces per second over the last 5 and the last 10 pieces, in the stats' free last
/// row once 5 pieces are locked (`-` for 10 until then), each from the lock before the first of
/// them (or the game's start) to the last lock.
#[test]
fn the_stats_show_pieces_per_second_over_the_last_5_and_10_pieces() {
    let (mut a, now) = playing(ModeKind::Marathon);
    let recent = |a: &App| {
        screen(a)
            .lines()
            .find(|l| l.contains("PPS 5/10"))
            .and_then(|l| l.split("PPS 5/10").nth(1))
            .map(|rest| {
                rest.split_whitespace()
                    .take(2)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
    };
    let mut locks = vec![0u64];
    let mut t = now;
    for i in 0..12u64 {
        // Pieces to the two walls by turns (the middle stays open: no line clears), faster
        // and faster.
        t += 700 - 40 * i;
        let side = if i % 2 == 0 { Key::Left } else { Key::Right };
        for _ in 0..5 {
            tap(&mut a, side, t);
        }
        tap(&mut a, Key::Up, t);
        locks.push(a.game().map(|g| g.now()).expect("a game"));
        let n = locks.len() - 1;
        let over = |k: usize| crate::figures::pps_short(k as u32, locks[n] - locks[n - k]);
        let want = match n {
            0..=4 => None,
            5..=9 => Some(format!("{} -", over(5).as_str())),
            _ => Some(format!("{} {}", over(5).as_str(), over(10).as_str())),
        };
        assert_eq!(recent(&a), want, "after {n} pieces\n{}", screen(&a));
    }
}
