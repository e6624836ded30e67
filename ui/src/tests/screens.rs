//! Each screen as drawn.

use minotty_engine::{Button, EndReason, ModeKind};

use super::*;
use crate::testutil::lines;
use crate::{App, AppContext, Key};

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
    // Ruleset, preset, rotation, pieces, DAS, ARR, SDF, four delays, preview: then the start
    // level.
    for _ in 0..12 {
        press(&mut a, Key::Down, 0);
    }
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
fn pause_screen_freezes_the_clock_and_hides_the_board() {
    let (mut a, now) = playing(ModeKind::Sprint);
    a.tick(now + 500);
    press(&mut a, Key::Esc, now + 500);
    // 40 lines asks first: a pause keeps it off the leaderboards (`tests/integrity.rs`).
    press(&mut a, Key::Char('y'), now + 500);
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
fn results_after_a_forfeited_game() {
    let (mut a, now) = playing(ModeKind::Sprint);
    tap(&mut a, Key::Up, now + 100);
    press(&mut a, Key::Esc, now + 200);
    press(&mut a, Key::Char('y'), now + 200); // 40 lines asks before pausing
    for _ in 0..4 {
        press(&mut a, Key::Down, now + 200);
    }
    press(&mut a, Key::Enter, now + 200);
    assert!(screen(&a).contains("FORFEIT"), "{}", screen(&a));
    let finished = a.take_finished_game().expect("finished game");
    assert_eq!(finished.reason, EndReason::Forfeit);
    assert_eq!(finished.stats.pieces, 1);
    assert!(a.take_finished_game().is_none());
    press(&mut a, Key::Enter, now + 300); // the final board waits for Enter
    let s = screen(&a);
    for part in [
        "RESULTS: 40 Lines",
        "FORFEIT",
        "Time",
        "Score",
        "Finesse faults",
        "Lines",
        "Pieces",
        "Retry",
    ] {
        assert!(s.contains(part), "{part} missing:\n{s}");
    }
    assert!(s.contains("Pieces per second"), "{s}");
    press(&mut a, Key::Enter, now + 1_300); // after the results' guard
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
    press(&mut a, Key::Char('y'), now); // 40 lines asks before pausing
    press(&mut a, Key::Down, now);
    press(&mut a, Key::Down, now);
    press(&mut a, Key::Enter, now); // Settings
    assert!(screen(&a).contains("SETTINGS"));
    for _ in 0..7 {
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
    menu_item(&mut a, 4); // Settings
    for _ in 0..8 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Right, 0); // ASCII
    assert!(screen(&a).contains("< ASCII >"));
    assert!(screen(&a).is_ascii(), "{}", screen(&a));
    // Remap: the first row is "Move left"; add K to it.
    for _ in 0..8 {
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
fn player_names_are_sanitized() {
    let a = App::new(AppContext {
        player_name: "\u{1b}[2Jeve\u{7}\n".into(),
        ..AppContext::default()
    });
    let s = screen(&a);
    assert!(s.contains("Hello, [2Jeve!"), "{s}");
    assert!(!s.contains('\u{1b}'));
}

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

fn row_with(buf: &ratatui::buffer::Buffer, text: &str) -> Option<String> {
    crate::testutil::lines(buf)
        .into_iter()
        .find(|r| r.contains(text))
}

#[test]
fn cheese_rows_are_chosen_on_the_mode_select_at_both_sizes() {
    let mut a = on_mode(ModeKind::Cheese);
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let row = row_with(&buf, "Garbage rows").expect("selector");
        assert!(row.contains("< 20 >"), "{w}x{h}: {row}");
        assert!(row_with(&buf, "The leaderboard's count").is_some());
        assert!(row_with(&buf, "Left/Right rows").is_some());
    }
    press(&mut a, Key::Left, 0);
    press(&mut a, Key::Left, 0);
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let row = row_with(&buf, "Garbage rows").expect("selector");
        assert!(row.contains("< 18 >"), "{w}x{h}: {row}");
        assert!(row_with(&buf, "Unranked").is_some(), "{w}x{h}");
    }
    // Bounded at both ends.
    for _ in 0..40 {
        press(&mut a, Key::Left, 0);
    }
    assert!(
        row_with(&draw(&a, 80, 24), "Garbage rows")
            .unwrap()
            .contains("< 1 >")
    );
    for _ in 0..200 {
        press(&mut a, Key::Right, 0);
    }
    assert!(
        row_with(&draw(&a, 80, 24), "Garbage rows")
            .unwrap()
            .contains("< 100 >")
    );
    for _ in 0..63 {
        press(&mut a, Key::Left, 0);
    }
    press(&mut a, Key::Enter, 0);
    let game = a.game().expect("cheese game");
    assert_eq!(*game.mode(), minotty_engine::Mode::cheese(37));
}

#[test]
fn the_default_cheese_count_starts_the_preset_and_endless_takes_a_ruleset() {
    let mut a = on_mode(ModeKind::Cheese);
    press(&mut a, Key::Enter, 0);
    assert_eq!(*a.game().expect("cheese").mode(), ModeKind::Cheese.mode());

    let mut a = on_mode(ModeKind::Endless);
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        assert!(
            row_with(&buf, "Marathon without an end").is_some(),
            "{w}x{h}"
        );
        let row = row_with(&buf, "Ruleset").expect("ruleset");
        assert!(row.contains("< standard >"), "{w}x{h}: {row}");
    }
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Enter, 0);
    let game = a.game().expect("endless");
    assert_eq!(*game.mode(), minotty_engine::Mode::endless());
    assert_ne!(game.ruleset().id, minotty_engine::RulesetId::Standard);
}

