//! Descent (`StartBoard::Descent`): one L or J piece, which never locks, climbs down an endless
//! lattice of pegs, collecting gems by rotating next to them.
//!
//! The lattice comes in groups of four rows, top to bottom: an empty row; grey pegs at the odd
//! columns 1, 3, 5, 7; an empty row; pegs at the odd columns plus three random draws of an even
//! column (0-8; draws may repeat), where one random column 0-8 that holds a peg becomes a gem
//! of a random colour. Column 9 is a wall whose colour changes every 10 lattice rows. The view
//! starts with two open rows at the top (where the piece appears) above lattice rows 0-17.
//!
//! After every rotation, each gem within Manhattan distance 1 of a cell of the piece is
//! collected (one gem, one point) and every other gem on the board moves to the next colour.
//! While the piece's lowest cell is in the bottom two rows, the view scrolls by one row: the
//! board and the piece move up, a new lattice row enters at the bottom, depth grows by one. At
//! most one scroll happens per [`SCROLL_INTERVAL`]; the next scroll is due at the last one plus
//! the interval, a deadline computed from state like every timed rule.
//!
//! What ends a game: the time limit ([`crate::mode::DESCENT_TIME`], a win whatever the gems),
//! a forfeit, or the input limit. Nothing else can: a scroll only happens with the piece at the
//! bottom, so (unlike the original, whose slow forced scroll could push the piece off the top)
//! the piece is never carried out of the view, and the lattice always leaves room to spawn.

mod ascent;

pub use ascent::CAMERA_MARGIN;
pub(super) use ascent::is_drop;

use super::Game;
use crate::board::{BUFFER_HEIGHT, Cell, HEIGHT, WIDTH};
use crate::event::EventKind;
use crate::piece::{Piece, Placed};
use crate::rng::SplitMix;
use crate::ruleset::Time;

/// The least time between two scrolls (ms).
pub const SCROLL_INTERVAL: Time = 125;

/// Gem and wall colours, in the order gems cycle through them.
pub const GEM_COLOURS: [Piece; 7] = [
    Piece::Z,
    Piece::L,
    Piece::O,
    Piece::S,
    Piece::I,
    Piece::J,
    Piece::T,
];

/// The column of the wall stripe.
pub const WALL_X: usize = WIDTH - 1;

/// The open rows at the top of the view at the start.
const SKY_ROWS: usize = 2;

/// Gem grid codes: 0 no gem, 1-7 a gem of colour `GEM_COLOURS[code - 1]`, 8 collected.
const COLLECTED: u8 = 8;

/// A gem on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gem {
    /// Not yet collected, currently of this piece's colour.
    Shining(Piece),
    Collected,
}

/// The state of a Descent game besides its board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Descent {
    piece: Piece,
    /// Per board cell (`[y][x]`), the gem code of that cell (the cell itself is a peg).
    gems: [[u8; WIDTH]; HEIGHT],
    /// The index of the next lattice row to generate.
    next_line: u64,
    depth: u32,
    collected: u32,
    last_scroll: Time,
    /// Ascent: the lattice scrolls down as the piece climbs (`descent/ascent.rs`).
    climb: bool,
}

impl Descent {
    /// The piece the player steers.
    pub fn piece(&self) -> Piece {
        self.piece
    }

    /// Rows scrolled so far (in Ascent, the height climbed).
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Gems collected so far (also the game's score).
    pub fn gems(&self) -> u32 {
        self.collected
    }

    /// The gem at column `x`, row `y`, if that cell holds one.
    pub fn gem(&self, x: usize, y: usize) -> Option<Gem> {
        match self.gems.get(y).and_then(|row| row.get(x)).copied() {
            Some(c @ 1..=7) => Some(Gem::Shining(GEM_COLOURS[usize::from(c) - 1])),
            Some(COLLECTED) => Some(Gem::Collected),
            _ => None,
        }
    }

    /// When the last scroll happened (0 before the first).
    pub fn last_scroll(&self) -> Time {
        self.last_scroll
    }

    /// Whether this is Ascent (the piece climbs and the view scrolls down).
    pub fn climbing(&self) -> bool {
        self.climb
    }
}

/// One lattice row: its occupancy (wall included), its gem `(column, colour code)`, and the
/// wall's colour.
struct Line {
    mask: u16,
    gem: Option<(usize, u8)>,
    wall: Piece,
}

/// Lattice row `i`, drawing from `rng` for the fourth row of each group.
fn line(i: u64, rng: &mut SplitMix) -> Line {
    const ODD: u16 = 0b0_1010_1010;
    let wall = wall_colour(i);
    let mut mask = 1 << WALL_X;
    let mut gem = None;
    match i % 4 {
        1 => mask |= ODD,
        3 => {
            mask |= ODD;
            for _ in 0..3 {
                mask |= 1 << (2 * rng.below(5));
            }
            let x = rng.below(9) as usize;
            if mask & (1 << x) != 0 {
                gem = Some((x, rng.below(7) as u8 + 1));
            }
        }
        _ => {}
    }
    Line { mask, gem, wall }
}

/// The wall colour of lattice row `i`: the next colour every 10 rows.
fn wall_colour(i: u64) -> Piece {
    GEM_COLOURS[((i / 10) % 7) as usize]
}

/// Whether a piece at `placed` is near enough the bottom for the view to scroll.
fn near_bottom(placed: &Placed) -> bool {
    placed.cells().iter().any(|&(_, y)| y >= HEIGHT as i8 - 2)
}

impl Game {
    /// The Descent state, in a Descent or an Ascent game.
    pub fn descent(&self) -> Option<&Descent> {
        self.descent.as_deref()
    }

