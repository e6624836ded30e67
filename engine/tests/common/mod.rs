//! Small helpers shared by the rule tests: ASCII boards, seed search by piece order, and a
//! driver that feeds timestamped inputs to a [`Game`] and keeps every event.
#![allow(dead_code)]

use minotty_engine::board::{HEIGHT, WIDTH};
use minotty_engine::rng::Bag;
use minotty_engine::{
    Board, Button, Clear, Event, EventKind, Game, GameConfig, Generator, Handling, Input, Mode,
    Piece, PieceSource, Placed, Rotation, RulesetId, Spin,
};

/// A piece's four rotations, four cells each.
pub type Shapes = [[(i8, i8); 4]; 4];

/// The seed's shape table (rules seed, "Tetrominoes"), transcribed independently of the engine:
/// `SHAPES[piece][rotation]` in the order I, O, T, S, Z, J, L and North, East, South, West.
pub const SEED_SHAPES: [(char, Shapes); 7] = [
    (
        'I',
        [
            [(0, 1), (1, 1), (2, 1), (3, 1)],
            [(2, 0), (2, 1), (2, 2), (2, 3)],
            [(0, 2), (1, 2), (2, 2), (3, 2)],
            [(1, 0), (1, 1), (1, 2), (1, 3)],
        ],
    ),
    (
        'O',
        [
            [(1, 0), (2, 0), (1, 1), (2, 1)],
            [(1, 0), (2, 0), (1, 1), (2, 1)],
            [(1, 0), (2, 0), (1, 1), (2, 1)],
            [(1, 0), (2, 0), (1, 1), (2, 1)],
        ],
    ),
    (
        'T',
        [
            [(1, 0), (0, 1), (1, 1), (2, 1)],
            [(1, 0), (1, 1), (2, 1), (1, 2)],
            [(0, 1), (1, 1), (2, 1), (1, 2)],
            [(1, 0), (0, 1), (1, 1), (1, 2)],
        ],
    ),
    (
        'S',
        [
            [(1, 0), (2, 0), (0, 1), (1, 1)],
            [(1, 0), (1, 1), (2, 1), (2, 2)],
            [(1, 1), (2, 1), (0, 2), (1, 2)],
            [(0, 0), (0, 1), (1, 1), (1, 2)],
        ],
    ),
    (
        'Z',
        [
            [(0, 0), (1, 0), (1, 1), (2, 1)],
            [(2, 0), (1, 1), (2, 1), (1, 2)],
            [(0, 1), (1, 1), (1, 2), (2, 2)],
            [(1, 0), (0, 1), (1, 1), (0, 2)],
        ],
    ),
    (
        'J',
        [
            [(0, 0), (0, 1), (1, 1), (2, 1)],
            [(1, 0), (2, 0), (1, 1), (1, 2)],
            [(0, 1), (1, 1), (2, 1), (2, 2)],
            [(1, 0), (1, 1), (0, 2), (1, 2)],
        ],
    ),
    (
        'L',
        [
            [(2, 0), (0, 1), (1, 1), (2, 1)],
            [(1, 0), (1, 1), (1, 2), (2, 2)],
            [(0, 1), (1, 1), (2, 1), (0, 2)],
            [(0, 0), (1, 0), (1, 1), (1, 2)],
        ],
    ),
];

/// The seed's cells of `piece` in `rotation`, relative to its box, sorted.
pub fn seed_cells(piece: Piece, rotation: Rotation) -> Vec<(i8, i8)> {
    let (_, shapes) = SEED_SHAPES
        .iter()
        .find(|(c, _)| *c == piece.letter())
        .expect("every piece is in the seed's table");
    sorted(shapes[rotation as usize].to_vec())
}

pub fn sorted(mut cells: Vec<(i8, i8)>) -> Vec<(i8, i8)> {
    cells.sort_unstable();
    cells
}

