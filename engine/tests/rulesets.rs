//! The `tui-tetris` and `tetrs` rulesets against their seeds, each rule drawn as a small case
//! next to what `standard` does there.

mod common;

use common::*;
use minotty_engine::ruleset::{LockDown, Ruleset};
use minotty_engine::scoring::{self, Spin};
use minotty_engine::{
    Button, Event, EventKind, Game, GameConfig, Handling, Mode, Piece, Rotation, RotationSystem,
    RulesetId, Tuning,
};

fn config_for(ruleset: RulesetId, mode: Mode) -> GameConfig {
    GameConfig {
        ruleset,
        mode,
        handling: Handling::default(),
        tuning: Tuning::default(),
    }
}

/// A started game of `ruleset` on `rows`, dealing `pattern` first (every ruleset here deals
/// from the rules seed's bag unless its generator says otherwise, so tetrs games pin it).
fn on_board(config: GameConfig, pattern: &str, rows: &[&str]) -> Sim {
    let mut sim = Sim::with_config(config, seed_for(pattern));
    sim.game.set_board(board(rows));
    sim.at(0);
    sim
}

/// Runs the game with no input until something locks; returns when.
fn wait_for_lock(sim: &mut Sim) -> u64 {
    loop {
        let t = sim.game.next_deadline().expect("a deadline");
        let ev = sim.at(t);
        if let Some(t) = lock_time(&ev) {
            return t;
        }
    }
}

/// 18 rows from row 22 down: each full but for column 9, so the piece at spawn (rows 20-21)
/// rests on them and nothing clears.
fn shelf() -> Vec<&'static str> {
    vec!["#########."; 18]
}

// ---- tui-tetris: the rules seed to the letter ----

#[test]
fn tui_tetris_lock_delay_is_464_ms_on_the_16_ms_step() {
    // A T spawned resting on the shelf: its lock timer counts from 0 in 16 ms steps until it
    // reaches 450, which is the 29th step.
    let mut sim = on_board(
        config_for(RulesetId::TuiTetris, Mode::sprint()),
        "T",
        &shelf(),
    );
    assert_eq!(wait_for_lock(&mut sim), 464);
    let mut sim = on_board(
        config_for(RulesetId::Standard, Mode::sprint()),
        "T",
        &shelf(),
    );
    assert_eq!(wait_for_lock(&mut sim), 450);
}

/// [`on_board`] under `version` of the config's ruleset.
fn on_board_at(config: GameConfig, version: u16, pattern: &str, rows: &[&str]) -> Sim {
    let game = Game::of_version(config, seed_for(pattern), version).expect("a known version");
    let mut sim = Sim {
        game,
        t: 0,
        log: Vec::new(),
    };
    sim.game.set_board(board(rows));
    sim.at(0);
    sim
}

#[test]
fn tui_tetris_line_clear_pause_was_192_ms_before_the_next_piece_until_version_4() {
    // An I dropped flat into a row open at columns 3-6 clears it at 0; the next piece spawned
    // after 12 steps of 16 ms. From version 5 it spawns at the lock and the pause freezes
    // only gravity and the lock delay (`seed_texts.rs`).
    let rows = ["###....###", "#########."];
    for (ruleset, spawn) in [(RulesetId::TuiTetris, 192), (RulesetId::Standard, 180)] {
        for version in [4, Ruleset::get(ruleset).version] {
            let mut sim = on_board_at(config_for(ruleset, Mode::sprint()), version, "I?", &rows);
            let ev = sim.tap(Button::HardDrop);
            assert_eq!(clear(&ev).lines, 1);
            sim.wait_for_piece();
            let live = ruleset == RulesetId::TuiTetris && version >= 5;
            let spawn = if live { 0 } else { spawn };
            let spawns: Vec<u64> = sim
                .log
                .iter()
                .filter(|e| matches!(e.kind, EventKind::Spawn { .. }))
                .map(|e| e.time)
                .collect();
            assert_eq!(spawns, [0, spawn], "{ruleset:?} v{version}");
        }
    }
}

