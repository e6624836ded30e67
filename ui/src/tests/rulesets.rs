//! Rulesets on screen: choosing one on the mode select (remembered in the settings), the
//! custom options, and the ruleset beside every score.

use minotty_engine::{ModeKind, RulesetId};

use super::*;
use crate::{App, AppContext, Key};
use crate::{Request, Response};
use minotty_protocol::{
    BoardId, BoardPeriod, BoardRow, LeaderboardPage, Profile, ProfileBest, RecentGame,
};

/// The game screen's title row, trimmed.
fn title(a: &App) -> String {
    let s = screen(a);
    s.lines()
        .find(|r| r.contains("MINOTTY"))
        .unwrap_or_default()
        .trim()
        .to_owned()
}

fn rows(a: &App) -> Vec<String> {
    screen(a).lines().map(str::to_owned).collect()
}

#[test]
fn the_mode_select_picks_a_ruleset_and_remembers_it() {
    let mut a = registered();
    a.take_requests();
    press(&mut a, Key::Enter, 0); // Play
    let s = rows(&a);
    assert_eq!(
        s[7],
        "  │  Cheese             Ruleset                                 < standard > │  "
    );
    assert_eq!(
        s[21],
        "  │        Up/Down mode   Left/Right ruleset   Enter start   Esc back        │  "
    );
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Right, 0);
    let s = rows(&a);
    assert_eq!(
        s[7],
        "  │  Cheese             Ruleset                                    < tetrs > │  "
    );
    assert_eq!(
        s[8],
        "  │  Combo              The tetrs game: its own rotation, Ocular and 180     │  "
    );
    assert_eq!(a.settings().ruleset, RulesetId::Tetrs);
    // Left goes back through tui-tetris.
    press(&mut a, Key::Left, 0);
    assert!(rows(&a)[7].contains("< tui-tetris >"));
    press(&mut a, Key::Right, 0);
    // Starting the game stores the choice once, then plays tetrs.
    press(&mut a, Key::Enter, 0);
    let saved: Vec<_> = a
        .take_requests()
        .into_iter()
        .filter(|r| matches!(r, Request::SaveSettings(s) if s.ruleset == RulesetId::Tetrs))
        .collect();
    assert_eq!(saved.len(), 1);
    let game = a.game().expect("a game");
    assert_eq!(game.config().ruleset, RulesetId::Tetrs);
    assert!(game.config().tuning.is_default());
    assert!(
        title(&a).starts_with("MINOTTY · 40 Lines · tetrs"),
        "{}",
        title(&a)
    );
}

#[test]
fn modes_without_rulesets_stay_standard() {
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Right, 0); // tui-tetris for the modes that take one
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    let s = rows(&a);
    assert_eq!(
        s[8],
        "  │  Combo              Ruleset: standard                                    │  "
    );
    assert_eq!(
        s[21],
        "  │                 Up/Down choose   Enter start   Esc back                  │  "
    );
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.game().map(|g| g.config().ruleset),
        Some(RulesetId::Standard)
    );
    assert!(title(&a).contains("Master · standard"), "{}", title(&a));
    // The remembered ruleset still plays 40 lines from the command line.
    let mut b = App::new(AppContext {
        start_mode: Some(ModeKind::Ultra),
        settings: a.settings().clone(),
        ..AppContext::default()
    });
    b.tick(0);
    assert_eq!(
        b.game().map(|g| g.config().ruleset),
        Some(RulesetId::TuiTetris)
    );
}

/// Into the custom options of the mode select.
fn custom() -> App {
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    for _ in 0..6 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    a
}

