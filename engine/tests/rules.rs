//! Game rules over time: game over, hold, DAS/ARR, soft drop, gravity, levels, lock delay and
//! its resets, the line-clear pause and `next_deadline`.

mod common;

use common::*;
use minotty_engine::{
    Button, EndReason, EventKind, GameConfig, Handling, Input, Mode, Phase, Piece, Rotation,
    RulesetId,
};

fn over(sim: &Sim) -> Option<(EndReason, bool)> {
    sim.game.outcome()
}

/// `rows` on top of `below` copies of `fill`, bottom-aligned.
fn stacked<'a>(rows: &[&'a str], fill: &'a str, below: usize) -> Vec<&'a str> {
    let mut all = rows.to_vec();
    all.extend(std::iter::repeat_n(fill, below));
    all
}

// ---- Game over ----

#[test]
fn block_out_when_the_spawn_place_is_taken() {
    // At the start: a cell of row 21 under the spawning piece.
    let rows = stacked(&["....#....."], "....#.....", 18);
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.game.set_board(board(&rows));
    let ev = sim.at(0);
    assert!(has(&ev, |k| *k
        == EventKind::GameOver {
            reason: EndReason::BlockOut,
            won: false
        }));
    assert_eq!(over(&sim), Some((EndReason::BlockOut, false)));
    assert!(sim.game.active().is_none());

    // After a lock: a tower under the spawn place; the first piece locks on top of it in rows
    // 20-21 (still visible, so not a lock out) and the next one has no room.
    let mut sim = Sim::on_board(Mode::sprint(), "T", &["...####..."; 18]);
    assert!(over(&sim).is_none());
    let ev = sim.tap(Button::HardDrop);
    assert!(has(
        &ev,
        |k| matches!(k, EventKind::Lock { at, .. } if at.y == 20)
    ));
    assert_eq!(over(&sim), Some((EndReason::BlockOut, false)));
    assert_eq!(sim.game.stats().pieces, 1);
    // Nothing changes once over.
    sim.tap(Button::HardDrop);
    sim.at(10_000);
    assert_eq!(over(&sim), Some((EndReason::BlockOut, false)));
    assert_eq!(sim.game.next_deadline(), None);
}

#[test]
fn lock_out_when_a_piece_locks_wholly_above_the_visible_field() {
    // Kicks lift the T: N→E with kick 2 (one row up), then E→S with kick 3 (two rows up), so
    // it ends pointing down in rows 18-19 of the hidden buffer, resting on (2, 19).
    let top = [
        "..#.......", // 19
        "..#..#....", // 20
        "..........", // 21
        "...##.....", // 22
    ];
    let rows = stacked(&top, "#########.", 17);
    let mut sim = Sim::on_board(Mode::sprint(), "T", &rows);
    sim.tap(Button::RotateCw);
    let p = sim.placed();
    assert_eq!((p.rotation, p.x, p.y), (Rotation::East, 2, 19));
    sim.tap(Button::RotateCw);
    let p = sim.placed();
    assert_eq!((p.rotation, p.x, p.y), (Rotation::South, 2, 17));
    assert!(sim.cells().iter().all(|c| c.1 < 20));
    let ev = sim.tap(Button::HardDrop);
    assert!(has(&ev, |k| *k
        == EventKind::GameOver {
            reason: EndReason::LockOut,
            won: false
        }));
    assert_eq!(over(&sim), Some((EndReason::LockOut, false)));
}

#[test]
fn top_out_when_garbage_pushes_blocks_over_the_top() {
    // A tower in column 0 up to row 4; the buffer's rows 0-3 are empty.
    let tower = vec!["#........."; 36];
    for (lines, topped) in [(4, false), (5, true)] {
        let mut sim = Sim::on_board(Mode::sprint(), "?", &tower);
        sim.input(Input::Garbage(lines));
        sim.at(600);
        let ev = sim.tap(Button::HardDrop);
        assert!(has(&ev, |k| matches!(k, EventKind::GarbageRisen { .. })));
        if topped {
            assert_eq!(
                over(&sim),
                Some((EndReason::TopOut, false)),
                "{lines} lines"
            );
        } else {
            assert!(over(&sim).is_none(), "{lines} lines");
            assert_eq!(sim.game.board().stack_height(), 40);
        }
    }
}

