//! Issue 26, "every rule exact to its text": the places where version 1 of the rulesets
//! disagreed with the seed texts, each as a table quoting the line it follows, next to what
//! version 1 (which old replays still play) did; and the two that `tui-tetris` kept until
//! version 4 (gravity by its accumulator, the piece in play through the line clear pause),
//! next to what version 4 did. Ocular's lists are in `kicks_ocular.rs`
//! (`l_and_j_turns_incorporate_every_two_cell_overlap`), the bag's orders in
//! `bag_orders.rs`, the recency weights in `generators.rs`
//! (`recency_deals_each_age_by_its_weight_including_zero`).

mod common;

use common::*;
use minotty_engine::game::{SPAWN_X, SPAWN_Y};
use minotty_engine::{
    Board, Button, Event, EventKind, Game, GameConfig, Generator, Handling, Mode, Phase, Piece,
    Rotation, RulesetId, Tuning,
};

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

// ---- 3. tui-tetris: "Gravity uses an accumulator (while-loop)" (version 5) ----------------

/// The rules seed's line, quoted by the tests below.
const ACCUMULATOR: &str = "003 (Fixed-Step Semantics): \"Gravity uses an accumulator \
     (while-loop): if `elapsed_ms` spans multiple drop intervals, multiple row drops may occur \
     in one tick.\"";

/// A started game of `config` under `version` on `board`, dealing `pattern` first.
fn started_on(config: GameConfig, version: u16, pattern: &str, board: Board) -> Sim {
    let game = Game::of_version(config, seed_for(pattern), version).expect("a known version");
    let mut sim = Sim {
        game,
        t: 0,
        log: Vec::new(),
    };
    sim.game.set_board(board);
    sim.at(0);
    sim
}

/// Gravity's rows among `events`: `(time, rows)` for every step that dropped some.
fn falls(events: &[Event]) -> Vec<(u64, u8)> {
    let mut out: Vec<(u64, u8)> = Vec::new();
    for e in events {
        if let EventKind::Fall { rows } = e.kind {
            match out.last_mut() {
                Some(last) if last.0 == e.time => last.1 += rows,
                _ => out.push((e.time, rows)),
            }
        }
    }
    out
}

/// The times of the first `n` gravity rows, a time per row.
fn row_times(events: &[Event], n: usize) -> Vec<u64> {
    falls(events)
        .iter()
        .flat_map(|&(t, rows)| std::iter::repeat_n(t, usize::from(rows)))
        .take(n)
        .collect()
}

#[test]
fn tui_tetris_gravity_carries_what_a_step_leaves_over_to_the_next_row() {
    // TICK_MS 16, BASE_DROP_MS 1000 (level 0), and the ACCUMULATOR line: each tick adds 16,
    // a row falls when the count reaches 1000 and the 1000 is taken off.
    //
    //   tick (ms)  16  32 ... 992  1008 | 1024 ... 2000 | 2016 ... 3008 | 3024 ... 4000
    //   count      16  32 ... 992  1008 |   24 ... 1000 |   16 ... 1008 |   24 ... 1000
    //   row                          1  |             2 |             3 |             4
    //   left over                    8  |             0 |             8 |             0
    //
    // Version 4 restarted from each row's step: 1008, 2016, 3024, 4032.
    for (version, want) in [(5, [1008, 2000, 3008, 4000]), (4, [1008, 2016, 3024, 4032])] {
        let mut sim = started_on(tui_tetris(), version, "I", Board::new());
        sim.at(4100);
        assert_eq!(row_times(&sim.log, 4), want, "v{version} ({ACCUMULATOR})");
    }
    // A new piece starts an empty count at the step it appears in (the text is silent; every
    // other per-piece counter of the seed starts at 0 with the piece): one spawned by a hard
    // drop at 170, in the step of 160, falls at 160 + 1008, 160 + 2000, ...
    let mut sim = started_on(tui_tetris(), 5, "I?", Board::new());
    sim.at(170);
    sim.tap(Button::HardDrop);
    sim.log.clear();
    sim.at(4200);
    assert_eq!(row_times(&sim.log, 4), [1168, 2160, 3168, 4160]);
}

#[test]
fn tui_tetris_soft_drop_late_in_an_interval_drops_every_row_the_step_spans() {
    // Level 0, soft drop (SOFT_DROP_MULTIPLIER 10: 100 ms a row) pressed at 970, when the
    // count holds 960: the press steps a row at once (+1), and the next tick's count, 976,
    // spans nine intervals of 100: nine rows in that one step, 76 left over; the next row
    // at 1008 (108).
    //
    //   time      970        976              992   1008   1020
    //   what      press: +1  gravity: 9 rows  -     1 row  repeat: +1
    let mut sim = started_on(tui_tetris(), 5, "I", Board::new());
    let y0 = sim.placed().y;
    sim.at(970);
    sim.press(Button::SoftDrop);
    assert_eq!(sim.placed().y, y0 + 1);
    sim.at(1020);
    assert_eq!(falls(&sim.log), [(976, 9), (1008, 1)], "{ACCUMULATOR}");
    assert_eq!(sim.placed().y, y0 + 1 + 10 + 1);
    assert_eq!(sim.game.stats().score, 2, "gravity's rows score nothing");
    // Version 4 had no count to span: one row at the press (its interval had passed since
    // the spawn), the next 100 ms rounded up to steps later.
    let mut sim = started_on(tui_tetris(), 4, "I", Board::new());
    sim.at(970);
    sim.press(Button::SoftDrop);
    sim.at(1100);
    assert_eq!(falls(&sim.log), [(970, 1), (1072, 1)]);
}

