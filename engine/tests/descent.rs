//! Descent: the lattice on the board, the one piece that never locks, gems collected by
//! rotating next to them, scrolling, the time limit, and replays that give the same gems.

use minotty_engine::{
    Board, Button, Cell, DESCENT_TIME, EndReason, Event, EventKind, GEM_COLOURS, Game, GameConfig,
    Gem, Handling, Input, Mode, ModeKind, Piece, Replay, RulesetId, SCROLL_INTERVAL, StartBoard,
    Stat, Time, WALL_X,
};

const BOTTOM: usize = 39;

fn config() -> GameConfig {
    GameConfig {
        mode: Mode::descent(),
        ruleset: RulesetId::Tetrs,
        handling: Handling::default(),
        tuning: Default::default(),
    }
}

fn started(seed: u32) -> Game {
    let mut game = Game::new(config(), seed);
    game.update(0, None);
    game
}

fn press(game: &mut Game, t: Time, b: Button) -> Vec<Event> {
    let mut ev = game.update(t, Some(Input::Press(b))).to_vec();
    ev.extend_from_slice(game.update(t, Some(Input::Release(b))));
    ev
}

/// A row as ASCII: `.` empty, `#` peg, `*` gem, `+` collected gem, the wall as its letter.
fn row(game: &Game, y: usize) -> String {
    let d = game.descent().expect("a descent game");
    (0..10)
        .map(|x| match (d.gem(x, y), game.board().cell(x, y)) {
            (Some(Gem::Shining(_)), _) => '*',
            (Some(Gem::Collected), _) => '+',
            (None, Cell::Empty) => '.',
            (None, Cell::Garbage) => '#',
            (None, Cell::Block(p)) => p.letter(),
        })
        .collect()
}

/// A deterministic player: every 50 ms one of rotate cw, rotate ccw, left, right, soft drop
/// (pressed and released), chosen by an LCG from `salt`.
fn climb(seed: u32, salt: u32, until: Time) -> Game {
    let mut game = Game::new(config(), seed);
    game.update(0, None);
    let buttons = [
        Button::RotateCw,
        Button::RotateCcw,
        Button::Left,
        Button::Right,
        Button::RotateCw,
        Button::SoftDrop,
    ];
    let mut state = salt;
    let mut t = 0;
    while t < until && !game.is_over() {
        t += 50;
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let b = buttons[(state >> 16) as usize % buttons.len()];
        press(&mut game, t, b);
    }
    game.update(until, None);
    game
}

#[test]
fn the_mode_is_a_three_minute_preset_with_its_own_start_board() {
    let m = Mode::descent();
    assert_eq!(m.kind, ModeKind::Descent);
    assert_eq!(m.start_board, StartBoard::Descent);
    assert_eq!(m.time_limit(), Some(DESCENT_TIME));
    assert_eq!(DESCENT_TIME, 180_000);
    assert!(m.timed(), "a paused descent game does not rank");
    assert_eq!(ModeKind::Descent.mode(), m);
    assert_eq!(ModeKind::parse("descent"), Some(ModeKind::Descent));
    // After every older kind (the kinds added since come after it).
    assert_eq!(ModeKind::ALL[9], ModeKind::Descent);
    assert_eq!(ModeKind::Descent as u8, 9);
}

#[test]
fn the_first_view_is_two_open_rows_above_the_lattice() {
    for seed in 0..50 {
        let game = started(seed);
        let wall = GEM_COLOURS[0].letter();
        for y in 0..20 {
            assert!(
                game.board().row_mask(y) == 0,
                "seed {seed}: buffer row {y} empty"
            );
        }
        assert_eq!(row(&game, 20), format!(".........{wall}"));
        assert_eq!(row(&game, 21), format!(".........{wall}"));
        for i in 0..18usize {
            let y = 22 + i;
            let r = row(&game, y);
            let colour = GEM_COLOURS[(i / 10) % 7].letter();
            assert_eq!(
                r.chars().nth(WALL_X),
                Some(colour),
                "seed {seed} row {y}: {r}"
            );
            let body: String = r.chars().take(9).collect();
            match i % 4 {
                0 | 2 => assert_eq!(body, ".........", "seed {seed} lattice row {i}"),
                1 => assert_eq!(body, ".#.#.#.#.", "seed {seed} lattice row {i}"),
                _ => {
                    for (x, c) in body.chars().enumerate() {
                        if x % 2 == 1 {
                            assert!(matches!(c, '#' | '*'), "seed {seed} row {i}: {body}");
                        } else {
                            assert!(matches!(c, '#' | '*' | '.'), "seed {seed} row {i}: {body}");
                        }
                    }
                    let extra = body.chars().step_by(2).filter(|&c| c != '.').count();
                    assert!((1..=3).contains(&extra), "seed {seed} row {i}: {body}");
                    assert!(body.matches('*').count() <= 1);
                }
            }
            if i % 4 != 3 {
                assert!(!r.contains('*'), "gems only in the fourth row of a group");
            }
        }
    }
}

