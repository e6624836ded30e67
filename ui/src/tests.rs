//! App-level tests: screens drawn into a TestBackend and read line by line, driven only through
//! the public contract (keys, ticks, renders).

use minotty_engine::bot::{Weights, best_plan};
use minotty_engine::{Button, EndReason, ModeKind, Phase};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;

use crate::session::COUNTDOWN_MS;
use crate::testutil::lines;
use crate::{App, AppContext, Key, KeyEvent, KeyKind, Mods, Settings};

fn app() -> App {
    App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        ..AppContext::default()
    })
}

fn draw(app: &App, w: u16, h: u16) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    terminal.draw(|f| app.render(f)).expect("draw");
    terminal.backend().buffer().clone()
}

fn screen(app: &App) -> String {
    lines(&draw(app, 80, 24)).join("\n")
}

fn press(app: &mut App, key: Key, now: u64) {
    app.handle_key(KeyEvent::press(key), now);
}

fn release(app: &mut App, key: Key, now: u64) {
    app.handle_key(
        KeyEvent {
            kind: KeyKind::Release,
            ..KeyEvent::press(key)
        },
        now,
    );
}

fn tap(app: &mut App, key: Key, now: u64) {
    press(app, key, now);
    release(app, key, now);
}

fn ctrl(c: char) -> KeyEvent {
    KeyEvent {
        key: Key::Char(c),
        mods: Mods {
            ctrl: true,
            ..Mods::default()
        },
        kind: KeyKind::Press,
    }
}

/// An App in a running game of `kind`, just after the countdown (front-end time returned).
fn playing(kind: ModeKind) -> (App, u64) {
    let mut a = app();
    a.play(kind, 0);
    a.tick(COUNTDOWN_MS);
    (a, COUNTDOWN_MS)
}

/// The board's rows as drawn (inside the frame), top to bottom, from an 80 x 24 frame.
fn board_rows(app: &App) -> Vec<String> {
    let buf = draw(app, 80, 24);
    let rows = lines(&buf);
    let edge = "┌────────────────────┐";
    let Some(top) = rows.iter().position(|r| r.contains(edge)) else {
        return Vec::new();
    };
    let byte = rows[top].find(edge).unwrap_or(0);
    let x = rows[top][..byte].chars().count() + 1;
    rows[top + 1..top + 21]
        .iter()
        .map(|r| r.chars().skip(x).take(20).collect())
        .collect()
}

/// Follows the App's wakeups up to `until`, ticking at each; returns them.
fn wakeups(app: &mut App, until: u64) -> Vec<u64> {
    let mut seen = Vec::new();
    while let Some(w) = app.next_wakeup().filter(|&w| w <= until) {
        app.tick(w);
        seen.push(w);
        assert!(
            seen.len() < 10_000,
            "wakeups do not advance: {:?}",
            &seen[..10]
        );
    }
    seen
}

fn piece_x(app: &App) -> i8 {
    app.game()
        .and_then(|g| g.active())
        .map_or(-99, |a| a.placed.x)
}

#[test]
fn main_menu() {
    let s = screen(&app());
    for item in [
        "M I N O T T Y",
        "Play",
        "Settings",
        "Help",
        "Quit",
        "Hello, ada!",
    ] {
        assert!(s.contains(item), "{item} missing:\n{s}");
    }
}

#[test]
fn mode_select_lists_every_mode() {
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    let s = screen(&a);
    for kind in ModeKind::ALL {
        assert!(s.contains(kind.title()), "{kind:?} missing:\n{s}");
    }
    assert!(s.contains("Clear 40 lines as fast"), "{s}");
    // Each mode's description shows when it is selected.
    for kind in ModeKind::ALL.iter().skip(1) {
        press(&mut a, Key::Down, 0);
        let first_words: String = kind.description().chars().take(12).collect();
        assert!(screen(&a).contains(&first_words), "{kind:?}");
    }
}

