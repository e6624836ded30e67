//! How a piece moves under one game's rules, one tap at a time: the board as the search reads
//! it ([`Field`]), the rotation flag ([`Flag`]), and [`Mover`], which applies a shift, a
//! rotation with the ruleset's kicks, a drop or a one-row step, as the game would.

use minotty_engine::board::{Board, HEIGHT, WIDTH};
use minotty_engine::game::{Game, SPAWN_X, SPAWN_Y, fits_under};
use minotty_engine::input::Button;
use minotty_engine::piece::{Piece, Placed, Rotation, Turn};
use minotty_engine::ruleset::{RotationFlag, Ruleset, SoftDrop, SpinRule};

/// A board as the search reads it: the board, and for each column the first filled row below
/// each row, so that a drop is four lookups instead of a walk down.
pub(crate) struct Field<'a> {
    pub(super) board: &'a Board,
    /// `below[x][y]`: the first filled row of column `x` at or below row `y` (`HEIGHT`: none).
    below: [[i8; HEIGHT + 1]; WIDTH],
}

impl<'a> Field<'a> {
    pub(crate) fn new(board: &'a Board) -> Field<'a> {
        let mut below = [[HEIGHT as i8; HEIGHT + 1]; WIDTH];
        for (x, column) in below.iter_mut().enumerate() {
            for y in (0..HEIGHT).rev() {
                column[y] = if board.row_mask(y) & (1 << x) != 0 {
                    y as i8
                } else {
                    column[y + 1]
                };
            }
        }
        Field { board, below }
    }

    /// Rows `placed` (which fits) can fall: [`Board::drop_distance`].
    #[inline]
    pub(super) fn drop_distance(&self, placed: &Placed) -> i8 {
        placed
            .cells()
            .iter()
            .map(|&(x, y)| {
                let from = usize::try_from(i16::from(y) + 1).unwrap_or(0).min(HEIGHT);
                self.below[x as usize][from] - y - 1
            })
            .min()
            .unwrap_or(0)
    }

    #[inline]
    pub(super) fn fits(&self, placed: &Placed) -> bool {
        self.board.fits(placed)
    }
}

/// The rotation flag of a piece: `Some((kick index, was the last kick))` after a rotation.
pub(crate) type Flag = Option<(u8, bool)>;

/// How a piece moves under one game's rules: what the search needs to know of a [`Game`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mover {
    pub(super) rules: Ruleset,
    /// 20G: every move ends on the floor.
    instant: bool,
    /// The button that drops the piece to the floor without locking it.
    floor: Option<Button>,
    /// Soft drop moves the piece one row per tap.
    pub(super) step: bool,
}

impl Mover {
    pub(crate) fn of(game: &Game) -> Mover {
        let rules = *game.ruleset();
        let instant = game.gravity_interval().is_none();
        let sdf = game.config().handling.sdf;
        // What one soft-drop tap does in the air: a row, the floor, or (20G) nothing.
        let (floor_by_soft, step) = match rules.soft_drop {
            _ if instant => (false, false),
            SoftDrop::Steps { .. } => (false, true),
            SoftDrop::Factor { .. } | SoftDrop::TetrsFactor => (sdf == 0, sdf > 0),
        };
        let floor = if rules.sonic_drop {
            Some(Button::SonicDrop)
        } else if floor_by_soft {
            Some(Button::SoftDrop)
        } else {
            None
        };
        Mover {
            rules,
            instant,
            floor,
            step,
        }
    }

    /// The same without one-row soft-drop steps: placements reached only by stopping in mid
    /// air (caves half way down a shaft) are left out, for a search two to three times faster.
    pub(crate) fn without_steps(self) -> Mover {
        Mover {
            step: false,
            ..self
        }
    }

    /// The most garbage lines that rise on one lock.
    pub(crate) fn garbage_cap(&self) -> u32 {
        self.rules.garbage_cap
    }