#[test]
fn the_lattice_comes_from_the_seed() {
    let rows = |seed| (20..40).map(|y| row(&started(seed), y)).collect::<Vec<_>>();
    assert_eq!(rows(5), rows(5));
    assert_ne!(rows(5), rows(6));
    let gems: usize = (0..40)
        .map(|s| {
            rows(s)
                .iter()
                .map(|r| r.matches('*').count())
                .sum::<usize>()
        })
        .sum();
    assert!(gems > 40, "gems are common: {gems} in 40 first views");
}

#[test]
fn the_piece_is_an_l_or_a_j_chosen_by_the_seed_with_no_preview_and_no_hold() {
    let mut seen = Vec::new();
    for seed in 0..40 {
        let mut game = started(seed);
        let piece = game.active().expect("a piece").placed.piece;
        assert!(matches!(piece, Piece::L | Piece::J));
        assert_eq!(game.descent().map(|d| d.piece()), Some(piece));
        assert_eq!(started(seed).active().map(|a| a.placed.piece), Some(piece));
        assert_eq!(game.preview().count(), 0);
        let ev = press(&mut game, 10, Button::Hold);
        assert!(ev.is_empty(), "hold does nothing: {ev:?}");
        assert_eq!(game.hold_piece(), None);
        seen.push(piece);
    }
    assert!(seen.contains(&Piece::L) && seen.contains(&Piece::J));
}

#[test]
fn the_piece_never_locks_whatever_drops_it() {
    let mut game = started(3);
    let mut t = 0;
    for b in [Button::HardDrop, Button::SoftDrop, Button::HardDrop] {
        t += 700;
        let ev = press(&mut game, t, b);
        assert!(
            !ev.iter().any(|e| matches!(e.kind, EventKind::Lock { .. })),
            "{ev:?}"
        );
    }
    game.update(20_000, None);
    assert_eq!(game.stats().pieces, 0);
    let a = game.active().expect("the same piece is still in play");
    assert_eq!(a.lock_at, None);
    assert!(!game.is_over());
}

#[test]
fn a_resting_piece_does_not_busy_loop_gravity() {
    // Under every ruleset (the engine plays Descent under any), with soft drop held or not:
    // resting on the pegs, the next thing due is a gravity step an interval away, not now.
    for ruleset in RulesetId::ALL {
        for soft in [false, true] {
            let mut game = Game::new(
                GameConfig {
                    ruleset,
                    ..config()
                },
                1,
            );
            game.update(0, None);
            if soft {
                game.update(10, Some(Input::Press(Button::SoftDrop)));
            }
            game.update(5_000, None);
            let next = game.next_deadline().expect("something is due");
            assert!(next > game.now(), "{ruleset:?} {soft}: {next}");
            assert!(!game.is_over());
        }
    }
}

#[test]
fn the_time_limit_ends_the_game_as_a_win() {
    let mut game = started(9);
    game.update(DESCENT_TIME - 1, None);
    assert!(!game.is_over());
    game.update(DESCENT_TIME + 500, None);
    assert_eq!(game.outcome(), Some((EndReason::Limit(Stat::Time), true)));
    assert_eq!(game.stats().time, DESCENT_TIME);
}

/// A board with nothing but the wall, so the piece can fall to the floor.
fn open_board() -> Board {
    let mut b = Board::new();
    for y in 0..40 {
        b.set(WALL_X, y, Cell::Block(Piece::Z));
    }
    b
}

#[test]
fn reaching_the_bottom_scrolls_the_view_up_one_row_at_a_time() {
    let mut game = started(11);
    game.set_board(open_board());
    let before: Vec<String> = (0..40).map(|y| row(&game, y)).collect();
    let ev = press(&mut game, 1_000, Button::HardDrop);
    // On the floor: the first scroll is due at once (the last one was at 0).
    let scrolls: Vec<u32> = ev
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Scroll { depth } => Some(depth),
            _ => None,
        })
        .collect();
    assert_eq!(scrolls, vec![1]);
    let d = game.descent().expect("descent");
    assert_eq!((d.depth(), d.last_scroll()), (1, 1_000));
    let a = game.active().expect("piece");
    let lowest = a.placed.cells().iter().map(|c| c.1).max();
    assert_eq!(
        lowest,
        Some(BOTTOM as i8 - 1),
        "the piece moved up with the board"
    );
    for y in 0..BOTTOM {
        assert_eq!(
            row(&game, y),
            before[y + 1],
            "row {y} is the old row {}",
            y + 1
        );
    }
    // The new bottom row is lattice row 18 (an empty row of the fifth group), wall Z... of
    // the second ten rows: L.
    assert_eq!(row(&game, BOTTOM), ".........L");
    // Still in the bottom two rows: the next scroll comes one interval later, not sooner.
    assert_eq!(game.next_deadline(), Some(1_000 + SCROLL_INTERVAL));
    game.update(1_000 + SCROLL_INTERVAL - 1, None);
    assert_eq!(game.descent().map(|d| d.depth()), Some(1));
    game.update(1_000 + SCROLL_INTERVAL, None);
    assert_eq!(game.descent().map(|d| d.depth()), Some(2));
    let r = row(&game, BOTTOM);
    assert_eq!(&r[9..], "L");
    for x in [1, 3, 5, 7] {
        assert!(
            matches!(&r[x..=x], "#" | "*"),
            "lattice row 19 has odd pegs: {r}"
        );
    }
    // Now above the bottom two rows: no scroll until gravity brings it back down.
    let a = game.active().expect("piece");
    assert_eq!(a.placed.cells().iter().map(|c| c.1).max(), Some(37));
    assert!(game.next_deadline() > Some(1_000 + 2 * SCROLL_INTERVAL));
}

