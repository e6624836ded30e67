//! T-spin detection by the seed's 3-corner rule, drawn as ASCII boards (row 39 is the floor).

mod common;

use common::*;
use minotty_engine::scoring::Spin;
use minotty_engine::{Button, Event, EventKind, Mode, Rotation};

fn last_kick(events: &[Event]) -> u8 {
    events
        .iter()
        .rev()
        .find_map(|e| match e.kind {
            EventKind::Rotate { kick, .. } => Some(kick),
            _ => None,
        })
        .expect("a rotation")
}

/// Plays the T-spin double setup of `rows` (see `TSD`) and returns the lock's events.
fn spin_into_tsd_slot(rows: &[&str]) -> (Sim, Vec<Event>) {
    let mut sim = Sim::on_board(Mode::sprint(), "T", rows);
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Right, 1);
    sim.tap(Button::SonicDrop);
    assert_eq!(
        (sim.placed().rotation, sim.placed().x, sim.placed().y),
        (Rotation::West, 4, 36)
    );
    let kick = last_kick(&sim.tap(Button::RotateCcw));
    assert_eq!(kick, 2);
    let ev = sim.tap(Button::HardDrop);
    (sim, ev)
}

/// T-spin double: the T ends pointing down at column 4, rows 38-39. Corners around its centre
/// (4, 38): (3, 37) filled, (5, 37) open, (3, 39) and (5, 39) filled: three, both in front.
const TSD: [&str; 3] = [
    "####..#...", // 37
    "###...####", // 38
    "####.#####", // 39
];

#[test]
fn full_t_spin_double() {
    let (sim, ev) = spin_into_tsd_slot(&TSD);
    assert_eq!(lock_spin(&ev), Spin::Full);
    let c = clear(&ev);
    assert_eq!(
        (c.lines, c.spin, c.score, c.attack),
        (2, Spin::Full, 1200, 4)
    );
    assert_eq!(sim.game.stats().tspins, 1);
    assert_eq!(sim.game.stats().doubles, 1);
}

#[test]
fn full_t_spin_single() {
    // Same slot, but row 38 cannot complete.
    let (_, ev) = spin_into_tsd_slot(&[
        "####..#...", //
        "###...###.",
        "####.#####",
    ]);
    let c = clear(&ev);
    assert_eq!(
        (c.lines, c.spin, c.score, c.attack),
        (1, Spin::Full, 800, 2)
    );
}

fn spin_into_tst_slot(rows: &[&str]) -> Vec<Event> {
    let mut sim = Sim::on_board(Mode::sprint(), "T", rows);
    sim.shift(Button::Left, 2);
    sim.tap(Button::SonicDrop);
    sim.shift(Button::Right, 1);
    let kick = last_kick(&sim.tap(Button::RotateCcw));
    assert_eq!(kick, 4);
    assert_eq!(
        (sim.placed().rotation, sim.placed().x, sim.placed().y),
        (Rotation::West, 3, 37)
    );
    sim.tap(Button::HardDrop)
}

#[test]
fn full_t_spin_triple() {
    let ev = spin_into_tst_slot(&TST);
    assert_eq!(lock_spin(&ev), Spin::Full);
    let c = clear(&ev);
    assert_eq!(
        (c.lines, c.spin, c.score, c.attack),
        (3, Spin::Full, 1600, 6)
    );
}

#[test]
fn last_kick_upgrades_a_mini_shape_to_full() {
    // The TST slot with (3, 39) open: corners (3,37), (5,37), (5,39) filled but only one of
    // the two in front of a West T. That alone is a mini, but the turn used kick 4 of 4.
    let ev = spin_into_tst_slot(&[
        "....######", // 35
        ".....#####", // 36
        "####.#####", // 37
        "###..#####", // 38
        "###..#####", // 39
    ]);
    assert_eq!(lock_spin(&ev), Spin::Full);
    let c = clear(&ev);
    assert_eq!(
        (c.lines, c.spin, c.score, c.attack),
        (2, Spin::Full, 1200, 4)
    );
}

/// Mini: a T turned clockwise (kick 2 of 4) to point up in the bottom-left corner. Around its
/// centre (1, 39): (0, 38) filled, (2, 38) open, and the floor under both lower corners.
const MINI: [&str; 2] = [
    "#..#......", // 38
    "...#######", // 39
];

#[test]
fn mini_t_spin_with_the_floor_as_corners() {
    let mut sim = Sim::on_board(Mode::sprint(), "T", &MINI);
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Left, 2);
    sim.tap(Button::SonicDrop);
    assert_eq!((sim.placed().x, sim.placed().y), (1, 37));
    assert_eq!(last_kick(&sim.tap(Button::RotateCw)), 2);
    assert_eq!(
        (sim.placed().rotation, sim.placed().x, sim.placed().y),
        (Rotation::North, 0, 38)
    );
    let ev = sim.tap(Button::HardDrop);
    assert_eq!(lock_spin(&ev), Spin::Mini);
    let c = clear(&ev);
    assert_eq!(
        (c.lines, c.spin, c.score, c.attack),
        (1, Spin::Mini, 200, 0)
    );
    assert!(!c.b2b);
    assert!(
        !sim.game.back_to_back(),
        "a mini does not start back-to-back"
    );
}

