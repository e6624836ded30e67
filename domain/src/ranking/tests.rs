//! The ranking's keys, buckets and eligibility, case by case.

use super::*;
use crate::modes::ranked_modes;
use minotty_engine::{Mode, RulesetId};

fn stats(time: u64, score: u64, lines: u32, pieces: u32, max_combo: u32) -> Stats {
    Stats {
        time,
        score,
        lines,
        pieces,
        max_combo,
        ..Stats::default()
    }
}

#[test]
fn keys_order_games_the_way_each_mode_ranks_them() {
    // (mode, better, worse)
    let cases = [
        (
            ModeKind::Sprint,
            stats(30_000, 0, 40, 100, 0),
            stats(31_000, 9, 40, 90, 9),
        ),
        (
            ModeKind::Marathon,
            stats(9, 5_000, 1, 1, 0),
            stats(1, 4_999, 9, 1, 0),
        ),
        (
            ModeKind::Ultra,
            stats(9, 80_000, 1, 1, 0),
            stats(1, 70_000, 9, 1, 0),
        ),
        (
            ModeKind::Master,
            stats(900_000, 0, 100, 1, 0),
            stats(1_000, 0, 99, 1, 0),
        ),
        (
            ModeKind::Master,
            stats(100_000, 0, 100, 1, 0),
            stats(100_001, 0, 100, 1, 0),
        ),
        (
            ModeKind::Cheese,
            stats(90_000, 0, 1, 50, 0),
            stats(1_000, 0, 1, 51, 0),
        ),
        (
            ModeKind::Combo,
            stats(1, 0, 1, 1, 12),
            stats(9, 9, 9, 9, 11),
        ),
        // Descent: more gems (its score) first, whatever else.
        (
            ModeKind::Descent,
            stats(180_000, 37, 0, 0, 0),
            stats(180_000, 36, 9, 9, 9),
        ),
        // Classic: the score, whatever else.
        (
            ModeKind::Classic,
            stats(1, 999_999, 1, 1, 0),
            stats(9, 999_998, 99, 99, 9),
        ),
        // Survival: the longer game first, whatever else.
        (
            ModeKind::Survival,
            stats(120_001, 0, 1, 1, 0),
            stats(120_000, 9_999, 99, 99, 9),
        ),
    ];
    for (kind, better, worse) in cases {
        let (b, w) = (rank_key(kind, &better), rank_key(kind, &worse));
        assert!(b.unwrap() < w.unwrap(), "{kind:?}: {b:?} vs {w:?}");
    }
    assert_eq!(rank_key(ModeKind::Custom, &Stats::default()), None);
    assert_eq!(rank_key(ModeKind::Endless, &Stats::default()), None);
    assert!(!has_board(ModeKind::Endless, RulesetId::Standard));
    // Buckets are ranges of keys in order: a better key never has a later bucket.
    for kind in ranked_modes() {
        for (a, b) in [
            (-5_000, -4_999),
            (-1, 0),
            (0, 1),
            (255, 256),
            (1 << 40, (1 << 40) + 1),
        ] {
            assert!(
                bucket_floor(kind, a) <= bucket_floor(kind, b),
                "{kind:?} {a} {b}"
            );
            assert!(bucket_floor(kind, a) <= a, "{kind:?} {a}");
        }
    }
    assert_eq!(bucket_floor(ModeKind::Sprint, 30_100), 30_208 - 256);
    assert_eq!(bucket_floor(ModeKind::Marathon, -1), -2048);
    assert_eq!(bucket_floor(ModeKind::Combo, -7), -7);
    assert_eq!(bucket_floor(ModeKind::Survival, -120_000), -120_064);
    assert_eq!(bucket_floor(ModeKind::Classic, -1), -2048);
    // Equal stats that the mode ranks on give equal keys whatever else differs.
    let a = rank_key(ModeKind::Combo, &stats(1, 100, 5, 5, 7));
    assert_eq!(a, rank_key(ModeKind::Combo, &stats(9, 900, 9, 9, 7)));
    // Extreme values saturate instead of wrapping.
    assert!(rank_key(ModeKind::Marathon, &stats(0, u64::MAX, 0, 0, 0)).unwrap() < 0);
    assert!(rank_key(ModeKind::Master, &stats(u64::MAX, 0, u32::MAX, 0, 0)).unwrap() < 0);
}