#[test]
fn gems_are_collected_by_rotating_next_to_them() {
    // Check every rotation of many played games against the rule: the gems within distance 1
    // of the piece after the rotation are collected, every other shining gem moves one colour
    // on, and the count and the score grow by the gems collected.
    let mut total = 0;
    for seed in 0..12 {
        let mut game = started(seed);
        let mut state = seed;
        let mut t = 0;
        while t < 40_000 {
            t += 40;
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let b = [
                Button::RotateCw,
                Button::RotateCcw,
                Button::Left,
                Button::Right,
                Button::SoftDrop,
            ][(state >> 16) as usize % 5];
            game.update(t, None);
            let d = game.descent().expect("descent").clone();
            let score = game.stats().score;
            let ev = press(&mut game, t, b);
            // (A rotation that brings the piece to the bottom may scroll the view at once,
            // moving the gems: those are left out.)
            if !ev
                .iter()
                .any(|e| matches!(e.kind, EventKind::Rotate { .. }))
                || ev
                    .iter()
                    .any(|e| matches!(e.kind, EventKind::Scroll { .. }))
            {
                continue;
            }
            let cells = game.active().expect("piece").placed.cells();
            let after = game.descent().expect("descent");
            let mut got = 0;
            for y in 0..40 {
                for x in 0..10 {
                    let near = cells.iter().any(|&(cx, cy)| {
                        (cx as i32 - x as i32).abs() + (cy as i32 - y as i32).abs() <= 1
                    });
                    match (d.gem(x, y), near) {
                        (Some(Gem::Shining(_)), true) => {
                            assert_eq!(after.gem(x, y), Some(Gem::Collected));
                            got += 1;
                        }
                        (Some(Gem::Shining(c)), false) => {
                            let i = GEM_COLOURS.iter().position(|&g| g == c).expect("colour");
                            let next = GEM_COLOURS[(i + 1) % 7];
                            assert_eq!(after.gem(x, y), Some(Gem::Shining(next)));
                        }
                        (other, _) => assert_eq!(after.gem(x, y), other),
                    }
                }
            }
            let events = ev
                .iter()
                .filter(|e| matches!(e.kind, EventKind::GemCollected { .. }))
                .count();
            assert_eq!(events, got);
            assert_eq!(after.gems(), d.gems() + got as u32);
            assert_eq!(game.stats().score, score + got as u64, "a gem is a point");
            total += got;
        }
    }
    assert!(total > 0, "some gems were collected");
}

#[test]
fn a_replay_reproduces_the_same_gems_and_depth() {
    let game = (0..20)
        .map(|seed| climb(seed, seed * 31 + 1, DESCENT_TIME + 1))
        .find(|g| g.descent().is_some_and(|d| d.gems() > 0 && d.depth() > 0))
        .expect("a game that collected gems and went down");
    assert_eq!(game.outcome(), Some((EndReason::Limit(Stat::Time), true)));
    let d = game.descent().expect("descent").clone();
    let replay = Replay::from_bytes(&game.replay().to_bytes()).expect("round trip");
    assert_eq!(replay.mode, Mode::descent());
    let again = replay.play().expect("plays");
    assert_eq!(again.descent(), Some(&d));
    assert_eq!(again.stats(), game.stats());
    assert_eq!(again.board(), game.board());
    let verified = replay.verify().expect("verifies");
    assert_eq!(verified.stats.score, u64::from(d.gems()));
}

#[test]
fn the_replay_stores_the_kind_by_its_index_and_the_board_as_code_4() {
    let game = climb(2, 5, 2_000);
    let bytes = game.replay().to_bytes();
    let replay = Replay::from_bytes(&bytes).expect("round trip");
    assert_eq!(replay, game.replay());
    let index = ModeKind::ALL
        .iter()
        .position(|&k| k == ModeKind::Descent)
        .expect("listed") as u8;
    assert_eq!(ModeKind::Descent as u8, index);
    // The mode's bytes are kind, level, level increase, gravity, limits, start board, the
    // combo flag: the start board code is the second to last of them.
    let mode = [index, 0, 0, 0, 1, 0, 0xA0, 0xFE, 0x0A, 1, 4, 0];
    assert!(
        bytes.windows(mode.len()).any(|w| w == mode),
        "mode bytes {mode:?} in {bytes:?}"
    );
    let mut damaged = bytes.clone();
    let at = bytes
        .windows(mode.len())
        .position(|w| w == mode)
        .expect("found");
    damaged[at + 10] = 5;
    assert!(
        Replay::from_bytes(&damaged).is_err(),
        "start board 5 is unknown"
    );
}
