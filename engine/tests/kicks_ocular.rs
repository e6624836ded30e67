//! Ocular (the tetrs seed's own rotation system): every kick list in board coordinates, the
//! symmetries the seed promises, and some of its signature kicks on real boards. Where the numbers
//! come from is proven in `kicks.rs` (`ocular_reaches_exactly_the_cells_tetrs_does`).

mod common;

use Piece::{I, J, L, O, S, T, Z};
use Rotation::{East, North, South, West};
use Turn::{Ccw, Cw, Half};
use common::*;
use minotty_engine::kicks::{Kick, RotationSystem};
use minotty_engine::{Board, Piece, Placed, Rotation, Ruleset, RulesetId, Turn};

const OCULAR: RotationSystem = RotationSystem::Ocular;

type Row = (Piece, Rotation, Turn, &'static [Kick]);

/// `(piece, from, turn, kicks)` for all 84 combinations, board frame (`+y` down).
#[rustfmt::skip]
const TABLE: [Row; 84] = [
    (I, North, Cw, &[(0, -1), (0, 0), (0, 1), (1, -1), (1, 0), (1, 1), (0, -2), (1, -2), (-1, -1), (-1, 0)]),
    (I, North, Ccw, &[(0, -1), (0, 0), (0, 1), (-1, -1), (-1, 0), (-1, 1), (0, -2), (-1, -2), (1, -1), (1, 0)]),
    (I, North, Half, &[(0, -1)]),
    (I, East, Cw, &[(1, 0), (2, 0), (1, 1), (2, 1), (0, 0), (0, 1), (-1, 0), (-1, 1)]),
    (I, East, Ccw, &[(0, 1), (-1, 1), (0, 2), (-1, 2), (1, 1), (1, 2), (2, 1), (2, 2)]),
    (I, East, Half, &[(1, 0)]),
    (I, South, Cw, &[(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2), (1, -1), (2, -1), (0, 0), (0, 1)]),
    (I, South, Ccw, &[(-1, 0), (-1, 1), (-1, 2), (-2, 0), (-2, 1), (-2, 2), (-1, -1), (-2, -1), (0, 0), (0, 1)]),
    (I, South, Half, &[(0, 1)]),
    (I, West, Cw, &[(0, 1), (1, 1), (0, 2), (1, 2), (-1, 1), (-1, 2), (-2, 1), (-2, 2)]),
    (I, West, Ccw, &[(-1, 0), (-2, 0), (-1, 1), (-2, 1), (0, 0), (0, 1), (1, 0), (1, 1)]),
    (I, West, Half, &[(-1, 0)]),
    (O, North, Cw, &[(1, 0), (1, 1), (1, -1), (0, 0)]),
    (O, North, Ccw, &[(-1, 0), (-1, 1), (-1, -1), (0, 0)]),
    (O, North, Half, &[(0, 0)]),
    (O, East, Cw, &[(1, 0), (1, 1), (1, -1), (0, 0)]),
    (O, East, Ccw, &[(-1, 0), (-1, 1), (-1, -1), (0, 0)]),
    (O, East, Half, &[(0, 0)]),
    (O, South, Cw, &[(1, 0), (1, 1), (1, -1), (0, 0)]),
    (O, South, Ccw, &[(-1, 0), (-1, 1), (-1, -1), (0, 0)]),
    (O, South, Half, &[(0, 0)]),
    (O, West, Cw, &[(1, 0), (1, 1), (1, -1), (0, 0)]),
    (O, West, Ccw, &[(-1, 0), (-1, 1), (-1, -1), (0, 0)]),
    (O, West, Half, &[(0, 0)]),
    (T, North, Cw, &[(0, 0), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)]),
    (T, North, Ccw, &[(0, 0), (0, -1), (-1, 0), (1, 0), (-1, 1), (1, -1)]),
    (T, North, Half, &[(0, 0), (0, -1)]),
    (T, East, Cw, &[(0, 0), (1, 0), (0, 1), (1, 1), (-1, 1), (0, -1), (1, -1)]),
    (T, East, Ccw, &[(0, 0), (0, 1), (1, 0), (1, 1), (0, 2), (0, -1)]),
    (T, East, Half, &[(0, 0), (1, 0), (0, 1)]),
    (T, South, Cw, &[(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (-1, 0)]),
    (T, South, Ccw, &[(0, 0), (-1, 0), (0, 1), (-1, 1), (0, 2), (1, 0)]),
    (T, South, Half, &[(0, 0), (0, 1), (0, 2)]),
    (T, West, Cw, &[(0, 0), (0, 1), (-1, 0), (-1, 1), (0, 2), (0, -1)]),
    (T, West, Ccw, &[(0, 0), (-1, 0), (0, 1), (-1, 1), (1, 1), (0, -1), (-1, -1)]),
    (T, West, Half, &[(0, 0), (-1, 0), (0, 1)]),
    (S, North, Cw, &[(0, -1), (0, 0), (0, -2), (-1, -1), (-1, 0)]),
    (S, North, Ccw, &[(0, -1), (0, 0), (1, -1), (-1, 0)]),
    (S, North, Half, &[(-1, 0), (0, -1)]),
    (S, East, Cw, &[(1, 0), (0, 0), (1, 1), (2, 0), (1, -1), (0, -1)]),
    (S, East, Ccw, &[(0, 1), (1, 1), (0, 2), (0, 0), (1, 0)]),
    (S, East, Half, &[(2, 1), (1, 0)]),
    (S, South, Cw, &[(1, 0), (1, 1), (1, -1), (0, 0), (0, 1)]),
    (S, South, Ccw, &[(-1, 0), (-1, 1), (0, 0), (-2, 1)]),
    (S, South, Half, &[(-1, 2), (0, 1)]),
    (S, West, Cw, &[(0, 1), (-1, 1), (0, 2), (1, 1), (0, 0), (-1, 0)]),
    (S, West, Ccw, &[(-1, 0), (0, 0), (-1, 1), (-1, -1), (0, -1)]),
    (S, West, Half, &[(0, 1), (-1, 0)]),
    (Z, North, Cw, &[(0, -1), (0, 0), (-1, -1), (1, 0)]),
    (Z, North, Ccw, &[(0, -1), (0, 0), (0, -2), (1, -1), (1, 0)]),
    (Z, North, Half, &[(1, 0), (0, -1)]),
    (Z, East, Cw, &[(1, 0), (0, 0), (1, 1), (1, -1), (0, -1)]),
    (Z, East, Ccw, &[(0, 1), (1, 1), (0, 2), (-1, 1), (0, 0), (1, 0)]),
    (Z, East, Half, &[(0, 1), (1, 0)]),
    (Z, South, Cw, &[(1, 0), (1, 1), (0, 0), (2, 1)]),
    (Z, South, Ccw, &[(-1, 0), (-1, 1), (-1, -1), (0, 0), (0, 1)]),
    (Z, South, Half, &[(1, 2), (0, 1)]),
    (Z, West, Cw, &[(0, 1), (-1, 1), (0, 2), (0, 0), (-1, 0)]),
    (Z, West, Ccw, &[(-1, 0), (0, 0), (-1, 1), (-2, 0), (-1, -1), (0, -1)]),
    (Z, West, Half, &[(-2, 1), (-1, 0)]),
    (J, North, Cw, &[(0, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (-1, -1)]),
    (J, North, Ccw, &[(0, 0), (0, -1), (-1, 0), (-1, -1), (1, 0), (1, -1)]),
    (J, North, Half, &[(0, 0), (-1, 0), (1, 0), (0, -1), (-1, -1)]),
    (J, East, Cw, &[(0, 0), (1, 0), (0, -1), (-1, 0), (1, -1), (-1, -1), (0, 1), (1, 1)]),
    (J, East, Ccw, &[(0, 0), (1, 0), (0, 1), (1, 1), (0, -1), (1, -1)]),
    (J, East, Half, &[(0, 0), (1, 0), (0, 1), (0, -1), (1, -1)]),
    (J, South, Cw, &[(0, 0), (1, 0), (0, 1), (1, 1), (1, -1), (0, -1)]),
    (J, South, Ccw, &[(0, 0), (0, 1), (-1, 1), (1, 1), (-1, 0), (1, 0), (0, -1)]),
    (J, South, Half, &[(0, 0), (0, 1), (1, 0), (1, 1)]),
    (J, West, Cw, &[(0, 0), (0, 1), (1, 0), (1, 1), (-1, 1), (-1, 0)]),
    (J, West, Ccw, &[(0, 0), (-1, 0), (-1, 1), (0, 1), (-1, -1), (0, -1)]),
    (J, West, Half, &[(0, 0), (0, 1), (-1, 0), (-1, 1)]),
    (L, North, Cw, &[(0, 0), (0, -1), (1, 0), (1, -1), (-1, 0), (-1, -1)]),
    (L, North, Ccw, &[(0, 0), (1, 0), (0, 1), (1, 1), (0, -1), (1, -1)]),
    (L, North, Half, &[(0, 0), (1, 0), (-1, 0), (0, -1), (1, -1)]),
    (L, East, Cw, &[(0, 0), (1, 0), (1, 1), (0, 1), (1, -1), (0, -1)]),
    (L, East, Ccw, &[(0, 0), (0, 1), (-1, 0), (-1, 1), (1, 1), (1, 0)]),
    (L, East, Half, &[(0, 0), (0, 1), (1, 0), (1, 1)]),
    (L, South, Cw, &[(0, 0), (0, 1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1)]),
    (L, South, Ccw, &[(0, 0), (-1, 0), (0, 1), (-1, 1), (-1, -1), (0, -1)]),
    (L, South, Half, &[(0, 0), (0, 1), (-1, 0), (-1, 1)]),
    (L, West, Cw, &[(0, 0), (-1, 0), (0, 1), (-1, 1), (0, -1), (-1, -1)]),
    (L, West, Ccw, &[(0, 0), (-1, 0), (0, -1), (1, 0), (-1, -1), (1, -1), (0, 1), (-1, 1)]),
    (L, West, Half, &[(0, 0), (-1, 0), (0, 1), (0, -1), (-1, -1)]),
];

#[test]
fn every_list_in_board_coordinates() {
    let mut seen = std::collections::HashSet::new();
    for &(piece, from, turn, kicks) in &TABLE {
        assert!(
            seen.insert((piece, from, turn)),
            "{piece:?} {from:?} {turn:?} twice"
        );
        assert_eq!(
            OCULAR.kicks(piece, from, turn),
            kicks,
            "{piece:?} {from:?} {turn:?}"
        );
    }
    assert_eq!(seen.len(), 84);
}

/// The positions (offsets of the box) at which `piece` turned by `turn` from `from` shares
/// exactly `n` cells with where it was.
fn overlapping(piece: Piece, from: Rotation, turn: Turn, n: usize) -> Vec<Kick> {
    let to = from.turned(turn.quarter_turns());
    let old = piece.cells(from);
    let mut out = Vec::new();
    for dy in -3..=3 {
        for dx in -3..=3 {
            let shared = piece
                .cells(to)
                .iter()
                .filter(|&&(x, y)| old.contains(&(x + dx, y + dy)))
                .count();
            if shared == n {
                out.push((dx, dy));
            }
        }
    }
    out
}

#[test]
fn l_and_j_turns_incorporate_every_two_cell_overlap() {
    // The seed (tetrs README, "Ocular Rotation System - Comments"): "there are no disjoint
    // rotation states, i.e. the old and new position always overlap in at least one tile. This
    // heuristic also influenced the L/J rotations, always incorporating all rotations where
    // *two* of the new pieces overlap with the old."
    //
    // Two cells is the most an L or J shares with itself turned a quarter, and each of the 16
    // quarter-turn lists holds all four such positions, each once. The tetrs engine's data (our
    // version 1) missed one in L North clockwise, (1, 0), and so in its mirror J North
    // counter-clockwise, (-1, 0), listing kick 0 twice instead.
    for piece in [J, L] {
        for from in Rotation::ALL {
            for turn in [Cw, Ccw] {
                let kicks = OCULAR.kicks(piece, from, turn);
                assert!(overlapping(piece, from, turn, 3).is_empty());
                assert!(overlapping(piece, from, turn, 4).is_empty());
                let two = overlapping(piece, from, turn, 2);
                assert_eq!(two.len(), 4, "{piece:?} {from:?} {turn:?}");
                for k in &two {
                    assert!(
                        kicks.contains(k),
                        "{piece:?} {from:?} {turn:?} misses {k:?}"
                    );
                }
                let mut unique = kicks.to_vec();
                unique.sort_unstable();
                unique.dedup();
                assert_eq!(
                    unique.len(),
                    kicks.len(),
                    "{piece:?} {from:?} {turn:?} repeats"
                );
                for &k in kicks {
                    assert!(
                        !overlapping(piece, from, turn, 0).contains(&k),
                        "{piece:?} {from:?} {turn:?}: {k:?} is disjoint"
                    );
                }
            }
        }
    }
    // Version 1 (replays recorded under it) keeps tetrs's lists.
    let v1 = Ruleset::of_version(RulesetId::Tetrs, 1).expect("version 1");
    assert_eq!(
        v1.kicks(L, North, Cw),
        &[(0, 0), (0, -1), (0, 0), (1, -1), (-1, 0), (-1, -1)]
    );
    assert_eq!(
        v1.kicks(J, North, Ccw),
        &[(0, 0), (0, -1), (0, 0), (-1, -1), (1, 0), (1, -1)]
    );
    assert!(
        !overlapping(L, North, Cw, 2)
            .iter()
            .all(|k| v1.kicks(L, North, Cw).contains(k))
    );
}

#[test]
fn the_new_l_kick_turns_in_place_where_the_old_list_jumped_aside() {
    // Rows 35-38 (x 3..6; row 39, the floor row, is empty). An L lies flat at box (3, 36) (cells `L`); `#` blocks kicks 0 and 1
    // and the old list's 2-4. Turned clockwise, the new kick 2, (1, 0), stands it up sharing
    // two cells with where it lay; the old list (version 1) tried kick 0 again and then went
    // on to kick 5, (-1, -1), a row up and a column left.
    //     x: 3456
    //  35:   .#..
    //  36:   ..L.
    //  37:   LLL#
    //  38:   .#..
    let board = Board::from_ascii(&[
        "....#.....",
        "..........",
        "......#...",
        "....#.....",
        "..........",
    ]);
    let flat = Placed {
        piece: L,
        rotation: North,
        x: 3,
        y: 36,
    };
    assert_eq!(flat.cells(), [(5, 36), (3, 37), (4, 37), (5, 37)]);
    assert!(board.fits(&flat));
    let turn = |kicks: &[Kick]| {
        kicks
            .iter()
            .enumerate()
            .map(|(i, &(dx, dy))| {
                (
                    i,
                    Placed {
                        rotation: East,
                        ..flat.shifted(dx, dy)
                    },
                )
            })
            .find(|(_, p)| board.fits(p))
            .map(|(i, p)| (i, sorted(p.cells().to_vec())))
    };
    let v1 = Ruleset::of_version(RulesetId::Tetrs, 1).expect("version 1");
    assert_eq!(
        turn(OCULAR.kicks(L, North, Cw)),
        Some((2, vec![(5, 36), (5, 37), (5, 38), (6, 38)]))
    );
    assert_eq!(
        turn(v1.kicks(L, North, Cw)),
        Some((5, vec![(3, 35), (3, 36), (3, 37), (4, 37)]))
    );
}

/// The first kick of `sys` at which `from`, turned by `turn`, fits on `board`.
fn rotate(sys: RotationSystem, board: &Board, from: Placed, turn: Turn) -> Option<(usize, Placed)> {
    let to = from.rotation.turned(turn.quarter_turns());
    sys.kicks(from.piece, from.rotation, turn)
        .iter()
        .map(|&(dx, dy)| Placed {
            rotation: to,
            ..from.shifted(dx, dy)
        })
        .enumerate()
        .find(|(_, p)| board.fits(p))
}

fn mirror_piece(p: Piece) -> Piece {
    match p {
        S => Z,
        Z => S,
        J => L,
        L => J,
        p => p,
    }
}

fn mirror_rotation(r: Rotation) -> Rotation {
    match r {
        East => West,
        West => East,
        r => r,
    }
}

fn mirror_turn(t: Turn) -> Turn {
    match t {
        Cw => Ccw,
        Ccw => Cw,
        Half => Half,
    }
}

/// Where `piece` facing `rotation` must stand to cover exactly `target`.
fn placed_on(piece: Piece, rotation: Rotation, target: &[(i8, i8)]) -> Placed {
    let shape = at(piece, rotation, 0, 0).cells();
    let dx = target.iter().map(|c| c.0).min().unwrap() - shape.iter().map(|c| c.0).min().unwrap();
    let dy = target.iter().map(|c| c.1).min().unwrap() - shape.iter().map(|c| c.1).min().unwrap();
    let p = at(piece, rotation, dx, dy);
    assert_eq!(
        cells(&p),
        sorted(target.to_vec()),
        "{piece:?} {rotation:?} cannot cover {target:?}"
    );
    p
}

#[test]
fn mirroring_the_board_mirrors_every_rotation() {
    // The seed: "mirroring the board/pieces mirrors the rotation behaviour perfectly". Mirror
    // x -> -x: S and Z swap, J and L swap, East and West swap, and so do the two directions.
    let mirror = |cs: &[(i8, i8)]| sorted(cs.iter().map(|&(x, y)| (-x, y)).collect());
    for piece in Piece::ALL {
        for from in Rotation::ALL {
            for turn in [Cw, Ccw, Half] {
                let start = at(piece, from, 0, 0);
                let (mp, mr, mt) = (
                    mirror_piece(piece),
                    mirror_rotation(from),
                    mirror_turn(turn),
                );
                let mstart = placed_on(mp, mr, &mirror(&start.cells()));
                let ks = OCULAR.kicks(piece, from, turn);
                let mks = OCULAR.kicks(mp, mr, mt);
                assert_eq!(ks.len(), mks.len(), "{piece:?} {from:?} {turn:?}");
                let to = from.turned(turn.quarter_turns());
                let mto = mr.turned(mt.quarter_turns());
                for (i, (&(dx, dy), &(mx, my))) in ks.iter().zip(mks).enumerate() {
                    let a = Placed {
                        rotation: to,
                        ..start.shifted(dx, dy)
                    };
                    let b = Placed {
                        rotation: mto,
                        ..mstart.shifted(mx, my)
                    };
                    assert_eq!(
                        mirror(&a.cells()),
                        cells(&b),
                        "{piece:?} {from:?} {turn:?} kick {i}"
                    );
                }
            }
        }
    }
}

#[test]
fn orientations_that_look_alike_rotate_alike() {
    // I, S and Z look the same facing North and South, and facing East and West; O looks the
    // same in all four. Ocular sends equal-looking pieces to equal cells, kick by kick.
    let alike: &[(Piece, Rotation, Rotation)] = &[
        (I, North, South),
        (I, East, West),
        (S, North, South),
        (S, East, West),
        (Z, North, South),
        (Z, East, West),
        (O, North, East),
        (O, North, South),
        (O, North, West),
    ];
    for &(piece, a, b) in alike {
        let pa = at(piece, a, 3, 20);
        let pb = placed_on(piece, b, &pa.cells());
        for turn in [Cw, Ccw, Half] {
            let (ka, kb) = (OCULAR.kicks(piece, a, turn), OCULAR.kicks(piece, b, turn));
            assert_eq!(ka.len(), kb.len());
            for (&(ax, ay), &(bx, by)) in ka.iter().zip(kb) {
                let ra = Placed {
                    rotation: a.turned(turn.quarter_turns()),
                    ..pa.shifted(ax, ay)
                };
                let rb = Placed {
                    rotation: b.turned(turn.quarter_turns()),
                    ..pb.shifted(bx, by)
                };
                assert_eq!(cells(&ra), cells(&rb), "{piece:?} {a:?}/{b:?} {turn:?}");
            }
        }
    }
}

#[test]
fn every_kick_overlaps_the_old_position() {
    // The seed: "the old and new position always overlap in at least one tile".
    for &(piece, from, turn, kicks) in &TABLE {
        let start = at(piece, from, 0, 0);
        let to = from.turned(turn.quarter_turns());
        for (i, &(dx, dy)) in kicks.iter().enumerate() {
            let new = Placed {
                rotation: to,
                ..start.shifted(dx, dy)
            };
            assert!(
                new.cells().iter().any(|c| start.cells().contains(c)),
                "{piece:?} {from:?} {turn:?} kick {i} is disjoint"
            );
        }
    }
}

/// A T-spin triple slot whose roof (column 4, row 35) stops the T from turning in place.
const TST: [&str; 5] = [
    "....#.....", // 35
    "......####", // 36
    "####.#####", // 37
    "####..####", // 38
    "####.#####", // 39
];

#[test]
fn t_spin_triple_from_south_turning_left_is_kick_4() {
    // A South-facing T slid under the roof, its point in the slot. Turning left, kicks 0-3 hit the
    // roof or the slot's walls; kick 4, two rows down, drops it into the slot. The tetrs README
    // calls the T-spin-triple kick "sTlr 5", but in tetrs's code (counting from 0, as the README
    // does for "neswTlr 0", the centre turn) it is kick 4, tetrs (1, -2); kick 5, (2, 0), is a
    // sideways turn with no drop.
    let mut board = board(&TST);
    let t = at(T, South, 3, 35);
    assert!(board.fits(&t));
    assert_eq!(cells(&t), [(3, 36), (4, 36), (4, 37), (5, 36)]);
    let (kick, p) = rotate(OCULAR, &board, t, Ccw).unwrap();
    assert_eq!(kick, 4);
    assert_eq!(OCULAR.kicks(T, South, Ccw)[4], (0, 2));
    assert_eq!((p.rotation, p.x, p.y), (East, 3, 37));
    assert_eq!(cells(&p), [(4, 37), (4, 38), (4, 39), (5, 38)]);
    board.lock(&p);
    assert_eq!(board.full_rows().count_ones(), 3);
}

#[test]
fn t_spin_triple_mirrored_turning_right_is_kick_4() {
    let rows = mirrored(&TST);
    let mut board = board(&as_rows(&rows));
    let t = at(T, South, 4, 35);
    assert_eq!(cells(&t), [(4, 36), (5, 36), (5, 37), (6, 36)]);
    let (kick, p) = rotate(OCULAR, &board, t, Cw).unwrap();
    assert_eq!(kick, 4);
    assert_eq!(cells(&p), [(4, 38), (5, 37), (5, 38), (5, 39)]);
    board.lock(&p);
    assert_eq!(board.full_rows().count_ones(), 3);
}

#[test]
fn o_rolls_sideways_in_the_direction_of_the_turn() {
    // "nOl 0": on open ground the O rolls one column over, left for left, right for right.
    let board = Board::new();
    let o = at(O, North, 3, 38);
    assert_eq!(cells(&o), [(4, 38), (4, 39), (5, 38), (5, 39)]);
    let (k, p) = rotate(OCULAR, &board, o, Cw).unwrap();
    assert_eq!((k, p.rotation), (0, East));
    assert_eq!(cells(&p), [(5, 38), (5, 39), (6, 38), (6, 39)]);
    let (k, p) = rotate(OCULAR, &board, o, Ccw).unwrap();
    assert_eq!((k, p.rotation), (0, West));
    assert_eq!(cells(&p), [(3, 38), (3, 39), (4, 38), (4, 39)]);
    // A half turn never moves it.
    let (k, p) = rotate(OCULAR, &board, o, Half).unwrap();
    assert_eq!((k, cells(&p)), (0, cells(&o)));
}

#[test]
fn o_spins_down_into_a_gap_under_an_overhang() {
    // "nOl 1": rolling right is blocked by the overhang at (6, 37); right-and-down fits and
    // fills the bottom row.
    let mut board = board(&[
        "......#...", // 37
        "#......###", // 38
        "#####..###", // 39
    ]);
    let o = at(O, North, 3, 37);
    assert!(board.fits(&o));
    let (k, p) = rotate(OCULAR, &board, o, Cw).unwrap();
    assert_eq!(k, 1);
    assert_eq!(cells(&p), [(5, 38), (5, 39), (6, 38), (6, 39)]);
    board.lock(&p);
    assert_eq!(board.full_rows(), 1 << 39);
}

#[test]
fn o_rolls_out_of_a_shallow_well_but_not_a_deep_one() {
    // "nOl 2": in a one-deep well the roll goes right and up, out of the well.
    let shallow = board(&["####..####"]);
    let o = at(O, North, 3, 38);
    let (k, p) = rotate(OCULAR, &shallow, o, Cw).unwrap();
    assert_eq!(k, 2);
    assert_eq!(cells(&p), [(5, 37), (5, 38), (6, 37), (6, 38)]);
    let (k, p) = rotate(OCULAR, &shallow, o, Ccw).unwrap();
    assert_eq!(k, 2);
    assert_eq!(cells(&p), [(3, 37), (3, 38), (4, 37), (4, 38)]);
    // "nOl 3": two deep, it can only turn where it is; the turn still succeeds.
    let deep = board(&["####..####", "####..####"]);
    let (k, p) = rotate(OCULAR, &deep, o, Cw).unwrap();
    assert_eq!((k, p.rotation, cells(&p)), (3, East, cells(&o)));
}

#[test]
fn a_flat_i_stands_up_on_the_side_it_is_turned_to() {
    // "nIl 0-7": from flat, the first choice puts the upright I on the second cell when turning
    // left and on the third when turning right, reaching one row below the old one.
    let board = Board::new();
    let i = at(I, North, 3, 20);
    assert_eq!(cells(&i), [(3, 21), (4, 21), (5, 21), (6, 21)]);
    let (k, p) = rotate(OCULAR, &board, i, Cw).unwrap();
    assert_eq!(k, 0);
    assert_eq!(cells(&p), [(5, 19), (5, 20), (5, 21), (5, 22)]);
    let (k, p) = rotate(OCULAR, &board, i, Ccw).unwrap();
    assert_eq!(k, 0);
    assert_eq!(cells(&p), [(4, 19), (4, 20), (4, 21), (4, 22)]);
    // Lying on the floor, every kick reaching below row 39 fails; the first that fits (kick 6)
    // stands the I on the same third cell with its foot where the flat I was.
    let floor = at(I, North, 3, 38);
    let (k, p) = rotate(OCULAR, &board, floor, Cw).unwrap();
    assert_eq!(k, 6);
    assert_eq!(cells(&p), [(5, 36), (5, 37), (5, 38), (5, 39)]);
    let (k, p) = rotate(OCULAR, &board, floor, Ccw).unwrap();
    assert_eq!(k, 6);
    assert_eq!(cells(&p), [(4, 36), (4, 37), (4, 38), (4, 39)]);
}