/// Stats that achieved something in every mode's measure.
fn something() -> Stats {
    stats(60_000, 100, 4, 10, 2)
}

#[test]
fn a_game_that_achieved_nothing_in_its_measure_never_ranks() {
    let ended = Some((EndReason::BlockOut, false));
    let time_up = Some((EndReason::Limit(minotty_engine::Stat::Time), true));
    // (mode, ruleset, outcome, the stats that rank on nothing)
    let cases = [
        (
            Mode::master(),
            RulesetId::Standard,
            ended,
            stats(4_900, 0, 0, 11, 0),
        ),
        (
            Mode::marathon(),
            RulesetId::Standard,
            ended,
            stats(9_000, 0, 0, 9, 0),
        ),
        (
            Mode::ultra(),
            RulesetId::Tetrs,
            time_up,
            stats(120_000, 0, 0, 9, 0),
        ),
        (
            Mode::combo(),
            RulesetId::Standard,
            ended,
            stats(900, 0, 0, 1, 0),
        ),
        (
            Mode::descent(),
            RulesetId::Tetrs,
            time_up,
            stats(180_000, 0, 0, 0, 0),
        ),
        (
            Mode::classic(0, false),
            RulesetId::Standard,
            ended,
            stats(150_000, 0, 0, 10, 0),
        ),
        // A survival game that dug nothing, however long (and however many lines of its
        // own it cleared), only waited for the garbage.
        (
            Mode::survival(),
            RulesetId::Standard,
            ended,
            stats(106_000, 400, 4, 30, 1),
        ),
    ];
    let none = minotty_engine::Tuning::default();
    for (mode, ruleset, outcome, nothing) in cases {
        let kind = mode.kind;
        let r = replay_under(mode, ruleset, none);
        assert!(
            matches!(eligible(&r, &nothing, outcome), Err(Unranked::Nothing(_))),
            "{kind:?}"
        );
        // The least that is something ranks.
        let mut least = nothing;
        match kind {
            ModeKind::Master => least.lines = 1,
            ModeKind::Combo => least.max_combo = 1,
            ModeKind::Survival => least.garbage_cleared = 1,
            _ => least.score = 1,
        }
        assert!(eligible(&r, &least, outcome).is_ok(), "{kind:?}");
    }
    // The goal modes: nothing is a missed goal.
    let sprint = replay(Mode::sprint());
    let zero = Stats::default();
    assert_eq!(eligible(&sprint, &zero, ended), Err(Unranked::GoalMissed));
}

fn replay(mode: Mode) -> Replay {
    minotty_engine::Game::new(
        minotty_engine::GameConfig {
            mode,
            ..Default::default()
        },
        1,
    )
    .replay()
}

/// 40 lines' preset is the one of the replay's ruleset version: before version 3 its level
/// rose with the lines; from version 3 a game whose level rises is no preset game.
#[test]
fn forty_lines_ranks_against_the_preset_of_its_version() {
    let s = something();
    let goal = Some((EndReason::Limit(minotty_engine::Stat::Lines), true));
    let mut rising = replay(Mode::sprint());
    rising.mode.level_increase = true;
    assert_eq!(
        eligible(&rising, &s, goal),
        Err(Unranked::NotThePreset(ModeKind::Sprint.id()))
    );
    rising.version = 2;
    assert!(eligible(&rising, &s, goal).is_ok());
    let mut fixed = replay(Mode::sprint());
    fixed.version = 2;
    assert!(eligible(&fixed, &s, goal).is_err());
}