#[test]
fn tui_tetris_gravity_fell_on_the_step_grid_from_each_row_until_version_4() {
    let mut sim = on_board_at(
        config_for(RulesetId::TuiTetris, Mode::sprint()),
        4,
        "?",
        &[],
    );
    let y0 = sim.placed().y;
    // Level 0: 1000 ms a row, each fall on the first 16 ms step at or after it is due, the
    // next counted from it. From version 5 the accumulator carries the 8 ms over: the second
    // row at 2000 (`seed_texts.rs`).
    sim.at(1007);
    assert_eq!(sim.placed().y, y0);
    sim.at(1008);
    assert_eq!(sim.placed().y, y0 + 1);
    sim.at(2015);
    assert_eq!(sim.placed().y, y0 + 1);
    sim.at(2016);
    assert_eq!(sim.placed().y, y0 + 2);
}

#[test]
fn tui_tetris_soft_drop_scores_its_50_ms_steps_not_the_faster_gravity() {
    // Held from 0 at level 0: steps at 0, 50, 100, 150, 200 (+1 each) and gravity at a tenth
    // of 1000 ms on the step grid (112), which scores nothing.
    let mut sim = Sim::with_config(config_for(RulesetId::TuiTetris, Mode::sprint()), 1);
    sim.at(0);
    let y0 = sim.placed().y;
    sim.press(Button::SoftDrop);
    sim.at(200);
    assert_eq!(sim.placed().y - y0, 6);
    assert_eq!(sim.game.stats().score, 5);
    // Standard scores every row the soft drop falls.
    let mut sim = Sim::with_config(config_for(RulesetId::Standard, Mode::sprint()), 1);
    sim.at(0);
    let y0 = sim.placed().y;
    sim.press(Button::SoftDrop);
    sim.at(200);
    let rows = (sim.placed().y - y0) as u64;
    assert_eq!(sim.game.stats().score, rows);
}

/// A T at spawn (rows 20-21) turning clockwise: kicks 0, 1, 3 and 4 hit the blocks at
/// (3, 22) and (4, 22); kick 2 lifts it into row 19, above the visible field.
fn ceiling_rows() -> Vec<&'static str> {
    let mut rows = vec!["...##....."];
    rows.extend(std::iter::repeat_n("..........", 17));
    rows
}

#[test]
fn tui_tetris_has_no_rows_above_the_field_to_kick_into() {
    let rows = ceiling_rows();
    let mut sim = on_board(config_for(RulesetId::Standard, Mode::sprint()), "T", &rows);
    sim.tap(Button::RotateCw);
    assert_eq!(sim.placed().rotation, Rotation::East);
    assert!(sim.placed().cells().iter().any(|&(_, y)| y < 20));
    let mut sim = on_board(config_for(RulesetId::TuiTetris, Mode::sprint()), "T", &rows);
    sim.tap(Button::RotateCw);
    assert_eq!(sim.placed().rotation, Rotation::North);
}

#[test]
fn tui_tetris_has_no_180_no_sonic_drop_and_the_o_does_not_rotate() {
    let mut sim = Sim::with_config(config_for(RulesetId::TuiTetris, Mode::sprint()), 1);
    sim.at(0);
    let before = sim.placed();
    sim.tap(Button::Rotate180);
    sim.tap(Button::SonicDrop);
    assert_eq!(sim.placed(), before);
    for ruleset in [RulesetId::TuiTetris, RulesetId::Standard] {
        let mut sim = on_board(config_for(ruleset, Mode::sprint()), "O", &[]);
        let ev = sim.tap(Button::RotateCw);
        let rotated = has(&ev, |k| matches!(k, EventKind::Rotate { .. }));
        assert_eq!(rotated, ruleset == RulesetId::Standard, "{ruleset:?}");
    }
}

/// The T-spin double slot of `tests/tspin.rs`.
const TSD: [&str; 3] = [
    "####..#...", // 37
    "###...####", // 38
    "####.#####", // 39
];

