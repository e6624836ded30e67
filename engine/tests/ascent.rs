//! Ascent (issue 40, item 1: tetro-tui's mode): the lattice that fills the board, the L at its
//! foot with the J held, hold swapping them in place, drops that do nothing, no lock, the view
//! scrolling down as the piece climbs, and a climb found by search and then played by the
//! engine, proving the mode can be played.

use std::collections::{HashMap, VecDeque};

use minotty_engine::board::{BUFFER_HEIGHT, HEIGHT};
use minotty_engine::{
    ASCENT_TIME, Board, Button, CAMERA_MARGIN, Cell, EventKind, GEM_COLOURS, Game, GameConfig, Gem,
    Handling, Input, Mode, ModeKind, Piece, Placed, Replay, Ruleset, RulesetId, StartBoard, Time,
    Turn, WALL_X,
};

fn config() -> GameConfig {
    GameConfig {
        mode: Mode::ascent(),
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

fn tap(game: &mut Game, t: Time, b: Button) -> Vec<EventKind> {
    let mut ev: Vec<EventKind> = game
        .update(t, Some(Input::Press(b)))
        .iter()
        .map(|e| e.kind)
        .collect();
    ev.extend(
        game.update(t, Some(Input::Release(b)))
            .iter()
            .map(|e| e.kind),
    );
    ev
}

/// A row as ASCII: `.` empty, `#` peg, `*` gem, `+` collected gem, the wall as its letter.
fn row(game: &Game, y: usize) -> String {
    let d = game.descent().expect("an ascent game");
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

fn placed(game: &Game) -> Placed {
    game.active().expect("a piece in play").placed
}

#[test]
fn the_mode_is_a_two_minute_preset_with_its_own_start_board() {
    let m = Mode::ascent();
    assert_eq!(m.kind, ModeKind::Ascent);
    assert_eq!(m.start_board, StartBoard::Ascent);
    assert_eq!((m.time_limit(), ASCENT_TIME), (Some(120_000), 120_000));
    assert!(m.timed());
    assert!(!m.can_snapshot());
    assert_eq!(ModeKind::Ascent.mode(), m);
    assert_eq!(ModeKind::parse("ascent"), Some(ModeKind::Ascent));
    assert_eq!(ModeKind::ALL[12], ModeKind::Ascent, "its replay byte");
}

#[test]
fn the_lattice_fills_the_board_from_the_floor_up() {
    for seed in 0..40 {
        let game = started(seed);
        for y in 0..HEIGHT {
            let i = HEIGHT - 1 - y; // the lattice row, counted from the floor
            let r = row(&game, y);
            let wall = GEM_COLOURS[(i / 10) % 7].letter();
            assert_eq!(
                r.chars().nth(WALL_X),
                Some(wall),
                "seed {seed} row {y}: {r}"
            );
            let body: String = r.chars().take(9).collect();
            if i.is_multiple_of(2) {
                assert_eq!(body, ".........", "seed {seed} row {y}");
            } else {
                let pegs: String = body
                    .chars()
                    .map(|c| if c == '*' { '#' } else { c })
                    .collect();
                assert_eq!(pegs, ".#.#.#.#.", "seed {seed} row {y}");
                assert!(body.matches('*').count() <= 1);
            }
        }
    }
}

#[test]
fn the_l_starts_at_the_foot_with_the_j_held_and_nothing_queued() {
    let game = started(7);
    let p = placed(&game);
    assert_eq!(
        (p.piece, p.rotation),
        (Piece::L, minotty_engine::Rotation::North)
    );
    let mut cells = p.cells().to_vec();
    cells.sort();
    assert_eq!(cells, vec![(0, 39), (1, 39), (2, 38), (2, 39)]);
    assert_eq!(game.hold_piece(), Some(Piece::J));
    assert!(game.can_hold(), "hold swaps, always");
}

#[test]
fn hold_swaps_the_pieces_in_place_and_only_where_the_other_fits() {
    let mut game = started(7);
    let before = placed(&game);
    let ev = tap(&mut game, 10, Button::Hold);
    assert!(ev.contains(&EventKind::Hold {
        held: Piece::L,
        out: Some(Piece::J)
    }));
    let after = placed(&game);
    assert_eq!(
        (after.piece, after.rotation, after.x, after.y),
        (Piece::J, before.rotation, before.x, before.y)
    );
    assert_eq!(game.hold_piece(), Some(Piece::L));
    tap(&mut game, 20, Button::Hold);
    assert_eq!(placed(&game), before, "and back");
    assert_eq!(game.descent().map(|d| d.piece()), Some(Piece::L));
    // Where the J does not fit, nothing happens: an L against a peg its J would cover.
    let mut game = started(7);
    let mut board = Board::new();
    board.set(0, 38, Cell::Garbage); // the J's upright cell
    game.set_board(board);
    let ev = tap(&mut game, 10, Button::Hold);
    assert!(!ev.iter().any(|e| matches!(e, EventKind::Hold { .. })));
    assert_eq!(placed(&game).piece, Piece::L);
}

#[test]
fn drops_do_nothing_and_the_piece_never_locks() {
    let mut game = started(11);
    let p = placed(&game);
    for (t, b) in [
        (10, Button::HardDrop),
        (20, Button::SonicDrop),
        (30, Button::SoftDrop),
    ] {
        assert!(tap(&mut game, t, b).is_empty(), "{b:?} does nothing");
        assert_eq!(placed(&game), p);
    }
    game.update(40, Some(Input::Press(Button::SoftDrop)));
    game.update(60_000, None);
    assert_eq!(game.stats().pieces, 0, "never locks");
    assert!(!game.is_over());
    game.update(ASCENT_TIME, None);
    assert!(game.is_over(), "two minutes end it");
}

/// Where the piece at `p` comes to rest (gravity pulls it onto the pegs below).
fn settle(board: &Board, p: Placed) -> Placed {
    p.shifted(0, board.drop_distance(&p))
}

/// The moves a player makes at rest: the three turns with the tetrs ruleset's Ocular kicks
/// (the first that fits, as the engine turns), a step either way, and hold's swap in place.
fn moves(board: &Board, p: Placed) -> Vec<(Button, Placed)> {
    let rules = Ruleset::get(RulesetId::Tetrs);
    let mut out = Vec::new();
    for (b, turn) in [
        (Button::RotateCw, Turn::Cw),
        (Button::RotateCcw, Turn::Ccw),
        (Button::Rotate180, Turn::Half),
    ] {
        let to = p.rotation.turned(turn.quarter_turns());
        let kicked = rules
            .kicks(p.piece, p.rotation, turn)
            .iter()
            .find_map(|&(dx, dy)| {
                let q = Placed {
                    rotation: to,
                    x: p.x + dx,
                    y: p.y + dy,
                    ..p
                };
                board.fits(&q).then_some(q)
            });
        if let Some(q) = kicked {
            out.push((b, q));
        }
    }
    for (b, dx) in [(Button::Left, -1), (Button::Right, 1)] {
        let q = p.shifted(dx, 0);
        if board.fits(&q) {
            out.push((b, q));
        }
    }
    let other = if p.piece == Piece::L {
        Piece::J
    } else {
        Piece::L
    };
    let q = Placed { piece: other, ..p };
    if board.fits(&q) {
        out.push((Button::Hold, q));
    }
    out.into_iter()
        .map(|(b, q)| (b, settle(board, q)))
        .collect()
}

/// The shortest list of moves from the start to a rest with a cell in the rows that scroll the
/// view, searched on the first board alone (the view has not scrolled before).
fn climb_path(game: &Game) -> Option<Vec<Button>> {
    let board = game.board().clone();
    let start = settle(&board, placed(game));
    let top = (BUFFER_HEIGHT + CAMERA_MARGIN) as i8;
    let mut seen: HashMap<Placed, (Placed, Button)> = HashMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        if p.cells().iter().any(|&(_, y)| y < top) {
            let mut path = Vec::new();
            let mut at = p;
            while at != start {
                let (from, b) = seen[&at];
                path.push(b);
                at = from;
            }
            path.reverse();
            return Some(path);
        }
        for (b, q) in moves(&board, p) {
            if q != start && !seen.contains_key(&q) {
                seen.insert(q, (p, b));
                queue.push_back(q);
            }
        }
    }
    None
}

#[test]
fn the_lattice_can_be_climbed_to_the_top_of_the_view() {
    for seed in [1, 2, 3, 42, 1234] {
        let mut game = started(seed);
        let path = climb_path(&game).unwrap_or_else(|| panic!("seed {seed}: no way up"));
        // Played by the engine: each move, then time for gravity to rest the piece.
        let mut t = 0;
        let mut scrolled = false;
        for &b in &path {
            t += 10;
            tap(&mut game, t, b);
            while game.board().drop_distance(&placed(&game)) > 0 {
                t += 100;
                game.update(t, None);
            }
            if game.descent().expect("ascent").depth() > 0 {
                scrolled = true;
                break;
            }
        }
        t += 200;
        let ev: Vec<EventKind> = game.update(t, None).iter().map(|e| e.kind).collect();
        scrolled |= ev.iter().any(|e| matches!(e, EventKind::Scroll { .. }));
        assert!(
            scrolled,
            "seed {seed}: {} moves up scroll the view",
            path.len()
        );
        assert!(t < ASCENT_TIME, "seed {seed}: within the time");
        let d = game.descent().expect("ascent");
        assert!(d.depth() >= 1, "seed {seed}: height {}", d.depth());
    }
}

#[test]
fn a_scroll_moves_every_row_and_the_piece_down_by_one() {
    let mut game = started(5);
    let path = climb_path(&game).expect("a way up");
    let top = (BUFFER_HEIGHT + CAMERA_MARGIN) as i8;
    let near_top = |p: &Placed| p.cells().iter().any(|&(_, y)| y < top);
    // The pegs of every row (gems as pegs: a turn collects and recolours them).
    let pegs = |g: &Game| -> Vec<String> {
        (0..HEIGHT)
            .map(|y| row(g, y).replace(['*', '+'], "#"))
            .collect()
    };
    // Up the path; the move that brings the piece into the scrolling rows, long after the
    // game began, scrolls the view in its own update.
    let mut t = 200;
    for &b in &path {
        let (_, want) = moves(game.board(), placed(&game))
            .into_iter()
            .find(|&(m, _)| m == b)
            .expect("the move is there");
        t += 10;
        if near_top(&want) {
            assert_eq!(game.descent().unwrap().depth(), 0);
            let before = pegs(&game);
            let ev: Vec<EventKind> = game
                .update(t, Some(Input::Press(b)))
                .iter()
                .map(|e| e.kind)
                .collect();
            assert!(ev.contains(&EventKind::Scroll { depth: 1 }), "{ev:?}");
            assert_eq!(game.descent().unwrap().depth(), 1);
            assert_eq!(
                placed(&game),
                want.shifted(0, 1),
                "the piece went down with the view"
            );
            let after = pegs(&game);
            for y in 1..HEIGHT {
                assert_eq!(after[y], before[y - 1], "row {y} is the old row {}", y - 1);
            }
            // A new lattice row at the very top: the 41st from the floor (index 40: empty).
            assert_eq!(&after[0][..9], ".........");
            return;
        }
        tap(&mut game, t, b);
        while game.board().drop_distance(&placed(&game)) > 0 {
            t += 100;
            game.update(t, None);
        }
    }
    panic!("the path never reached the top rows");
}

#[test]
fn a_replay_reproduces_the_same_gems_and_height() {
    let mut game = started(9);
    let path = climb_path(&game).expect("a way up");
    let mut t = 0;
    for (i, &b) in path.iter().cycle().take(200).enumerate() {
        t += 60 + (i as Time % 7) * 13;
        tap(&mut game, t, b);
    }
    game.update(ASCENT_TIME, None);
    assert!(game.is_over());
    let replay = game.replay();
    let back = Replay::from_bytes(&replay.to_bytes()).expect("reads");
    assert_eq!(back, replay);
    assert_eq!(back.mode.start_board, StartBoard::Ascent);
    let played = back.play().expect("plays");
    assert_eq!(played.stats(), game.stats());
    assert_eq!(played.board(), game.board());
    assert_eq!(
        played.descent().map(|d| (d.gems(), d.depth())),
        game.descent().map(|d| (d.gems(), d.depth()))
    );
}