    /// Whether this is an Ascent game.
    pub(super) fn climbing(&self) -> bool {
        self.descent.as_ref().is_some_and(|d| d.climb)
    }

    /// Builds the first view and chooses the piece (the start of a Descent game).
    pub(super) fn start_descent(&mut self) {
        let piece = if self.rng.below(2) == 0 {
            Piece::L
        } else {
            Piece::J
        };
        let mut d = Descent {
            piece,
            gems: [[0; WIDTH]; HEIGHT],
            next_line: 0,
            depth: 0,
            collected: 0,
            last_scroll: 0,
            climb: false,
        };
        for y in BUFFER_HEIGHT..BUFFER_HEIGHT + SKY_ROWS {
            self.board.set(WALL_X, y, Cell::Block(wall_colour(0)));
        }
        for y in BUFFER_HEIGHT + SKY_ROWS..HEIGHT {
            let l = line(d.next_line, &mut self.rng);
            d.next_line += 1;
            self.put_line(&mut d, y, &l);
        }
        self.descent = Some(Box::new(d));
        self.spawn(piece, false);
    }

    fn put_line(&mut self, d: &mut Descent, y: usize, l: &Line) {
        for x in 0..WIDTH {
            let cell = if x == WALL_X {
                Cell::Block(l.wall)
            } else if l.mask & (1 << x) != 0 {
                Cell::Garbage
            } else {
                Cell::Empty
            };
            self.board.set(x, y, cell);
        }
        d.gems[y] = [0; WIDTH];
        if let Some((x, code)) = l.gem {
            d.gems[y][x] = code;
        }
    }

    /// When the view scrolls next, if the piece is near the bottom (in Ascent, the top).
    pub(super) fn descent_deadline(&self) -> Option<Time> {
        let d = self.descent.as_deref()?;
        let a = self.active.as_ref()?;
        let near = if d.climb {
            ascent::near_top(&a.placed)
        } else {
            near_bottom(&a.placed)
        };
        near.then_some(d.last_scroll + SCROLL_INTERVAL)
    }

    /// Scrolls the view by one row: everything moves up, a new lattice row enters below (in
    /// Ascent the other way round).
    pub(super) fn scroll(&mut self) {
        if self.climbing() {
            return self.climb_scroll();
        }
        let Some(mut d) = self.descent.take() else {
            return;
        };
        let l = line(d.next_line, &mut self.rng);
        d.next_line += 1;
        // Rows leaving the top of the buffer are gone for good (the lattice is endless).
        self.board.push_rows(1, |_| 0);
        d.gems.copy_within(1.., 0);
        self.put_line(&mut d, HEIGHT - 1, &l);
        d.depth += 1;
        d.last_scroll = self.now;
        if let Some(a) = self.active.as_mut() {
            a.placed = a.placed.shifted(0, -1);
        }
        let depth = d.depth;
        self.descent = Some(d);
        self.emit(EventKind::Scroll { depth });
    }