// ---- Hold ----

#[test]
fn hold_once_per_piece_then_swap() {
    // Seed 0 deals Z L O I J T S.
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    assert_eq!(sim.placed().piece, Piece::Z);
    sim.tap(Button::RotateCw);
    // The first hold takes the next piece from the queue.
    let ev = sim.tap(Button::Hold);
    assert!(has(&ev, |k| *k
        == EventKind::Hold {
            held: Piece::Z,
            out: None
        }));
    assert_eq!(sim.game.hold_piece(), Some(Piece::Z));
    assert_eq!(sim.placed().piece, Piece::L);
    assert_eq!(sim.game.preview().next(), Some(Piece::O));
    assert!(!sim.game.can_hold());
    // Once per piece.
    let ev = sim.tap(Button::Hold);
    assert!(!has(&ev, |k| matches!(k, EventKind::Hold { .. })));
    assert_eq!(sim.placed().piece, Piece::L);
    assert_eq!(sim.game.hold_piece(), Some(Piece::Z));
    // The next piece may hold again: it swaps with the held one, which comes back at the
    // spawn place facing north.
    sim.tap(Button::HardDrop);
    assert_eq!(sim.placed().piece, Piece::O);
    assert!(sim.game.can_hold());
    let ev = sim.tap(Button::Hold);
    assert!(has(&ev, |k| *k
        == EventKind::Hold {
            held: Piece::O,
            out: Some(Piece::Z)
        }));
    let p = sim.placed();
    assert_eq!(
        (p.piece, p.rotation, p.x, p.y),
        (Piece::Z, Rotation::North, 3, 20)
    );
    assert_eq!(sim.game.hold_piece(), Some(Piece::O));
    assert_eq!(
        sim.game.preview().next(),
        Some(Piece::I),
        "a swap takes nothing"
    );
}

#[test]
fn initial_hold_when_hold_is_held_as_a_piece_spawns() {
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::Hold); // Z to hold, L in play
    assert_eq!(sim.placed().piece, Piece::L);
    // Still held when O spawns: O goes to hold at once and Z comes out.
    let ev = sim.tap(Button::HardDrop);
    assert!(has(&ev, |k| *k
        == EventKind::Hold {
            held: Piece::O,
            out: Some(Piece::Z)
        }));
    assert_eq!(sim.placed().piece, Piece::Z);
    assert_eq!(sim.game.hold_piece(), Some(Piece::O));
    assert!(!sim.game.can_hold());
    sim.release(Button::Hold);
    // Released: the next spawn is plain.
    sim.tap(Button::HardDrop);
    assert_eq!(sim.placed().piece, Piece::I);
    assert_eq!(sim.game.hold_piece(), Some(Piece::O));
}

#[test]
fn initial_rotation_when_a_rotate_button_is_held_as_a_piece_spawns() {
    for (button, rotation) in [
        (Button::RotateCw, Rotation::East),
        (Button::RotateCcw, Rotation::West),
        (Button::Rotate180, Rotation::South),
    ] {
        let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
        sim.at(0);
        sim.press(button);
        let ev = sim.tap(Button::HardDrop);
        assert!(has(&ev, |k| *k
            == EventKind::Spawn {
                piece: Piece::L,
                rotation
            }));
        let p = sim.placed();
        assert_eq!((p.piece, p.rotation, p.x, p.y), (Piece::L, rotation, 3, 20));
        sim.release(button);
        sim.tap(Button::HardDrop);
        assert_eq!(sim.placed().rotation, Rotation::North);
    }
}

// ---- DAS / ARR ----