#[test]
fn only_finished_preset_games_rank() {
    let s = something();
    let sprint = replay(Mode::sprint());
    let goal = Some((EndReason::Limit(minotty_engine::Stat::Lines), true));
    assert!(eligible(&sprint, &s, goal).is_ok());
    let topped = Some((EndReason::BlockOut, false));
    assert_eq!(eligible(&sprint, &s, topped), Err(Unranked::GoalMissed));
    assert_eq!(eligible(&sprint, &s, None), Err(Unranked::Unfinished));
    let forfeit = Some((EndReason::Forfeit, false));
    assert_eq!(eligible(&sprint, &s, forfeit), Err(Unranked::Forfeit));
    assert!(eligible(&replay(Mode::marathon()), &s, topped).is_ok());
    assert_eq!(
        eligible(&replay(Mode::cheese(5)), &s, goal),
        Err(Unranked::NotThePreset("cheese"))
    );
    let mut fake = Mode::custom(0, true, Some((minotty_engine::Stat::Lines, 1)));
    fake.kind = ModeKind::Sprint;
    assert_eq!(
        eligible(&replay(fake), &s, goal),
        Err(Unranked::NotThePreset("40l"))
    );
    let custom = replay(Mode::custom(0, true, None));
    assert_eq!(eligible(&custom, &s, topped), Err(Unranked::NoLeaderboard));
    let endless = replay(Mode::endless());
    assert_eq!(eligible(&endless, &s, topped), Err(Unranked::NoLeaderboard));
    let flooded = Some((EndReason::InputLimit, false));
    assert_eq!(
        eligible(&replay(Mode::marathon()), &s, flooded),
        Err(Unranked::InputLimit)
    );
}

fn replay_under(mode: Mode, ruleset: RulesetId, tuning: minotty_engine::Tuning) -> Replay {
    minotty_engine::Game::new(
        minotty_engine::GameConfig {
            ruleset,
            mode,
            tuning,
            ..Default::default()
        },
        1,
    )
    .replay()
}

#[test]
fn other_rulesets_rank_on_their_own_boards_untuned() {
    let s = something();
    let goal = Some((EndReason::Limit(minotty_engine::Stat::Lines), true));
    let topped = Some((EndReason::BlockOut, false));
    let none = minotty_engine::Tuning::default();
    for ruleset in [RulesetId::TuiTetris, RulesetId::Tetrs] {
        let sprint = replay_under(Mode::sprint(), ruleset, none);
        assert!(eligible(&sprint, &s, goal).is_ok(), "{ruleset:?}");
        let ultra = replay_under(Mode::ultra(), ruleset, none);
        assert!(eligible(&ultra, &s, topped).is_ok(), "{ruleset:?}");
        let master = replay_under(Mode::master(), ruleset, none);
        assert_eq!(eligible(&master, &s, topped), Err(Unranked::Ruleset));
        let tuned = minotty_engine::Tuning {
            lock_delay: Some(300),
            ..none
        };
        let sprint = replay_under(Mode::sprint(), ruleset, tuned);
        assert_eq!(eligible(&sprint, &s, goal), Err(Unranked::Tuned));
    }
    let tuned = minotty_engine::Tuning {
        no_soft_drop_lock: true,
        ..none
    };
    let marathon = replay_under(Mode::marathon(), RulesetId::Standard, tuned);
    assert_eq!(eligible(&marathon, &s, topped), Err(Unranked::Tuned));
    assert!(has_board(ModeKind::Combo, RulesetId::Standard));
    // Descent has one board, under tetrs only.
    assert!(has_board(ModeKind::Descent, RulesetId::Tetrs));
    assert!(!has_board(ModeKind::Descent, RulesetId::Standard));
    assert!(!has_board(ModeKind::Descent, RulesetId::TuiTetris));
    let time_up = Some((EndReason::Limit(minotty_engine::Stat::Time), true));
    let descent = replay_under(Mode::descent(), RulesetId::Tetrs, none);
    let gems = Stats {
        score: 12,
        ..Stats::default()
    };
    assert_eq!(eligible(&descent, &gems, time_up), Ok(-12));
    let standard = replay_under(Mode::descent(), RulesetId::Standard, none);
    assert_eq!(eligible(&standard, &gems, time_up), Err(Unranked::Ruleset));
    assert!(!has_board(ModeKind::Combo, RulesetId::Tetrs));
    assert!(!has_board(ModeKind::Custom, RulesetId::Standard));
}

#[test]
fn a_pause_unranks_timed_modes_only() {
    let s = something();
    let time_up = Some((EndReason::Limit(minotty_engine::Stat::Time), true));
    let topped = Some((EndReason::BlockOut, false));
    for (mode, outcome, unranked) in [
        (Mode::ultra(), time_up, true),
        (Mode::master(), topped, true),
        (Mode::marathon(), topped, false),
        (Mode::combo(), topped, false),
        (Mode::survival(), topped, true),
        (Mode::classic(18, false), topped, false),
    ] {
        let s = Stats {
            garbage_cleared: 1,
            ..s
        };
        let mut r = replay(mode);
        assert!(eligible(&r, &s, outcome).is_ok());
        r.inputs.push((10, minotty_engine::Input::Pause));
        let got = eligible(&r, &s, outcome);
        assert_eq!(
            got.err() == Some(Unranked::Paused),
            unranked,
            "{:?}",
            r.mode.kind
        );
    }
}

