//! A room's game settings (ruleset, gravity, entry, preview, handling, KO badges): the host
//! changes their rows and applies them in one `Settings` command, and a match started under
//! them runs the player's engine by them (the ruleset, the entry as tuning, the room's
//! handling over the player's), with stock's lives shown beside the board.

use minotty_engine::versus::{GameDraft, GameSettings, MatchKind, SeriesSettings};
use minotty_engine::{Handling, Ruleset, RulesetId, Tuning};
use minotty_protocol::{MatchStart, RoomCommand, RoomLimit, RoomSettings};

use super::versus::{online, room, seat};
use super::*;
use crate::screens::room_settings::ROWS;
use crate::{Request, Response};

fn at(label: &str) -> usize {
    ROWS.iter().position(|r| r.label == label).expect(label)
}

fn in_settings() -> App {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    let seats = vec![seat("ada", false, true), seat("bob", false, false)];
    a.deliver(Response::Room(room(seats, Some(0), true)), 0);
    press(&mut a, Key::Char('o'), 0);
    a
}

/// Moves the cursor from row `from` to row `to` (down).
fn down(a: &mut App, from: &str, to: &str) {
    for _ in at(from)..at(to) {
        press(a, Key::Down, 0);
    }
}

#[test]
fn the_host_changes_the_game_rows_and_applies_them() {
    let mut a = in_settings();
    down(&mut a, "Preset", "Ruleset");
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< tui-tetris >"), "{}", screen(&a));
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< tetrs >"), "{}", screen(&a));
    down(&mut a, "Ruleset", "Start level");
    for _ in 0..3 {
        press(&mut a, Key::Right, 0);
    }
    assert!(screen(&a).contains("< 3 >"), "{}", screen(&a));
    down(&mut a, "Start level", "Entry");
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< instant >"), "{}", screen(&a));
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("< 50 ms >"), "{}", screen(&a));
    down(&mut a, "Entry", "Preview");
    press(&mut a, Key::Left, 0);
    assert!(screen(&a).contains("< 6 >"), "{}", screen(&a));
    down(&mut a, "Preview", " DAS");
    // A step on DAS fixes the handling at the ruleset's own, then moves it.
    press(&mut a, Key::Right, 0);
    let tetrs = Ruleset::get(RulesetId::Tetrs).handling;
    let das = format!("< {} ms >", tetrs.das + 10);
    assert!(screen(&a).contains(&das), "{das}\n{}", screen(&a));
    down(&mut a, " DAS", "KO badges");
    press(&mut a, Key::Right, 0);
    assert!(screen(&a).contains("+25% attack a KO"), "{}", screen(&a));
    press(&mut a, Key::Enter, 0);
    let game = GameSettings::new(GameDraft {
        ruleset: RulesetId::Tetrs,
        start_level: 3,
        level_increase: true,
        entry_ms: Some(50),
        preview: Some(6),
        handling: Some(Handling {
            das: tetrs.das + 10,
            hard_drop_guard: 0,
            das_cut: 0,
            double_tap: 0,
            move_under_lock: false,
            ..tetrs
        }),
        ko_badges: true,
    });
    let want = RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None).with_game(game);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Settings { settings: want })]
    );
}

/// The handling row toggles free and fixed; a free handling shows "each player's" on its
/// DAS, ARR and SDF rows.
#[test]
fn the_handling_row_toggles_free_and_fixed() {
    let mut a = in_settings();
    down(&mut a, "Preset", "Handling");
    assert!(
        screen(&a).contains("< free (each player's) >"),
        "{}",
        screen(&a)
    );
    press(&mut a, Key::Right, 0);
    assert!(
        screen(&a).contains("< fixed by the room >"),
        "{}",
        screen(&a)
    );
    let std = Ruleset::get(RulesetId::Standard).handling;
    assert!(
        screen(&a).contains(&format!("{} ms", std.das)),
        "{}",
        screen(&a)
    );
    press(&mut a, Key::Left, 0);
    assert!(
        screen(&a).contains("< free (each player's) >"),
        "{}",
        screen(&a)
    );
}

/// A match under the room's game settings: the player's engine runs its ruleset, entry
/// (tuning) and handling (over the player's own), and the board's side shows the lives.
#[test]
fn a_match_runs_the_rooms_game_settings() {
    let mut a = online();
    super::versus::versus_menu(&mut a);
    let fixed = Handling {
        das: 90,
        arr: 0,
        sdf: 30,
        hard_drop_guard: 0,
        das_cut: 0,
        double_tap: 0,
        move_under_lock: false,
    };
    let game = GameSettings::new(GameDraft {
        ruleset: RulesetId::Tetrs,
        entry_ms: Some(200),
        handling: Some(fixed),
        ..GameDraft::DEFAULT
    });
    let room_settings = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None)
        .with_series(SeriesSettings::new(1, 1, 2))
        .with_game(game);
    a.deliver(
        Response::MatchStart(MatchStart {
            kind: MatchKind::Battle,
            mode: room_settings.mode(),
            seed: 9,
            players: vec!["ada".into(), "bob".into()],
            you: Some(0),
            countdown_ms: 3000,
            ranked: false,
            teams: Vec::new(),
            game,
        }),
        0,
    );
    a.tick(3000);
    let g = a.versus_game().expect("a game");
    let config = g.config();
    assert_eq!(config.ruleset, RulesetId::Tetrs);
    assert_eq!(
        config.tuning,
        Tuning {
            appearance_delay: Some(200),
            ..Tuning::default()
        }
    );
    assert_eq!(config.handling, fixed);
    assert_eq!(config.mode.lives, 2);
    // Its replay is of the room's rules, as the match recorder holds every seat's.
    let rules = minotty_domain::MatchRules::of(&room_settings);
    assert_eq!(rules.breach(&g.replay()), None);
    let s = screen(&a);
    assert!(s.contains("LIVES"), "{s}");
}

/// The results show the settings the match was played under that differ from the defaults;
/// a room of default settings shows no such line.
#[test]
fn the_results_show_the_settings_that_differ() {
    for (stock, want) in [(2u8, true), (0, false)] {
        let mut a = online();
        press(&mut a, Key::Down, 0);
        press(&mut a, Key::Enter, 0);
        let seats = vec![seat("ada", false, true), seat("bob", false, false)];
        let mut view = room(seats, Some(1), false);
        view.options = view.options.with_series(SeriesSettings::new(1, 1, stock));
        a.deliver(Response::Room(view), 0);
        let row = |seat: usize, name: &str, place: u8| minotty_protocol::ResultRow {
            seat,
            name: name.into(),
            place,
            kos: 0,
            attack_per_minute: 0.0,
            pieces_per_second: 0.0,
            lines: 0,
            attack_sent: 0,
            garbage_received: 0,
            forfeited: false,
            rating: None,
            time_ms: 1000,
            pieces: 1,
        };
        a.deliver(
            Response::MatchOver(minotty_protocol::MatchResult {
                kind: MatchKind::Battle,
                rows: vec![row(1, "bob", 1), row(0, "ada", 2)],
                you: Some(1),
                ranked: false,
                series: None,
                teams: Vec::new(),
            }),
            0,
        );
        let s = screen(&a);
        assert!(s.contains("You win!"), "{s}");
        assert_eq!(s.contains("Stock 2 extra lives"), want, "{s}");
    }
}