#[test]
fn custom_options_follow_the_ruleset() {
    let mut a = custom();
    let s = rows(&a);
    // The list scrolls at 80x24 now (the preset row): Start is below, the arrow says so.
    let expected = [
        "  │  40 Lines           Custom                                               │  ",
        "  │  Marathon           Ruleset                              < standard >    │  ",
        "  │  Ultra              Gameplay preset                                 -    │  ",
        "  │  Master             Rotation                        SRS and 180 turns    │  ",
        "  │  Cheese             Pieces                                      7-bag    │  ",
        "  │  Combo              DAS                                        150 ms    │  ",
        "  │  Custom             ARR                                         50 ms    │  ",
        "  │  Endless            Soft drop factor                              10x    │  ",
        "  │  Puzzle             Lock delay                                 450 ms    │  ",
        "  │  Descent            Line clear delay                           180 ms    │  ",
        "  │  Classic            Appearance delay                             0 ms    │  ",
        "  │  Survival           Hard drop delay                              0 ms    │  ",
        "  │  Ascent             Preview                                         5    │  ",
        "  │                     Start level                                     0    │  ",
        "  │                     Level increase                                 on    │  ",
        "  │                     Limit                                        none    │  ",
        "  │                     Seed                                       random  v │  ",
        "  │                                                                          │  ",
        "  │         Left/Right change   Del default   Enter start   Esc back         │  ",
    ];
    assert_eq!(s[3..22], expected);
    // tetrs: its own defaults, and the rows only it has (recency snap, ground time cap, soft
    // drop lock); the list scrolls.
    press(&mut a, Key::Left, 0);
    let s = rows(&a);
    assert_eq!(
        s[4],
        "  │  Marathon           Ruleset                                 < tetrs >    │  "
    );
    assert_eq!(
        s[8],
        "  │  Combo                recency snap                               2.50    │  "
    );
    assert_eq!(
        s[13],
        "  │  Classic            Ground time cap                           3000 ms    │  "
    );
    assert!(s[19].ends_with("0  v │  "), "more rows below: {}", s[19]);
    // Lock delay +20 ms, ground cap -250 ms, pieces: uniform.
    for _ in 0..8 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Left, 0);
    let s = rows(&a);
    assert_eq!(
        s[12],
        "  │  Descent            Lock delay                                 520 ms*   │  "
    );
    assert_eq!(
        s[13],
        "  │  Classic            Ground time cap                       < 2750 ms >*   │  "
    );
    // Del puts the ground cap back.
    press(&mut a, Key::Delete, 0);
    assert!(rows(&a)[13].contains("< 3000 ms > "));
    press(&mut a, Key::Left, 0);
    press(&mut a, Key::Enter, 0);
    let game = a.game().expect("custom game");
    let c = game.config();
    assert_eq!(c.ruleset, RulesetId::Tetrs);
    assert_eq!(c.tuning.lock_delay, Some(520));
    assert_eq!(c.tuning.ground_cap, Some(2750));
    assert_eq!(
        c.tuning.rotation, None,
        "untouched values stay the ruleset's"
    );
    assert_eq!(c.tuning.generator, None);
    assert_eq!(game.ruleset().lock_delay, 520);
    assert!(
        title(&a).contains("Custom · tetrs (tuned)"),
        "{}",
        title(&a)
    );
}

#[test]
fn custom_handling_and_preview_apply_to_that_game_only() {
    let mut a = custom();
    // DAS is the fifth row, preview the thirteenth (standard).
    for _ in 0..4 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Left, 0);
    for _ in 0..8 {
        press(&mut a, Key::Down, 0);
    }
    for _ in 0..3 {
        press(&mut a, Key::Left, 0);
    }
    press(&mut a, Key::Enter, 0);
    let game = a.game().expect("custom game");
    assert_eq!(
        game.config().handling.das,
        140,
        "DAS steps by 10 ms, as in the settings"
    );
    assert!(game.config().tuning.is_default());
    assert_eq!(
        a.settings().handling.das,
        150,
        "the player's settings keep theirs"
    );
    assert!(title(&a).contains("Custom · standard"), "{}", title(&a));
}

#[test]
fn the_results_name_the_ruleset() {
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Right, 0); // tui-tetris
    press(&mut a, Key::Enter, 0);
    a.tick(COUNTDOWN_MS);
    a.handle_key(ctrl('d'), COUNTDOWN_MS + 10);
    a.tick(COUNTDOWN_MS + 5_000);
    press(&mut a, Key::Enter, COUNTDOWN_MS + 5_000); // the final board waits for Enter
    let s = rows(&a);
    assert!(
        s.iter()
            .any(|r| r.contains("RESULTS: 40 Lines · tui-tetris")),
        "{}",
        s.join("\n")
    );
}