    /// Where `piece` appears when hold or the queue brings it in (no initial rotation), or
    /// `None` when it does not fit there (the game would end).
    pub(crate) fn spawn(&self, board: &Board, piece: Piece) -> Option<Placed> {
        let placed = Placed {
            piece,
            rotation: Rotation::North,
            x: SPAWN_X,
            y: SPAWN_Y,
        };
        fits_under(board, &self.rules, &placed)
            .then(|| self.settle(&Field::new(board), placed, None).0)
    }

    /// The end of a move: under 20G the piece falls to the floor (which clears the rotation
    /// flag where any movement does).
    #[inline]
    fn settle(&self, field: &Field, placed: Placed, flag: Flag) -> (Placed, Flag) {
        if !self.instant {
            return (placed, flag);
        }
        let rows = field.drop_distance(&placed);
        if rows == 0 {
            return (placed, flag);
        }
        let flag = match self.rules.rotation_flag {
            RotationFlag::AnyMovement => None,
            RotationFlag::PlayerActions => flag,
        };
        (placed.shifted(0, rows), flag)
    }

    fn shift(&self, field: &Field, from: Placed, dx: i8) -> Option<(Placed, Flag)> {
        let moved = from.shifted(dx, 0);
        field.fits(&moved).then(|| self.settle(field, moved, None))
    }

    fn rotate(&self, field: &Field, from: Placed, turn: Turn) -> Option<(Placed, Flag)> {
        if from.piece == Piece::O && !self.rules.o_rotates {
            return None;
        }
        if turn == Turn::Half && !self.rules.turns_180 {
            return None;
        }
        let to = from.rotation.turned(turn.quarter_turns());
        let kicks = self.rules.kicks(from.piece, from.rotation, turn);
        kicks.iter().enumerate().find_map(|(i, &(kx, ky))| {
            let candidate = Placed {
                rotation: to,
                x: from.x + kx,
                y: from.y + ky,
                ..from
            };
            fits_under(field.board, &self.rules, &candidate).then(|| {
                let flag = Some((i as u8, i + 1 == kicks.len() && i > 0));
                self.settle(field, candidate, flag)
            })
        })
    }

    /// A state's moves, in the order the search tries them (which settles ties between
    /// equally short paths): shifts, rotations, then down.
    #[inline]
    pub(super) fn next(
        &self,
        field: &Field,
        from: Placed,
        grounded: bool,
        b: Button,
    ) -> Option<(Placed, Flag)> {
        match b {
            Button::Left => self.shift(field, from, -1),
            Button::Right => self.shift(field, from, 1),
            Button::RotateCw => self.rotate(field, from, Turn::Cw),
            Button::RotateCcw => self.rotate(field, from, Turn::Ccw),
            Button::Rotate180 => self.rotate(field, from, Turn::Half),
            // Down moves only from the air: on the ground they do nothing, or lock (tetrs).
            _ if grounded => None,
            Button::SonicDrop if self.floor == Some(Button::SonicDrop) => {
                Some((from.shifted(0, field.drop_distance(&from)), None))
            }
            Button::SoftDrop if self.floor == Some(Button::SoftDrop) => {
                Some((from.shifted(0, field.drop_distance(&from)), None))
            }
            Button::SoftDrop if self.step => Some(self.settle(field, from.shifted(0, 1), None)),
            _ => None,
        }
    }

    /// Whether the rotation flag can change what a lock of `piece` earns: a T under a
    /// three-corner rule, when a hard drop onto the spot keeps the flag.
    pub(super) fn flag_matters(&self, piece: Piece) -> bool {
        piece == Piece::T
            && matches!(self.rules.spin, SpinRule::TCorners { .. })
            && self.rules.rotation_flag == RotationFlag::AnyMovement
    }
}

/// The buttons a state's moves are tried with, in order (the combo model's search tries them
/// in the same order).
pub(crate) const MOVES: [Button; 7] = [
    Button::Left,
    Button::Right,
    Button::RotateCw,
    Button::RotateCcw,
    Button::Rotate180,
    Button::SonicDrop,
    Button::SoftDrop,
];
