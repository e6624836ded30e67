//! Puzzle mode: every stage's solution, pressed with movegen's taps on a real game under the
//! `tetrs` ruleset, clears the board and moves the game to the next stage; the stages marked
//! `needs_ocular` have no solution at all under the Super rotation system (a search over every
//! placement of every piece), and the others do; attempts, the end of the game, hold and the
//! replay of a puzzle game.

#[path = "../../engine/tests/common/mod.rs"]
mod common;

use std::collections::HashSet;

use common::{press_and_settle, puzzle_game};
use minotty_bots::{path_to, reachable};
use minotty_engine::puzzle::{self, STAGE_COUNT, STAGES, Stage};
use minotty_engine::{
    Board, Button, EndReason, EventKind, Game, GameConfig, Mode, ModeKind, Piece, Placed, Position,
    Replay, RulesetId, Stat,
};

/// Plays stage `n`'s solution on `g` (which must be at its first piece); returns the events.
fn play_solution(g: &mut Game, n: u8) -> Result<Vec<EventKind>, String> {
    let stage = puzzle::stage(n);
    let solution = stage
        .solution()
        .ok_or_else(|| format!("stage {n}: the drawing does not mark its pieces"))?;
    let mut events = Vec::new();
    for (i, placed) in solution.into_iter().enumerate() {
        let active = g
            .active()
            .ok_or_else(|| format!("stage {n}: no piece for step {}", i + 1))?;
        if active.placed.piece != placed.piece {
            return Err(format!(
                "stage {n}: step {} is not a {:?}",
                i + 1,
                placed.piece
            ));
        }
        let path = path_to(g, placed).ok_or_else(|| {
            format!(
                "stage {n}: piece {} ({:?}) cannot reach {placed:?} on\n{:?}",
                i + 1,
                placed.piece,
                g.board()
            )
        })?;
        if path.contains(&Button::Hold) {
            return Err(format!("stage {n}: the path holds"));
        }
        let ev = press_and_settle(g, &path);
        let locked = ev.iter().find_map(|e| match e {
            EventKind::Lock { at, .. } => Some(*at),
            _ => None,
        });
        if locked.map(|p| p.canonical()) != Some(placed.canonical()) {
            return Err(format!("stage {n}: piece {} locked at {locked:?}", i + 1));
        }
        events.extend(ev);
    }
    Ok(events)
}

#[test]
fn every_solution_clears_its_stage_under_tetrs() {
    for n in 1..=STAGE_COUNT {
        let mut g = puzzle_game(n);
        let state = g.puzzle_state().expect("puzzle state");
        assert_eq!((state.stage, state.attempt), (n, 1));
        assert_eq!(g.level(), u32::from(n));
        let events = play_solution(&mut g, n).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            events.contains(&EventKind::StageCleared { stage: n }),
            "stage {n}"
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, EventKind::LineClear(c) if c.perfect)),
            "stage {n}: no perfect clear"
        );
        if n < STAGE_COUNT {
            assert!(
                events.contains(&EventKind::PuzzleStage {
                    stage: n + 1,
                    attempt: 1
                }),
                "stage {n}"
            );
            let next = g.puzzle_state().expect("puzzle state");
            assert_eq!((next.stage, next.attempt), (n + 1, 1));
            assert_eq!(g.board(), &puzzle::stage(n + 1).board());
            assert_eq!(g.level(), u32::from(n + 1));
        } else {
            assert_eq!(
                g.outcome(),
                Some((EndReason::Limit(Stat::Level), true)),
                "the last stage wins"
            );
        }
    }
}

#[test]
fn the_whole_mode_is_played_through_and_replays() {
    let mut g = puzzle_game(1);
    for n in 1..=STAGE_COUNT {
        play_solution(&mut g, n).unwrap_or_else(|e| panic!("{e}"));
    }
    assert_eq!(g.outcome(), Some((EndReason::Limit(Stat::Level), true)));
    assert_eq!(g.stats().perfect_clears, u32::from(STAGE_COUNT));
    let replay = g.replay();
    let back = Replay::from_bytes(&replay.to_bytes()).expect("decodes");
    assert_eq!(back, replay);
    assert_eq!(back.mode, Mode::puzzle(1));
    let verified = back.verify().expect("replays");
    assert_eq!(verified.stats, *g.stats());
}