/// Moves a T into the TSD slot without sonic drop (which tui-tetris lacks): turn, shift,
/// soft-drop to the floor of the overhang, turn into the slot with kick 2.
fn t_into_tsd_slot(ruleset: RulesetId) -> Sim {
    let mut sim = on_board(config_for(ruleset, Mode::sprint()), "T", &TSD);
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Right, 1);
    while sim.game.board().fits(&sim.placed().shifted(0, 1)) {
        sim.tap(Button::SoftDrop);
    }
    assert_eq!(
        (sim.placed().rotation, sim.placed().x, sim.placed().y),
        (Rotation::West, 4, 36)
    );
    sim.tap(Button::RotateCcw);
    assert_eq!(sim.placed().rotation, Rotation::South);
    sim
}

#[test]
fn tui_tetris_hard_drop_clears_the_rotation_flag_even_over_zero_rows() {
    // Standard keeps the flag through a zero-row hard drop: a T-spin double (1200).
    let mut sim = t_into_tsd_slot(RulesetId::Standard);
    let ev = sim.tap(Button::HardDrop);
    assert_eq!((lock_spin(&ev), clear(&ev).score), (Spin::Full, 1200));
    // The rules seed's hard drop is an action: the last action was not a rotation, so this is
    // a plain double (100).
    let mut sim = t_into_tsd_slot(RulesetId::TuiTetris);
    let ev = sim.tap(Button::HardDrop);
    assert_eq!((lock_spin(&ev), clear(&ev).score), (Spin::None, 100));
}

#[test]
fn tui_tetris_t_spin_by_lock_delay() {
    // Left to lock on its own, the same turn is a T-spin double in both.
    for ruleset in [RulesetId::TuiTetris, RulesetId::Standard] {
        let mut sim = t_into_tsd_slot(ruleset);
        let score = sim.game.stats().score;
        wait_for_lock(&mut sim);
        let c = clear(&sim.log);
        assert_eq!((c.spin, c.score), (Spin::Full, 1200), "{ruleset:?}");
        assert_eq!(sim.game.stats().score, score + 1200);
    }
}

/// The T-spin triple slot with (3, 39) open: a mini shape reached with the last kick.
const TST_MINI: [&str; 5] = [
    "....######", // 35
    ".....#####", // 36
    "####.#####", // 37
    "###..#####", // 38
    "###..#####", // 39
];

#[test]
fn tui_tetris_does_not_upgrade_a_last_kick_mini() {
    for (ruleset, spin, score) in [
        (RulesetId::Standard, Spin::Full, 1200),
        (RulesetId::TuiTetris, Spin::Mini, 400),
    ] {
        let mut sim = on_board(config_for(ruleset, Mode::sprint()), "T", &TST_MINI);
        sim.shift(Button::Left, 2);
        while sim.game.board().fits(&sim.placed().shifted(0, 1)) {
            sim.tap(Button::SoftDrop);
        }
        sim.shift(Button::Right, 1);
        sim.tap(Button::RotateCcw);
        assert_eq!(
            (sim.placed().rotation, sim.placed().x, sim.placed().y),
            (Rotation::West, 3, 37)
        );
        wait_for_lock(&mut sim);
        let c = clear(&sim.log);
        assert_eq!((c.spin, c.lines, c.score), (spin, 2, score), "{ruleset:?}");
    }
}

/// Four rows open in column 9 only.
const WELL4: [&str; 4] = ["#########.", "#########.", "#########.", "#########."];

/// An I turned upright and dropped into column 9 (a tetris).
fn tetris(sim: &mut Sim) -> Vec<Event> {
    assert_eq!(sim.wait_for_piece(), Piece::I);
    sim.game.set_board(board(&WELL4));
    sim.tap(Button::RotateCw);
    let dx = 9 - sim.placed().cells()[0].0;
    sim.shift(Button::Right, dx as usize);
    sim.tap(Button::HardDrop)
}

