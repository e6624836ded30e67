//! Ascent (`StartBoard::Ascent`, the mode tetro-tui added): Descent upside down. An L climbs
//! an endless lattice by turning (Ocular's kicks lift it onto the pegs), with a J held beside
//! it that hold swaps in place; gems are collected as in Descent.
//!
//! The lattice fills the whole board, hidden rows included, and counts upwards from the floor:
//! even rows are empty, odd rows hold grey pegs at the odd columns 1, 3, 5, 7, one random
//! column 0-8 of which, when it holds a peg, is a gem of a random colour; column 9 is the wall
//! stripe of Descent. The L starts on the floor against the left wall, upright (its spawn
//! orientation), with the J held.
//!
//! Nothing drops (soft, hard and sonic drop do nothing) and nothing locks; gravity pulls the
//! piece onto the pegs below it. After every turn and every swap, the gems next to the piece
//! are collected and the others change colour (`descent.rs`). A swap happens only where the
//! other piece fits. While a cell of the piece is in the top [`CAMERA_MARGIN`] rows of the view,
//! the view scrolls down by one row, at most once per [`SCROLL_INTERVAL`]: every row and the
//! piece move down together (so the piece always fits), the floor row leaves, a new lattice row
//! enters at the top of the hidden rows, and the height grows by one.
//!
//! [`SCROLL_INTERVAL`]: super::SCROLL_INTERVAL

use super::{Descent, Line, wall_colour};
use crate::board::{BUFFER_HEIGHT, HEIGHT, WIDTH};
use crate::event::EventKind;
use crate::game::Game;
use crate::game::lockdown::Cause;
use crate::input::Button;
use crate::piece::{Piece, Placed, Rotation};
use crate::rng::SplitMix;

/// The rows at the top of the view that make it scroll (tetro-tui's camera margin).
pub const CAMERA_MARGIN: usize = 5;

/// Lattice row `i`, counted from the floor up.
fn climb_line(i: u64, rng: &mut SplitMix) -> Line {
    const ODD: u16 = 0b0_1010_1010;
    let mut mask = 1 << super::WALL_X;
    let mut gem = None;
    if i % 2 == 1 {
        mask |= ODD;
        let x = rng.below(9) as usize;
        if mask & (1 << x) != 0 {
            gem = Some((x, rng.below(7) as u8 + 1));
        }
    }
    Line {
        mask,
        gem,
        wall: wall_colour(i),
    }
}

/// Whether a cell of the piece at `placed` is in the top rows of the view (or above it).
pub(super) fn near_top(placed: &Placed) -> bool {
    let margin = (BUFFER_HEIGHT + CAMERA_MARGIN) as i32;
    placed.cells().iter().any(|&(_, y)| i32::from(y) < margin)
}

/// `piece` upright on the floor against the left wall.
fn foot(piece: Piece) -> Placed {
    let p = Placed {
        piece,
        rotation: Rotation::North,
        x: 0,
        y: 0,
    };
    let cells = p.cells();
    let left = cells.iter().map(|&(x, _)| x).min().unwrap_or(0);
    let low = cells.iter().map(|&(_, y)| y).max().unwrap_or(0);
    p.shifted(-left, HEIGHT as i8 - 1 - low)
}

/// Whether `button` is a drop (Ascent ignores them).
pub(in crate::game) fn is_drop(button: Button) -> bool {
    matches!(
        button,
        Button::SoftDrop | Button::HardDrop | Button::SonicDrop
    )
}

impl Game {
    /// Builds the lattice and puts the L at its foot, the J held (the start of an Ascent game).
    pub(in crate::game) fn start_ascent(&mut self) {
        let mut d = Descent {
            piece: Piece::L,
            gems: [[0; WIDTH]; HEIGHT],
            next_line: 0,
            depth: 0,
            collected: 0,
            last_scroll: 0,
            climb: true,
        };
        for y in (0..HEIGHT).rev() {
            let l = climb_line(d.next_line, &mut self.rng);
            d.next_line += 1;
            self.put_line(&mut d, y, &l);
        }
        self.descent = Some(Box::new(d));
        self.hold = Some(Piece::J);
        self.enter(foot(Piece::L), Default::default());
    }

    /// Scrolls the view down by one row: everything moves down, a new lattice row enters at
    /// the top.
    pub(super) fn climb_scroll(&mut self) {
        let Some(mut d) = self.descent.take() else {
            return;
        };
        let l = climb_line(d.next_line, &mut self.rng);
        d.next_line += 1;
        for y in (1..HEIGHT).rev() {
            for x in 0..WIDTH {
                let cell = self.board.cell(x, y - 1);
                self.board.set(x, y, cell);
            }
        }
        d.gems.copy_within(..HEIGHT - 1, 1);
        self.put_line(&mut d, 0, &l);
        d.depth += 1;
        d.last_scroll = self.now;
        if let Some(a) = self.active.as_mut() {
            a.placed = a.placed.shifted(0, 1);
        }
        let depth = d.depth;
        self.descent = Some(d);
        self.emit(EventKind::Scroll { depth });
    }

    /// Hold in Ascent: the held piece takes the place of the one in play, same spot and
    /// orientation, if it fits there; then the gems next to it are collected.
    pub(in crate::game) fn swap_climber(&mut self) {
        let (Some(a), Some(other)) = (self.active, self.hold) else {
            return;
        };
        let swapped = Placed {
            piece: other,
            ..a.placed
        };
        if a.dropped || !self.fits(&swapped) {
            return;
        }
        let held = a.placed.piece;
        if let Some(act) = self.active.as_mut() {
            act.placed = swapped;
            act.rotated = None;
        }
        self.hold = Some(held);
        if let Some(d) = self.descent.as_mut() {
            d.piece = other;
        }
        self.emit(EventKind::Hold {
            held,
            out: Some(other),
        });
        self.after_move(Cause::Player);
        self.after_descent_rotation();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_climbing_lattice_alternates_empty_rows_and_peg_rows() {
        let mut rng = SplitMix::new(3, 4);
        let wall = 1 << super::super::WALL_X;
        let mut gems = 0;
        for i in 0..1000u64 {
            let l = climb_line(i, &mut rng);
            assert_eq!(l.wall, super::super::GEM_COLOURS[((i / 10) % 7) as usize]);
            if i % 2 == 0 {
                assert_eq!((l.mask, l.gem), (wall, None), "row {i} is empty");
            } else {
                assert_eq!(l.mask, wall | 0b0_1010_1010, "row {i}: odd pegs");
            }
            if let Some((x, code)) = l.gem {
                assert!(x % 2 == 1 && x < 8, "a gem is a peg: {x}");
                assert!((1..=7).contains(&code));
                gems += 1;
            }
        }
        // A peg is drawn 4 times in 9: about 222 gems in 500 peg rows.
        assert!((180..=265).contains(&gems), "{gems} gems");
    }

    #[test]
    fn the_l_starts_upright_on_the_floor_against_the_left_wall() {
        let p = foot(Piece::L);
        let mut cells = p.cells().to_vec();
        cells.sort();
        let floor = HEIGHT as i8 - 1;
        // The L's spawn orientation: three along the floor, the fourth above the right end.
        assert_eq!(
            cells,
            vec![(0, floor), (1, floor), (2, floor - 1), (2, floor)]
        );
        assert!(!near_top(&p));
    }
}