/// A board from ASCII rows aligned to the bottom of the field (`#` filled, `.` empty).
pub fn board(rows: &[&str]) -> Board {
    for r in rows {
        assert_eq!(r.chars().count(), WIDTH, "row {r:?} is not {WIDTH} wide");
    }
    Board::from_ascii(rows)
}

/// The same rows mirrored left to right.
pub fn mirrored(rows: &[&str]) -> Vec<String> {
    rows.iter().map(|r| r.chars().rev().collect()).collect()
}

/// Borrows a `Vec<String>` as rows.
pub fn as_rows(rows: &[String]) -> Vec<&str> {
    rows.iter().map(String::as_str).collect()
}

/// Whether board row `y` is completely empty / filled.
pub fn row_empty(b: &Board, y: usize) -> bool {
    b.row_mask(y) == 0
}

/// The first `n` pieces a seed deals under `standard` (and `tetrs` with the bag): the
/// uniformly shuffled 7-bag.
pub fn deal(seed: u32, n: usize) -> Vec<Piece> {
    PieceSource::new(Generator::Bag, seed).take(n).collect()
}

/// The first `n` pieces a seed deals under `tui-tetris`: the rules seed's exact queue.
pub fn deal_seed_queue(seed: u32, n: usize) -> Vec<Piece> {
    Bag::new(seed).take(n).collect()
}

/// A seed whose `standard` bag deals `ZLOIJTSLIJ` first, as seed 0 does under the rules seed's
/// queue (`tui-tetris`, and every ruleset's version 1): the rule tests were written against
/// seed 0's pieces.
pub const ZLOIJTSLIJ: u32 = 541_345;

/// The smallest seed whose piece sequence starts with `pattern` (piece letters, `?` for any)
/// under every ruleset's bag: the rules seed's queue and the uniformly shuffled bag alike.
pub fn seed_for(pattern: &str) -> u32 {
    let want: Vec<Option<Piece>> = pattern.chars().map(Piece::from_letter).collect();
    let starts = |pieces: &mut dyn Iterator<Item = Piece>| {
        pieces
            .zip(&want)
            .all(|(got, want)| want.is_none_or(|w| w == got))
    };
    (0u32..20_000_000)
        .find(|&seed| {
            starts(&mut Bag::new(seed)) && starts(&mut PieceSource::new(Generator::Bag, seed))
        })
        .unwrap_or_else(|| panic!("no seed deals {pattern}"))
}

pub fn config(mode: Mode) -> GameConfig {
    GameConfig {
        mode,
        handling: Handling::default(),
        ruleset: RulesetId::Standard,
        tuning: Default::default(),
    }
}

/// A game driver: the current time, and every event seen so far.
#[derive(Debug)]
pub struct Sim {
    pub game: Game,
    pub t: u64,
    pub log: Vec<Event>,
}

impl Sim {
    /// A game that has not started yet (nothing happens before the first update).
    pub fn new(mode: Mode, seed: u32) -> Sim {
        Sim::with_config(config(mode), seed)
    }

    pub fn with_config(config: GameConfig, seed: u32) -> Sim {
        Sim {
            game: Game::new(config, seed),
            t: 0,
            log: Vec::new(),
        }
    }

    /// A started game (first piece spawned at time 0) on `rows`, dealing `pattern` first.
    pub fn on_board(mode: Mode, pattern: &str, rows: &[&str]) -> Sim {
        let mut sim = Sim::new(mode, seed_for(pattern));
        sim.game.set_board(board(rows));
        sim.at(0);
        sim
    }

    /// Advances to `t` (no input) and returns this update's events.
    pub fn at(&mut self, t: u64) -> Vec<Event> {
        self.t = t;
        let ev = self.game.update(t, None).to_vec();
        self.log.extend_from_slice(&ev);
        ev
    }

    /// Applies `input` at the current time.
    pub fn input(&mut self, input: Input) -> Vec<Event> {
        let ev = self.game.update(self.t, Some(input)).to_vec();
        self.log.extend_from_slice(&ev);
        ev
    }