/// Against the left wall: a T pointing right in column 0. Around its centre (0, 38): the wall
/// at (-1, 37) and (-1, 39), (1, 39) filled, (1, 37) open.
const WALL: [&str; 2] = [
    "...#######", // 38
    ".#########", // 39
];

#[test]
fn walls_count_as_filled_corners() {
    let mut sim = Sim::on_board(Mode::sprint(), "T", &WALL);
    sim.shift(Button::Left, 3);
    sim.tap(Button::SonicDrop);
    assert_eq!((sim.placed().x, sim.placed().y), (0, 37));
    assert_eq!(last_kick(&sim.tap(Button::RotateCw)), 1);
    let p = sim.placed();
    assert_eq!((p.rotation, p.x, p.y), (Rotation::East, -1, 37));
    let ev = sim.tap(Button::HardDrop);
    assert_eq!(lock_spin(&ev), Spin::Mini);
    let c = clear(&ev);
    assert_eq!((c.lines, c.score), (1, 200));
}

#[test]
fn no_t_spin_when_the_last_action_was_a_move() {
    // The same final place as `walls_count_as_filled_corners`, reached by shifting and
    // dropping after the turn.
    let mut sim = Sim::on_board(Mode::sprint(), "T", &WALL);
    sim.tap(Button::RotateCw);
    sim.shift(Button::Left, 4);
    sim.tap(Button::SonicDrop);
    let p = sim.placed();
    assert_eq!((p.rotation, p.x, p.y), (Rotation::East, -1, 37));
    let ev = sim.tap(Button::HardDrop);
    assert_eq!(lock_spin(&ev), Spin::None);
    let c = clear(&ev);
    assert_eq!((c.lines, c.spin, c.score), (1, Spin::None, 40));

    // A soft drop after the turn counts as a move too.
    let mut sim = Sim::on_board(Mode::sprint(), "T", &WALL);
    sim.shift(Button::Left, 3);
    sim.tap(Button::RotateCw);
    assert_eq!((sim.placed().rotation, sim.placed().x), (Rotation::East, 0));
    sim.shift(Button::Left, 1);
    for _ in 0..17 {
        sim.tap(Button::SoftDrop);
    }
    assert_eq!((sim.placed().x, sim.placed().y), (-1, 37));
    assert_eq!(lock_spin(&sim.tap(Button::HardDrop)), Spin::None);
}

#[test]
fn no_t_spin_for_other_pieces_in_a_t_slot() {
    // An L turns into the mini slot with the same kick a T would use.
    let mut sim = Sim::on_board(Mode::sprint(), "L", &MINI);
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Left, 2);
    sim.tap(Button::SonicDrop);
    assert_eq!((sim.placed().x, sim.placed().y), (1, 37));
    assert_eq!(last_kick(&sim.tap(Button::RotateCw)), 2);
    let ev = sim.tap(Button::HardDrop);
    assert_eq!(lock_spin(&ev), Spin::None);
    let c = clear(&ev);
    assert_eq!((c.lines, c.spin, c.score), (1, Spin::None, 40));
    assert_eq!(sim.game.stats().tspins, 0);
}

#[test]
fn two_corners_are_not_enough_and_a_third_makes_it_full() {
    // A T standing on its stem in a one-cell hole turns to point down (no kick): only the two
    // lower corners are filled.
    let two = [
        "..........", // 37
        "..........", // 38
        "###.######", // 39
    ];
    // The same with the upper-left corner filled: three corners, both lower (front) ones.
    let three = [
        "..#.......", // 37
        "..........", // 38
        "###.######", // 39
    ];
    for (rows, spin, score) in [(two, Spin::None, 40), (three, Spin::Full, 800)] {
        let mut sim = Sim::on_board(Mode::sprint(), "T", &rows);
        sim.tap(Button::RotateCw);
        sim.shift(Button::Left, 1);
        sim.tap(Button::SonicDrop);
        assert_eq!((sim.placed().x, sim.placed().y), (2, 37));
        assert_eq!(last_kick(&sim.tap(Button::RotateCw)), 0);
        assert_eq!(sim.placed().rotation, Rotation::South);
        let ev = sim.tap(Button::HardDrop);
        assert_eq!(lock_spin(&ev), spin);
        let c = clear(&ev);
        assert_eq!((c.lines, c.spin, c.score), (1, spin, score));
    }
}

#[test]
fn zero_line_t_spins_score_and_are_reported() {
    // Full: the T-spin double slot with nothing that can complete.
    let (sim, ev) = spin_into_tsd_slot(&[
        "####..#...", //
        "###...###.",
        "####.####.",
    ]);
    let c = clear(&ev);
    assert_eq!(
        (c.lines, c.spin, c.score, c.attack),
        (0, Spin::Full, 400, 0)
    );
    assert_eq!(sim.game.stats().lines, 0);
    // Mini: the mini slot with a gap in row 39.
    let mut sim = Sim::on_board(Mode::sprint(), "T", &["#..#......", "...######."]);
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Left, 2);
    sim.tap(Button::SonicDrop);
    sim.tap(Button::RotateCw);
    let c = clear(&sim.tap(Button::HardDrop));
    assert_eq!((c.lines, c.spin, c.score), (0, Spin::Mini, 100));
}