#[test]
fn tui_tetris_fast_gravity_drops_two_rows_in_some_steps() {
    // Level 9 (120 ms) under soft drop: 12 ms a row, 16 ms a step. Counts 16, 20, 24: rows
    // 1, 1, 2, and again (4 rows every 3 steps). Version 4: one row a step.
    //
    //   tick (ms)   16   32   48   64   80   96
    //   count       16   20   24   16   20   24
    //   rows         1    1    2    1    1    2
    let level_9 = config(
        RulesetId::TuiTetris,
        Mode::custom(9, false, None),
        Tuning::default(),
    );
    for (version, want) in [
        (5, [(16, 1), (32, 1), (48, 2), (64, 1), (80, 1), (96, 2)]),
        (4, [(16, 1), (32, 1), (48, 1), (64, 1), (80, 1), (96, 1)]),
    ] {
        let mut sim = started_on(level_9.clone(), version, "I", Board::new());
        sim.press(Button::SoftDrop);
        sim.at(100);
        assert_eq!(falls(&sim.log), want, "v{version} ({ACCUMULATOR})");
    }
}

#[test]
fn tui_tetris_gravity_counts_on_the_ground_so_a_piece_off_a_ledge_falls_on_its_beat() {
    // The text is silent on the ground (it makes only the lock delay "grounded-only"): the
    // count goes on there, and the rows it makes due move nothing, as the seed's loop tries
    // them. An O falls at 1008, 2000, 3008 onto a ledge (row 25, columns 2-7), is shifted
    // right along it at 3400, 3800, 4200 (each restarting the lock delay) and off it at 4600.
    // The row due at 4000 moved nothing; the next is on the beat, at 5008 (count 592 at
    // 4592, the step of 4600). Version 4 fell at once (its row was overdue) and then
    // counted from there.
    let mut rows = vec!["..######.."];
    rows.extend(std::iter::repeat_n("..........", 14));
    for (version, landing, off) in [
        (5, [1008, 2000, 3008], [5008, 6000]),
        (4, [1008, 2016, 3024], [4600, 5600]),
    ] {
        let mut sim = started(tui_tetris(), version, "O", &rows);
        sim.at(3100);
        assert_eq!(row_times(&sim.log, 4), landing, "v{version}: on the ledge");
        for t in [3400, 3800, 4200] {
            sim.at(t);
            sim.tap(Button::Right);
        }
        sim.at(4600);
        sim.log.clear();
        sim.tap(Button::Right);
        sim.at(6100);
        assert_eq!(sim.game.stats().pieces, 0, "still in play");
        assert_eq!(row_times(&sim.log, 2), off, "v{version}: off the ledge");
    }
}

// ---- 4. tui-tetris: the piece in play through LINE_CLEAR_PAUSE_MS (version 5) -------------

/// The rules seed's lines, quoted by the tests below.
const PAUSE: &str = "003 (Fixed-Step Semantics): \"`step_in_piece` increments once per fixed \
     step while an active piece exists, including while `LINE_CLEAR_PAUSE_MS` is counting \
     down.\" / \"When `line_clear_ms` reaches `0` during a tick, gameplay resumes in the \
     **same** `tick()` call (gravity/lock may advance immediately).\"";

/// An I dropped at 100 clears row 38 (the step of 96: the pause ends 12 steps on, at 288).
/// Returns the game right after the drop and the piece after the I.
fn clear_at_100(config: GameConfig, version: u16) -> Sim {
    let mut sim = started_on(config, version, "IT", common::single_board(Piece::I));
    sim.at(100);
    let ev = sim.tap(Button::HardDrop);
    assert_eq!(clear(&ev).lines, 1);
    sim
}