#[test]
fn a_replay_keeps_its_start_stage() {
    let mut g = puzzle_game(5);
    play_solution(&mut g, 5).unwrap_or_else(|e| panic!("{e}"));
    let replay = g.replay();
    let bytes = replay.to_bytes();
    let back = Replay::from_bytes(&bytes).expect("decodes");
    assert_eq!(
        back.mode.start_board,
        minotty_engine::StartBoard::Puzzle { stage: 5 }
    );
    assert_eq!(back.mode.kind, ModeKind::Puzzle);
    assert_eq!(ModeKind::ALL[8], ModeKind::Puzzle);
    let verified = back.verify().expect("replays");
    assert_eq!(verified.stats.level, 6);
    assert_eq!(verified.stats.perfect_clears, 1);
}

/// Whether stage `s` can be cleared under `ruleset` by any sequence of placements of its
/// pieces (no hold), searching every placement movegen finds.
fn solvable(s: &Stage, ruleset: RulesetId) -> bool {
    let pieces: Vec<Piece> = s.pieces().collect();
    let config = GameConfig {
        ruleset,
        mode: Mode::custom(1, false, None),
        ..GameConfig::default()
    };
    let mut seen = HashSet::new();
    search(&config, &pieces, 0, s.board(), &mut seen)
}

fn search(
    config: &GameConfig,
    pieces: &[Piece],
    k: usize,
    board: Board,
    seen: &mut HashSet<(usize, Vec<String>)>,
) -> bool {
    if k == pieces.len() {
        return board.is_empty();
    }
    // Every cell must end in a cleared row: the cells on the board and those still to come
    // fill whole rows, and the stack is never higher than those rows.
    let cells: usize = (0..40)
        .map(|y| board.row_mask(y).count_ones() as usize)
        .sum();
    let total = cells + 4 * (pieces.len() - k);
    if !total.is_multiple_of(10) || board.stack_height() > total / 10 {
        return false;
    }
    if !seen.insert((k, board.to_ascii())) {
        return false;
    }
    let game = piece_on(config, &board, pieces, k);
    let mut places: Vec<Placed> = reachable(&game)
        .iter()
        .map(|r| r.placed.canonical())
        .collect();
    places.sort_by_key(|p| (p.x, p.y, p.rotation as u8));
    places.dedup();
    places.into_iter().any(|p| {
        let mut next = board.clone();
        next.lock(&p);
        let full = next.full_rows();
        next.clear_rows(full);
        search(config, pieces, k + 1, next, seen)
    })
}

/// A game of `config` on `board` with `pieces[k]` to place and the rest of `pieces` to come.
fn piece_on(config: &GameConfig, board: &Board, pieces: &[Piece], k: usize) -> Game {
    let position = Position {
        board: board.clone(),
        current: pieces[k],
        next: pieces[k + 1..].to_vec(),
        hold: None,
        combo: 0,
        back_to_back: false,
    };
    Game::from_position(config.clone(), &position, 0)
}

#[test]
fn stages_marked_for_ocular_cannot_be_solved_under_super_and_the_others_can() {
    let mut ocular = 0;
    for (i, s) in STAGES.iter().enumerate() {
        assert!(solvable(s, RulesetId::Tetrs), "stage {}: tetrs", i + 1);
        let srs = solvable(s, RulesetId::Standard);
        assert_eq!(srs, !s.needs_ocular, "stage {} ({})", i + 1, s.name);
        ocular += usize::from(s.needs_ocular);
    }
    assert!(ocular >= 8, "only {ocular} stages need Ocular");
}

/// A design aid: `cargo test -p minotty-bots --test puzzle report -- --ignored --nocapture`.
#[test]
#[ignore]
fn report() {
    for n in 1..=STAGE_COUNT {
        let s = puzzle::stage(n);
        let mut g = puzzle_game(n);
        let tetrs = play_solution(&mut g, n).err();
        let srs = solvable(s, RulesetId::Standard);
        println!(
            "{n:2} {:20} solution: {} srs solvable: {srs} (marked {})",
            s.name,
            tetrs.unwrap_or_else(|| "ok".into()),
            s.needs_ocular
        );
    }
}

