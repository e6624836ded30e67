//! SRS kick tables against the rules seed, well-known kicks on real boards, and spawn positions.

mod common;

use common::*;
use minotty_engine::kicks::{RotationSystem, seed_tables};
use minotty_engine::{Button, EventKind, Mode, Piece, Rotation, Turn};

type Kick = (i8, i8);

/// The rules seed's JLSTZ table, exactly as written there (`+y` up), keyed by `from→to`.
const SEED_JLSTZ: [((usize, usize), [Kick; 5]); 8] = [
    ((0, 1), [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    ((0, 3), [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    ((1, 0), [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    ((1, 2), [(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    ((2, 1), [(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    ((2, 3), [(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    ((3, 2), [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    ((3, 0), [(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
];

/// The rules seed's I table, exactly as written there (`+y` up).
const SEED_I: [((usize, usize), [Kick; 5]); 8] = [
    ((0, 1), [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]),
    ((0, 3), [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
    ((1, 0), [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
    ((1, 2), [(0, 0), (-1, 0), (2, 0), (-1, 2), (2, -1)]),
    ((2, 1), [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
    ((2, 3), [(0, 0), (2, 0), (-1, 0), (2, 1), (-1, -2)]),
    ((3, 2), [(0, 0), (-2, 0), (1, 0), (-2, -1), (1, 2)]),
    ((3, 0), [(0, 0), (1, 0), (-2, 0), (1, -2), (-2, 1)]),
];

/// The 180° table the engine documents (TETR.IO SRS+; not in the seed), `+y` up:
/// N→S, E→W, S→N, W→E.
const HALF_SRS_PLUS: [[Kick; 6]; 4] = [
    [(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0)],
    [(0, 0), (1, 0), (1, 2), (1, 1), (0, 2), (0, 1)],
    [(0, 0), (0, -1), (-1, -1), (1, -1), (-1, 0), (1, 0)],
    [(0, 0), (-1, 0), (-1, 2), (-1, 1), (0, 2), (0, 1)],
];

const JLSTZ: [Piece; 5] = [Piece::J, Piece::L, Piece::S, Piece::T, Piece::Z];

fn turn_of(from: usize, to: usize) -> Turn {
    if (from + 1) % 4 == to {
        Turn::Cw
    } else {
        assert_eq!((to + 1) % 4, from);
        Turn::Ccw
    }
}

fn y_down(kicks: &[Kick]) -> Vec<Kick> {
    kicks.iter().map(|&(x, y)| (x, -y)).collect()
}

#[test]
fn engine_raw_tables_are_the_seed_tables() {
    for ((from, to), kicks) in SEED_JLSTZ {
        let table = match turn_of(from, to) {
            Turn::Cw => seed_tables::JLSTZ_CW,
            _ => seed_tables::JLSTZ_CCW,
        };
        assert_eq!(table[from], kicks, "JLSTZ {from}->{to}");
    }
    for ((from, to), kicks) in SEED_I {
        let table = match turn_of(from, to) {
            Turn::Cw => seed_tables::I_CW,
            _ => seed_tables::I_CCW,
        };
        assert_eq!(table[from], kicks, "I {from}->{to}");
    }
    assert_eq!(seed_tables::HALF, HALF_SRS_PLUS);
}

#[test]
fn super_returns_the_seed_jlstz_kicks_with_y_pointing_down() {
    for piece in JLSTZ {
        for ((from, to), kicks) in SEED_JLSTZ {
            let got = RotationSystem::Super.kicks(piece, Rotation::ALL[from], turn_of(from, to));
            assert_eq!(got, y_down(&kicks), "{piece:?} {from}->{to}");
        }
    }
}

#[test]
fn super_returns_the_seed_i_kicks_with_y_pointing_down() {
    for ((from, to), kicks) in SEED_I {
        let got = RotationSystem::Super.kicks(Piece::I, Rotation::ALL[from], turn_of(from, to));
        assert_eq!(got, y_down(&kicks), "I {from}->{to}");
    }
}

#[test]
fn super_half_turn_kicks_and_the_o_piece() {
    for piece in [Piece::I, Piece::J, Piece::L, Piece::S, Piece::T, Piece::Z] {
        for (from, kicks) in HALF_SRS_PLUS.iter().enumerate() {
            let got = RotationSystem::Super.kicks(piece, Rotation::ALL[from], Turn::Half);
            assert_eq!(got, y_down(kicks), "{piece:?} half turn from {from}");
        }
    }
    for from in Rotation::ALL {
        for turn in [Turn::Cw, Turn::Ccw, Turn::Half] {
            assert_eq!(RotationSystem::Super.kicks(Piece::O, from, turn), &[(0, 0)]);
        }
    }
}

#[test]
fn spot_check_conversion_by_hand() {
    // N→E for T: the seed's (-1, 1) is one column left and one row *up*, i.e. board y - 1;
    // its (-1, -2) is two rows *down*.
    let k = RotationSystem::Super.kicks(Piece::T, Rotation::North, Turn::Cw);
    assert_eq!(k[2], (-1, -1));
    assert_eq!(k[4], (-1, 2));
    let k = RotationSystem::Super.kicks(Piece::I, Rotation::East, Turn::Ccw);
    assert_eq!(k, &[(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)]);
}

#[test]
fn every_piece_spawns_at_3_20_facing_north_with_the_seed_cells() {
    for piece in Piece::ALL {
        let mut sim = Sim::new(Mode::sprint(), seed_for(&piece.letter().to_string()));
        let ev = sim.at(0);
        assert!(has(&ev, |k| *k
            == EventKind::Spawn {
                piece,
                rotation: Rotation::North
            }));
        let p = sim.placed();
        assert_eq!(
            (p.piece, p.rotation, p.x, p.y),
            (piece, Rotation::North, 3, 20)
        );
        let want = sorted(
            seed_cells(piece, Rotation::North)
                .into_iter()
                .map(|(x, y)| (x + 3, y + 20))
                .collect(),
        );
        assert_eq!(sim.cells(), want, "{piece:?}");
        // The seed's table for every rotation is the engine's shape table too.
        for r in Rotation::ALL {
            assert_eq!(sorted(piece.cells(r).to_vec()), seed_cells(piece, r));
        }
    }
}

/// T-spin triple slot: the T comes in under the overhang at row 35 and turns counter-clockwise
/// into the 3-deep slot in column 4 with kick 4, (+1, -2) in the seed, two rows *down*.
const TST: [&str; 5] = [
    "....######", // 35
    ".....#####", // 36
    "####.#####", // 37
    "###..#####", // 38
    "####.#####", // 39
];

#[test]
fn t_spin_triple_kick_counter_clockwise() {
    let mut sim = Sim::on_board(Mode::sprint(), "T", &TST);
    sim.shift(Button::Left, 2);
    sim.tap(Button::SonicDrop);
    assert_eq!((sim.placed().x, sim.placed().y), (1, 35));
    sim.shift(Button::Right, 1);
    assert_eq!((sim.placed().x, sim.placed().y), (2, 35));
    let ev = sim.tap(Button::RotateCcw);
    assert!(has(&ev, |k| *k
        == EventKind::Rotate {
            turn: Turn::Ccw,
            to: Rotation::West,
            kick: 4
        }));
    let p = sim.placed();
    assert_eq!((p.rotation, p.x, p.y), (Rotation::West, 3, 37));
    assert_eq!(sim.cells(), vec![(3, 38), (4, 37), (4, 38), (4, 39)]);
    let c = clear(&sim.tap(Button::HardDrop));
    assert_eq!(c.lines, 3);
    assert_eq!(c.spin, minotty_engine::Spin::Full);
}

#[test]
fn t_spin_triple_kick_clockwise_mirrored() {
    let rows = mirrored(&TST);
    let mut sim = Sim::on_board(Mode::sprint(), "T", &as_rows(&rows));
    sim.shift(Button::Right, 3);
    sim.tap(Button::SonicDrop);
    assert_eq!((sim.placed().x, sim.placed().y), (6, 35));
    sim.shift(Button::Left, 1);
    let ev = sim.tap(Button::RotateCw);
    assert!(has(&ev, |k| *k
        == EventKind::Rotate {
            turn: Turn::Cw,
            to: Rotation::East,
            kick: 4
        }));
    let p = sim.placed();
    assert_eq!((p.rotation, p.x, p.y), (Rotation::East, 4, 37));
    assert_eq!(sim.cells(), vec![(5, 37), (5, 38), (5, 39), (6, 38)]);
    let c = clear(&sim.tap(Button::HardDrop));
    assert_eq!((c.lines, c.spin), (3, minotty_engine::Spin::Full));
}

/// T-spin double: a West T resting right of the slot turns counter-clockwise into it with kick 2,
/// (-1, -1) in the seed: one column left, one row down.
const TSD: [&str; 3] = [
    "####..#...", // 37
    "###...####", // 38
    "####.#####", // 39
];

#[test]
fn t_spin_double_kick() {
    let mut sim = Sim::on_board(Mode::sprint(), "T", &TSD);
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Right, 1);
    sim.tap(Button::SonicDrop);
    assert_eq!(
        (sim.placed().rotation, sim.placed().x, sim.placed().y),
        (Rotation::West, 4, 36)
    );
    let ev = sim.tap(Button::RotateCcw);
    assert!(has(&ev, |k| *k
        == EventKind::Rotate {
            turn: Turn::Ccw,
            to: Rotation::South,
            kick: 2
        }));
    assert_eq!(sim.cells(), vec![(3, 38), (4, 38), (4, 39), (5, 38)]);
    let c = clear(&sim.tap(Button::HardDrop));
    assert_eq!((c.lines, c.spin), (2, minotty_engine::Spin::Full));
    // Once the clear is over, row 37 has fallen to the bottom.
    sim.wait_for_piece();
    assert_eq!(ascii(sim.game.board()), vec!["####..#..."]);
}

#[test]
fn t_spin_double_kick_mirrored() {
    let rows = mirrored(&TSD);
    let mut sim = Sim::on_board(Mode::sprint(), "T", &as_rows(&rows));
    sim.tap(Button::RotateCw);
    sim.tap(Button::SonicDrop);
    assert_eq!(
        (sim.placed().rotation, sim.placed().x, sim.placed().y),
        (Rotation::East, 3, 36)
    );
    let ev = sim.tap(Button::RotateCw);
    assert!(has(&ev, |k| *k
        == EventKind::Rotate {
            turn: Turn::Cw,
            to: Rotation::South,
            kick: 2
        }));
    assert_eq!(sim.cells(), vec![(4, 38), (5, 38), (5, 39), (6, 38)]);
    let c = clear(&sim.tap(Button::HardDrop));
    assert_eq!((c.lines, c.spin), (2, minotty_engine::Spin::Full));
}

#[test]
fn i_piece_kicks_off_the_left_wall() {
    // West I in column 0 turning to North: the plain turn would poke out at column -1.
    for (turn, button, kick, x) in [
        (Turn::Cw, Button::RotateCw, 1, 0),   // W→N: seed (1, 0)
        (Turn::Ccw, Button::RotateCcw, 2, 0), // W→S: (0,0) and seed (-2, 0) out, then (1, 0)
    ] {
        let mut sim = Sim::on_board(Mode::sprint(), "I", &["#.....####"]);
        sim.tap(Button::RotateCcw);
        assert_eq!(sim.placed().rotation, Rotation::West);
        sim.shift(Button::Left, 4);
        assert_eq!(sim.placed().x, -1);
        assert!(sim.cells().iter().all(|c| c.0 == 0));
        let before_y = sim.placed().y;
        let ev = sim.tap(button);
        let to = Rotation::West.turned(turn.quarter_turns());
        assert!(
            has(&ev, |k| *k == EventKind::Rotate { turn, to, kick }),
            "{ev:?}"
        );
        assert_eq!((sim.placed().x, sim.placed().y), (x, before_y));
        assert!(sim.cells().iter().all(|c| (0..4).contains(&c.0)));
    }
}

#[test]
fn i_piece_kicks_off_the_right_wall() {
    // East I in column 9 turning back to North (CCW) or on to South (CW).
    for (turn, button, kick, x) in [
        (Turn::Ccw, Button::RotateCcw, 2, 6), // E→N: (0,0), (2,0) out; seed (-1, 0) fits
        (Turn::Cw, Button::RotateCw, 1, 6),   // E→S: seed (-1, 0) fits
    ] {
        let mut sim = Sim::on_board(Mode::sprint(), "I", &["####.....#"]);
        sim.tap(Button::RotateCw);
        sim.shift(Button::Right, 4);
        assert_eq!(sim.placed().x, 7);
        assert!(sim.cells().iter().all(|c| c.0 == 9));
        let before_y = sim.placed().y;
        let ev = sim.tap(button);
        let to = Rotation::East.turned(turn.quarter_turns());
        assert!(
            has(&ev, |k| *k == EventKind::Rotate { turn, to, kick }),
            "{ev:?}"
        );
        assert_eq!((sim.placed().x, sim.placed().y), (x, before_y));
        assert!(sim.cells().iter().all(|c| (6..10).contains(&c.0)));
    }
}

#[test]
fn o_piece_never_moves_when_rotating() {
    // Snug in a 2-wide pit on the floor, and in the open.
    let mut sim = Sim::on_board(
        Mode::sprint(),
        "O",
        &[
            "####..####", //
            "####..####",
        ],
    );
    let spawn = sim.cells();
    for b in [Button::RotateCw, Button::RotateCcw, Button::Rotate180] {
        let ev = sim.tap(b);
        assert!(has(&ev, |k| matches!(k, EventKind::Rotate { kick: 0, .. })));
        assert_eq!(sim.cells(), spawn);
    }
    sim.tap(Button::SonicDrop);
    let cells = sim.cells();
    assert_eq!(cells, vec![(4, 38), (4, 39), (5, 38), (5, 39)]);
    for b in [
        Button::RotateCw,
        Button::RotateCw,
        Button::Rotate180,
        Button::RotateCcw,
    ] {
        sim.tap(b);
        assert_eq!(sim.cells(), cells);
        assert_eq!((sim.placed().x, sim.placed().y), (3, 38));
    }
}

#[test]
fn rotation_fails_when_every_kick_is_blocked() {
    // A vertical I down a 1-wide shaft: no kick of W→N or W→S fits (a half turn would, as the
    // I is symmetric there).
    let mut rows = vec!["####.#####"; 8];
    rows.push("####.####.");
    let mut sim = Sim::on_board(Mode::sprint(), "I", &rows);
    sim.tap(Button::RotateCcw);
    sim.tap(Button::SonicDrop);
    let p = sim.placed();
    assert_eq!((p.rotation, p.x, p.y), (Rotation::West, 3, 36));
    for b in [Button::RotateCw, Button::RotateCcw] {
        let ev = sim.tap(b);
        assert!(
            !has(&ev, |k| matches!(k, EventKind::Rotate { .. })),
            "{ev:?}"
        );
        assert_eq!(sim.placed(), p);
    }

    // A T pointing down into a pocket that has just its shape, walled in above.
    let pocket = ["###...####", "####.#####"];
    let mut sim = Sim::on_board(Mode::sprint(), "T", &pocket);
    sim.tap(Button::Rotate180);
    sim.tap(Button::SonicDrop);
    let p = sim.placed();
    assert_eq!((p.rotation, p.x, p.y), (Rotation::South, 3, 37));
    let mut walled = vec!["#########."; 8];
    walled.extend(pocket);
    sim.game.set_board(board(&walled));
    for b in [Button::RotateCw, Button::RotateCcw, Button::Rotate180] {
        let ev = sim.tap(b);
        assert!(
            !has(&ev, |k| matches!(k, EventKind::Rotate { .. })),
            "{ev:?}"
        );
        assert_eq!(sim.placed(), p);
    }
}
