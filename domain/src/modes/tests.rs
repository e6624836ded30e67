//! The table pinned against what the five places that used to decide it each said: the UI's
//! `takes_ruleset`/`fixed_ruleset`, the store's `home_ruleset`, `ruleset_modes` and
//! `has_board`, and the profiles' board lists of the server and `minotty play`.

use super::*;
use minotty_engine::ModeKind as K;
use minotty_engine::RulesetId as R;

/// (mode, takes the chosen ruleset, the ruleset it plays otherwise, home board's ruleset,
/// the rulesets it has a board under).
const EXPECTED: [(K, bool, R, R, &[R]); 13] = [
    (
        K::Sprint,
        true,
        R::Standard,
        R::Standard,
        &[R::Standard, R::TuiTetris, R::Tetrs],
    ),
    (
        K::Marathon,
        true,
        R::Standard,
        R::Standard,
        &[R::Standard, R::TuiTetris, R::Tetrs],
    ),
    (
        K::Ultra,
        true,
        R::Standard,
        R::Standard,
        &[R::Standard, R::TuiTetris, R::Tetrs],
    ),
    (K::Master, false, R::Standard, R::Standard, &[R::Standard]),
    (K::Cheese, false, R::Standard, R::Standard, &[R::Standard]),
    (K::Combo, false, R::Standard, R::Standard, &[R::Standard]),
    // Custom and endless take the player's ruleset but have no board (the two lists that
    // disagreed on them answered two questions: what a mode plays, and where it ranks).
    (K::Custom, true, R::Standard, R::Standard, &[]),
    (K::Endless, true, R::Standard, R::Standard, &[]),
    // Puzzle plays tetrs and has no board; its "home" stays standard, as the store said.
    (K::Puzzle, false, R::Tetrs, R::Standard, &[]),
    (K::Descent, false, R::Tetrs, R::Tetrs, &[R::Tetrs]),
    // Classic and survival play standard, where their one board is.
    (K::Classic, false, R::Standard, R::Standard, &[R::Standard]),
    (K::Survival, false, R::Standard, R::Standard, &[R::Standard]),
    (K::Ascent, false, R::Tetrs, R::Tetrs, &[R::Tetrs]),
];

#[test]
fn every_mode_plays_and_ranks_as_it_did() {
    for (kind, takes, fixed, home, boards) in EXPECTED {
        assert_eq!(takes_ruleset(kind), takes, "{kind:?} takes a ruleset");
        assert_eq!(fixed_ruleset(kind), fixed, "{kind:?} fixed ruleset");
        assert_eq!(home_ruleset(kind), home, "{kind:?} home");
        for r in RulesetId::ALL {
            assert_eq!(has_board(kind, r), boards.contains(&r), "{kind:?} {r:?}");
            let plays = if takes { r } else { fixed };
            assert_eq!(preset_ruleset(kind, r), plays, "{kind:?} chosen {r:?}");
        }
        assert_eq!(rules(kind).kind, kind);
    }
}

#[test]
fn the_mode_lists_are_the_tables() {
    assert_eq!(
        ranked_modes(),
        [
            K::Sprint,
            K::Marathon,
            K::Ultra,
            K::Master,
            K::Cheese,
            K::Combo,
            K::Descent,
            K::Classic,
            K::Survival,
            K::Ascent
        ]
    );
    assert_eq!(ruleset_modes(), [K::Sprint, K::Marathon, K::Ultra]);
    // A mode has a board exactly when it has a leaderboard key.
    for kind in ModeKind::ALL {
        let key = crate::rank_key(kind, &minotty_engine::Stats::default());
        assert_eq!(key.is_some(), ranked_modes().contains(&kind), "{kind:?}");
    }
}

#[test]
fn a_profile_lists_home_boards_then_the_other_rulesets() {
    let mut want: Vec<(K, R)> = ranked_modes().map(|m| (m, home_ruleset(m))).to_vec();
    for r in [R::TuiTetris, R::Tetrs] {
        for m in [K::Sprint, K::Marathon, K::Ultra] {
            want.push((m, r));
        }
    }
    assert_eq!(profile_boards(), want);
    assert_eq!(profile_boards().len(), 16);
    assert_eq!(profile_boards()[6], (K::Descent, R::Tetrs));
    assert_eq!(profile_boards()[7], (K::Classic, R::Standard));
    assert_eq!(profile_boards()[8], (K::Survival, R::Standard));
    assert_eq!(profile_boards()[9], (K::Ascent, R::Tetrs));
}