fn with_handling(das: u32, arr: u32, sdf: u32) -> GameConfig {
    GameConfig {
        mode: Mode::sprint(),
        handling: Handling {
            das,
            arr,
            sdf,
            ..Handling::default()
        },
        ruleset: RulesetId::Standard,
        tuning: Default::default(),
    }
}

#[test]
fn a_tap_moves_once() {
    // Seed 0 starts with a Z at x = 3; it can go right to x = 7.
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::Right);
    assert_eq!(sim.placed().x, 4);
    sim.at(149);
    sim.release(Button::Right);
    sim.at(900);
    assert_eq!(sim.placed().x, 4);
    let moves = sim
        .log
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Move { dx: 1, .. }))
        .count();
    assert_eq!(moves, 1);
}

#[test]
fn held_direction_moves_at_press_then_after_das_then_every_arr() {
    // Defaults: DAS 150 ms, ARR 50 ms.
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::Right);
    sim.xs(&[
        (0, 4),
        (149, 4),
        (150, 5),
        (199, 5),
        (200, 6),
        (249, 6),
        (250, 7),
        (400, 7),
    ]);
    let times: Vec<u64> = sim
        .log
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Move { dx: 1, .. }))
        .map(|e| e.time)
        .collect();
    assert_eq!(times, vec![0, 150, 200, 250]);

    // Other settings: DAS 100, ARR 20, from the left.
    let mut sim = Sim::with_config(with_handling(100, 20, 10), ZLOIJTSLIJ);
    sim.at(0);
    sim.at(10);
    sim.press(Button::Left);
    sim.xs(&[(10, 2), (109, 2), (110, 1), (129, 1), (130, 0), (500, 0)]);
}

#[test]
fn arr_zero_slides_to_the_wall_at_das() {
    let mut sim = Sim::with_config(with_handling(150, 0, 10), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::Right);
    assert_eq!(sim.placed().x, 4);
    sim.xs(&[(149, 4), (150, 7)]);
}

#[test]
fn a_charged_shift_carries_over_to_the_next_piece() {
    // ARR 0: held right through a hard drop, the next piece slides to the wall as it spawns.
    let mut sim = Sim::with_config(with_handling(150, 0, 10), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::Right);
    sim.at(150);
    assert_eq!(sim.placed().x, 7);
    sim.tap(Button::HardDrop);
    let p = sim.placed();
    assert_eq!((p.piece, p.x), (Piece::L, 7));
    // ARR 50: the next piece moves on the next repeat, not after a new DAS.
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::Right);
    sim.at(250);
    assert_eq!(sim.placed().x, 7);
    sim.at(260);
    sim.tap(Button::HardDrop);
    assert_eq!(sim.placed().x, 3);
    sim.xs(&[(299, 3), (300, 4)]);
}

#[test]
fn opposite_direction_takes_over_and_falls_back() {
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::Right); // x 4
    sim.at(100);
    sim.press(Button::Left); // x 3, its own DAS from 100
    assert_eq!(sim.placed().x, 3);
    sim.xs(&[(249, 3), (250, 2)]);
    sim.release(Button::Left); // Right is still held: it charges again from 250
    sim.xs(&[(399, 2), (400, 3)]);
}

// ---- Falling ----

#[test]
fn soft_drop_interval() {
    // Level 0: gravity / 10 = 100 ms, but never slower than 50 ms.
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::SoftDrop);
    sim.ys(&[(0, 21), (49, 21), (50, 22), (99, 22), (100, 23)]);
    // Released: back to gravity, one row per 1000 ms counted from the last row.
    sim.release(Button::SoftDrop);
    sim.ys(&[(1099, 23), (1100, 24)]);

    // Level 9: 120 / 10 = 12 ms.
    let mut sim = Sim::new(Mode::custom(9, false, None), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::SoftDrop);
    sim.ys(&[(0, 21), (11, 21), (12, 22), (24, 23), (36, 24)]);

    // Soft drop factor 0: straight to the floor, without locking.
    let mut sim = Sim::with_config(with_handling(150, 50, 0), ZLOIJTSLIJ);
    sim.at(0);
    sim.press(Button::SoftDrop);
    assert_eq!(sim.placed().y, 38);
    assert_eq!(sim.game.stats().pieces, 0);
}

