//! The rotation systems' names, the Super system's kick tables against the rules seed with
//! well-known kicks on real boards and spawn positions, and the proof that the Classic and Ocular
//! lists (pinned in `kicks_classic.rs` and `kicks_ocular.rs`) are the tetrs seed's, moved into
//! the board frame.

mod common;

use common::*;
use minotty_engine::kicks::{RotationSystem, seed_tables};
use minotty_engine::{Button, EventKind, Mode, Piece, Placed, Rotation, Turn};

use minotty_engine::kicks::Kick;

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

// ---------------------------------------------------------------------------------------------
// Names.

#[test]
fn names_ids_and_parsing() {
    use RotationSystem::*;
    assert_eq!(RotationSystem::ALL, [Super, Classic, Ocular, ClassicL]);
    assert_eq!(RotationSystem::default(), Super);
    let names: Vec<_> = RotationSystem::ALL.iter().map(|r| r.name()).collect();
    let ids: Vec<_> = RotationSystem::ALL.iter().map(|r| r.id()).collect();
    assert_eq!(names, ["Super", "Classic", "Ocular", "ClassicL"]);
    assert_eq!(ids, ["super", "classic", "ocular", "classicl"]);
    for r in RotationSystem::ALL {
        assert_eq!(RotationSystem::parse(r.id()), Some(r));
        assert_eq!(RotationSystem::parse(r.name()), Some(r));
        assert_eq!(RotationSystem::parse(&r.id().to_uppercase()), Some(r));
    }
    for bad in ["", "srs", "SRS+", "nes", "ocular ", "supe"] {
        assert_eq!(RotationSystem::parse(bad), None, "{bad:?}");
    }
}

