//! Issue 26, "every rule exact to its text": the places where version 1 of the rulesets
//! disagreed with the seed texts, each as a table quoting the line it follows, next to what
//! version 1 (which old replays still play) did. Ocular's lists are in `kicks_ocular.rs`
//! (`l_and_j_turns_incorporate_every_two_cell_overlap`), the bag's orders in
//! `bag_orders.rs`, the recency weights in `generators.rs`
//! (`recency_deals_each_age_by_its_weight_including_zero`).

mod common;

use common::*;
use minotty_engine::{Button, Game, GameConfig, Generator, Handling, Mode, RulesetId, Tuning};

fn config(ruleset: RulesetId, mode: Mode, tuning: Tuning) -> GameConfig {
    GameConfig {
        ruleset,
        mode,
        handling: Handling::default(),
        tuning,
    }
}

/// A started game of `config` under `version`, on `rows`, dealing `pattern` first.
fn started(config: GameConfig, version: u16, pattern: &str, rows: &[&str]) -> Sim {
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

// ---- 1. tetrs: "any given piece may only touch ground for 3000ms in total" -----------------

/// A step in the floor: columns 0-5 two rows high, 6-9 empty.
fn step_floor() -> [&'static str; 2] {
    ["######....", "######...."]
}

/// tetrs at 20G with the bag (so that `seed_for` finds an O) and the tetrs seed's own lock
/// down and 3000 ms ground cap.
fn tetrs_20g() -> GameConfig {
    config(
        RulesetId::Tetrs,
        Mode::master(),
        Tuning {
            generator: Some(Generator::Bag),
            ..Tuning::default()
        },
    )
}

/// Plays the stall: the O lands on the high step at 0 and is shifted right along it; at 600 ms
/// it steps down to the floor (a new lowest row, still touching ground), then is shifted
/// left and right every 300 ms (each shift restarts the 500 ms lock timer) until it locks or
/// 12 s have passed. Returns the lock time.
fn stall(version: u16) -> Option<u64> {
    let mut sim = started(tetrs_20g(), version, "O", &step_floor());
    // The O (columns 4-5) rests on the step: its bottom row is 37.
    assert_eq!(sim.cells().iter().map(|c| c.1).max(), Some(37));
    sim.at(300);
    sim.tap(Button::Right); // columns 5-6: column 5 still holds it up
    assert_eq!(sim.cells().iter().map(|c| c.1).max(), Some(37));
    sim.at(600);
    sim.tap(Button::Right); // columns 6-7: 20G drops it to the floor, row 39
    assert_eq!(sim.cells().iter().map(|c| c.1).max(), Some(39));
    // Now right and left between columns 6-7 and 7-8, on the floor.
    let mut t = 600;
    let mut right = true;
    while t < 12_000 {
        t += 300;
        let ev = sim.at(t);
        if let Some(locked) = lock_time(&ev).or_else(|| lock_time(&sim.log)) {
            return Some(locked);
        }
        sim.tap(if right { Button::Right } else { Button::Left });
        right = !right;
    }
    lock_time(&sim.log)
}

#[test]
fn tetrs_ground_time_stall_locks_by_3000_ms_of_ground_contact() {
    // The seed, "'Timer' Placement Lock Down": "start measuring the ground time ... If the lock
    // timer runs out *or* the ground time reaches [the cap], lock the piece immediately ... If
    // the piece falls below the previously lowest recorded y coordinate, reset the ground
    // time", and its configuration: "any given piece may only touch ground for 3000ms in
    // total".
    //
    //   time (ms)  input           ground time (since the last new lowest row)
    //   0          spawn on step   0 (touches down at once: 20G)
    //   300        Right           300
    //   600        Right           steps down to row 39: a new lowest row, reset to 0
    //   900..3300  Right/Left...   300, 600, ... every shift restarts the 500 ms timer
    //   3600       (lock)          3000: the cap
    assert_eq!(stall(2), Some(600 + 3000));
    // Version 1 restarted the ground time at the step but then never counted it again while
    // the piece stayed down: shifting every 300 ms kept it alive for the whole 12 s.
    assert_eq!(stall(1), None);
}

#[test]
fn tetrs_ground_time_is_reset_only_by_a_new_lowest_row() {
    // Without the step: the same shifts from spawn lock at 3000 ms in both versions (no new
    // lowest row was ever reached, so the ground time counted from the touch down at 0).
    for version in [1, 2] {
        let mut sim = started(tetrs_20g(), version, "O", &["..........", ".........."]);
        let mut t = 0;
        let mut right = false;
        while lock_time(&sim.log).is_none() && t < 12_000 {
            t += 300;
            sim.at(t);
            if lock_time(&sim.log).is_none() {
                sim.tap(if right { Button::Right } else { Button::Left });
                right = !right;
            }
        }
        assert_eq!(lock_time(&sim.log), Some(3000), "version {version}");
    }
}

// ---- 2. tui-tetris: "The simulation runs at a fixed timestep of TICK_MS (16ms)" ------------

/// 18 rows from row 22 down, each full but for column 9: the T at spawn rests on them.
fn shelf() -> Vec<&'static str> {
    vec!["#########."; 18]
}