    pub fn press(&mut self, b: Button) -> Vec<Event> {
        self.input(Input::Press(b))
    }

    pub fn release(&mut self, b: Button) -> Vec<Event> {
        self.input(Input::Release(b))
    }

    /// Press and release at the current time.
    pub fn tap(&mut self, b: Button) -> Vec<Event> {
        let mut ev = self.press(b);
        ev.extend(self.release(b));
        ev
    }

    /// `n` taps; asserts that each one moved the piece.
    pub fn shift(&mut self, b: Button, n: usize) {
        for _ in 0..n {
            let before = self.placed();
            self.tap(b);
            assert_ne!(before, self.placed(), "{b:?} did not move {before:?}");
        }
    }

    pub fn placed(&self) -> Placed {
        self.game.active().expect("a piece in play").placed
    }

    /// Advances to each time `t` in turn and asserts the piece's column is then `x`.
    pub fn xs(&mut self, steps: &[(u64, i8)]) {
        for &(t, x) in steps {
            self.at(t);
            assert_eq!(self.placed().x, x, "column at {t} ms");
        }
    }

    /// Asserts that the first piece locks at `t`: not yet a millisecond before, then at `t`.
    pub fn locks_at(&mut self, t: u64) {
        self.at(t - 1);
        assert_eq!(self.game.stats().pieces, 0, "locked before {t} ms");
        self.at(t);
        assert_eq!(self.game.stats().pieces, 1, "not locked at {t} ms");
    }

    /// Advances to each time `t` in turn and asserts the piece's row is then `y`.
    pub fn ys(&mut self, steps: &[(u64, i8)]) {
        for &(t, y) in steps {
            self.at(t);
            assert_eq!(self.placed().y, y, "row at {t} ms");
        }
    }

    /// The active piece's board cells, sorted.
    pub fn cells(&self) -> Vec<(i8, i8)> {
        sorted(self.placed().cells().to_vec())
    }

    /// Advances time until a piece is in play (after a line-clear pause); returns its kind.
    pub fn wait_for_piece(&mut self) -> Piece {
        while self.game.active().is_none() && !self.game.is_over() {
            let t = self.game.next_deadline().expect("something to wait for");
            self.at(t);
        }
        self.placed().piece
    }

    /// Turns the piece at spawn to `rotation`, shifts it to column `x` and hard-drops it.
    pub fn drop_at(&mut self, rotation: Rotation, x: i8) -> Vec<Event> {
        let button = match rotation {
            Rotation::North => None,
            Rotation::East => Some(Button::RotateCw),
            Rotation::South => Some(Button::Rotate180),
            Rotation::West => Some(Button::RotateCcw),
        };
        if let Some(b) = button {
            self.tap(b);
        }
        assert_eq!(self.placed().rotation, rotation);
        let dx = x - self.placed().x;
        let b = if dx < 0 { Button::Left } else { Button::Right };
        self.shift(b, dx.unsigned_abs() as usize);
        self.tap(Button::HardDrop)
    }

    /// Replaces the board with one on which the piece in play, hard-dropped from spawn, clears
    /// exactly one row (and leaves a partial row below, so never a perfect clear), then drops it.
    pub fn single(&mut self) -> Vec<Event> {
        let piece = self.wait_for_piece();
        self.game.set_board(single_board(piece));
        self.tap(Button::HardDrop)
    }

    /// Hard-drops the piece in play on an empty board (nothing clears), then empties the board.
    pub fn junk(&mut self) -> Vec<Event> {
        self.wait_for_piece();
        self.game.set_board(Board::new());
        let ev = self.tap(Button::HardDrop);
        self.game.set_board(Board::new());
        ev
    }
}

