//! Move generation against the real game: every path it gives, pressed on a real `Game`, locks
//! the piece exactly where it says, with the spin it says, under every ruleset; spins, tucks
//! and caves drawn as boards are found.

use minotty_bots::{Reach, path_to, reachable, reachable_after_hold};
use minotty_engine::rng::SplitMix;
use minotty_engine::{
    Board, Button, EventKind, Game, GameConfig, Handling, Input, Mode, Piece, Placed,
    RotationSystem, RulesetId, Spin, Tuning,
};

/// A started game under `config` whose first piece is `piece`, with `board` under it.
fn game_with(config: GameConfig, piece: Piece, board: &Board) -> Game {
    (0..)
        .map(|seed| game_on(config.clone(), seed, board))
        .find(|g| g.active().is_some_and(|a| a.placed.piece == piece))
        .expect("some seed")
}

fn config(ruleset: RulesetId) -> GameConfig {
    GameConfig {
        ruleset,
        mode: Mode::custom(0, false, None),
        ..GameConfig::default()
    }
}

/// A started game with `board` under the first piece of `seed`.
fn game_on(config: GameConfig, seed: u32, board: &Board) -> Game {
    let mut g = Game::new(config, seed);
    g.update(0, None);
    g.set_board(board.clone());
    g
}