fn board_page(board: BoardId, ruleset: RulesetId) -> LeaderboardPage {
    LeaderboardPage {
        board,
        ruleset,
        period: BoardPeriod::AllTime,
        offset: 0,
        total: 1,
        columns: vec!["Time".into(), "PPS".into()],
        rows: vec![BoardRow {
            rank: 1,
            name: "bob".into(),
            values: vec!["0:31.000".into(), "3.10".into()],
            achieved_at: 1_763_769_600_000,
            game: Some(5),
        }],
        own: None,
    }
}

#[test]
fn the_leaderboards_switch_ruleset_with_u() {
    let mut a = registered();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0); // Leaderboards
    let sprint = BoardId::Solo(ModeKind::Sprint);
    let ask = |ruleset| Request::Leaderboard {
        board: sprint,
        ruleset,
        period: BoardPeriod::AllTime,
        offset: 0,
    };
    assert_eq!(a.take_requests().last(), Some(&ask(RulesetId::Standard)));
    press(&mut a, Key::Char('u'), 0);
    assert_eq!(a.take_requests(), [ask(RulesetId::TuiTetris)]);
    // A late page of the standard board is not shown as tui-tetris.
    a.deliver(
        Response::Leaderboard(board_page(sprint, RulesetId::Standard)),
        0,
    );
    assert!(!screen(&a).contains("bob"));
    a.deliver(
        Response::Leaderboard(board_page(sprint, RulesetId::TuiTetris)),
        0,
    );
    let s = rows(&a);
    assert_eq!(
        s[3].trim(),
        "│                      Ruleset: tui-tetris  (u changes)                      │"
    );
    assert!(
        s[5].contains("bob") && s[5].contains("0:31.000"),
        "{}",
        s[5]
    );
    assert_eq!(
        s[22].trim(),
        "│      Left/Right mode  Tab period  u ruleset  PgUp/PgDn page  Esc back      │"
    );
    // Master has only a standard board: u does nothing there.
    for _ in 0..3 {
        press(&mut a, Key::Right, 0);
    }
    let master = a.take_requests();
    assert!(matches!(
        master.last(),
        Some(Request::Leaderboard {
            ruleset: RulesetId::Standard,
            ..
        })
    ));
    press(&mut a, Key::Char('u'), 0);
    assert!(a.take_requests().is_empty());
    assert!(rows(&a)[3].contains("Ruleset: standard"));
}

#[test]
fn the_descent_board_is_tetrs_and_has_no_ruleset_switch() {
    let mut a = registered();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0); // Leaderboards
    let at = crate::screens::account_board::BOARDS
        .iter()
        .position(|&b| b == BoardId::Solo(ModeKind::Descent))
        .expect("a descent tab");
    for _ in 0..at {
        press(&mut a, Key::Right, 0);
    }
    let descent = BoardId::Solo(ModeKind::Descent);
    let asked = a.take_requests();
    assert_eq!(
        asked.last(),
        Some(&Request::Leaderboard {
            board: descent,
            ruleset: RulesetId::Tetrs,
            period: BoardPeriod::AllTime,
            offset: 0,
        })
    );
    press(&mut a, Key::Char('u'), 0);
    assert!(a.take_requests().is_empty(), "one board only");
    for (w, h) in [(60, 24), (80, 24), (200, 60)] {
        let s = crate::testutil::lines(&super::draw(&a, w, h)).join("\n");
        assert!(s.contains("Ruleset: tetrs"), "{w}x{h}\n{s}");
        // The tabs around descent's, from the first, and `..` where the others are.
        assert!(
            s.contains("Descent") && s.contains("40 Lines"),
            "{w}x{h}\n{s}"
        );
        assert!(s.contains(" .. >"), "{w}x{h}\n{s}");
    }
}

