//! Records that are true: the profile's versus matches, the leaderboard's arrows on what the
//! keys change, the results' personal-best context, drawn as whole frames.

use minotty_engine::{ModeKind, RulesetId};

use super::*;
use crate::{Request, Response};
use minotty_protocol::{Profile, ProfileBest, RecentGame, RecentMatch};

fn rows(a: &App) -> Vec<String> {
    screen(a).lines().map(str::to_owned).collect()
}

/// Nov 22 2025 00:00 UTC, and a day.
const T0: i64 = 1_763_769_600_000;
const DAY: i64 = 86_400_000;

/// ada's profile: a best, two games and two matches (one result with a control sequence) over
/// four days from `T0`.
pub(super) fn ada_profile() -> Profile {
    let game = |game, ended_at| RecentGame {
        game,
        mode: ModeKind::Sprint,
        ruleset: RulesetId::Standard,
        ended_at,
        result: "0:58.123".into(),
        outcome: "finished".into(),
    };
    Profile {
        name: "ada".into(),
        bests: vec![ProfileBest {
            mode: ModeKind::Sprint,
            ruleset: RulesetId::Standard,
            best: Some("0:58.123".into()),
            rank: Some(3),
            game: Some(9),
        }],
        recent: vec![game(9, T0 + 3 * DAY), game(8, T0)],
        matches: vec![
            RecentMatch {
                id: 12,
                kind: "race".into(),
                ended_at: T0 + 2 * DAY,
                result: "2nd of 3".into(),
                outcome: "unranked".into(),
            },
            RecentMatch {
                id: 11,
                kind: "battle".into(),
                ended_at: T0 + DAY,
                result: "won vs bob\u{1b}[2J".into(),
                outcome: "+14 rating".into(),
            },
        ],
        rating: Some((1514.2, 80.0, 1)),
        ranked: None,
        charts: Default::default(),
    }
}

#[test]
fn the_profile_lists_versus_matches_with_the_games_newest_first() {
    let mut a = registered();
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0); // Profile
    assert_eq!(a.take_requests().last(), Some(&Request::Profile));
    let profile = ada_profile();
    a.deliver(Response::Profile(profile), 0);
    let s = rows(&a);
    let at = s
        .iter()
        .position(|l| l.contains("RECENT GAMES"))
        .unwrap_or_else(|| panic!("{}", s.join("\n")));
    assert_eq!(
        s[at + 1..at + 5],
        [
            " │  40 Lines  standard    0:58.123          finished      #9      2025-11-25  │ ",
            " │  Versus    race        2nd of 3          unranked      m12     2025-11-24  │ ",
            " │  Versus    battle      won vs bob[2J     +14 rating    m11     2025-11-23  │ ",
            " │  40 Lines  standard    0:58.123          finished      #8      2025-11-22  │ ",
        ],
        "{}",
        s.join("\n")
    );
    // Enter on a match asks for its replay, every seat's game, by its id.
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    assert_eq!(
        a.take_requests(),
        [Request::MatchReplay {
            of: minotty_protocol::MatchRef::Id(11)
        }]
    );
    assert!(screen(&a).contains("Loading the match replay..."));
    // Esc before it arrives: back on the profile, where the match was.
    press(&mut a, Key::Esc, 0);
    assert!(screen(&a).contains("RECENT GAMES"), "{}", screen(&a));
}

fn leaderboard(
    rows: Vec<minotty_protocol::BoardRow>,
    board: minotty_protocol::BoardId,
) -> Response {
    Response::Leaderboard(minotty_protocol::LeaderboardPage {
        board,
        ruleset: RulesetId::Standard,
        period: minotty_protocol::BoardPeriod::AllTime,
        offset: 0,
        total: rows.len() as u64,
        columns: vec!["Time".into(), "PPS".into()],
        rows,
        own: None,
    })
}

fn board_row(rank: u64, name: &str, time: &str, pps: &str) -> minotty_protocol::BoardRow {
    minotty_protocol::BoardRow {
        rank,
        name: name.into(),
        values: vec![time.into(), pps.into()],
        achieved_at: T0,
        game: Some(rank as i64),
    }
}