/// What pressing `buttons` (each pressed and released at one instant) does: where the piece
/// locked, its spin and the lines cleared; `None` if nothing locked, or it locked before the
/// last tap.
fn press(game: &Game, buttons: &[Button]) -> Option<(Placed, Spin, u8)> {
    let mut g = game.clone();
    let t = g.now();
    let mut locked = None;
    for (i, &b) in buttons.iter().enumerate() {
        for input in [Input::Press(b), Input::Release(b)] {
            for e in g.update(t, Some(input)) {
                match e.kind {
                    EventKind::Lock { at, spin } => {
                        if i + 1 != buttons.len() || locked.is_some() {
                            return None;
                        }
                        locked = Some((at, spin, 0));
                    }
                    EventKind::LineClear(c) => {
                        if let Some(l) = locked.as_mut() {
                            l.2 = c.lines;
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    locked
}

fn check_reach(game: &Game, r: &Reach, what: &str) {
    assert_eq!(r.buttons.last(), Some(&Button::HardDrop), "{what}: {r:?}");
    assert_eq!(
        r.hold,
        r.buttons.first() == Some(&Button::Hold),
        "{what}: {r:?}"
    );
    let got = press(game, &r.buttons);
    assert_eq!(
        got.map(|(at, spin, _)| (at, spin)),
        Some((r.placed, r.spin)),
        "{what}: {r:?}\n{:?}",
        game.board()
    );
}

/// A random stack for property tests: uneven columns with holes and a few overhangs, the four
/// rows where pieces appear (and everything above) left empty.
fn random_board(rng: &mut SplitMix) -> Board {
    let mut board = Board::new();
    let max = 1 + rng.below(14) as usize;
    for x in 0..10 {
        let h = rng.below(max as u32 + 1) as usize;
        for y in (40 - h)..40 {
            if rng.below(6) != 0 {
                board.set(x, y, minotty_engine::Cell::Garbage);
            }
        }
        // An overhang: a cell or two floating above an empty gap.
        if rng.below(4) == 0 {
            let y = 40 - h - 2 - rng.below(3) as usize;
            if y > 24 {
                board.set(x, y, minotty_engine::Cell::Garbage);
            }
        }
    }
    board
}

/// The configurations a property test covers: each ruleset, other rotation systems, soft drop
/// to the floor (SDF 0), and 20G.
fn configs() -> Vec<(String, GameConfig)> {
    let mut out = Vec::new();
    for ruleset in RulesetId::ALL {
        out.push((ruleset.id().to_owned(), config(ruleset)));
        out.push((
            format!("{} sdf 0", ruleset.id()),
            GameConfig {
                handling: Handling {
                    sdf: 0,
                    ..Handling::default()
                },
                ..config(ruleset)
            },
        ));
        out.push((
            format!("{} 20G", ruleset.id()),
            GameConfig {
                mode: Mode::master(),
                ..config(ruleset)
            },
        ));
    }
    for rotation in [RotationSystem::Classic, RotationSystem::Ocular] {
        for ruleset in [RulesetId::Standard, RulesetId::TuiTetris] {
            out.push((
                format!("{} {}", ruleset.id(), rotation.id()),
                GameConfig {
                    tuning: Tuning {
                        rotation: Some(rotation),
                        ..Tuning::default()
                    },
                    ..config(ruleset)
                },
            ));
        }
    }
    out
}

#[test]
fn every_path_locks_the_piece_where_it_says_under_every_ruleset() {
    let mut rng = SplitMix::new(7, 3);
    let mut checked = 0;
    for (name, config) in configs() {
        for case in 0..60 {
            let board = random_board(&mut rng);
            let seed = rng.below(1 << 20);
            let game = game_on(config.clone(), seed, &board);
            if game.active().is_none() {
                continue;
            }
            let what = format!("{name}, case {case}, seed {seed}");
            let here = reachable(&game);
            let held = reachable_after_hold(&game);
            assert!(!here.is_empty(), "{what}: no placement");
            assert!(!held.is_empty(), "{what}: no placement after hold");
            for r in here.iter().chain(&held) {
                check_reach(&game, r, &what);
                checked += 1;
            }
            // Distinct: one entry per covered cells and spin, on each side.
            for list in [&here, &held] {
                let mut keys: Vec<_> = list
                    .iter()
                    .map(|r| (r.placed.canonical(), r.spin as u8))
                    .collect();
                keys.sort_by_key(|(p, s)| (p.piece, p.rotation, p.x, p.y, *s));
                let n = keys.len();
                keys.dedup();
                assert_eq!(keys.len(), n, "{what}: duplicates");
            }
        }
    }
    println!("{checked} paths checked");
}

/// The simple bot's placements (rotate at the top, shift, hard drop) are all found, with no
/// more taps than those.
#[test]
fn every_rotate_shift_drop_placement_is_found_as_short() {
    let mut rng = SplitMix::new(11, 3);
    for ruleset in RulesetId::ALL {
        for _ in 0..40 {
            let board = random_board(&mut rng);
            let game = game_on(config(ruleset), rng.below(1 << 20), &board);
            let reaches = reachable(&game);
            for turn in [None, Some(Button::RotateCw), Some(Button::RotateCcw)] {
                for dx in -5i32..=5 {
                    let mut buttons: Vec<Button> = turn.into_iter().collect();
                    let dir = if dx < 0 { Button::Left } else { Button::Right };
                    buttons.extend(std::iter::repeat_n(dir, dx.unsigned_abs() as usize));
                    buttons.push(Button::HardDrop);
                    let Some((at, _, _)) = press(&game, &buttons) else {
                        continue;
                    };
                    let found = reaches
                        .iter()
                        .filter(|r| r.placed.canonical() == at.canonical())
                        .map(|r| r.buttons.len())
                        .min();
                    let Some(taps) = found else {
                        panic!("{ruleset:?}: {buttons:?} locks at {at:?}, not found");
                    };
                    assert!(taps <= buttons.len(), "{buttons:?}: {taps} taps");
                }
            }
        }
    }
}

/// A T-spin double slot: the T can only get into it by rotating at the bottom.
const TSD: [&str; 3] = [
    "XXXX......", //
    "XXX...XXXX", //
    "XXXX.XXXXX", //
];

#[test]
fn a_t_spin_double_slot_is_found_with_its_rotation() {
    let board = Board::from_ascii(&TSD);
    let game = game_with(config(RulesetId::Standard), Piece::T, &board);
    let slot = Placed {
        piece: Piece::T,
        rotation: minotty_engine::Rotation::South,
        x: 3,
        y: 37,
    };
    let reaches = reachable(&game);
    let tsd = reaches
        .iter()
        .find(|r| r.placed == slot)
        .expect("the slot is reachable");
    assert!(tsd.rotated, "{tsd:?}");
    assert_eq!(tsd.spin, Spin::Full);
    assert!(
        tsd.buttons
            .iter()
            .rev()
            .nth(1)
            .is_some_and(|b| matches!(b, Button::RotateCw | Button::RotateCcw | Button::Rotate180)),
        "a rotation just before the drop: {:?}",
        tsd.buttons
    );
    assert_eq!(press(&game, &tsd.buttons), Some((slot, Spin::Full, 2)));
    // Straight down from above it never fits.
    assert!(
        (0..4)
            .flat_map(|turns| (-5..=5).map(move |dx| (turns, dx)))
            .all(|(turns, dx): (u8, i32)| {
                let mut b = vec![Button::RotateCw; usize::from(turns)];
                let dir = if dx < 0 { Button::Left } else { Button::Right };
                b.extend(std::iter::repeat_n(dir, dx.unsigned_abs() as usize));
                b.push(Button::HardDrop);
                press(&game, &b).is_none_or(|(at, _, _)| at != slot)
            })
    );
    // path_to picks the spin.
    let path = path_to(&game, slot).expect("a path");
    assert_eq!(press(&game, &path), Some((slot, Spin::Full, 2)));

    // tui-tetris: the hard drop clears the rotation flag, so the same slot is no spin there.
    let tui = game_with(config(RulesetId::TuiTetris), Piece::T, &board);
    let r = reachable(&tui)
        .into_iter()
        .find(|r| r.placed == slot)
        .expect("reachable in tui-tetris too");
    assert_eq!((r.rotated, r.spin), (false, Spin::None));
    assert_eq!(press(&tui, &r.buttons), Some((slot, Spin::None, 2)));
}

/// An overhang on the right: the O reaches the floor under it only by sliding in at the
/// bottom.
const TUCK: [&str; 3] = [
    ".......XXX", //
    ".........X", //
    ".........X", //
];

#[test]
fn a_tuck_under_an_overhang_is_found() {
    let board = Board::from_ascii(&TUCK);
    let under = Placed {
        piece: Piece::O,
        rotation: minotty_engine::Rotation::North,
        x: 6,
        y: 38,
    };
    for ruleset in RulesetId::ALL {
        let game = game_with(config(ruleset), Piece::O, &board);
        let r = reachable(&game)
            .into_iter()
            .find(|r| r.placed.canonical() == under)
            .unwrap_or_else(|| panic!("{ruleset:?}: the tuck is not found"));
        let down = r
            .buttons
            .iter()
            .position(|b| matches!(b, Button::SonicDrop | Button::SoftDrop))
            .expect("a drop without locking");
        assert!(
            r.buttons[down..].contains(&Button::Right),
            "{ruleset:?}: shifts after the drop: {:?}",
            r.buttons
        );
        assert_eq!(
            press(&game, &r.buttons).map(|l| l.0.canonical()),
            Some(under)
        );
    }
}

/// A cave in the side of a shaft: the O must stop half way down the shaft and slide in, which
/// takes soft drop one row at a time.
#[test]
fn a_cave_half_way_down_a_shaft_is_found_with_soft_drop_steps() {
    let mut rows = vec!["XXXXXX..XX"; 2]; // rows 30-31
    rows.push("XXXXXX..XX"); // 32: the cave's roof
    rows.extend(["XXXXXX....", "XXXXXX...."]); // 33-34: the cave
    rows.extend(["XXXXXX..XX"; 5]); // 35-39
    let board = Board::from_ascii(&rows);
    let cave = Placed {
        piece: Piece::O,
        rotation: minotty_engine::Rotation::North,
        x: 7,
        y: 33,
    };
    let game = game_with(config(RulesetId::Standard), Piece::O, &board);
    let path = path_to(&game, cave).expect("the cave is reachable");
    assert!(path.contains(&Button::SoftDrop), "{path:?}");
    assert_eq!(press(&game, &path).map(|l| l.0.canonical()), Some(cave));
    // tui-tetris soft drops a row per press too.
    let tui = game_with(config(RulesetId::TuiTetris), Piece::O, &board);
    let path = path_to(&tui, cave).expect("tui-tetris steps");
    assert_eq!(press(&tui, &path).map(|l| l.0.canonical()), Some(cave));
    // With soft drop straight to the floor (SDF 0) the piece cannot stop there.
    let floor_only = game_with(
        GameConfig {
            handling: Handling {
                sdf: 0,
                ..Handling::default()
            },
            ..config(RulesetId::Standard)
        },
        Piece::O,
        &board,
    );
    assert_eq!(path_to(&floor_only, cave), None);
}

#[test]
fn path_to_matches_look_alike_rotations_uses_hold_and_refuses_the_impossible() {
    let board = Board::from_ascii(&["XXXXXXXXX."; 4]);
    let game = game_with(config(RulesetId::Standard), Piece::I, &board);
    // The vertical I in the well, asked for in both vertical rotations.
    let east = Placed {
        piece: Piece::I,
        rotation: minotty_engine::Rotation::East,
        x: 7,
        y: 36,
    };
    let west = Placed {
        rotation: minotty_engine::Rotation::West,
        x: 8,
        ..east
    };
    for target in [east, west] {
        let path = path_to(&game, target).expect("the well");
        let (at, _, lines) = press(&game, &path).expect("locks");
        assert_eq!(at.canonical(), east.canonical());
        assert_eq!(lines, 4);
    }
    // The next piece through hold.
    let next = game.preview().next().expect("a next piece");
    let target = reachable_after_hold(&game)
        .into_iter()
        .find(|r| r.placed.piece == next)
        .expect("something for the next piece")
        .placed;
    let path = path_to(&game, target).expect("through hold");
    assert_eq!(path.first(), Some(&Button::Hold));
    assert_eq!(press(&game, &path).map(|l| l.0), Some(target));
    // Inside the stack, or floating: no way.
    let buried = Placed {
        y: 38,
        x: 0,
        ..east
    };
    assert_eq!(path_to(&game, buried), None);
    let floating = Placed { y: 25, ..east };
    assert_eq!(path_to(&game, floating), None);
}

#[test]
fn nothing_is_reachable_without_a_piece_in_play() {
    let game = Game::new(config(RulesetId::Standard), 1);
    assert!(reachable(&game).is_empty());
    assert!(reachable_after_hold(&game).is_empty());
    let mut held = game_on(config(RulesetId::Standard), 1, &Board::new());
    let t = held.now();
    held.update(t, Some(Input::Press(Button::Hold)));
    held.update(t, Some(Input::Release(Button::Hold)));
    assert!(!reachable(&held).is_empty());
    assert!(reachable_after_hold(&held).is_empty(), "hold is used up");
}