#[test]
fn tui_tetris_a_lock_without_lines_ends_back_to_back() {
    for (ruleset, b2b) in [(RulesetId::Standard, true), (RulesetId::TuiTetris, false)] {
        let mut sim = Sim::with_config(config_for(ruleset, Mode::sprint()), seed_for("I"));
        sim.at(0);
        assert!(!clear(&tetris(&mut sim)).b2b);
        // Locks that clear nothing until the next I.
        sim.junk();
        while sim.wait_for_piece() != Piece::I {
            sim.junk();
        }
        let c = clear(&tetris(&mut sim));
        assert_eq!((c.lines, c.b2b), (4, b2b), "{ruleset:?}");
    }
}

#[test]
fn tui_tetris_the_landing_step_uses_a_reset() {
    // Fifteen shifts on the ground after a gravity landing: in the rules seed the landing used
    // the first reset, so the fifteenth shift no longer restarts the timer (standard: it does).
    for (ruleset, restarted) in [(RulesetId::TuiTetris, false), (RulesetId::Standard, true)] {
        let mut sim = Sim::with_config(config_for(ruleset, Mode::sprint()), seed_for("T"));
        sim.at(0);
        // Fall to the floor by gravity at level 0.
        while sim.game.active().is_some_and(|a| a.lock_at.is_none()) {
            let t = sim.game.next_deadline().unwrap();
            sim.at(t);
        }
        let mut dir = Button::Left;
        for _ in 0..14 {
            sim.at(sim.t + 100);
            sim.tap(dir);
            dir = if dir == Button::Left {
                Button::Right
            } else {
                Button::Left
            };
        }
        sim.at(sim.t + 100);
        let before = sim.game.active().unwrap().lock_at;
        sim.tap(dir);
        let after = sim.game.active().unwrap().lock_at;
        assert_eq!(after != before, restarted, "{ruleset:?}");
    }
}

#[test]
fn tui_tetris_resets_come_back_in_the_air() {
    // A T on a one-row step: spent resets on the ledge, then shifted off it, it falls, and
    // back on the ground its resets start again from the one its landing used.
    let mut sim = on_board(
        config_for(RulesetId::TuiTetris, Mode::sprint()),
        "T",
        &["######....", "######...."],
    );
    sim.shift(Button::Left, 3);
    while sim.game.board().fits(&sim.placed().shifted(0, 1)) {
        sim.tap(Button::SoftDrop);
    }
    for dir in [Button::Right, Button::Left, Button::Right, Button::Left] {
        sim.tap(dir);
    }
    assert!(sim.game.active().unwrap().resets >= 4);
    sim.shift(Button::Right, 6);
    assert_eq!(sim.game.active().unwrap().resets, 0, "in the air");
    while sim.game.active().unwrap().lock_at.is_none() {
        let t = sim.game.next_deadline().unwrap();
        sim.at(t);
    }
    assert_eq!(sim.game.active().unwrap().resets, 1, "the landing step");
}

// ---- tetrs: the tetrs seed's game ----

/// The tetrs seed's table of example bonuses ("Table of Example Bonuses"), row by row:
/// (lines, combo, back-to-back count, spin, perfect) -> bonus.
#[test]
fn tetrs_score_formula_matches_the_seed_table() {
    let table: [(&str, u32, u32, u32, bool, bool, u64); 21] = [
        ("Single", 1, 1, 0, false, false, 10),
        ("Double", 2, 1, 0, false, false, 40),
        ("Triple", 3, 1, 0, false, false, 90),
        ("Quadruple", 4, 1, 1, false, false, 160),
        ("?-Spin Single", 1, 1, 1, true, false, 40),
        ("?-Spin Double", 2, 1, 1, true, false, 160),
        ("?-Spin Triple", 3, 1, 1, true, false, 360),
        ("Single (2.combo)", 1, 2, 0, false, false, 40),
        ("Single (3.combo)", 1, 3, 0, false, false, 90),
        ("Single (4.combo)", 1, 4, 0, false, false, 160),
        ("Double (2.combo)", 2, 2, 0, false, false, 90),
        ("Double (3.combo)", 2, 3, 0, false, false, 160),
        ("Double (4.combo)", 2, 4, 0, false, false, 250),
        ("Triple (2.combo)", 3, 2, 0, false, false, 160),
        ("Triple (3.combo)", 3, 3, 0, false, false, 250),
        ("Triple (4.combo)", 3, 4, 0, false, false, 360),
        ("Quadruple (2.B2B)", 4, 1, 2, false, false, 320),
        ("Quadruple (3.B2B)", 4, 1, 3, false, false, 480),
        ("Quadruple (4.B2B)", 4, 1, 4, false, false, 640),
        ("Perfect Single", 1, 1, 1, false, true, 1_000),
        ("Perfect L-Spin Double", 2, 1, 1, true, true, 16_000),
    ];
    for (name, lines, combo, b2b, spin, perfect, bonus) in table {
        let spin = if spin { Spin::Full } else { Spin::None };
        assert_eq!(
            scoring::tetrs_score(lines, combo, b2b, spin, perfect),
            bonus,
            "{name}"
        );
    }
}