#[test]
fn the_leaderboards_arrows_sit_on_the_modes_that_left_and_right_change() {
    let mut a = registered();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0); // Leaderboards
    a.take_requests();
    let sprint = minotty_protocol::BoardId::Solo(ModeKind::Sprint);
    a.deliver(
        leaderboard(
            vec![
                board_row(1, "alice", "0:41.674", "2.45"),
                board_row(2, "bob", "0:58.001", "1.72"),
            ],
            sprint,
        ),
        0,
    );
    let blank = " │                                                                            │ ";
    let mut expected = vec![
        " ┌─────────────────────────────── LEADERBOARDS ───────────────────────────────┐ ",
        // Not every tab fits at 80 columns: those that do around the one shown, and `..`
        // where the others are (versus and the climb, Left from here or Right past survival).
        " │< 40 Lines Marathon Ultra Master Cheese Combo Descent Classic Survival .. > │ ",
        " │                       All time   This month   Today                        │ ",
        " │                       Ruleset: standard  (u changes)                       │ ",
        " │     # Player                 Time   PPS        Date                        │ ",
        " │     1 alice              0:41.674  2.45  2025-11-22                        │ ",
        " │     2 bob                0:58.001  1.72  2025-11-22                        │ ",
    ];
    expected.extend([blank; 14]);
    expected.extend([
        " │               1-2 of 2   Enter watch the replay   G race it                │ ",
        " │      Left/Right mode  Tab period  u ruleset  PgUp/PgDn page  Esc back      │ ",
        " └────────────────────────────────────────────────────────────────────────────┘ ",
    ]);
    assert_eq!(rows(&a), expected, "{}", rows(&a).join("\n"));
    // Left/Right change the mode; master has one board (standard): no ruleset key to offer.
    for _ in 0..3 {
        press(&mut a, Key::Right, 0);
    }
    let master = minotty_protocol::BoardId::Solo(ModeKind::Master);
    a.deliver(
        leaderboard(
            vec![board_row(1, "carol", "3 lines 0:09.120", "1.10")],
            master,
        ),
        0,
    );
    let frame = rows(&a);
    assert_eq!(
        frame[3],
        " │                             Ruleset: standard                              │ "
    );
    assert_eq!(
        frame[22],
        " │           Left/Right mode  Tab period  PgUp/PgDn page  Esc back            │ "
    );
    assert!(
        frame
            .iter()
            .all(|l| !l.contains("< standard") && !l.contains("u ruleset"))
    );
}

#[test]
fn the_personal_best_chart_names_each_moment_once_on_its_x_axis() {
    let mut a = registered();
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0); // Profile
    a.take_requests();
    // Two improvements 20 s apart at 14:05 UTC: the axis has one moment to name.
    let at = T0 + (14 * 60 + 5) * 60_000;
    let point = |at, value| minotty_protocol::BestPoint { at, value };
    let profile = Profile {
        name: "ada".into(),
        bests: vec![ProfileBest {
            mode: ModeKind::Sprint,
            ruleset: RulesetId::Standard,
            best: Some("0:58.123".into()),
            rank: Some(3),
            game: Some(9),
        }],
        recent: vec![],
        matches: vec![],
        rating: None,
        ranked: None,
        charts: minotty_protocol::ProfileCharts {
            bests: vec![minotty_protocol::BestHistory {
                mode: ModeKind::Sprint,
                ruleset: RulesetId::Standard,
                points: vec![point(at, 61_000), point(at + 20_000, 58_123)],
            }],
            pps: vec![],
        },
    };
    a.deliver(Response::Profile(profile), 0);
    press(&mut a, Key::Char('c'), 0);
    let text = screen(&a);
    assert!(text.contains("PERSONAL BEST"), "{text}");
    assert_eq!(text.matches("14:05").count(), 1, "{text}");
}