#[test]
fn custom_options_make_the_game() {
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    for _ in 0..6 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0); // into the options
    press(&mut a, Key::Right, 0); // start level 1
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Right, 0); // limit: time
    press(&mut a, Key::Right, 0); // limit: lines
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Left, 0); // 30 lines
    press(&mut a, Key::Down, 0);
    for c in "1234".chars() {
        press(&mut a, Key::Char(c), 0);
    }
    let s = screen(&a);
    assert!(
        s.contains("lines") && s.contains(" 30 ") && s.contains("1234"),
        "{s}"
    );
    press(&mut a, Key::Enter, 0);
    let game = a.game().expect("custom game");
    assert_eq!(game.seed(), 1234);
    assert_eq!(game.level(), 1);
    assert!(screen(&a).contains("0/30"), "{}", screen(&a));
}

#[test]
fn game_screen_shows_board_hold_next_and_stats() {
    let (a, _) = playing(ModeKind::Sprint);
    let s = screen(&a);
    for part in [
        "HOLD", "NEXT", "LEVEL", "LINES", "0/40", "SCORE", "TIME", "PIECES", "PPS",
    ] {
        assert!(s.contains(part), "{part} missing:\n{s}");
    }
    assert_eq!(board_rows(&a).len(), 20);
    // The active piece and its ghost.
    assert!(board_rows(&a).iter().any(|r| r.contains("██")));
    assert!(board_rows(&a)[19].contains("░░"), "{s}");
    // Ultra counts down its time.
    let (u, _) = playing(ModeKind::Ultra);
    assert!(screen(&u).contains("LEFT") && screen(&u).contains("3:00.0"));
}

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
}

#[test]
fn pause_screen_freezes_the_clock_and_hides_the_board() {
    let (mut a, now) = playing(ModeKind::Sprint);
    a.tick(now + 500);
    press(&mut a, Key::Esc, now + 500);
    let s = screen(&a);
    for part in [
        "PAUSED",
        "Resume",
        "Restart",
        "Settings",
        "Forfeit",
        "Main menu",
    ] {
        assert!(s.contains(part), "{part} missing:\n{s}");
    }
    assert!(!board_rows(&a).iter().any(|r| r.contains("██")), "{s}");
    assert_eq!(a.next_wakeup(), None);
    a.tick(now + 60_000);
    assert!(screen(&a).contains("0:00.5"));
    press(&mut a, Key::Esc, now + 60_000);
    a.tick(now + 60_300);
    assert_eq!(a.game().map(|g| g.now()), Some(800));
}

#[test]
fn pause_and_resume_release_held_keys() {
    let (mut a, now) = playing(ModeKind::Sprint);
    let x0 = piece_x(&a);
    press(&mut a, Key::Left, now + 10); // held, never released
    assert_eq!(piece_x(&a), x0 - 1);
    press(&mut a, Key::Esc, now + 50);
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
    // The terminal repeats the key every 30 ms from the start (a short repeat delay).
    for i in 0..12 {
        press(&mut a, Key::Right, now + 100 + i * 30);
    }
    // DAS (150 ms) charged while repeats kept the key down: the piece auto-shifted.
    assert!(piece_x(&a) >= x0 + 3, "{} {}", piece_x(&a), x0);
    // Repeats stop: the key is released 80 ms (the clamp of 2 x 30 ms) after the last one.
    let last = now + 100 + 11 * 30;
    assert!(wakeups(&mut a, last + 79).iter().all(|&w| w < last + 80));
    assert_eq!(a.game().map(|g| g.is_held(Button::Right)), Some(true));
    assert_eq!(a.next_wakeup(), Some(last + 80));
    a.tick(last + 80);
    assert_eq!(a.game().map(|g| g.is_held(Button::Right)), Some(false));
}

#[test]
fn results_after_a_forfeited_game() {
    let (mut a, now) = playing(ModeKind::Sprint);
    tap(&mut a, Key::Up, now + 100);
    press(&mut a, Key::Esc, now + 200);
    for _ in 0..4 {
        press(&mut a, Key::Down, now + 200);
    }
    press(&mut a, Key::Enter, now + 200);
    assert!(screen(&a).contains("FORFEIT"), "{}", screen(&a));
    let finished = a.take_finished_game().expect("finished game");
    assert_eq!(finished.reason, EndReason::Forfeit);
    assert_eq!(finished.stats.pieces, 1);
    assert!(a.take_finished_game().is_none());
    let wake = a.next_wakeup().expect("results wakeup");
    a.tick(wake);
    let s = screen(&a);
    for part in [
        "RESULTS: 40 Lines",
        "FORFEIT",
        "Time",
        "Score",
        "Lines",
        "Pieces",
        "Retry",
    ] {
        assert!(s.contains(part), "{part} missing:\n{s}");
    }
    assert!(s.contains("Pieces per second"), "{s}");
    press(&mut a, Key::Enter, wake + 10);
    assert!(
        a.game().is_some_and(|g| g.stats().pieces == 0),
        "retry starts a new game"
    );
}