#[test]
fn tetrs_gravity_and_lock_delay_by_level() {
    let r = Ruleset::get(RulesetId::Tetrs);
    let gravity: [(u32, Option<u32>); 8] = [
        (0, Some(1000)),
        (1, Some(1000)),
        (2, Some(793)),
        (10, Some(64)),
        (15, Some(7)),
        (18, Some(1)),
        (19, None),
        (30, None),
    ];
    for (level, ms) in gravity {
        assert_eq!(r.drop_interval(level), ms, "level {level}");
    }
    let lock: [(u32, u32); 7] = [
        (1, 500),
        (19, 500),
        (20, 468),
        (25, 309),
        (29, 182),
        (30, 150),
        (40, 150),
    ];
    for (level, ms) in lock {
        assert_eq!(r.lock_delay_at(level), ms, "level {level}");
    }
    assert_eq!(r.lock, LockDown::Timer { ground_cap: 3000 });
    assert_eq!(
        (r.line_clear_delay, r.appearance_delay, r.hard_drop_delay),
        (200, 50, 0)
    );
    assert_eq!(
        r.handling,
        Handling {
            das: 167,
            arr: 33,
            sdf: 15,
            ..Handling::default()
        }
    );
    assert_eq!(r.rotation, RotationSystem::Ocular);
}

fn tetrs_with(tuning: Tuning, mode: Mode) -> GameConfig {
    GameConfig {
        tuning,
        ..config_for(RulesetId::Tetrs, mode)
    }
}

/// tetrs, with the generator pinned to the bag so that `seed_for` finds the pieces.
fn tetrs_bag(mode: Mode) -> GameConfig {
    tetrs_with(
        Tuning {
            generator: Some(minotty_engine::Generator::Bag),
            rotation: Some(RotationSystem::Super),
            ..Tuning::default()
        },
        mode,
    )
}

#[test]
fn tetrs_levels_start_at_1_and_drops_score_nothing() {
    let mut sim = Sim::with_config(tetrs_bag(Mode::marathon()), 1);
    sim.at(0);
    assert_eq!(sim.game.level(), 1);
    sim.tap(Button::HardDrop);
    assert_eq!(sim.game.stats().score, 0);
    // Level 19 falls at 20G: the piece is on the floor as it appears.
    let mut sim = Sim::with_config(tetrs_bag(Mode::custom(19, false, None)), 1);
    sim.at(0);
    assert_eq!(sim.game.ghost(), Some(sim.placed()));
}