/// A 40 lines game given up at once, on its results screen.
fn sprint_results() -> App {
    let mut a = registered();
    a.play(ModeKind::Sprint, 0);
    a.tick(COUNTDOWN_MS);
    // Three pieces: one moved left and dropped, two dropped (4 keys).
    let t = COUNTDOWN_MS;
    press(&mut a, Key::Left, t + 100);
    press(&mut a, Key::Char(' '), t + 400);
    press(&mut a, Key::Char(' '), t + 900);
    press(&mut a, Key::Char(' '), t + 1_400);
    a.tick(t + 2_000);
    a.handle_key(ctrl('d'), t + 2_010);
    press(&mut a, Key::Enter, t + 2_020);
    assert!(screen(&a).contains("RESULTS"), "{}", screen(&a));
    a
}

#[test]
fn the_results_show_the_best_the_game_faced_and_the_difference() {
    let mut a = sprint_results();
    a.deliver(
        Response::GameRecorded(minotty_protocol::GameRecorded {
            game: 5,
            personal_best: true,
            rank: Some(3),
            note: None,
            previous_best: Some(("0:42.908".into(), "-1.234".into())),
        }),
        0,
    );
    let frame: Vec<String> = rows(&a).iter().map(|l| l.trim_end().to_owned()).collect();
    let expected = [
        "                  ┌────── RESULTS: 40 Lines · standard ──────┐",
        "                  │                                          │",
        "                  │                 FORFEIT                  │",
        "                  │               You gave up                │",
        "                  │        NEW PERSONAL BEST  -1.234         │",
        "                  │    Time                      0:02.010    │",
        "                  │    Pieces                           1    │",
        "                  │    Pieces per second             0.50    │",
        "                  │    Keys per piece                2.00    │",
        "                  │    Finesse faults                   0    │",
        "                  │    Lines                            0    │",
        "                  │    Score                           36    │",
        "                  │    Tetrises                         0    │",
        "                  │    Best combo / B2B             0 / 0    │",
        "                  │    Perfect clears                   0    │",
        "                  │    I 0  O 0  T 0  S 0  Z 1  J 0  L 0     │",
        "                  │      Global rank #3  (was 0:42.908)      │",
        "                  │                  Retry                   │",
        "                  │               Choose mode                │",
        "                  │                Main menu                 │",
        "                  │                                          │",
        "                  │    Enter select   R retry   Esc menu     │",
        "                  └──────────────────────────────────────────┘",
        "",
    ];
    assert_eq!(frame, expected, "{}", frame.join("\n"));

    // A ranked game that is not a best: the best it faced and how far it was.
    let mut b = sprint_results();
    b.deliver(
        Response::GameRecorded(minotty_protocol::GameRecorded {
            game: 6,
            personal_best: false,
            rank: None,
            note: None,
            previous_best: Some(("0:40.440".into(), "+1.234".into())),
        }),
        0,
    );
    let frame = rows(&b);
    assert_eq!(
        frame[4].trim_end(),
        "                  │        Your best 0:40.440  +1.234        │"
    );
    assert!(!frame.iter().any(|l| l.contains("PERSONAL BEST")));
}

#[test]
fn the_mode_select_shows_the_best_of_the_board_chosen() {
    let mut a = registered();
    a.take_requests();
    press(&mut a, Key::Enter, 0); // Play
    assert!(a.take_requests().contains(&Request::Bests));
    let best = |mode, ruleset, best: &str| minotty_protocol::ModeBest {
        mode,
        ruleset,
        best: best.into(),
    };
    a.deliver(
        Response::Bests(vec![
            best(ModeKind::Sprint, RulesetId::Standard, "0:41.674"),
            best(ModeKind::Sprint, RulesetId::Tetrs, "0:39.000\u{1b}[2J"),
            best(ModeKind::Master, RulesetId::Standard, "12 lines 1:02.000"),
        ]),
        0,
    );
    let frame = rows(&a);
    assert_eq!(
        frame[19],
        "  │                     Your best  0:41.674   G race it                      │  "
    );
    let line = |frame: &[String], text: &str| frame.iter().filter(|l| l.contains(text)).count();
    assert_eq!(
        line(&frame, "Your best  0:41.674"),
        1,
        "{}",
        frame.join("\n")
    );
    // Another ruleset: its own board's best (cleaned of control characters).
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Right, 0);
    let frame = rows(&a);
    assert!(
        frame.iter().any(|l| l.contains("tetrs")),
        "{}",
        frame.join("\n")
    );
    assert_eq!(
        line(&frame, "Your best  0:39.000[2J"),
        1,
        "{}",
        frame.join("\n")
    );
    assert_eq!(line(&frame, "0:41.674"), 0);
    // A mode without a best shows none.
    press(&mut a, Key::Down, 0);
    let frame = rows(&a);
    assert!(frame.iter().any(|l| l.contains("Marathon")));
    assert_eq!(line(&frame, "Your best"), 0, "{}", frame.join("\n"));
}

