//! Puzzle mode: the stages' drawings, attempts, the end of the game, hold, gravity and the
//! replay bytes of a puzzle game. (Every stage's solution played with movegen's taps, and the
//! search showing which stages need Ocular, are in `bots/tests/puzzle.rs`.)

mod common;

use std::collections::HashSet;

use common::{press_and_settle, puzzle_game};
use minotty_engine::puzzle::{self, MAX_ATTEMPTS, STAGE_COUNT, STAGES};
use minotty_engine::{Button, EndReason, EventKind, Mode, Piece, Replay, RulesetId, Stat};

#[test]
fn there_are_24_stages_with_distinct_names() {
    assert_eq!(STAGE_COUNT, 24);
    let names: HashSet<_> = STAGES.iter().map(|s| s.name).collect();
    assert_eq!(names.len(), 24);
    assert!(
        STAGES
            .iter()
            .all(|s| !s.name.is_empty() && s.name.len() <= 16)
    );
}

#[test]
fn every_drawing_is_full_rows_of_garbage_and_its_pieces() {
    for (i, s) in STAGES.iter().enumerate() {
        let marks: Vec<char> = puzzle::MARKS.chars().take(s.pieces().count()).collect();
        assert!(s.drawing.len() <= 16, "stage {}", i + 1);
        for row in s.drawing {
            assert_eq!(row.chars().count(), 10, "stage {}: {row:?}", i + 1);
            assert!(
                row.chars().all(|c| c == '#' || marks.contains(&c)),
                "stage {}: {row:?}",
                i + 1
            );
        }
        for m in marks {
            let n: usize = s
                .drawing
                .iter()
                .map(|r| r.chars().filter(|&c| c == m).count())
                .sum();
            assert_eq!(n, 4, "stage {}: mark {m}", i + 1);
        }
        assert!(s.solution().is_some(), "stage {}", i + 1);
    }
}

#[test]
fn the_finale_deals_all_seven_pieces() {
    let last = puzzle::stage(STAGE_COUNT);
    let kinds: HashSet<Piece> = last.pieces().collect();
    assert_eq!(kinds.len(), 7);
}

#[test]
fn failed_attempts_retry_the_stage_and_the_fifth_ends_the_game() {
    let mut g = puzzle_game(3);
    let pieces = puzzle::stage(3).pieces().count();
    for attempt in 1..=MAX_ATTEMPTS {
        assert_eq!(
            g.puzzle_state().map(|s| (s.stage, s.attempt)),
            Some((3, attempt))
        );
        assert_eq!(g.board(), &puzzle::stage(3).board());
        assert_eq!(
            g.preview().count() + 1,
            pieces,
            "the stage's pieces are the whole queue"
        );
        let mut events = Vec::new();
        for _ in 0..pieces {
            events.extend(press_and_settle(&mut g, &[Button::HardDrop]));
        }
        if attempt < MAX_ATTEMPTS {
            assert!(events.contains(&EventKind::PuzzleStage {
                stage: 3,
                attempt: attempt + 1
            }));
            assert!(!g.is_over());
        } else {
            assert_eq!(g.outcome(), Some((EndReason::Limit(Stat::Level), false)));
        }
    }
    assert_eq!(g.level(), 3);
}

#[test]
fn hold_does_nothing_in_puzzle_mode() {
    let mut g = puzzle_game(1);
    let before = g.active().map(|a| a.placed.piece);
    assert!(!g.can_hold());
    let events = press_and_settle(&mut g, &[Button::Hold]);
    assert!(events.is_empty(), "{events:?}");
    assert_eq!(g.active().map(|a| a.placed.piece), before);
    assert_eq!(g.hold_piece(), None);
}

#[test]
fn puzzle_plays_at_level_one_gravity_whatever_the_stage() {
    let g1 = puzzle_game(1);
    let g24 = puzzle_game(STAGE_COUNT);
    // The first gravity step comes a level-1 interval after the spawn in both.
    assert_eq!(g1.next_deadline(), g24.next_deadline());
    assert_eq!(g1.next_deadline(), Some(1000));
    assert_eq!(Mode::puzzle(0), Mode::puzzle(1));
    assert_eq!(Mode::puzzle(200), Mode::puzzle(STAGE_COUNT));
}

/// The header of a replay, byte for byte: older kinds and start boards keep the bytes they
/// always had (cheese is start board 1, combo's well 2), and puzzle is mode kind 8 with start
/// board 3 followed by its start stage.
#[test]
fn replay_bytes_of_each_start_board_are_exact() {
    let replay = |mode: Mode| Replay {
        ruleset: RulesetId::Standard,
        version: 1,
        mode,
        seed: 5,
        handling: minotty_engine::Handling {
            das: 0,
            arr: 0,
            sdf: 0,
            ..Default::default()
        },
        tuning: minotty_engine::Tuning::default(),
        inputs: Vec::new(),
        end: 0,
    };
    // Magic, format 1, ruleset 0, version 1, seed 5, DAS/ARR/SDF 0.
    let head: &[u8] = &[b'M', b'T', b'R', b'P', 1, 0, 1, 5, 0, 0, 0];
    let cases: [(Mode, &[u8]); 3] = [
        // Cheese: kind 4, level 0, no increase, gravity by levels, one goal (garbage cleared
        // 20, a win), start board 1 with 20 rows in all and 10 on the board.
        (Mode::cheese(20), &[4, 0, 0, 0, 1, 5, 20, 1, 1, 20, 10, 0]),
        // Combo: kind 5, start board 2, a well 4 wide with 3 cells, ends on no clear.
        (Mode::combo(), &[5, 0, 0, 0, 0, 2, 4, 3, 1]),
        // Puzzle from stage 3: kind 8, start level 3, start board 3, stage 3.
        (Mode::puzzle(3), &[8, 3, 0, 0, 0, 3, 3, 0]),
    ];
    for (mode, body) in cases {
        let r = replay(mode.clone());
        let mut expected = head.to_vec();
        expected.extend_from_slice(body);
        // The end time and the number of inputs.
        expected.extend_from_slice(&[0, 0]);
        assert_eq!(r.to_bytes(), expected, "{mode:?}");
        assert_eq!(Replay::from_bytes(&expected), Ok(r));
    }
}