#[test]
fn tetrs_every_piece_that_cannot_move_up_spins() {
    // The T-spin double slot, reached with Super kicks: immobile, so a spin double:
    // 10 * (2 + 1 - 1)^2 * 4 = 160.
    let mut sim = on_board(tetrs_bag(Mode::sprint()), "T", &TSD);
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Right, 1);
    sim.tap(Button::SonicDrop);
    sim.tap(Button::RotateCcw);
    let ev = sim.tap(Button::HardDrop);
    let c = clear(&ev);
    assert_eq!((c.spin, c.lines, c.score), (Spin::Full, 2, 160));
    // An L that cannot move up spins without any rotation: dropped flat, then a block appears
    // above its top cell (the board is replaced around it) and it locks there.
    let mut sim = on_board(tetrs_bag(Mode::sprint()), "L", &[]);
    sim.tap(Button::SonicDrop);
    assert_eq!(sim.cells(), vec![(3, 39), (4, 39), (5, 38), (5, 39)]);
    sim.game.set_board(board(&[
        ".....#....", // 37
        "..........", // 38
        "###...####", // 39
    ]));
    let ev = sim.tap(Button::HardDrop);
    let c = clear(&ev);
    assert_eq!((c.spin, c.lines, c.score), (Spin::Full, 1, 40));
    // Standard: not a T, no spin.
    let mut sim = on_board(config_for(RulesetId::Standard, Mode::sprint()), "L", &[]);
    sim.tap(Button::SonicDrop);
    sim.game
        .set_board(board(&[".....#....", "..........", "###...####"]));
    assert_eq!(clear(&sim.tap(Button::HardDrop)).spin, Spin::None);
}

#[test]
fn tetrs_appearance_delay_follows_locks_and_clears() {
    let mut sim = Sim::with_config(tetrs_bag(Mode::sprint()), 1);
    sim.at(0);
    sim.at(100);
    sim.tap(Button::HardDrop);
    assert!(sim.game.active().is_none());
    sim.at(149);
    assert!(sim.game.active().is_none());
    sim.at(150);
    assert!(sim.game.active().is_some());
    // A clear: 200 ms of line clear, then 50 ms of appearance delay.
    let rows = ["###....###", "#########."];
    let mut sim = on_board(tetrs_bag(Mode::sprint()), "I?", &rows);
    sim.at(10);
    assert_eq!(clear(&sim.tap(Button::HardDrop)).lines, 1);
    sim.wait_for_piece();
    assert_eq!(spawn_time_after(&sim.log, 10), Some(260));
}

#[test]
fn tetrs_ground_time_is_capped_at_3_s_however_the_piece_moves() {
    // A T spawned on the shelf, shifted every 400 ms (each move restarts the 500 ms timer):
    // after 3 s on the ground it locks anyway.
    let mut sim = on_board(tetrs_bag(Mode::sprint()), "T", &shelf());
    let mut dir = Button::Left;
    let mut t = 0;
    while sim
        .game
        .active()
        .is_some_and(|a| a.placed.piece == Piece::T)
        && t < 5000
    {
        t += 400;
        let ev = sim.at(t);
        if lock_time(&ev).is_some() {
            break;
        }
        sim.tap(dir);
        dir = if dir == Button::Left {
            Button::Right
        } else {
            Button::Left
        };
    }
    assert_eq!(lock_time(&sim.log), Some(3000));
    // The cap is part of the tuning.
    let tuned = tetrs_with(
        Tuning {
            generator: Some(minotty_engine::Generator::Bag),
            ground_cap: Some(1000),
            ..Tuning::default()
        },
        Mode::sprint(),
    );
    let mut sim = on_board(tuned, "T", &shelf());
    sim.at(400);
    sim.tap(Button::Left);
    sim.at(800);
    sim.tap(Button::Right);
    assert_eq!(wait_for_lock(&mut sim), 1000);
}

#[test]
fn tetrs_soft_drop_on_the_ground_locks_unless_told_not_to() {
    let mut sim = on_board(tetrs_bag(Mode::sprint()), "T", &shelf());
    let ev = sim.tap(Button::SoftDrop);
    assert!(lock_time(&ev).is_some());
    let tuned = tetrs_with(
        Tuning {
            generator: Some(minotty_engine::Generator::Bag),
            no_soft_drop_lock: true,
            ..Tuning::default()
        },
        Mode::sprint(),
    );
    let mut sim = on_board(tuned, "T", &shelf());
    let ev = sim.tap(Button::SoftDrop);
    assert!(lock_time(&ev).is_none());
    assert_eq!(wait_for_lock(&mut sim), 500);
}