/// A board on which `piece`, hard-dropped from its spawn place (North, box at column 3), fills
/// the only gaps of row 38 and so clears exactly that row; row 39 stays (a hole in column 9).
pub fn single_board(piece: Piece) -> Board {
    let cells = seed_cells(piece, Rotation::North);
    let bottom = cells.iter().map(|c| c.1).max().unwrap();
    let mut row38: Vec<char> = vec!['#'; WIDTH];
    for &(dx, dy) in &cells {
        if dy == bottom {
            row38[3 + dx as usize] = '.';
        }
    }
    let row38: String = row38.into_iter().collect();
    board(&[&row38, "#########."])
}

/// The line clears among `events`.
pub fn clears(events: &[Event]) -> Vec<Clear> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::LineClear(c) => Some(c),
            _ => None,
        })
        .collect()
}

/// The one line clear among `events`.
pub fn clear(events: &[Event]) -> Clear {
    let c = clears(events);
    assert_eq!(c.len(), 1, "expected exactly one line clear in {events:?}");
    c[0]
}

/// Whether any event matches.
pub fn has(events: &[Event], f: impl Fn(&EventKind) -> bool) -> bool {
    events.iter().any(|e| f(&e.kind))
}

/// The rows of a board that hold at least one cell, as ASCII, bottom-aligned.
pub fn ascii(b: &Board) -> Vec<String> {
    b.to_ascii()
}

/// The bottom visible row.
pub const FLOOR: usize = HEIGHT - 1;

/// The spin the lock among `events` was judged to be.
pub fn lock_spin(events: &[Event]) -> Spin {
    events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::Lock { spin, .. } => Some(spin),
            _ => None,
        })
        .expect("a lock")
}

/// A placement at `(x, y)`.
pub fn at(piece: Piece, rotation: Rotation, x: i8, y: i8) -> Placed {
    Placed {
        piece,
        rotation,
        x,
        y,
    }
}

/// A placement's board cells, sorted.
pub fn cells(p: &Placed) -> Vec<(i8, i8)> {
    sorted(p.cells().to_vec())
}

/// A puzzle-mode game from `stage` under `tetrs`, its first piece in play.
pub fn puzzle_game(stage: u8) -> Game {
    let mut g = Game::new(
        GameConfig {
            ruleset: RulesetId::Tetrs,
            mode: Mode::puzzle(stage),
            ..GameConfig::default()
        },
        7,
    );
    g.update(0, None);
    g
}

/// Presses `buttons` (each pressed and released) at the game's current time, then lets time
/// run until the next piece is in play or the game is over. Returns every event on the way.
pub fn press_and_settle(g: &mut Game, buttons: &[Button]) -> Vec<EventKind> {
    let t = g.now();
    let mut events = Vec::new();
    for &b in buttons {
        for input in [Input::Press(b), Input::Release(b)] {
            events.extend(g.update(t, Some(input)).iter().map(|e| e.kind));
        }
    }
    while g.active().is_none() && !g.is_over() {
        let Some(next) = g.next_deadline() else { break };
        events.extend(g.update(next, None).iter().map(|e| e.kind));
    }
    events
}

/// T-spin triple slot (rows 35 to 39): the T comes in under the overhang at row 35 and turns
/// counter-clockwise into the 3-deep slot in column 4 with the last kick, kick 4, (+1, -2) in
/// the seed, two rows *down* (`kicks.rs`, `tspin.rs`).
pub const TST: [&str; 5] = [
    "....######", // 35
    ".....#####", // 36
    "####.#####", // 37
    "###..#####", // 38
    "####.#####", // 39
];

/// When the piece locked, among `events`.
pub fn lock_time(events: &[Event]) -> Option<u64> {
    events.iter().find_map(|e| match e.kind {
        EventKind::Lock { .. } => Some(e.time),
        _ => None,
    })
}

/// When the next piece spawned after `t`, among `events`.
pub fn spawn_time_after(events: &[Event], t: u64) -> Option<u64> {
    events.iter().find_map(|e| match e.kind {
        EventKind::Spawn { .. } if e.time > t => Some(e.time),
        _ => None,
    })
}