#[test]
fn gravity_by_level() {
    let table = [
        1000, 800, 650, 500, 400, 320, 250, 200, 160, 120, 120, 120, 120, 120,
    ];
    for (level, &ms) in table.iter().enumerate() {
        let mut sim = Sim::new(Mode::custom(level as u32, false, None), ZLOIJTSLIJ);
        sim.at(0);
        assert_eq!(sim.game.level(), level as u32);
        assert_eq!(sim.game.next_deadline(), Some(ms));
        sim.at(ms - 1);
        assert_eq!(sim.placed().y, 20, "level {level}");
        sim.at(ms);
        assert_eq!(sim.placed().y, 21, "level {level}");
        sim.at(3 * ms);
        assert_eq!(sim.placed().y, 23, "level {level}");
    }
}

#[test]
fn level_rises_every_ten_lines() {
    let mut sim = Sim::new(Mode::marathon(), 3);
    sim.at(0);
    for n in 1..=25 {
        let ev = sim.single();
        let up = ev.iter().find_map(|e| match e.kind {
            EventKind::LevelUp { level } => Some(level),
            _ => None,
        });
        let want = match n {
            10 => Some(1),
            20 => Some(2),
            _ => None,
        };
        assert_eq!(up, want, "after {n} lines");
        assert_eq!(sim.game.level(), n / 10);
    }
    // Gravity follows: level 2 is 650 ms a row.
    let spawn = sim.t + 180;
    sim.wait_for_piece();
    assert_eq!(sim.t, spawn);
    assert_eq!(sim.game.next_deadline(), Some(spawn + 650));

    // From a start level, and not at all with level increase off.
    let mut sim = Sim::new(Mode::custom(3, true, None), 3);
    sim.at(0);
    for _ in 0..10 {
        sim.single();
    }
    assert_eq!(sim.game.level(), 4);
    let mut sim = Sim::new(Mode::custom(3, false, None), 3);
    sim.at(0);
    for _ in 0..10 {
        sim.single();
    }
    assert_eq!(sim.game.level(), 3);
}

// ---- Locking ----

#[test]
fn lock_delay_is_450_ms_on_the_ground() {
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.at(100);
    sim.tap(Button::SonicDrop);
    assert_eq!(sim.game.next_deadline(), Some(550));
    sim.at(549);
    assert_eq!(sim.game.stats().pieces, 0);
    let ev = sim.at(550);
    assert!(has(&ev, |k| matches!(k, EventKind::Lock { .. })));
    assert_eq!(sim.game.stats().pieces, 1);

    // Landing by gravity: 18 rows at 1000 ms, then 450 ms.
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.at(18_000);
    assert_eq!(sim.placed().y, 38);
    sim.locks_at(18_450);
}

#[test]
fn fifteen_move_resets_then_no_more() {
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.tap(Button::SonicDrop);
    assert_eq!(sim.game.next_deadline(), Some(450));
    for i in 1..=15u64 {
        sim.at(10 * i);
        sim.tap(if i % 2 == 1 {
            Button::Right
        } else {
            Button::Left
        });
        assert_eq!(sim.game.active().unwrap().resets, i as u8);
        assert_eq!(sim.game.next_deadline(), Some(10 * i + 450), "reset {i}");
    }
    // The 16th move and a rotation no longer push the lock back.
    sim.at(160);
    sim.tap(Button::Left);
    sim.at(170);
    sim.tap(Button::Rotate180);
    assert_eq!(sim.game.next_deadline(), Some(600));
    sim.locks_at(600);
}

#[test]
fn rotations_reset_the_lock_too() {
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.tap(Button::SonicDrop);
    sim.at(300);
    sim.tap(Button::Rotate180);
    assert_eq!(sim.game.next_deadline(), Some(750));
}