/// What each mode's boards measure, the figure its charts draw of one game, and what a game
/// lacks when it achieved nothing in it.
#[test]
fn each_mode_measures_what_its_board_ranks() {
    use super::{Measure, measure};
    use minotty_engine::Stats;
    let game = Stats {
        time: 61_000,
        lines: 12,
        pieces: 33,
        score: 4_200,
        max_combo: 5,
        garbage_cleared: 7,
        ..Stats::default()
    };
    let points = |bucket_shift| Measure::Points { bucket_shift };
    #[rustfmt::skip]
    let table = [
        (ModeKind::Sprint, Measure::Time, "time", 61_000, None),
        (ModeKind::Marathon, points(11), "score", 4_200, Some("no points scored")),
        (ModeKind::Ultra, points(10), "score", 4_200, Some("no points scored")),
        (ModeKind::Master, Measure::LinesThenTime, "lines", 12, Some("no line cleared")),
        (ModeKind::Cheese, Measure::Pieces, "pieces", 33, None),
        (ModeKind::Combo, Measure::Combo, "combo", 5, Some("no combo")),
        (ModeKind::Custom, Measure::Unranked, "score", 4_200, None),
        (ModeKind::Endless, Measure::Unranked, "score", 4_200, None),
        (ModeKind::Puzzle, Measure::Unranked, "score", 4_200, None),
        (ModeKind::Descent, Measure::Gems, "gems", 4_200, Some("no gem collected")),
        (ModeKind::Classic, points(11), "score", 4_200, Some("no points scored")),
        (ModeKind::Survival, Measure::TimeSurvived, "time", 61_000, Some("no garbage row dug")),
        (ModeKind::Ascent, Measure::Gems, "gems", 4_200, Some("no gem collected")),
    ];
    for (kind, m, name, figure, lacks) in table {
        assert_eq!(measure(kind), m, "{kind:?}");
        assert_eq!(m.figure_name(), name, "{kind:?}");
        assert_eq!(m.figure(&game), figure, "{kind:?}");
        assert_eq!(
            m.lacks(&game),
            None,
            "{kind:?}: the game achieved something"
        );
        assert_eq!(m.lacks(&Stats::default()), lacks, "{kind:?}: an empty game");
    }
}

/// The game screens' per-mode flags, pinned as the UI's own lists had them.
#[test]
fn each_modes_flags() {
    // (mode, retry at once, a game left early is stored, races ghosts, clock in tenths)
    #[rustfmt::skip]
    let table = [
        (K::Sprint, true, false, true, true),
        (K::Marathon, false, true, false, false),
        (K::Ultra, true, true, true, true),
        (K::Master, false, true, false, true),
        (K::Cheese, true, false, false, true),
        (K::Combo, true, true, false, false),
        (K::Custom, false, false, false, false),
        (K::Endless, false, true, false, false),
        (K::Puzzle, false, false, false, false),
        (K::Descent, false, true, false, false),
        (K::Classic, false, true, false, false),
        (K::Survival, true, true, false, true),
        (K::Ascent, false, true, false, false),
    ];
    for (kind, retry, stored, ghosts, tenths) in table {
        let f = rules(kind).flags;
        assert_eq!(
            (
                f.retry_at_once,
                f.left_games_stored,
                f.races_ghosts,
                f.clock_tenths
            ),
            (retry, stored, ghosts, tenths),
            "{kind:?}"
        );
    }
}

/// Which way each measure's charts go and how their figure is written.
#[test]
fn each_measure_says_which_way_is_better_and_whether_it_is_a_time() {
    use super::Measure;
    // (measure, lower is better, a time)
    #[rustfmt::skip]
    let table = [
        (Measure::Time, true, true),
        (Measure::Points { bucket_shift: 10 }, false, false),
        (Measure::LinesThenTime, false, false),
        (Measure::Pieces, true, false),
        (Measure::Combo, false, false),
        (Measure::Gems, false, false),
        (Measure::TimeSurvived, false, true),
        (Measure::Unranked, false, false),
    ];
    for (m, lower, time) in table {
        assert_eq!((m.lower_is_better(), m.is_time()), (lower, time), "{m:?}");
    }
}