#[test]
fn cheese_results_lead_with_pieces_and_rows_dug() {
    let mut a = registered();
    a.play(ModeKind::Cheese, 0);
    a.tick(COUNTDOWN_MS);
    let t = COUNTDOWN_MS;
    press(&mut a, Key::Char(' '), t + 100);
    a.tick(t + 1_000);
    a.handle_key(ctrl('d'), t + 1_010);
    press(&mut a, Key::Enter, t + 1_020);
    let frame: Vec<String> = rows(&a).iter().map(|l| l.trim_end().to_owned()).collect();
    assert!(frame[0].contains("RESULTS: Cheese"), "{}", frame.join("\n"));
    assert_eq!(
        frame[5..9],
        [
            "                  │    Pieces                           1    │",
            "                  │    Rows dug                         0    │",
            "                  │    Time                      0:01.010    │",
            "                  │    Pieces per second             0.99    │",
        ],
        "{}",
        frame.join("\n")
    );
}

/// Every mode's board columns, row values and recent-game result, pinned as they were before
/// they came from the modes table (`minotty_domain::modes`' `shows` and `measure` columns).
#[test]
fn each_modes_board_columns_and_results_are_its_table_rows() {
    use crate::boards::{Figures, columns, recent_game, solo_values};
    use minotty_protocol::BoardId;
    let stats = minotty_engine::Stats {
        time: 241_290,
        score: 123_456,
        lines: 150,
        pieces: 37,
        max_combo: 12,
        level: 7,
        ..minotty_engine::Stats::default()
    };
    let f = Figures::from(&stats);
    #[rustfmt::skip]
    let table: [(ModeKind, &[&str], &[&str], &str); 10] = [
        (ModeKind::Sprint, &["Time", "PPS"], &["4:01.290", "0.15"], "4:01.290"),
        (ModeKind::Marathon, &["Score", "Lines"], &["123,456", "150"], "123,456 pts"),
        (ModeKind::Ultra, &["Score", "Lines"], &["123,456", "150"], "123,456 pts"),
        (ModeKind::Master, &["Result", "PPS"], &["150 lines 4:01.290", "0.15"], "150 lines 4:01.290"),
        (ModeKind::Cheese, &["Pieces", "Time"], &["37 pieces", "4:01.290"], "37 pieces"),
        (ModeKind::Combo, &["Combo", "Pieces"], &["12 combo", "37"], "12 combo"),
        (ModeKind::Custom, &["Result"], &["150 lines 4:01.290"], "150 lines 4:01.290"),
        (ModeKind::Endless, &["Score", "Lines"], &["123,456", "150"], "123,456"),
        (ModeKind::Puzzle, &["Result"], &["stage 7"], "stage 7"),
        (ModeKind::Descent, &["Gems"], &["123,456 gems"], "123,456 gems"),
    ];
    for (mode, titles, values, recent) in table {
        assert_eq!(columns(BoardId::Solo(mode)), titles, "{mode:?}");
        assert_eq!(solo_values(mode, f), values, "{mode:?}");
        let game = recent_game(1, mode, RulesetId::Standard, 0, "won", &stats);
        assert_eq!(game.result, recent, "{mode:?}");
    }
}