#[test]
fn every_system_offers_every_turn() {
    for sys in RotationSystem::ALL {
        for piece in Piece::ALL {
            for from in Rotation::ALL {
                for turn in [Turn::Cw, Turn::Ccw, Turn::Half] {
                    assert!(!sys.kicks(piece, from, turn).is_empty());
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Super: every list, written out in board coordinates (`+y` down).

use Piece::{I, J, L, O, S, T, Z};
use Rotation::{East, North, South, West};
use Turn::{Ccw, Cw, Half};

type Row = (Piece, Rotation, Turn, &'static [Kick]);

/// `(piece, from, turn, kicks)` for all 84 combinations, Super, board frame.
#[rustfmt::skip]
const SUPER: [Row; 84] = [
    (I, North, Cw, &[(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)]),
    (I, North, Ccw, &[(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)]),
    (I, North, Half, &[(0, 0), (0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)]),
    (I, East, Cw, &[(0, 0), (-1, 0), (2, 0), (-1, -2), (2, 1)]),
    (I, East, Ccw, &[(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)]),
    (I, East, Half, &[(0, 0), (1, 0), (1, -2), (1, -1), (0, -2), (0, -1)]),
    (I, South, Cw, &[(0, 0), (2, 0), (-1, 0), (2, -1), (-1, 2)]),
    (I, South, Ccw, &[(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)]),
    (I, South, Half, &[(0, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0)]),
    (I, West, Cw, &[(0, 0), (1, 0), (-2, 0), (1, 2), (-2, -1)]),
    (I, West, Ccw, &[(0, 0), (-2, 0), (1, 0), (-2, 1), (1, -2)]),
    (I, West, Half, &[(0, 0), (-1, 0), (-1, -2), (-1, -1), (0, -2), (0, -1)]),
    (O, North, Cw, &[(0, 0)]),
    (O, North, Ccw, &[(0, 0)]),
    (O, North, Half, &[(0, 0)]),
    (O, East, Cw, &[(0, 0)]),
    (O, East, Ccw, &[(0, 0)]),
    (O, East, Half, &[(0, 0)]),
    (O, South, Cw, &[(0, 0)]),
    (O, South, Ccw, &[(0, 0)]),
    (O, South, Half, &[(0, 0)]),
    (O, West, Cw, &[(0, 0)]),
    (O, West, Ccw, &[(0, 0)]),
    (O, West, Half, &[(0, 0)]),
    (T, North, Cw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (T, North, Ccw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (T, North, Half, &[(0, 0), (0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)]),
    (T, East, Cw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (T, East, Ccw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (T, East, Half, &[(0, 0), (1, 0), (1, -2), (1, -1), (0, -2), (0, -1)]),
    (T, South, Cw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (T, South, Ccw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (T, South, Half, &[(0, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0)]),
    (T, West, Cw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (T, West, Ccw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (T, West, Half, &[(0, 0), (-1, 0), (-1, -2), (-1, -1), (0, -2), (0, -1)]),
    (S, North, Cw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (S, North, Ccw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (S, North, Half, &[(0, 0), (0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)]),
    (S, East, Cw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (S, East, Ccw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (S, East, Half, &[(0, 0), (1, 0), (1, -2), (1, -1), (0, -2), (0, -1)]),
    (S, South, Cw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (S, South, Ccw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (S, South, Half, &[(0, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0)]),
    (S, West, Cw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (S, West, Ccw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (S, West, Half, &[(0, 0), (-1, 0), (-1, -2), (-1, -1), (0, -2), (0, -1)]),
    (Z, North, Cw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (Z, North, Ccw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (Z, North, Half, &[(0, 0), (0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)]),
    (Z, East, Cw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (Z, East, Ccw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (Z, East, Half, &[(0, 0), (1, 0), (1, -2), (1, -1), (0, -2), (0, -1)]),
    (Z, South, Cw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (Z, South, Ccw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (Z, South, Half, &[(0, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0)]),
    (Z, West, Cw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (Z, West, Ccw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (Z, West, Half, &[(0, 0), (-1, 0), (-1, -2), (-1, -1), (0, -2), (0, -1)]),
    (J, North, Cw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (J, North, Ccw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (J, North, Half, &[(0, 0), (0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)]),
    (J, East, Cw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (J, East, Ccw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (J, East, Half, &[(0, 0), (1, 0), (1, -2), (1, -1), (0, -2), (0, -1)]),
    (J, South, Cw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (J, South, Ccw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (J, South, Half, &[(0, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0)]),
    (J, West, Cw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (J, West, Ccw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (J, West, Half, &[(0, 0), (-1, 0), (-1, -2), (-1, -1), (0, -2), (0, -1)]),
    (L, North, Cw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (L, North, Ccw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (L, North, Half, &[(0, 0), (0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0)]),
    (L, East, Cw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (L, East, Ccw, &[(0, 0), (1, 0), (1, 1), (0, -2), (1, -2)]),
    (L, East, Half, &[(0, 0), (1, 0), (1, -2), (1, -1), (0, -2), (0, -1)]),
    (L, South, Cw, &[(0, 0), (1, 0), (1, -1), (0, 2), (1, 2)]),
    (L, South, Ccw, &[(0, 0), (-1, 0), (-1, -1), (0, 2), (-1, 2)]),
    (L, South, Half, &[(0, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0)]),
    (L, West, Cw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (L, West, Ccw, &[(0, 0), (-1, 0), (-1, 1), (0, -2), (-1, -2)]),
    (L, West, Half, &[(0, 0), (-1, 0), (-1, -2), (-1, -1), (0, -2), (0, -1)]),
];

/// Asserts that `table` names each (piece, from, turn) exactly once and that `sys` returns the
/// listed kicks for each.
pub fn assert_table(sys: RotationSystem, table: &[Row]) {
    let mut seen = std::collections::HashSet::new();
    for &(piece, from, turn, kicks) in table {
        assert!(
            seen.insert((piece, from, turn)),
            "{piece:?} {from:?} {turn:?} twice"
        );
        assert_eq!(
            sys.kicks(piece, from, turn),
            kicks,
            "{sys:?} {piece:?} {from:?} {turn:?}"
        );
    }
    assert_eq!(seen.len(), 7 * 4 * 3);
}

#[test]
fn super_every_list_in_board_coordinates() {
    assert_table(RotationSystem::Super, &SUPER);
}

// ---------------------------------------------------------------------------------------------
// The tetrs frame.
//
// tetrs (`/work/ref/tetrs_lib.rs`, `tetrs_piece_rotation.rs`) places a piece by the bottom-left
// corner of its *tight* bounding box, with `y` pointing up, and a kick `(kx, ky)` moves that
// corner. Its shapes are re-stated here as pictures (top row first, so `y` points down), which
// fixes every mino: tetrs's minos always touch both the left and the bottom edge of the box.
// Orientations are N, E, S, W in that order, and tetrs's "right turn" goes N→E→S→W.

/// tetrs's `Tetromino::minos`, as pictures in the order N, E, S, W.
#[rustfmt::skip]
const TETRS_SHAPES: [(Piece, [&[&str]; 4]); 7] = [
    (O, [&["##", "##"], &["##", "##"], &["##", "##"], &["##", "##"]]),
    (I, [&["####"], &["#", "#", "#", "#"], &["####"], &["#", "#", "#", "#"]]),
    (S, [&[".##", "##."], &["#.", "##", ".#"], &[".##", "##."], &["#.", "##", ".#"]]),
    (Z, [&["##.", ".##"], &[".#", "##", "#."], &["##.", ".##"], &[".#", "##", "#."]]),
    (T, [&[".#.", "###"], &["#.", "##", "#."], &["###", ".#."], &[".#", "##", ".#"]]),
    (L, [&["..#", "###"], &["#.", "#.", "##"], &["###", "#.."], &["##", ".#", ".#"]]),
    (J, [&["#..", "###"], &["##", "#.", "#."], &["###", "..#"], &[".#", ".#", "##"]]),
];

fn tetrs_picture(piece: Piece, o: Rotation) -> &'static [&'static str] {
    TETRS_SHAPES.iter().find(|(p, _)| *p == piece).unwrap().1[o as usize]
}

/// The board cells of a tetrs piece whose tight box has its bottom-left corner at `corner`
/// (board frame), sorted.
fn tetrs_cells(piece: Piece, o: Rotation, corner: (i8, i8)) -> Vec<(i8, i8)> {
    let rows = tetrs_picture(piece, o);
    let h = rows.len() as i8;
    let mut out = vec![];
    for (r, line) in rows.iter().enumerate() {
        for (c, ch) in line.chars().enumerate() {
            if ch == '#' {
                out.push((corner.0 + c as i8, corner.1 - (h - 1 - r as i8)));
            }
        }
    }
    sorted(out)
}

/// Width of tetrs's tight box.
fn tetrs_width(piece: Piece, o: Rotation) -> i8 {
    tetrs_picture(piece, o)[0].len() as i8
}

fn normalized(cells: &[(i8, i8)]) -> Vec<(i8, i8)> {
    let x0 = cells.iter().map(|c| c.0).min().unwrap();
    let y0 = cells.iter().map(|c| c.1).min().unwrap();
    sorted(cells.iter().map(|&(x, y)| (x - x0, y - y0)).collect())
}

fn our_cells(piece: Piece, o: Rotation, at: (i8, i8)) -> Vec<(i8, i8)> {
    sorted(
        Placed {
            piece,
            rotation: o,
            x: at.0,
            y: at.1,
        }
        .cells()
        .to_vec(),
    )
}

#[test]
fn tetrs_shapes_are_ours_and_its_right_turn_is_clockwise() {
    for &(piece, pictures) in &TETRS_SHAPES {
        for o in Rotation::ALL {
            let rows = pictures[o as usize];
            // Tight: every picture touches all four edges, and has four minos.
            assert!(rows.first().unwrap().contains('#') && rows.last().unwrap().contains('#'));
            assert!(
                rows.iter().any(|r| r.starts_with('#')) && rows.iter().any(|r| r.ends_with('#'))
            );
            assert!(rows.iter().all(|r| r.len() == rows[0].len()));
            let tetrs = tetrs_cells(piece, o, (0, 0));
            assert_eq!(tetrs.len(), 4);
            // Same shape as ours under the same orientation name.
            assert_eq!(
                normalized(&tetrs),
                normalized(&our_cells(piece, o, (0, 0))),
                "{piece:?} {o:?}"
            );
            // One right turn is a clockwise quarter turn on screen ((x, y) -> (-y, x) with y
            // down), in tetrs and in our table alike.
            let turned: Vec<_> = tetrs.iter().map(|&(x, y)| (-y, x)).collect();
            let next = o.turned(Turn::Cw.quarter_turns());
            assert_eq!(
                normalized(&turned),
                normalized(&tetrs_cells(piece, next, (0, 0))),
                "{piece:?} {o:?}"
            );
            let ours: Vec<_> = our_cells(piece, o, (0, 0))
                .iter()
                .map(|&(x, y)| (-y, x))
                .collect();
            assert_eq!(
                normalized(&ours),
                normalized(&our_cells(piece, next, (0, 0))),
                "{piece:?} {o:?}"
            );
        }
    }
}

/// tetrs's kicks, `+y` up, moving the tight box's bottom-left corner.
type TKick = (i8, i8);

/// The lists of tetrs's Ocular system that it writes out itself (`ocular_rotate`); every other
/// list follows from the seed's mirror rules, applied in [`tetrs_ocular`].
#[rustfmt::skip]
mod ocular_given {
    use super::TKick;
    /// O, left turn, any orientation.
    pub const O_LEFT: &[TKick] = &[(-1, 0), (-1, -1), (-1, 1), (0, 0)];
    /// I, left turn: from N or S, and from E or W.
    pub const I_LEFT_NS: &[TKick] = &[(1, -1), (1, -2), (1, -3), (0, -1), (0, -2), (0, -3), (1, 0), (0, 0), (2, -1), (2, -2)];
    pub const I_LEFT_EW: &[TKick] = &[(-2, 1), (-3, 1), (-2, 0), (-3, 0), (-1, 1), (-1, 0), (0, 1), (0, 0)];
    /// S, both turns: `[from N or S, from E or W][left, right]`.
    pub const S: [[&[TKick]; 2]; 2] = [
        [&[(0, 0), (0, -1), (1, 0), (-1, -1)], &[(1, 0), (1, -1), (1, 1), (0, 0), (0, -1)]],
        [&[(-1, 0), (0, 0), (-1, -1), (-1, 1), (0, 1)], &[(0, 0), (-1, 0), (0, -1), (1, 0), (0, 1), (-1, 1)]],
    ];
    /// T, left turn, from N, E, S, W.
    pub const T_LEFT: [&[TKick]; 4] = [
        &[(0, -1), (0, 0), (-1, -1), (1, -1), (-1, -2), (1, 0)],
        &[(-1, 1), (-1, 0), (0, 1), (0, 0), (-1, -1), (-1, 2)],
        &[(1, 0), (0, 0), (1, -1), (0, -1), (1, -2), (2, 0)],
        &[(0, 0), (-1, 0), (0, -1), (-1, -1), (1, -1), (0, 1), (-1, 1)],
    ];
    /// L, both turns: `[from N, E, S, W][left, right]`.
    pub const L: [[&[TKick]; 2]; 4] = [
        [&[(0, -1), (1, -1), (0, -2), (1, -2), (0, 0), (1, 0)], &[(1, -1), (1, 0), (1, -1), (2, 0), (0, -1), (0, 0)]],
        [&[(-1, 1), (-1, 0), (-2, 1), (-2, 0), (0, 0), (0, 1)], &[(-1, 0), (0, 0), (0, -1), (-1, -1), (0, 1), (-1, 1)]],
        [&[(1, 0), (0, 0), (1, -1), (0, -1), (0, 1), (1, 1)], &[(0, 0), (0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)]],
        [&[(0, 0), (-1, 0), (0, 1), (1, 0), (-1, 1), (1, 1), (0, -1), (-1, -1)], &[(0, 1), (-1, 1), (0, 0), (-1, 0), (0, 2), (-1, 2)]],
    ];
    /// Half turns: S from N or S, and from E or W; T from N, E, S; L from N, E, S, W.
    pub const S_HALF: [&[TKick]; 2] = [&[(-1, -1), (0, 0)], &[(1, -1), (0, 0)]];
    pub const T_HALF: [&[TKick]; 3] = [&[(0, -1), (0, 0)], &[(-1, 0), (0, 0), (-1, -1)], &[(0, 1), (0, 0), (0, -1)]];
    pub const L_HALF: [&[TKick]; 4] = [
        &[(0, -1), (1, -1), (-1, -1), (0, 0), (1, 0)],
        &[(-1, 0), (-1, -1), (0, 0), (0, -1)],
        &[(0, 1), (0, 0), (-1, 1), (-1, 0)],
        &[(1, 0), (0, 0), (1, -1), (1, 1), (0, 1)],
    ];
}

/// The board mirrored left to right: N and S stay, E and W swap.
fn mirror_rotation(o: Rotation) -> Rotation {
    match o {
        East => West,
        West => East,
        o => o,
    }
}

/// The other direction of a quarter turn; a half turn stays.
fn opposite(turn: Turn) -> Turn {
    match turn {
        Cw => Ccw,
        Ccw => Cw,
        Half => Half,
    }
}

/// Mirrors a tetrs kick of `piece` turning from `from` by `turn` into the kick of the mirrored
/// piece turning the other way. The corner is the box's *left* edge, so a box of width `w` that
/// becomes `w2` wide has its mirrored corner moved by `w - w2` on top of the negated kick.
fn tetrs_mirror(piece: Piece, from: Rotation, turn: Turn, kicks: &[TKick]) -> Vec<TKick> {
    let to = from.turned(turn.quarter_turns());
    let shift = tetrs_width(piece, from) - tetrs_width(piece, to);
    kicks.iter().map(|&(x, y)| (shift - x, y)).collect()
}

/// tetrs's Ocular list for every (piece, orientation, turn), following the seed's symmetry
/// notes: "O N ↻ = -O N ↺", "I NE ↻ = -I NE ↺", "Z NE ↺↻ = -S NE ↻↺", "T NS ↻ = -T NS ↺",
/// "T EW ↻ = -T WE ↺", "J NS ↺↻ = -L NS ↻↺", "J EW ↺↻ = -L WE ↻↺", and for half turns the same
/// pairs (Z from S, T's W from its E, J from L).
fn tetrs_ocular(piece: Piece, from: Rotation, turn: Turn) -> Vec<TKick> {
    use ocular_given as g;
    let flat = matches!(from, North | South) as usize; // 1: N or S
    let ns = 1 - flat; // index: 0 for N/S, 1 for E/W
    let lr = |t: Turn| (t == Cw) as usize; // 0 left, 1 right
    // The mirror image: the mirrored piece, from the mirrored orientation, turned the other way.
    let mirrored =
        |p: Piece, o: Rotation, t: Turn| tetrs_mirror(p, o, t, &tetrs_ocular_of(p, o, t));
    match (piece, turn) {
        (O | I, Half) => vec![(0, 0)],
        (S, Half) => g::S_HALF[ns].to_vec(),
        (Z, Half) => mirrored(S, from, Half),
        (T, Half) if from == West => mirrored(T, East, Half),
        (T, Half) => g::T_HALF[from as usize].to_vec(),
        (L, Half) => g::L_HALF[from as usize].to_vec(),
        (J, Half) => mirrored(L, mirror_rotation(from), Half),
        (O, Ccw) => g::O_LEFT.to_vec(),
        (I, Ccw) => [g::I_LEFT_EW, g::I_LEFT_NS][flat].to_vec(),
        (O | I, Cw) => mirrored(piece, from, Ccw),
        (S, t) => g::S[ns][lr(t)].to_vec(),
        (Z, t) => mirrored(S, mirror_rotation(from), opposite(t)),
        (T, Ccw) => g::T_LEFT[from as usize].to_vec(),
        (T, Cw) => mirrored(T, mirror_rotation(from), Ccw),
        (L, t) => g::L[from as usize][lr(t)].to_vec(),
        (J, t) => mirrored(L, mirror_rotation(from), opposite(t)),
    }
}

/// Only the lists tetrs writes out (used as the source of its mirrored ones).
fn tetrs_ocular_of(piece: Piece, from: Rotation, turn: Turn) -> Vec<TKick> {
    assert!(
        matches!(piece, O | I | S | T | L),
        "{piece:?} is never a source"
    );
    tetrs_ocular(piece, from, turn)
}

/// tetrs's Classic system: one corner move per turn (`classic_rotate`); a half turn keeps the
/// corner.
fn tetrs_classic(piece: Piece, from: Rotation, turn: Turn) -> TKick {
    let flat = matches!(from, North | South);
    match (piece, turn) {
        (_, Half) | (O, _) => (0, 0),
        (I, _) => {
            if flat {
                (2, -1)
            } else {
                (-2, 1)
            }
        }
        (S | Z, _) => {
            if flat {
                (1, 0)
            } else {
                (-1, 0)
            }
        }
        (_, t) => {
            // T, L, J: [left, right] from N, E, S, W.
            const TLJ: [[TKick; 2]; 4] = [
                [(0, -1), (1, -1)],
                [(-1, 1), (-1, 0)],
                [(1, 0), (0, 0)],
                [(0, 0), (0, 1)],
            ];
            TLJ[from as usize][(t == Cw) as usize]
        }
    }
}

/// For every piece, orientation, turn and kick: the cells tetrs's rule reaches equal the cells
/// our offset reaches. The piece starts with its tetrs corner at a fixed board cell, and our box
/// is put where its cells are the same.
fn assert_same_cells_as_tetrs(
    sys: RotationSystem,
    tetrs: impl Fn(Piece, Rotation, Turn) -> Vec<TKick>,
) {
    assert_kicks_same_cells_as_tetrs(sys, &|p, o, t| sys.kicks(p, o, t), tetrs);
}

/// [`assert_same_cells_as_tetrs`] for the lists `ours` gives (`sys` names them in messages).
fn assert_kicks_same_cells_as_tetrs(
    sys: RotationSystem,
    ours: &dyn Fn(Piece, Rotation, Turn) -> &'static [minotty_engine::kicks::Kick],
    tetrs: impl Fn(Piece, Rotation, Turn) -> Vec<TKick>,
) {
    let corner = (5, 25);
    for piece in Piece::ALL {
        for from in Rotation::ALL {
            let start = tetrs_cells(piece, from, corner);
            let shape = our_cells(piece, from, (0, 0));
            let min_x = shape.iter().map(|c| c.0).min().unwrap();
            let max_y = shape.iter().map(|c| c.1).max().unwrap();
            let bx = corner.0 - min_x;
            let by = corner.1 - max_y;
            assert_eq!(
                our_cells(piece, from, (bx, by)),
                start,
                "{piece:?} {from:?}"
            );
            for turn in [Cw, Ccw, Half] {
                let to = from.turned(turn.quarter_turns());
                let theirs = tetrs(piece, from, turn);
                let ours = ours(piece, from, turn);
                assert_eq!(
                    ours.len(),
                    theirs.len(),
                    "{sys:?} {piece:?} {from:?} {turn:?}"
                );
                for (i, (&(kx, ky), &(dx, dy))) in theirs.iter().zip(ours).enumerate() {
                    let want = tetrs_cells(piece, to, (corner.0 + kx, corner.1 - ky));
                    let got = our_cells(piece, to, (bx + dx, by + dy));
                    assert_eq!(got, want, "{sys:?} {piece:?} {from:?} {turn:?} kick {i}");
                }
            }
        }
    }
}

/// Version 1 of the rulesets played tetrs's Ocular data exactly.
#[test]
fn version_1_ocular_reaches_exactly_the_cells_tetrs_does() {
    let v1 = minotty_engine::Ruleset::of_version(minotty_engine::RulesetId::Tetrs, 1).unwrap();
    assert_eq!(v1.rotation, RotationSystem::Ocular);
    assert_kicks_same_cells_as_tetrs(
        RotationSystem::Ocular,
        &|p, o, t| v1.kicks(p, o, t),
        tetrs_ocular,
    );
}

/// Today's Ocular is tetrs's data but for kick 2 of L North clockwise and J North
/// counter-clockwise, where tetrs repeats kick 0 and the seed's two-cell-overlap position goes
/// (`kicks_ocular.rs` shows why).
#[test]
fn ocular_differs_from_tetrs_only_in_the_two_repeated_kicks() {
    let v1 = minotty_engine::Ruleset::of_version(minotty_engine::RulesetId::Tetrs, 1).unwrap();
    let mut differences = Vec::new();
    for piece in Piece::ALL {
        for from in Rotation::ALL {
            for turn in [Cw, Ccw, Half] {
                let now = RotationSystem::Ocular.kicks(piece, from, turn);
                let then = v1.kicks(piece, from, turn);
                assert_eq!(now.len(), then.len());
                for (i, (a, b)) in now.iter().zip(then).enumerate() {
                    if a != b {
                        differences.push((piece, from, turn, i, *b, *a));
                    }
                }
            }
        }
    }
    assert_eq!(
        differences,
        [
            (J, North, Ccw, 2, (0, 0), (-1, 0)),
            (L, North, Cw, 2, (0, 0), (1, 0)),
        ]
    );
    // Ocular played today under the current rulesets; version 1 only for its replays.
    assert_eq!(
        minotty_engine::Ruleset::TETRS.kicks(L, North, Cw),
        RotationSystem::Ocular.kicks(L, North, Cw)
    );
}

#[test]
fn classic_reaches_exactly_the_cells_tetrs_does() {
    assert_same_cells_as_tetrs(RotationSystem::Classic, |p, o, t| {
        vec![tetrs_classic(p, o, t)]
    });
}

#[test]
fn tetrs_documented_example_i_turning_left_in_the_corner() {
    // tetrs's own doc example: an I lying flat with its corner at (0, 0) (bottom-left of the
    // field), turned left with Ocular, stands at corner (1, 0). Kicks 0..5 would poke below the
    // floor; kick 6, (1, 0), is the first that fits. Our floor is row 39.
    let board = minotty_engine::Board::new();
    let flat = Placed {
        piece: I,
        rotation: North,
        x: 0,
        y: 38,
    };
    assert_eq!(flat.cells(), [(0, 39), (1, 39), (2, 39), (3, 39)]);
    let kicks = RotationSystem::Ocular.kicks(I, North, Ccw);
    let (i, p) = kicks
        .iter()
        .enumerate()
        .map(|(i, &(dx, dy))| {
            (
                i,
                Placed {
                    rotation: West,
                    ..flat.shifted(dx, dy)
                },
            )
        })
        .find(|(_, p)| board.fits(p))
        .unwrap();
    assert_eq!(i, 6);
    assert_eq!(sorted(p.cells().to_vec()), tetrs_cells(I, West, (1, 39)));
}