#[test]
fn too_small_terminal_message_updates_live() {
    let a = app();
    let s = lines(&draw(&a, 50, 20)).join("\n");
    assert!(s.contains("Please enlarge to 60 x 24"), "{s}");
    assert!(s.contains("(now 50 x 20)"), "{s}");
    let s = lines(&draw(&a, 59, 30)).join("\n");
    assert!(s.contains("(now 59 x 30)"), "{s}");
    let s = lines(&draw(&a, 60, 24)).join("\n");
    assert!(!s.contains("enlarge"), "{s}");
}

#[test]
fn settings_apply_immediately() {
    let (mut a, now) = playing(ModeKind::Sprint);
    assert!(board_rows(&a)[19].contains("░░"));
    press(&mut a, Key::Esc, now);
    press(&mut a, Key::Down, now);
    press(&mut a, Key::Down, now);
    press(&mut a, Key::Enter, now); // Settings
    assert!(screen(&a).contains("SETTINGS"));
    for _ in 0..5 {
        press(&mut a, Key::Down, now);
    }
    press(&mut a, Key::Right, now); // ghost off
    assert!(screen(&a).contains("< off >"), "{}", screen(&a));
    assert!(!a.settings().ghost && a.take_settings_changed());
    press(&mut a, Key::Esc, now); // back to the pause menu
    assert!(screen(&a).contains("PAUSED"));
    press(&mut a, Key::Esc, now + 10); // resume
    let rows = board_rows(&a);
    assert!(
        !rows.iter().any(|r| r.contains("░░")),
        "{}",
        rows.join("\n")
    );
    assert!(rows.iter().any(|r| r.contains("██")));
}

#[test]
fn settings_change_graphics_and_controls() {
    let mut a = app();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0); // Settings
    for _ in 0..6 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Right, 0); // ASCII
    assert!(screen(&a).contains("< ASCII >"));
    assert!(screen(&a).is_ascii(), "{}", screen(&a));
    // Remap: the first row is "Move left"; add K to it.
    for _ in 0..6 {
        press(&mut a, Key::Up, 0);
    }
    press(&mut a, Key::Enter, 0);
    assert!(screen(&a).contains("CONTROLS"));
    press(&mut a, Key::Enter, 0);
    assert!(screen(&a).contains("press a key..."));
    press(&mut a, Key::Char('k'), 0);
    assert!(screen(&a).contains("Left, K"), "{}", screen(&a));
    assert_eq!(
        a.settings().keys.lookup(Key::Char('k')),
        Some((Button::Left, 1))
    );
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
fn player_names_are_sanitized() {
    let a = App::new(AppContext {
        player_name: "\u{1b}[2Jeve\u{7}\n".into(),
        ..AppContext::default()
    });
    let s = screen(&a);
    assert!(s.contains("Hello, [2Jeve!"), "{s}");
    assert!(!s.contains('\u{1b}'));
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
        "nothing visible changed within the same tenth"
    );
    let wake = g.next_wakeup().expect("wakeup");
    assert!(wake <= now + 100, "{wake}");
    g.tick(now + 100);
    assert!(g.take_dirty(), "the clock moved to 0:00.1");
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
        if let Some(Phase::Clearing { .. }) = a.game().map(|g| g.phase()) {
            let buf = draw(&a, 80, 24);
            let s = lines(&buf).join("\n");
            assert!(s.contains("SINGLE") || s.contains("DOUBLE"), "{s}");
            // A lit row: a full row of white blocks.
            let rows = board_rows(&a);
            assert!(
                rows.iter().any(|r| r == &"██".repeat(10)),
                "{}",
                rows.join("\n")
            );
            saw_flash = true;
            break;
        }
        now += 300;
        a.tick(now);
    }
    assert!(saw_flash, "the bot cleared no line in combo mode");
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