    /// After a rotation: collects the gems next to the piece and cycles the others' colours.
    pub(super) fn after_descent_rotation(&mut self) {
        let (Some(mut d), Some(a)) = (self.descent.take(), self.active) else {
            return;
        };
        let collected = collect(&mut d.gems, &a.placed.cells());
        d.collected += collected.len() as u32;
        self.stats.score += collected.len() as u64;
        self.descent = Some(d);
        for (x, y) in collected {
            self.emit(EventKind::GemCollected { x, y });
        }
    }
}

/// Marks every gem within Manhattan distance 1 of `cells` collected and moves every other gem
/// to its next colour; returns the collected gems' `(x, y)`, top to bottom, left to right.
fn collect(gems: &mut [[u8; WIDTH]; HEIGHT], cells: &[(i8, i8); 4]) -> Vec<(u8, u8)> {
    let mut collected = Vec::new();
    for (y, row) in gems.iter_mut().enumerate() {
        for (x, code) in row.iter_mut().enumerate() {
            if !(1..=7).contains(code) {
                continue;
            }
            let near = cells.iter().any(|&(cx, cy)| {
                (i32::from(cx) - x as i32).abs() + (i32::from(cy) - y as i32).abs() <= 1
            });
            if near {
                *code = COLLECTED;
                collected.push((x as u8, y as u8));
            } else {
                *code = *code % 7 + 1;
            }
        }
    }
    collected
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A gem grid from ASCII rows aligned to the bottom: `.` nothing, `1`-`7` a gem colour
    /// code, `*` collected, `p` a piece cell (no gem). Returns the grid and the piece cells.
    fn grid(rows: &[&str]) -> ([[u8; WIDTH]; HEIGHT], [(i8, i8); 4]) {
        let mut g = [[0; WIDTH]; HEIGHT];
        let mut cells = Vec::new();
        let top = HEIGHT - rows.len();
        for (i, row) in rows.iter().enumerate() {
            for (x, c) in row.chars().enumerate() {
                let y = top + i;
                match c {
                    '1'..='7' => g[y][x] = c as u8 - b'0',
                    '*' => g[y][x] = COLLECTED,
                    'p' => cells.push((x as i8, y as i8)),
                    _ => {}
                }
            }
        }
        (g, cells.try_into().expect("four piece cells"))
    }

    fn ascii(g: &[[u8; WIDTH]; HEIGHT], rows: usize) -> Vec<String> {
        g[HEIGHT - rows..]
            .iter()
            .map(|r| {
                r.iter()
                    .map(|&c| match c {
                        0 => '.',
                        COLLECTED => '*',
                        c => (b'0' + c) as char,
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn gems_next_to_the_piece_are_collected_and_the_others_cycle() {
        let (mut g, cells) = grid(&[
            "1.........",
            "..3.......",
            ".2ppp4....",
            "...7p.5...",
            ".....6....",
            "*.........",
        ]);
        let got = collect(&mut g, &cells);
        // Distance 1: the 2 left of the piece, the 3 above it, the 4 right of it, the 7 below
        // it. The 5 and the 6 are diagonal (distance 2), the 1 is far.
        assert_eq!(
            got,
            vec![(2, 35), (1, 36), (5, 36), (3, 37)],
            "collected in reading order"
        );
        assert_eq!(
            ascii(&g, 6),
            vec![
                "2.........",
                "..*.......",
                ".*...*....",
                "...*..6...",
                ".....7....",
                "*.........",
            ]
        );
    }

    #[test]
    fn colours_cycle_through_all_seven_and_wrap() {
        let (mut g, cells) = grid(&["7.1....ppp", ".......p.."]);
        collect(&mut g, &cells);
        assert_eq!(ascii(&g, 2), vec!["1.2.......", ".........."]);
        for _ in 0..6 {
            collect(&mut g, &cells);
        }
        assert_eq!(
            ascii(&g, 2),
            vec!["7.1.......", ".........."],
            "seven steps: back"
        );
    }

    #[test]
    fn the_lattice_rows_follow_the_four_row_pattern() {
        let mut rng = SplitMix::new(7, 4);
        for i in 0..400u64 {
            let l = line(i, &mut rng);
            let wall = 1 << WALL_X;
            assert_ne!(l.mask & wall, 0, "row {i} has its wall");
            assert_eq!(l.wall, GEM_COLOURS[((i / 10) % 7) as usize]);
            match i % 4 {
                0 | 2 => assert_eq!(l.mask, wall, "row {i} is empty"),
                1 => assert_eq!(l.mask, wall | 0b0_1010_1010, "row {i}: odd pegs"),
                _ => {
                    assert_eq!(l.mask & 0b0_1010_1010, 0b0_1010_1010, "row {i}: odd pegs");
                    let extra = l.mask & 0b1_0101_0101;
                    assert!((1..=3).contains(&extra.count_ones()), "row {i}: {extra:b}");
                }
            }
            if let Some((x, code)) = l.gem {
                assert_eq!(i % 4, 3, "gems only in the fourth row");
                assert!(x < WALL_X && l.mask & (1 << x) != 0, "a gem is a peg");
                assert!((1..=7).contains(&code));
            }
        }
    }
}