#[test]
fn the_profile_names_each_games_ruleset() {
    let mut a = registered();
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0); // Profile
    assert_eq!(a.take_requests().last(), Some(&Request::Profile));
    let best = |mode, ruleset, best: Option<&str>| ProfileBest {
        mode,
        ruleset,
        best: best.map(str::to_owned),
        rank: best.map(|_| 3),
        game: best.map(|_| 7),
    };
    let profile = Profile {
        name: "ada".into(),
        bests: vec![
            best(ModeKind::Sprint, RulesetId::Standard, Some("0:58.123")),
            best(ModeKind::Marathon, RulesetId::Standard, None),
            best(ModeKind::Sprint, RulesetId::Tetrs, Some("0:49.000")),
        ],
        recent: vec![RecentGame {
            game: 7,
            mode: ModeKind::Sprint,
            ruleset: RulesetId::Tetrs,
            ended_at: 1_763_769_600_000,
            result: "0:49.000".into(),
            outcome: "finished".into(),
        }],
        matches: Vec::new(),
        rating: None,
        ranked: None,
        charts: Default::default(),
    };
    a.deliver(Response::Profile(profile), 0);
    let s = rows(&a);
    let line = |i: usize| s[i].trim().to_owned();
    assert_eq!(
        line(4),
        "│  40 Lines  standard    0:58.123                                        #3  │"
    );
    assert_eq!(
        line(6),
        "│  40 Lines  tetrs       0:49.000                                        #3  │"
    );
    assert_eq!(
        line(9),
        "│  40 Lines  tetrs       0:49.000          finished      #7      2025-11-22  │"
    );
}

/// The ruleset's description under its name on the mode select, read whole: the right-hand
/// column's rows from the description on, joined.
fn ruleset_text(a: &App) -> String {
    let s = rows(a);
    let right: Vec<String> = s[8..12]
        .iter()
        .map(|r| {
            let cols: String = r.chars().skip(23).collect();
            cols.trim_end_matches([' ', '│']).trim().to_owned()
        })
        .collect();
    right.join(" ").trim().to_owned()
}

/// In plain words, whole at 80x24 (the old text was cut mid-sentence), naming the rotation the
/// way the custom options do.
#[test]
fn ruleset_descriptions_are_plain_and_whole_at_80x24() {
    let mut a = registered();
    press(&mut a, Key::Enter, 0); // Play: 40 lines takes a ruleset
    let mut seen = Vec::new();
    for _ in 0..3 {
        let id = a.settings().ruleset;
        let text = ruleset_text(&a);
        assert_eq!(
            text,
            crate::rules::ruleset_description(id),
            "{}",
            screen(&a)
        );
        seen.push(id);
        press(&mut a, Key::Right, 0);
    }
    assert_eq!(seen, RulesetId::ALL);
    let mut a = custom();
    let standard = rows(&a);
    assert!(
        standard[6].contains("Rotation                        SRS and 180 turns"),
        "{}",
        standard[6]
    );
    press(&mut a, Key::Right, 0); // tui-tetris: no 180
    let tui = rows(&a);
    assert!(
        tui[6].trim_end_matches([' ', '│']).ends_with(" SRS"),
        "{}",
        tui[6]
    );
}

/// The leaderboards' tabs come from the modes table: every mode with a board in its order,
/// then versus and the climb; the three modes with a board per ruleset switch rulesets.
#[test]
fn the_leaderboard_tabs_are_the_ranked_modes_then_versus_and_the_climb() {
    use crate::screens::account_board::{BOARDS, BoardScreen};
    let solo = |k| BoardId::Solo(k);
    assert_eq!(
        BOARDS,
        [
            solo(ModeKind::Sprint),
            solo(ModeKind::Marathon),
            solo(ModeKind::Ultra),
            solo(ModeKind::Master),
            solo(ModeKind::Cheese),
            solo(ModeKind::Combo),
            solo(ModeKind::Descent),
            solo(ModeKind::Classic),
            solo(ModeKind::Survival),
            solo(ModeKind::Ascent),
            BoardId::Versus,
            BoardId::Climb,
        ]
    );
    let switches: Vec<bool> = (0..BOARDS.len())
        .map(|tab| {
            BoardScreen {
                tab,
                ..BoardScreen::default()
            }
            .per_ruleset()
        })
        .collect();
    assert_eq!(
        switches,
        [
            true, true, true, false, false, false, false, false, false, false, false, false
        ]
    );
}