#[test]
fn tui_tetris_the_next_piece_moves_and_turns_in_the_pause_while_gravity_waits() {
    // Version 5: the T is in play from the lock on; shifts and turns act at once; gravity
    // counts none of the pause's steps but its last (272..288), so its first row falls at
    // 272 + 1008 = 1280.
    //
    //   time   100            116    132       148     287      1280
    //   v5     lock, T spawns  Left  RotateCw  Right   (same)   row 1
    //   v4     lock, pause    (kept for the spawn) ...  288: T spawns turned, row at 1296
    let mut sim = clear_at_100(tui_tetris(), 5);
    assert_eq!(sim.game.phase(), Phase::Falling, "{PAUSE}");
    assert_eq!(sim.game.clearing_rows(), 0, "the rows went at the lock");
    let spawned = sim.placed();
    assert_eq!((spawned.piece, spawned.y), (Piece::T, SPAWN_Y));
    sim.at(116);
    sim.tap(Button::Left);
    assert_eq!(sim.placed().x, SPAWN_X - 1, "moved at once");
    sim.at(132);
    sim.tap(Button::RotateCw);
    assert_eq!(sim.placed().rotation, Rotation::East, "turned at once");
    sim.at(148);
    sim.tap(Button::Right);
    sim.at(1279);
    assert_eq!((sim.placed().x, sim.placed().y), (SPAWN_X, SPAWN_Y));
    sim.at(1280);
    assert_eq!(sim.placed().y, SPAWN_Y + 1);
    assert_eq!(row_times(&sim.log, 1), [1280]);
    // Version 4: the same presses act at the spawn, 288; the row 1008 later.
    let mut sim = clear_at_100(tui_tetris(), 4);
    assert!(sim.game.active().is_none());
    for (t, b) in [
        (116, Button::Left),
        (132, Button::RotateCw),
        (148, Button::Right),
    ] {
        sim.at(t);
        sim.tap(b);
    }
    sim.at(1300);
    assert_eq!(spawn_time_after(&sim.log, 100), Some(288));
    assert_eq!(sim.placed().rotation, Rotation::East);
    assert_eq!(row_times(&sim.log, 1), [1296]);
}

#[test]
fn tui_tetris_the_lock_delay_waits_for_the_pause_s_last_step() {
    // Row 21 open at columns 3-6 on a stack up to row 22: the I locks at spawn at 100 and
    // clears row 21; the T spawns resting on the stack. Its lock delay counts from the
    // pause's last step, 272, as does a shift in the pause: 29 steps later, 272 + 464 = 736
    // (the pause's end, 288, counted as the first). Version 4: spawned at 288, locked at 752.
    let mut rows = vec!["###....###"];
    rows.extend(std::iter::repeat_n("#########.", 18));
    for (version, lock) in [(5, 736), (4, 752)] {
        let mut sim = started(tui_tetris(), version, "IT", &rows);
        sim.at(100);
        let ev = sim.tap(Button::HardDrop);
        assert_eq!(clear(&ev).lines, 1);
        sim.at(150);
        sim.tap(Button::Left);
        sim.log.clear();
        loop {
            let due = sim.game.next_deadline().expect("a deadline");
            if let Some(locked) = lock_time(&sim.at(due)) {
                assert_eq!(locked, lock, "v{version} ({PAUSE})");
                break;
            }
        }
        let locked = sim.log.iter().find_map(|e| match e.kind {
            EventKind::Lock { at, .. } => Some(at),
            _ => None,
        });
        assert_eq!(
            locked.map(|p| (p.piece, p.x)),
            Some((Piece::T, SPAWN_X - 1))
        );
    }
}

#[test]
fn tui_tetris_gameplay_resumes_in_the_step_the_pause_ends() {
    // Level 9 under soft drop, held from 150 in the pause: 12 ms a row. The press steps the T
    // a row at once and its repeats every 50 ms (200, 250, 300, 350) step on, paused or not;
    // gravity counts from 272, so the step the pause ends in, 288, already drops a row (16),
    // then 304 (20) one, 320 (24) two. Version 4: the T spawns at 288 and gravity's first row
    // is a step later, one row a step.
    //
    //   tick (ms)  272 | 288   304   320   336   352
    //   count        0 |  16    20    24    16    20
    //   rows (v5)      |   1     1     2     1     1
    //   rows (v4)      |   -     1     1     1     1
    let level_9 = config(
        RulesetId::TuiTetris,
        Mode::custom(9, false, None),
        Tuning::default(),
    );
    for (version, want) in [
        (5, vec![(288, 1), (304, 1), (320, 2), (336, 1), (352, 1)]),
        (4, vec![(304, 1), (320, 1), (336, 1), (352, 1)]),
    ] {
        let mut sim = clear_at_100(level_9.clone(), version);
        sim.at(150);
        sim.press(Button::SoftDrop);
        sim.at(360);
        assert_eq!(falls(&sim.log), want, "v{version} ({PAUSE})");
    }
}

#[test]
fn tui_tetris_a_hard_drop_in_the_pause_locks_at_once_and_the_next_piece_waits_too() {
    // Version 5: the T hard-dropped at 150 in the pause locks then (no clear), the piece after
    // it spawns at 150, still in the pause: its first row at 272 + 1008 = 1280. Version 4:
    // the drop acts at the spawn, 288, and the next row is at 288 + 1008 = 1296.
    for (version, drop, row) in [(5, 150, 1280), (4, 288, 1296)] {
        let mut sim = clear_at_100(tui_tetris(), version);
        sim.at(150);
        sim.tap(Button::HardDrop);
        sim.at(1300);
        let locks: Vec<u64> = sim
            .log
            .iter()
            .filter(|e| matches!(e.kind, EventKind::Lock { .. }))
            .map(|e| e.time)
            .collect();
        assert_eq!(locks, [100, drop], "v{version} ({PAUSE})");
        assert_eq!(sim.game.stats().pieces, 2);
        assert_eq!(row_times(&sim.log, 1), [row], "v{version}");
    }
}