#[test]
fn locked_pieces_by_type_show_beside_the_stats_and_on_the_results() {
    let (mut a, now) = playing(ModeKind::Marathon);
    let first = a.game().unwrap().active().unwrap().placed.piece;
    tap(&mut a, Key::Up, now + 100);
    let letter = crate::widgets::stats::piece_letter(first);
    for (w, h) in [(80, 24), (200, 60)] {
        let rows = crate::testutil::lines(&draw(&a, w, h));
        // A column of the seven letters, the first piece's type at 1, the others at 0.
        let col: Vec<(String, String)> = rows
            .iter()
            .filter_map(|r| {
                let t = r.trim_start();
                let mut parts = t.split_whitespace();
                let l = parts.next()?;
                let n = parts.next()?;
                ("IOTSZJL".contains(l) && l.len() == 1 && n.parse::<u32>().is_ok())
                    .then(|| (l.to_owned(), n.to_owned()))
            })
            .collect();
        let letters: String = col.iter().map(|(l, _)| l.as_str()).collect();
        assert_eq!(letters, "IOTSZJL", "{w}x{h}:\n{}", rows.join("\n"));
        for (l, n) in &col {
            let want = if l == letter { "1" } else { "0" };
            assert_eq!(n, want, "{l} at {w}x{h}");
        }
    }
    // Forfeit: the results list them on one row.
    press(&mut a, Key::Esc, now + 200);
    for _ in 0..4 {
        press(&mut a, Key::Down, now + 200);
    }
    press(&mut a, Key::Enter, now + 200);
    press(&mut a, Key::Enter, now + 300); // the final board waits for Enter
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let row = row_with(&buf, "I ").expect("counts row");
        let want: String = minotty_engine::Piece::ALL
            .iter()
            .map(|&p| {
                let l = crate::widgets::stats::piece_letter(p);
                format!("{l} {}", u32::from(l == letter))
            })
            .collect::<Vec<_>>()
            .join("  ");
        assert!(row.contains(&want), "{w}x{h}: {row}");
        assert!(row_with(&buf, "RESULTS").is_some() && row_with(&buf, "Main menu").is_some());
    }
}

#[test]
fn monochrome_draws_pieces_by_glyph_without_colour() {
    let mut a = App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        settings: crate::Settings {
            colors: crate::ColorMode::Monochrome,
            ..crate::Settings::default()
        },
        ..AppContext::default()
    });
    a.play(ModeKind::Marathon, 0);
    a.tick(crate::session::COUNTDOWN_MS);
    let game = a.game().unwrap();
    let active = game.active().unwrap().placed.piece;
    let next = game.preview().find(|&p| p != active).unwrap();
    let theme = crate::theme::Theme {
        graphics: crate::Graphics::Unicode,
        colors: crate::ColorMode::Monochrome,
        ..crate::theme::Theme::default()
    };
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let text = crate::testutil::lines(&buf).join("\n");
        // The piece in play and the next one, each in its own glyph.
        assert!(text.contains(theme.piece_block(active)), "{w}x{h}:\n{text}");
        assert!(text.contains(theme.piece_block(next)), "{w}x{h}:\n{text}");
        // Not one cell carries a colour.
        for cell in buf.content() {
            assert!(
                matches!(cell.fg, ratatui::style::Color::Reset),
                "{w}x{h}: {cell:?}"
            );
            assert!(matches!(cell.bg, ratatui::style::Color::Reset));
        }
    }
}

#[test]
fn the_fps_counter_shows_in_the_game_screen_corner_when_set() {
    let settings = crate::Settings {
        show_fps: true,
        ..crate::Settings::default()
    };
    let mut a = App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        settings,
        ..AppContext::default()
    });
    a.play(ModeKind::Marathon, 0);
    let mut now = crate::session::COUNTDOWN_MS;
    a.tick(now);
    for (w, h) in [(80, 24), (200, 60)] {
        // 20 frames a second for a bit more than a second: the counter says 20.
        let mut last = None;
        for _ in 0..21 {
            last = Some(draw(&a, w, h));
            now += 50;
            a.tick(now);
        }
        let rows = crate::testutil::lines(&last.unwrap());
        assert!(
            rows[0].trim_end().ends_with("20 fps"),
            "{w}x{h}: {:?}",
            rows[0]
        );
    }
    // Hidden by default.
    let (a, _) = playing(ModeKind::Marathon);
    assert!(!screen(&a).contains(" fps"));
}

#[test]
fn the_settings_screen_sets_monochrome_and_the_fps_counter() {
    let (mut a, now) = playing(ModeKind::Marathon);
    press(&mut a, Key::Esc, now);
    press(&mut a, Key::Down, now);
    press(&mut a, Key::Down, now);
    press(&mut a, Key::Enter, now); // Settings
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let row = row_with(&buf, "FPS counter").expect("fps row");
        assert!(row.contains("hidden"), "{w}x{h}: {row}");
    }
    for _ in 0..9 {
        press(&mut a, Key::Down, now);
    }
    for _ in 0..3 {
        press(&mut a, Key::Right, now); // 256 -> truecolour -> 16 -> monochrome
    }
    assert_eq!(a.settings().colors, crate::ColorMode::Monochrome);
    press(&mut a, Key::Down, now);
    press(&mut a, Key::Down, now);
    press(&mut a, Key::Right, now);
    assert!(a.settings().show_fps);
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        assert!(row_with(&buf, "< shown >").is_some_and(|r| r.contains("FPS counter")));
        let colours = row_with(&buf, "Colours").expect("colours row");
        assert!(colours.contains("monochrome"), "{w}x{h}: {colours}");
    }
}
