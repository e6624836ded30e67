//! Classic (the tetrs seed's right-handed, kick-less NES rotation): every offset in board
//! coordinates, what "one centre of rotation" implies, and the lack of kicks on real boards. Where
//! the numbers come from is proven in `kicks.rs` (`classic_reaches_exactly_the_cells_tetrs_does`).

mod common;

use Piece::{I, J, L, O, S, T, Z};
use Rotation::{East, North, South, West};
use Turn::{Ccw, Cw, Half};
use common::*;
use minotty_engine::kicks::{Kick, RotationSystem};
use minotty_engine::{Board, Piece, Placed, Rotation, Turn};

const CLASSIC: RotationSystem = RotationSystem::Classic;

type Row = (Piece, Rotation, Turn, &'static [Kick]);

/// `(piece, from, turn, kicks)` for all 84 combinations, board frame (`+y` down).
#[rustfmt::skip]
const TABLE: [Row; 84] = [
    (I, North, Cw, &[(0, -1)]),
    (I, North, Ccw, &[(1, -1)]),
    (I, North, Half, &[(0, -1)]),
    (I, East, Cw, &[(0, 0)]),
    (I, East, Ccw, &[(0, 1)]),
    (I, East, Half, &[(1, 0)]),
    (I, South, Cw, &[(1, 0)]),
    (I, South, Ccw, &[(0, 0)]),
    (I, South, Half, &[(0, 1)]),
    (I, West, Cw, &[(-1, 1)]),
    (I, West, Ccw, &[(-1, 0)]),
    (I, West, Half, &[(-1, 0)]),
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
    (T, North, Cw, &[(0, 0)]),
    (T, North, Ccw, &[(0, 0)]),
    (T, North, Half, &[(0, -1)]),
    (T, East, Cw, &[(0, 0)]),
    (T, East, Ccw, &[(0, 0)]),
    (T, East, Half, &[(1, 0)]),
    (T, South, Cw, &[(0, 0)]),
    (T, South, Ccw, &[(0, 0)]),
    (T, South, Half, &[(0, 1)]),
    (T, West, Cw, &[(0, 0)]),
    (T, West, Ccw, &[(0, 0)]),
    (T, West, Half, &[(-1, 0)]),
    (S, North, Cw, &[(0, -1)]),
    (S, North, Ccw, &[(1, -1)]),
    (S, North, Half, &[(0, -1)]),
    (S, East, Cw, &[(0, 0)]),
    (S, East, Ccw, &[(0, 1)]),
    (S, East, Half, &[(1, 0)]),
    (S, South, Cw, &[(1, 0)]),
    (S, South, Ccw, &[(0, 0)]),
    (S, South, Half, &[(0, 1)]),
    (S, West, Cw, &[(-1, 1)]),
    (S, West, Ccw, &[(-1, 0)]),
    (S, West, Half, &[(-1, 0)]),
    (Z, North, Cw, &[(0, -1)]),
    (Z, North, Ccw, &[(1, -1)]),
    (Z, North, Half, &[(0, -1)]),
    (Z, East, Cw, &[(0, 0)]),
    (Z, East, Ccw, &[(0, 1)]),
    (Z, East, Half, &[(1, 0)]),
    (Z, South, Cw, &[(1, 0)]),
    (Z, South, Ccw, &[(0, 0)]),
    (Z, South, Half, &[(0, 1)]),
    (Z, West, Cw, &[(-1, 1)]),
    (Z, West, Ccw, &[(-1, 0)]),
    (Z, West, Half, &[(-1, 0)]),
    (J, North, Cw, &[(0, 0)]),
    (J, North, Ccw, &[(0, 0)]),
    (J, North, Half, &[(0, -1)]),
    (J, East, Cw, &[(0, 0)]),
    (J, East, Ccw, &[(0, 0)]),
    (J, East, Half, &[(1, 0)]),
    (J, South, Cw, &[(0, 0)]),
    (J, South, Ccw, &[(0, 0)]),
    (J, South, Half, &[(0, 1)]),
    (J, West, Cw, &[(0, 0)]),
    (J, West, Ccw, &[(0, 0)]),
    (J, West, Half, &[(-1, 0)]),
    (L, North, Cw, &[(0, 0)]),
    (L, North, Ccw, &[(0, 0)]),
    (L, North, Half, &[(0, -1)]),
    (L, East, Cw, &[(0, 0)]),
    (L, East, Ccw, &[(0, 0)]),
    (L, East, Half, &[(1, 0)]),
    (L, South, Cw, &[(0, 0)]),
    (L, South, Ccw, &[(0, 0)]),
    (L, South, Half, &[(0, 1)]),
    (L, West, Cw, &[(0, 0)]),
    (L, West, Ccw, &[(0, 0)]),
    (L, West, Half, &[(-1, 0)]),
];

#[test]
fn every_offset_in_board_coordinates() {
    let mut seen = std::collections::HashSet::new();
    for &(piece, from, turn, kicks) in &TABLE {
        assert!(
            seen.insert((piece, from, turn)),
            "{piece:?} {from:?} {turn:?} twice"
        );
        assert_eq!(kicks.len(), 1, "Classic has exactly one offset per turn");
        assert_eq!(
            CLASSIC.kicks(piece, from, turn),
            kicks,
            "{piece:?} {from:?} {turn:?}"
        );
    }
    assert_eq!(seen.len(), 84);
}

fn offset(piece: Piece, from: Rotation, turn: Turn) -> Kick {
    let k = CLASSIC.kicks(piece, from, turn);
    assert_eq!(k.len(), 1);
    k[0]
}

/// `p` turned by `turn` at its one Classic offset (whether or not it fits anywhere).
fn turned(p: Placed, turn: Turn) -> Placed {
    let (dx, dy) = offset(p.piece, p.rotation, turn);
    Placed {
        rotation: p.rotation.turned(turn.quarter_turns()),
        ..p.shifted(dx, dy)
    }
}

/// `p` turned by `turn` if that fits on `board`.
fn rotate(board: &Board, p: Placed, turn: Turn) -> Option<Placed> {
    Some(turned(p, turn)).filter(|q| board.fits(q))
}

#[test]
fn turns_undo_each_other_and_four_quarters_come_back() {
    // One fixed centre per piece: turning back undoes a turn, and going round comes back.
    for piece in Piece::ALL {
        for from in Rotation::ALL {
            let p = at(piece, from, 3, 20);
            assert_eq!(turned(turned(p, Cw), Ccw), p, "{piece:?} {from:?}");
            assert_eq!(turned(turned(p, Ccw), Cw), p, "{piece:?} {from:?}");
            assert_eq!(turned(turned(p, Half), Half), p, "{piece:?} {from:?}");
            for turn in [Cw, Ccw] {
                let round = (0..4).fold(p, |q, _| turned(q, turn));
                assert_eq!(round, p, "{piece:?} {from:?} {turn:?}");
            }
        }
    }
}

#[test]
fn t_j_l_turn_about_the_srs_centre_and_o_never_moves() {
    for piece in [T, J, L] {
        for from in Rotation::ALL {
            assert_eq!(offset(piece, from, Cw), (0, 0));
            assert_eq!(offset(piece, from, Ccw), (0, 0));
        }
    }
    for from in Rotation::ALL {
        for turn in [Cw, Ccw, Half] {
            assert_eq!(offset(O, from, turn), (0, 0));
        }
    }
}

#[test]
fn i_s_z_have_two_looks_and_stand_up_right_of_centre() {
    // Either direction from a given look reaches the same cells, and equal looks (North/South,
    // East/West) behave the same.
    for piece in [I, S, Z] {
        for from in Rotation::ALL {
            let p = at(piece, from, 3, 20);
            assert_eq!(
                cells(&turned(p, Cw)),
                cells(&turned(p, Ccw)),
                "{piece:?} {from:?}"
            );
            // A half turn leaves the cells as they are.
            assert_eq!(cells(&turned(p, Half)), cells(&p), "{piece:?} {from:?}");
        }
        let north = at(piece, North, 3, 20);
        let south = turned(north, Half);
        assert_eq!(cells(&turned(north, Cw)), cells(&turned(south, Cw)));
        let east = turned(north, Cw);
        let west = turned(east, Half);
        assert_eq!(cells(&turned(east, Cw)), cells(&turned(west, Cw)));
    }
    // Right-handed: the upright I takes the third of the flat I's four columns, and the upright
    // S and Z take the right two of their three.
    let i = at(I, North, 3, 20);
    assert_eq!(cells(&i), [(3, 21), (4, 21), (5, 21), (6, 21)]);
    assert_eq!(cells(&turned(i, Cw)), [(5, 19), (5, 20), (5, 21), (5, 22)]);
    let s = at(S, North, 3, 20);
    assert_eq!(cells(&s), [(3, 21), (4, 20), (4, 21), (5, 20)]);
    assert_eq!(cells(&turned(s, Cw)), [(4, 19), (4, 20), (5, 20), (5, 21)]);
    let z = at(Z, North, 3, 20);
    assert_eq!(cells(&z), [(3, 20), (4, 20), (4, 21), (5, 21)]);
    assert_eq!(cells(&turned(z, Ccw)), [(4, 20), (4, 21), (5, 19), (5, 20)]);
}

#[test]
fn half_turn_stays_in_the_same_box() {
    // A T lying on the floor turns over within the two rows it spans.
    let board = Board::new();
    let t = at(T, North, 3, 38);
    assert_eq!(cells(&t), [(3, 39), (4, 38), (4, 39), (5, 39)]);
    let p = rotate(&board, t, Half).unwrap();
    assert_eq!(p.rotation, South);
    assert_eq!(cells(&p), [(3, 38), (4, 38), (4, 39), (5, 38)]);
    // And an upright J against the right wall likewise within its two columns.
    let j = at(J, East, 7, 37);
    assert_eq!(cells(&j), [(8, 37), (8, 38), (8, 39), (9, 37)]);
    let p = rotate(&board, j, Half).unwrap();
    assert_eq!(p.rotation, West);
    assert_eq!(cells(&p), [(8, 39), (9, 37), (9, 38), (9, 39)]);
}

#[test]
fn half_turn_is_refused_when_its_one_position_is_blocked() {
    // The same T with a block where its turned-over flat side would go. Super kicks it one column
    // right and up (its third 180° kick); Classic has nowhere else to try.
    let board = board(&["...#......", ".........."]);
    let t = at(T, North, 3, 38);
    assert!(board.fits(&t));
    assert_eq!(rotate(&board, t, Half), None);
    let super_kicks = RotationSystem::Super.kicks(T, North, Half);
    let fit = super_kicks.iter().position(|&(dx, dy)| {
        board.fits(&Placed {
            rotation: South,
            ..t.shifted(dx, dy)
        })
    });
    assert_eq!(fit, Some(2));
}

#[test]
fn no_wall_kicks() {
    // An upright I flush against the left wall cannot lie down: Classic's one position pokes
    // through the wall, where Super kicks it out to column 0.
    let board = Board::new();
    let i = at(I, West, -1, 30);
    assert!(board.fits(&i) && cells(&i).iter().all(|c| c.0 == 0));
    for turn in [Cw, Ccw] {
        assert_eq!(rotate(&board, i, turn), None, "{turn:?}");
        assert!(
            RotationSystem::Super
                .kicks(I, West, turn)
                .iter()
                .any(|&(dx, dy)| {
                    let to = West.turned(turn.quarter_turns());
                    board.fits(&Placed {
                        rotation: to,
                        ..i.shifted(dx, dy)
                    })
                })
        );
    }
}

/// ClassicL (left-handed, the Game Boy's): `(from, turn, kick)` for I, S and Z, whose vertical
/// looks stand one column left of Classic's; every other piece's turns are Classic's.
#[rustfmt::skip]
const LEFT_ISZ: [(Rotation, Turn, Kick); 12] = [
    (North, Cw, (-1, -1)), (North, Ccw, (0, -1)), (North, Half, (0, -1)),
    (East, Cw, (1, 0)), (East, Ccw, (1, 1)), (East, Half, (1, 0)),
    (South, Cw, (0, 0)), (South, Ccw, (-1, 0)), (South, Half, (0, 1)),
    (West, Cw, (0, 1)), (West, Ccw, (0, 0)), (West, Half, (-1, 0)),
];

#[test]
fn classic_left_handed_table() {
    let left = RotationSystem::ClassicL;
    for &(piece, from, turn, kicks) in TABLE.iter() {
        let got = left.kicks(piece, from, turn);
        if matches!(piece, I | S | Z) {
            let want = LEFT_ISZ
                .iter()
                .find(|&&(f, t, _)| f == from && t == turn)
                .map(|&(_, _, k)| k)
                .expect("every turn listed");
            assert_eq!(got, &[want], "{piece:?} {from:?} {turn:?}");
        } else {
            assert_eq!(got, kicks, "{piece:?} {from:?} {turn:?}: Classic's");
        }
    }
}

#[test]
fn classic_left_handed_stands_i_s_z_left_of_centre_and_comes_back() {
    let turn = |p: Placed, system: RotationSystem, t: Turn| {
        let (dx, dy) = system.kicks(p.piece, p.rotation, t)[0];
        Placed {
            rotation: p.rotation.turned(t.quarter_turns()),
            x: p.x + dx,
            y: p.y + dy,
            ..p
        }
    };
    let columns = |p: Placed| {
        let mut xs: Vec<i8> = p.cells().iter().map(|c| c.0).collect();
        xs.sort_unstable();
        xs.dedup();
        xs
    };
    for piece in [I, S, Z, T, J, L, O] {
        let spawn = Placed {
            piece,
            rotation: North,
            x: 3,
            y: 20,
        };
        for t in [Cw, Ccw] {
            let right = turn(spawn, CLASSIC, t);
            let left = turn(spawn, RotationSystem::ClassicL, t);
            let shifted: Vec<i8> = columns(right).iter().map(|x| x - 1).collect();
            if matches!(piece, I | S | Z) {
                assert_eq!(columns(left), shifted, "{piece:?} {t:?}: one column left");
                // Cw and Ccw give the same cells, as in Classic.
                let other = turn(
                    spawn,
                    RotationSystem::ClassicL,
                    if t == Cw { Ccw } else { Cw },
                );
                assert_eq!(columns(left), columns(other), "{piece:?}");
            } else {
                assert_eq!(left, right, "{piece:?} {t:?}: as Classic");
            }
        }
        // Four quarter turns either way, or two half turns, come back to the start.
        for t in [Cw, Ccw, Half] {
            let n = if t == Half { 2 } else { 4 };
            let mut p = spawn;
            for _ in 0..n {
                p = turn(p, RotationSystem::ClassicL, t);
            }
            assert_eq!(p, spawn, "{piece:?} {t:?}");
        }
    }
}

/// tetro-tui splits Classic into ClassicL and ClassicR: minotty's Classic is the right-handed
/// one, and `classicr` names it.
#[test]
fn classicr_is_classic() {
    for name in ["classicr", "ClassicR", "CLASSICR", "classic"] {
        assert_eq!(
            RotationSystem::parse(name),
            Some(RotationSystem::Classic),
            "{name}"
        );
    }
    assert_eq!(
        RotationSystem::parse("classicl"),
        Some(RotationSystem::ClassicL)
    );
    assert_eq!(RotationSystem::parse("classicx"), None);
}