/// How a stage's solution plays under tetrs without pressing on a puzzle game: for each piece,
/// whether its place can be reached at all, whether it is tucked (it cannot come straight down
/// from above) and whether its lock is a spin. `None`: some piece cannot reach its place.
fn walk(s: &Stage) -> Option<(usize, usize)> {
    let solution = s.solution()?;
    let pieces: Vec<Piece> = s.pieces().collect();
    let config = GameConfig {
        ruleset: RulesetId::Tetrs,
        mode: Mode::custom(1, false, None),
        ..GameConfig::default()
    };
    let mut board = s.board();
    let (mut tucked, mut spins) = (0, 0);
    for (k, placed) in solution.iter().enumerate() {
        let game = piece_on(&config, &board, &pieces, k);
        let reach = reachable(&game);
        let r = reach
            .iter()
            .filter(|r| r.placed.canonical() == placed.canonical())
            .max_by_key(|r| r.spin != minotty_engine::Spin::None)?;
        spins += usize::from(r.spin != minotty_engine::Spin::None);
        if (1..=(placed.y - 16)).any(|dy| !board.fits(&placed.shifted(0, -dy))) {
            tucked += 1;
        }
        board.lock(placed);
        let full = board.full_rows();
        board.clear_rows(full);
    }
    board.is_empty().then_some((tucked, spins))
}

/// A design aid: random stages carved backwards from full rows for the pieces in
/// `PUZZLE_PIECES`, `PUZZLE_ROWS` high, keeping those whose solution plays under tetrs with at
/// least `PUZZLE_TUCKED` tucked pieces (and, with `PUZZLE_OCULAR=1`, no solution under Super).
/// `PUZZLE_PIECES=TSZ PUZZLE_ROWS=3 cargo test -p minotty-bots --test puzzle design --
/// --ignored --nocapture`
#[test]
#[ignore]
fn design() {
    let var = |k: &str, d: &str| std::env::var(k).unwrap_or_else(|_| d.to_owned());
    let pieces: &'static str = Box::leak(var("PUZZLE_PIECES", "TSZ").into_boxed_str());
    let rows: usize = var("PUZZLE_ROWS", "3").parse().unwrap();
    let want_tucked: usize = var("PUZZLE_TUCKED", "1").parse().unwrap();
    let ocular = var("PUZZLE_OCULAR", "1") == "1";
    let tries: u32 = var("PUZZLE_TRIES", "3000").parse().unwrap();
    let seed: u32 = var("PUZZLE_SEED", "1").parse().unwrap();
    let list: Vec<Piece> = pieces.chars().filter_map(Piece::from_letter).collect();
    let mut rng = minotty_engine::rng::SplitMix::new(seed, 3);
    let mut found = 0;
    let mut shown = HashSet::new();
    'outer: for _ in 0..tries {
        let mut grid = vec![vec!['#'; 10]; rows];
        for k in (0..list.len()).rev() {
            let mark = puzzle::MARKS.chars().nth(k).unwrap();
            let mut ok = false;
            for _ in 0..200 {
                let rot = minotty_engine::Rotation::ALL[rng.below(4) as usize];
                let x = rng.below(12) as i32 - 2;
                let y = rng.below(rows as u32 + 2) as i32 - 2;
                let cells: Vec<(i32, i32)> = list[k]
                    .cells(rot)
                    .iter()
                    .map(|&(dx, dy)| (x + i32::from(dx), y + i32::from(dy)))
                    .collect();
                if cells.iter().all(|&(cx, cy)| {
                    (0..10).contains(&cx)
                        && (0..rows as i32).contains(&cy)
                        && grid[cy as usize][cx as usize] == '#'
                }) {
                    for (cx, cy) in cells {
                        grid[cy as usize][cx as usize] = mark;
                    }
                    ok = true;
                    break;
                }
            }
            if !ok {
                continue 'outer;
            }
        }
        if grid.iter().any(|r| r.iter().all(|&c| c == '#')) || !shown.insert(grid.clone()) {
            continue;
        }
        let drawing: Vec<&'static str> = grid
            .iter()
            .map(|r| &*Box::leak(r.iter().collect::<String>().into_boxed_str()))
            .collect();
        let stage = Stage {
            name: "candidate",
            pieces,
            drawing: Box::leak(drawing.into_boxed_slice()),
            needs_ocular: ocular,
        };
        let Some((tucked, spins)) = walk(&stage) else {
            continue;
        };
        if tucked < want_tucked || solvable(&stage, RulesetId::Standard) == ocular {
            continue;
        }
        println!("tucked {tucked} spins {spins}");
        for r in stage.drawing {
            println!("    \"{r}\",");
        }
        found += 1;
        if found >= 4 {
            break;
        }
    }
}
