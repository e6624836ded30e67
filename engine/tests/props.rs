//! Random input sequences never panic and always leave a consistent game.

use minotty_engine::board::{BUFFER_HEIGHT, HEIGHT};
use minotty_engine::{Button, EventKind, Game, GameConfig, Handling, Input, Mode, Phase, Time};
use proptest::prelude::*;

fn any_input() -> impl Strategy<Value = Input> {
    let button = proptest::sample::select(Button::ALL.to_vec());
    prop_oneof![
        8 => button.clone().prop_map(Input::Press),
        8 => button.prop_map(Input::Release),
        1 => Just(Input::ReleaseAll),
        1 => any::<u8>().prop_map(Input::Garbage),
        1 => Just(Input::Forfeit),
        1 => Just(Input::Pause),
        1 => Just(Input::Bot),
    ]
}

fn check_consistent(game: &Game, locks: u32, lines: u32) -> Result<(), TestCaseError> {
    let stats = game.stats();
    prop_assert_eq!(stats.pieces, locks);
    prop_assert_eq!(stats.lines, lines);
    match game.phase() {
        Phase::Falling => {
            let active = game.active().expect("a falling phase has a piece");
            prop_assert!(game.board().fits(&active.placed));
            prop_assert!(active.placed.y <= active.lowest);
            let ghost = game.ghost().expect("ghost");
            prop_assert!(game.board().fits(&ghost));
            prop_assert!(!game.board().fits(&ghost.shifted(0, 1)));
            prop_assert!(game.board().full_rows() == 0);
            // Descent plays one piece the whole game: no preview. Puzzle mode's queue is the
            // stage's own pieces, however few are left.
            if game.descent().is_some() {
                prop_assert_eq!(game.preview().count(), 0);
            } else {
                prop_assert!(game.mode().is_puzzle() || game.preview().count() >= 6);
            }
        }
        Phase::Clearing { rows, .. } => {
            prop_assert!(game.active().is_none());
            prop_assert_eq!(game.board().full_rows(), rows);
        }
        Phase::Over { .. } => {
            prop_assert!(game.active().is_none());
            prop_assert_eq!(game.next_deadline(), None);
        }
        Phase::Ready => prop_assert!(false, "a game that was updated has started"),
    }
    if let Some(d) = game.next_deadline() {
        prop_assert!(
            d > game.now(),
            "deadline {} not after now {}",
            d,
            game.now()
        );
    }
    prop_assert!(game.board().stack_height() <= HEIGHT);
    let _ = BUFFER_HEIGHT;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn random_inputs_never_panic_and_stay_consistent(
        seed in any::<u32>(),
        kind in proptest::sample::select(minotty_engine::ModeKind::ALL.to_vec()),
        handling in (any::<u32>(), any::<u32>(), any::<u32>()).prop_map(|(das, arr, sdf)| Handling { das: das % 2000, arr: arr % 2000, sdf: sdf % 200, hard_drop_guard: das % 1500, das_cut: arr % 1200, double_tap: sdf % 700, move_under_lock: das % 2 == 0 }),
        script in proptest::collection::vec((0u32..2000, any_input()), 0..300),
        start_level in 0u32..40,
    ) {
        let mut mode: Mode = kind.mode();
        mode.start_level = mode.start_level.max(start_level % 30);
        let mut game = Game::new(GameConfig { mode, handling, ..GameConfig::default() }, seed);
        let (mut locks, mut lines, mut score, mut t) = (0u32, 0u32, 0u64, 0 as Time);
        let mut over_events = 0;
        for (delay, input) in script {
            t += Time::from(delay);
            for e in game.update(t, Some(input)) {
                match e.kind {
                    EventKind::Lock { .. } => locks += 1,
                    EventKind::LineClear(c) => lines += u32::from(c.lines),
                    EventKind::GameOver { .. } => over_events += 1,
                    _ => {}
                }
                prop_assert!(e.time <= t);
            }
            prop_assert!(game.stats().score >= score, "score never goes down");
            score = game.stats().score;
            check_consistent(&game, locks, lines)?;
        }
        prop_assert!(over_events <= 1);
        prop_assert_eq!(over_events == 1, game.is_over());
    }
}

/// The bit-mask drop distance is the row-by-row one: on random boards, for every placement that
/// fits, the distance at which `fits` first fails going down.
#[test]
fn drop_distance_matches_stepping_down_row_by_row() {
    use minotty_engine::rng::SplitMix;
    use minotty_engine::{Board, Cell, Piece, Placed, Rotation};
    let mut rng = SplitMix::new(5, 9);
    let mut checked = 0;
    for _ in 0..400 {
        let mut board = Board::new();
        for y in 16..40 {
            for x in 0..10 {
                if rng.below(100) < (y as u32 - 10) * 2 {
                    board.set(x, y, Cell::Garbage);
                }
            }
        }
        for piece in Piece::ALL {
            for rotation in Rotation::ALL {
                for x in -2i8..10 {
                    let y = rng.below(38) as i8;
                    let placed = Placed {
                        piece,
                        rotation,
                        x,
                        y,
                    };
                    if !board.fits(&placed) {
                        continue;
                    }
                    let mut slow = 0;
                    while board.fits(&placed.shifted(0, slow + 1)) {
                        slow += 1;
                    }
                    assert_eq!(board.drop_distance(&placed), slow, "{placed:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// The row-mask `fits` is the cell-by-cell definition: every cell of the placement is inside the
/// walls, above the floor and on an empty cell (open above the buffer), on random boards and at
/// placements reaching past every edge.
#[test]
fn fits_matches_the_cell_by_cell_definition() {
    use minotty_engine::rng::SplitMix;
    use minotty_engine::{Board, Cell, Piece, Placed, Rotation};
    let mut rng = SplitMix::new(6, 9);
    let (mut fit, mut blocked) = (0, 0);
    for _ in 0..200 {
        let mut board = Board::new();
        for y in 0..40 {
            for x in 0..10 {
                if rng.below(100) < 30 {
                    board.set(x, y, Cell::Garbage);
                }
            }
        }
        for piece in Piece::ALL {
            for rotation in Rotation::ALL {
                for x in -4i8..12 {
                    for y in -5i8..42 {
                        let placed = Placed {
                            piece,
                            rotation,
                            x,
                            y,
                        };
                        let slow = placed.cells().iter().all(|&(x, y)| !board.is_solid(x, y));
                        assert_eq!(board.fits(&placed), slow, "{placed:?}");
                        if slow { fit += 1 } else { blocked += 1 }
                    }
                }
            }
        }
    }
    assert!(fit > 10_000 && blocked > 10_000, "{fit} {blocked}");
}