#[test]
fn a_game_a_bot_played_never_ranks() {
    let s = something();
    let topped = Some((EndReason::ComboBroken, false));
    for mode in [Mode::combo(), Mode::marathon()] {
        let mut r = replay(mode);
        assert!(eligible(&r, &s, topped).is_ok());
        r.inputs.push((10, minotty_engine::Input::Bot));
        assert_eq!(eligible(&r, &s, topped), Err(Unranked::Bot));
        // Also when the player took the game back and paused it.
        r.inputs.push((20, minotty_engine::Input::Pause));
        assert_eq!(eligible(&r, &s, topped), Err(Unranked::Bot));
    }
}

#[test]
fn a_ghost_race_never_ranks() {
    let s = something();
    let time_up = Some((EndReason::Limit(minotty_engine::Stat::Time), true));
    let mut r = replay(Mode::ultra());
    assert!(eligible(&r, &s, time_up).is_ok());
    r.inputs.insert(0, (0, minotty_engine::Input::Ghost));
    assert_eq!(eligible(&r, &s, time_up), Err(Unranked::Ghost));
    assert_eq!(
        Unranked::Ghost.to_string(),
        "a ghost race: the pieces were known in advance"
    );
}

#[test]
fn a_game_taken_back_does_not_rank() {
    let s = Stats {
        score: 1000,
        lines: 3,
        time: 180_000,
        ..Stats::default()
    };
    let time_up = Some((EndReason::Limit(minotty_engine::mode::Stat::Time), true));
    let mut r = replay(Mode::ultra());
    assert!(eligible(&r, &s, time_up).is_ok());
    r.inputs.push((90_000, minotty_engine::Input::Rewind));
    assert_eq!(eligible(&r, &s, time_up), Err(Unranked::Rewound));
}

/// Classic ranks from every start level the menu offers, on one board by score, but not
/// with its lock delay, nor from a level it does not offer; survival ranks a finished game
/// that dug garbage, on its time.
#[test]
fn classic_ranks_from_any_start_level_without_lock_delay_and_survival_on_its_time() {
    let s = something();
    let topped = Some((EndReason::BlockOut, false));
    for level in 0..=CLASSIC_MAX_START {
        let r = replay(Mode::classic(level, false));
        assert!(is_ranked_preset(&r.mode, r.version), "level {level}");
        assert_eq!(eligible(&r, &s, topped), Ok(-100), "level {level}");
        let aided = replay(Mode::classic(level, true));
        assert_eq!(
            eligible(&aided, &s, topped),
            Err(Unranked::NotThePreset("classic")),
            "level {level} with lock delay"
        );
    }
    let mut beyond = replay(Mode::classic(0, false));
    beyond.mode.start_level = CLASSIC_MAX_START + 1;
    assert_eq!(
        eligible(&beyond, &s, topped),
        Err(Unranked::NotThePreset("classic"))
    );
    let mut levels = replay(Mode::classic(5, false));
    levels.mode.gravity = minotty_engine::Gravity::Levels;
    assert!(eligible(&levels, &s, topped).is_err(), "marathon's gravity");
    // The ruleset is standard's alone.
    let tetrs = replay_under(
        Mode::classic(0, false),
        RulesetId::Tetrs,
        Default::default(),
    );
    assert_eq!(eligible(&tetrs, &s, topped), Err(Unranked::Ruleset));
    // Survival: the time, once a garbage row was dug; unfinished games do not rank.
    let survival = replay(Mode::survival());
    let dug = Stats {
        garbage_cleared: 3,
        ..s
    };
    assert_eq!(eligible(&survival, &dug, topped), Ok(-60_000));
    assert_eq!(
        eligible(&survival, &s, topped),
        Err(Unranked::Nothing("no garbage row dug"))
    );
    assert_eq!(eligible(&survival, &dug, None), Err(Unranked::Unfinished));
    let other = replay_under(Mode::survival(), RulesetId::TuiTetris, Default::default());
    assert_eq!(eligible(&other, &dug, topped), Err(Unranked::Ruleset));
}