#[test]
fn a_new_lowest_row_restores_the_resets() {
    // A ledge: columns 0-5 filled up to row 30.
    let ledge = vec!["######...."; 10];
    let mut sim = Sim::on_board(Mode::sprint(), "T", &ledge);
    sim.tap(Button::SonicDrop);
    assert_eq!((sim.placed().x, sim.placed().y), (3, 28));
    for i in 1..=15u64 {
        sim.at(10 * i);
        sim.tap(if i % 2 == 1 {
            Button::Right
        } else {
            Button::Left
        });
    }
    assert_eq!(sim.game.next_deadline(), Some(600));
    sim.at(160);
    sim.shift(Button::Right, 2); // x 4 -> 6: off the ledge, falling again
    assert_eq!(sim.game.active().unwrap().lock_at, None);
    sim.at(200);
    sim.tap(Button::SonicDrop);
    assert_eq!(sim.placed().y, 38);
    let a = *sim.game.active().unwrap();
    assert_eq!((a.resets, a.lock_at), (0, Some(650)));
    sim.at(600);
    sim.tap(Button::Right);
    assert_eq!(sim.game.active().unwrap().resets, 1);
    assert_eq!(sim.game.next_deadline(), Some(1050));
    sim.locks_at(1050);
}

#[test]
fn line_clear_pause_is_180_ms() {
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    sim.at(0);
    sim.at(1000);
    let ev = sim.single();
    assert!(!clears(&ev).is_empty());
    assert!(matches!(
        sim.game.phase(),
        Phase::Clearing { until: 1180, .. }
    ));
    assert!(sim.game.active().is_none());
    assert_ne!(sim.game.clearing_rows(), 0);
    assert_eq!(sim.game.next_deadline(), Some(1180));
    // A press during the pause waits for the next piece (version 3 on; `delay_presses.rs`
    // has every delay and press): nothing happens until it spawns, then it drops.
    sim.at(1100);
    sim.tap(Button::HardDrop);
    let ev = sim.at(1179);
    assert!(ev.is_empty());
    assert!(sim.game.active().is_none());
    assert_eq!(sim.game.stats().pieces, 1);
    let ev = sim.at(1180);
    assert!(has(&ev, |k| matches!(k, EventKind::Spawn { .. })));
    assert!(has(&ev, |k| matches!(k, EventKind::HardDrop { .. })));
    assert_eq!(sim.game.phase(), Phase::Falling);
    assert_eq!(sim.game.stats().pieces, 2);
}

#[test]
fn next_deadline_reports_the_next_step() {
    let mut sim = Sim::new(Mode::sprint(), ZLOIJTSLIJ);
    assert_eq!(sim.game.next_deadline(), Some(0), "the first spawn");
    sim.at(0);
    assert_eq!(sim.game.next_deadline(), Some(1000), "gravity");
    sim.at(1000);
    assert_eq!(sim.placed().y, 21);
    assert_eq!(sim.game.next_deadline(), Some(2000));
    sim.at(1200);
    sim.press(Button::Left);
    assert_eq!(sim.game.next_deadline(), Some(1350), "auto-shift");
    sim.release(Button::Left);
    assert_eq!(sim.game.next_deadline(), Some(2000));
    sim.at(1500);
    sim.tap(Button::SonicDrop);
    assert_eq!(sim.game.next_deadline(), Some(1950), "lock");
    sim.at(1950);
    assert_eq!(sim.game.stats().pieces, 1);
    assert_eq!(
        sim.game.next_deadline(),
        Some(2950),
        "the new piece's gravity"
    );
    sim.at(2000);
    sim.input(Input::Garbage(2));
    assert_eq!(sim.game.next_deadline(), Some(2500), "garbage ready");
    // Nothing happens in between: the game can sleep until the deadline.
    assert!(sim.at(2499).is_empty());
    assert!(has(&sim.at(2500), |k| *k
        == EventKind::GarbageReady { lines: 2 }));
    assert_eq!(sim.game.next_deadline(), Some(2950));
    sim.input(Input::Forfeit);
    assert_eq!(sim.game.next_deadline(), None);
}