fn tui_tetris() -> GameConfig {
    config(RulesetId::TuiTetris, Mode::sprint(), Tuning::default())
}

/// The lock time after a shift on the ground at `t` (which restarts the lock delay).
fn lock_after_shift_at(version: u16, t: u64) -> u64 {
    let mut sim = started(tui_tetris(), version, "T", &shelf());
    sim.at(t);
    sim.tap(Button::Left);
    loop {
        let due = sim.game.next_deadline().expect("a deadline");
        if let Some(locked) = lock_time(&sim.at(due)) {
            return locked;
        }
    }
}

#[test]
fn tui_tetris_lock_delay_is_29_steps_wherever_in_its_step_the_input_lands() {
    // The seed, "Fixed-Step Semantics": "When the active piece is grounded, lock_ms increases
    // each step", LOCK_DELAY_MS 450 at TICK_MS 16, and "Successful moves/rotations that
    // result in a grounded active piece reset lock_ms": an input between two ticks resets the
    // count, the next tick counts 16, and the 29th reaches 464 >= 450.
    //
    //   ticks:   160   176   192  ...  608   624   640
    //   input    |--x-------|                               (any time in [160, 176))
    //   counts          16    32  ...  448   464: lock at 624 = 160 + 29 * 16
    for (t, want_v2, want_v1) in [
        (160, 624, 624),
        (161, 624, 624),
        (166, 624, 624),
        (170, 624, 624),
        (174, 624, 624),
        (175, 624, 640), // version 1: t + 450 = 625 went to the next tick, a step late
        (176, 640, 640),
        (190, 640, 640),
        (191, 640, 656),
    ] {
        assert_eq!(lock_after_shift_at(2, t), want_v2, "input at {t}");
        assert_eq!(
            lock_after_shift_at(1, t),
            want_v1,
            "version 1, input at {t}"
        );
        assert_eq!((want_v2 - t / 16 * 16) / 16, 29);
    }
}

/// When the next piece spawns after an I hard-dropped at `t` clears a row.
fn spawn_after_clear_at(version: u16, t: u64) -> u64 {
    let rows = ["###....###", "#########."];
    let mut sim = started(tui_tetris(), version, "I?", &rows);
    sim.at(t);
    let ev = sim.tap(Button::HardDrop);
    assert_eq!(clear(&ev).lines, 1);
    sim.wait_for_piece();
    spawn_time_after(&sim.log, t).expect("a spawn")
}

#[test]
fn tui_tetris_line_clear_pause_is_12_steps_wherever_in_its_step_the_lock_lands() {
    // The seed: LINE_CLEAR_PAUSE_MS 180, counted down a tick at a time, and "When
    // line_clear_ms reaches 0 during a tick, gameplay resumes in the same tick() call": 12
    // ticks (192 >= 180) after the step the clearing lock lands in.
    //
    //   ticks:   320   336  ...  496   512   528
    //   drop     |----x-----|                          (any time in [320, 336))
    //   pause          16   ...  176   192: spawn at 512 = 320 + 12 * 16
    for (t, want_v2, want_v1) in [
        (320, 512, 512),
        (321, 512, 512),
        (332, 512, 512),
        (333, 512, 528), // version 1: t + 180 = 513 went to the next tick, a step late
        (335, 512, 528),
        (336, 528, 528),
    ] {
        assert_eq!(spawn_after_clear_at(2, t), want_v2, "drop at {t}");
        assert_eq!(
            spawn_after_clear_at(1, t),
            want_v1,
            "version 1, drop at {t}"
        );
        assert_eq!((want_v2 - t / 16 * 16) / 16, 12);
    }
}
