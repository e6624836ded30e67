//! Move generation: every final resting placement the piece in play can reach with the game's
//! own moves, and the fewest button taps that get it there.
//!
//! The search is a breadth-first search over the piece's states `(x, y, rotation)`, one tap per
//! edge: a shift, a rotation with the ruleset's kicks (180° where the ruleset has it), a drop
//! to the floor without locking (sonic drop, or soft drop where that is what it does) and, where
//! soft drop moves one row per tap, a one-row step down, so that a piece can stop in the air
//! and slide into a cave. States on the ground keep searching (tucks, spins). Every state's
//! hard drop is a final placement; the first time a placement is found is with its fewest taps.
//! Each edge asks the same functions the game asks (`Board::fits`, the rotation system's kick
//! lists, `fits_under` for the top wall of a ruleset without hidden rows, `spin_at` for the
//! spin a lock earns), and under 20G every move ends on the floor as it does in the game.
//!
//! A T's placement on the ground can be reached with or without a rotation last (and, in
//! `standard`, with or without the last kick of its table), which changes the spin it earns:
//! under a three-corner spin rule those are distinct results, each found with its own fewest
//! taps. Elsewhere a placement is one result: a hard drop clears the rotation flag in
//! `tui-tetris` (so there a T-spin needs the lock delay, which these button sequences never
//! wait for), and tetrs' spin rule looks at the cells only.
//!
//! Taps are meant to be pressed and released at one instant, or at least faster than gravity
//! and the lock delay act: a path assumes the piece does not fall on its own between taps. A
//! caller that spreads taps over time checks the piece after each and asks [`path_to`] again
//! when gravity moved it. Paths are short (a few taps on the ground), far below the lock resets
//! a piece has.

use minotty_engine::board::{Board, HEIGHT, WIDTH};
use minotty_engine::game::{Game, SPAWN_X, SPAWN_Y, fits_under, spin_at};
use minotty_engine::input::Button;
use minotty_engine::piece::{Piece, Placed, Rotation, Turn};
use minotty_engine::ruleset::{RotationFlag, Ruleset, SoftDrop, SpinRule};
use minotty_engine::scoring::Spin;

/// One reachable final placement of a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Where the piece locks, in the rotation the taps leave it in.
    pub placed: Placed,
    /// The taps, in order, each pressed and released: [`Button::Hold`] first when
    /// [`Reach::hold`], [`Button::HardDrop`] last.
    pub buttons: Vec<Button>,
    /// The piece's last successful action before it locks was a rotation (the flag spins
    /// need).
    pub rotated: bool,
    /// The spin the game awards for this lock.
    pub spin: Spin,
    /// The placement is of the piece that hold brings in (the held piece, or the next one when
    /// nothing is held).
    pub hold: bool,
}

/// Every distinct final placement of the piece in play, with the fewest taps for each: one
/// entry per covered cells and spin (a placement reached both with and without a spin appears
/// twice). Empty when no piece is in play or it was hard dropped already. In search order:
/// fewest taps first.
pub fn reachable(game: &Game) -> Vec<Reach> {
    let Some(a) = game.active().filter(|a| !a.dropped) else {
        return Vec::new();
    };
    let mover = Mover::of(game);
    let mut search = Search::default();
    search.run(game.board(), &mover, a.placed, a.rotated);
    search.reaches(false)
}

/// The same for the piece that hold brings in (the held piece, or the next one when nothing is
/// held): each path starts with [`Button::Hold`]. Empty when hold cannot be used now or the
/// piece would not fit where it appears.
pub fn reachable_after_hold(game: &Game) -> Vec<Reach> {
    let Some(start) = hold_start(game) else {
        return Vec::new();
    };
    let mover = Mover::of(game);
    let mut search = Search::default();
    search.run(game.board(), &mover, start, None);
    search.reaches(true)
}

/// The taps that bring a piece to `target` and lock it there: the piece in play, or when
/// `target` is of another kind (or the piece in play cannot get there) the piece hold brings in,
/// with [`Button::Hold`] first. `target` is matched by the cells it covers, so an I, S or Z
/// may be given in either of its look-alike rotations. Among the ways there, the one that
/// earns the best spin, then the fewest taps. `None` when `target` cannot be reached.
pub fn path_to(game: &Game, target: Placed) -> Option<Vec<Button>> {
    let a = game.active().filter(|a| !a.dropped)?;
    if a.placed.piece == target.piece
        && let Some(path) = path_via(game, target, false)
    {
        return Some(path);
    }
    path_via(game, target, true)
}

/// The taps to `target` for the piece in play, or (`hold`) for the piece hold brings in, with
/// [`Button::Hold`] first: the best spin, then the fewest taps.
pub(crate) fn path_via(game: &Game, target: Placed, hold: bool) -> Option<Vec<Button>> {
    let a = game.active().filter(|a| !a.dropped)?;
    let (start, flag) = if hold {
        (hold_start(game)?, None)
    } else {
        (a.placed, a.rotated)
    };
    if start.piece != target.piece {
        return None;
    }
    let mut search = Search::default();
    search.run(game.board(), &Mover::of(game), start, flag);
    let mut path = search.best_path_to(target.canonical())?;
    if hold {
        path.insert(0, Button::Hold);
    }
    Some(path)
}

/// Where the piece hold brings in appears (`None`: hold is used up, no piece is in play, or it
/// would not fit).
fn hold_start(game: &Game) -> Option<Placed> {
    game.active().filter(|a| !a.dropped)?;
    if !game.can_hold() {
        return None;
    }
    let piece = game.hold_piece().or_else(|| game.preview().next())?;
    Mover::of(game).spawn(game.board(), piece)
}

/// A board as the search reads it: the board, and for each column the first filled row below
/// each row, so that a drop is four lookups instead of a walk down.
pub(crate) struct Field<'a> {
    board: &'a Board,
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
    fn drop_distance(&self, placed: &Placed) -> i8 {
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
    fn fits(&self, placed: &Placed) -> bool {
        self.board.fits(placed)
    }
}

/// The rotation flag of a piece: `Some((kick index, was the last kick))` after a rotation.
pub(crate) type Flag = Option<(u8, bool)>;

/// How a piece moves under one game's rules: what the search needs to know of a [`Game`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Mover {
    rules: Ruleset,
    /// 20G: every move ends on the floor.
    instant: bool,
    /// The button that drops the piece to the floor without locking it.
    floor: Option<Button>,
    /// Soft drop moves the piece one row per tap.
    step: bool,
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
    fn next(
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
    fn flag_matters(&self, piece: Piece) -> bool {
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

/// The furthest a kick moves a piece up or down, plus the row a step moves it (every kick
/// table's offsets are within two rows, `tests/kicks*.rs`).
const KICK_REACH: i16 = 3;

/// Box positions the search covers: `x` in `X0..X0 + XN`, `y` in `Y0..Y0 + YN` (every
/// placement inside the board, and a few rows above the buffer that kicks could reach).
const X0: i8 = -3;
const XN: usize = 12;
const Y0: i8 = -4;
const YN: usize = 44;
/// States: position and rotation, times three classes of rotation flag.
const POSITIONS: usize = XN * YN * 4;
const STATES: usize = POSITIONS * 3;
const NONE: u16 = u16::MAX;

fn position(p: &Placed) -> Option<usize> {
    let x = usize::try_from(p.x - X0).ok().filter(|&x| x < XN)?;
    let y = usize::try_from(i16::from(p.y) - i16::from(Y0))
        .ok()
        .filter(|&y| y < YN)?;
    Some((y * XN + x) * 4 + p.rotation as usize)
}

fn flag_class(flag: Flag) -> usize {
    match flag {
        None => 0,
        Some((_, false)) => 1,
        Some((_, true)) => 2,
    }
}

fn spin_class(spin: Spin) -> usize {
    match spin {
        Spin::None => 0,
        Spin::Mini => 1,
        Spin::Full => 2,
    }
}

/// One state the search reached, with the tap that reached it first.
#[derive(Clone, Copy, Debug)]
struct Node {
    placed: Placed,
    flag: Flag,
    parent: u16,
    /// The button pressed `taps` times to get here from the parent (more than once: soft drop
    /// down through open air).
    button: Button,
    taps: u8,
    /// Taps from the start.
    depth: u16,
}

/// A final placement the search found: where the piece locks, what that earns, and the state
/// whose hard drop it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Landing {
    pub placed: Placed,
    pub spin: Spin,
    pub rotated: bool,
    node: u16,
}

/// A search's state, reusable from one search to the next (a bot searching many boards keeps
/// one and its buffers).
#[derive(Clone, Debug)]
pub(crate) struct Search {
    /// Every state reached, in the order they were searched (a queue: `cursor` onwards waits).
    nodes: Vec<Node>,
    /// States reached by soft drop through open air, waiting for the search to reach their
    /// number of taps.
    jumps: Vec<Node>,
    seen: [u64; STATES.div_ceil(64)],
    landed: [u64; (POSITIONS * 3).div_ceil(64)],
    pub landings: Vec<Landing>,
}

impl Default for Search {
    fn default() -> Self {
        Search {
            nodes: Vec::with_capacity(256),
            jumps: Vec::with_capacity(64),
            seen: [0; STATES.div_ceil(64)],
            landed: [0; (POSITIONS * 3).div_ceil(64)],
            landings: Vec::with_capacity(64),
        }
    }
}

fn test_and_set(bits: &mut [u64], i: usize) -> bool {
    let (word, bit) = (i / 64, 1u64 << (i % 64));
    let was = bits[word] & bit != 0;
    bits[word] |= bit;
    was
}

impl Search {
    /// Searches every state `start` (with rotation flag `flag`) can reach on `board`, and
    /// collects the distinct landings in [`Search::landings`], fewest taps first.
    ///
    /// Breadth first, one tap per edge, with one exception: a soft-drop step into open air
    /// (no filled cell within the piece's box and two rows of kicks around it) goes on down in
    /// one edge of several taps to the first row near the stack. In open air a shift or
    /// rotation a row lower is the same as one made above and stepped down, with as many taps,
    /// so the rows in between hold nothing new. Such a state waits in `jumps` until the search
    /// reaches its number of taps, so states are still searched fewest taps first.
    pub(crate) fn run(&mut self, board: &Board, mover: &Mover, start: Placed, flag: Flag) {
        self.nodes.clear();
        self.jumps.clear();
        self.landings.clear();
        self.seen.fill(0);
        self.landed.fill(0);
        let field = Field::new(board);
        let flags = mover.flag_matters(start.piece);
        if position(&start).is_none() {
            return;
        }
        let start_flag = if flags { flag } else { None };
        self.nodes.push(Node {
            placed: start,
            flag: start_flag,
            parent: NONE,
            button: Button::HardDrop,
            taps: 0,
            depth: 0,
        });
        self.mark(&self.nodes[0].clone());
        // Rows above this one are empty; a box at `y` is in open air while
        // `y + 4 + KICK_REACH <= first_filled`.
        let first_filled = (HEIGHT - board.stack_height()) as i16;
        let near_stack = (first_filled - 3 - KICK_REACH).min(i16::from(i8::MAX)) as i8;
        let mut cursor = 0;
        loop {
            // Jumps already in `nodes` were searched when they were taken from `jumps`.
            while self.nodes.get(cursor).is_some_and(|n| n.taps > 1) {
                cursor += 1;
            }
            let head = self.nodes.get(cursor).map(|n| n.depth);
            let jump = (0..self.jumps.len()).min_by_key(|&j| self.jumps[j].depth);
            let i = match (jump, head) {
                (Some(j), h) if h.is_none_or(|d| self.jumps[j].depth <= d) => {
                    let node = self.jumps.swap_remove(j);
                    if self.mark(&node) {
                        continue;
                    }
                    self.nodes.push(node);
                    self.nodes.len() - 1
                }
                (_, Some(_)) => {
                    cursor += 1;
                    cursor - 1
                }
                _ => break,
            };
            self.expand(&field, mover, i, flags, near_stack);
        }
    }

    /// Marks `node`'s state as searched; `true` if it was already.
    fn mark(&mut self, node: &Node) -> bool {
        let Some(slot) = position(&node.placed) else {
            return true;
        };
        test_and_set(&mut self.seen, slot * 3 + flag_class(node.flag))
    }

    /// Searches node `i`: its landing and the states one move away.
    fn expand(&mut self, field: &Field, mover: &Mover, i: usize, flags: bool, near_stack: i8) {
        let node = self.nodes[i];
        let grounded = !field.fits(&node.placed.shifted(0, 1));
        // A state soft-dropped down from its parent lands where the parent does, with more
        // taps: only the parent's landing counts.
        let stepped = node.button == Button::SoftDrop && mover.step;
        if !stepped {
            self.land(field, mover, i as u16, node, grounded);
        }
        for b in MOVES {
            let Some((placed, flag)) = mover.next(field, node.placed, grounded, b) else {
                continue;
            };
            // The flag only matters where a hard drop keeps it: on the ground.
            let flag = if flags && !field.fits(&placed.shifted(0, 1)) {
                flag
            } else {
                None
            };
            let mut child = Node {
                placed,
                flag,
                parent: i as u16,
                button: b,
                taps: 1,
                depth: node.depth + 1,
            };
            if b == Button::SoftDrop && mover.step && placed.y < near_stack {
                // Open air: straight on down to the first row near the stack.
                let taps = near_stack - node.placed.y;
                child.placed.y = near_stack;
                child.taps = taps as u8;
                child.depth = node.depth + taps as u16;
                self.jumps.push(child);
                continue;
            }
            if self.mark(&child) {
                continue;
            }
            self.nodes.push(child);
        }
    }

    /// Records the hard drop of node `i` unless the same cells with the same spin were found
    /// already (with fewer or as many taps: nodes come in order).
    fn land(&mut self, field: &Field, mover: &Mover, i: u16, node: Node, grounded: bool) {
        let rows = if grounded {
            0
        } else {
            field.drop_distance(&node.placed)
        };
        let placed = node.placed.shifted(0, rows);
        // A hard drop keeps the flag only over zero rows, and only where any movement clears it.
        let flag = match mover.rules.rotation_flag {
            RotationFlag::AnyMovement if rows == 0 => node.flag,
            _ => None,
        };
        let spin = spin_at(field.board, &mover.rules, placed, flag);
        let Some(slot) = position(&placed.canonical()) else {
            return;
        };
        if test_and_set(&mut self.landed, slot * 3 + spin_class(spin)) {
            return;
        }
        self.landings.push(Landing {
            placed,
            spin,
            rotated: flag.is_some(),
            node: i,
        });
    }

    /// The taps from the start to a landing, hard drop included.
    fn path(&self, landing: &Landing) -> Vec<Button> {
        let mut path = vec![Button::HardDrop];
        let mut i = landing.node;
        while i != NONE {
            let node = &self.nodes[usize::from(i)];
            if node.parent == NONE {
                break;
            }
            path.extend(std::iter::repeat_n(node.button, usize::from(node.taps)));
            i = node.parent;
        }
        path.reverse();
        path
    }

    fn reaches(&self, hold: bool) -> Vec<Reach> {
        self.landings
            .iter()
            .map(|l| {
                let mut buttons = self.path(l);
                if hold {
                    buttons.insert(0, Button::Hold);
                }
                Reach {
                    placed: l.placed,
                    buttons,
                    rotated: l.rotated,
                    spin: l.spin,
                    hold,
                }
            })
            .collect()
    }

    /// The path to the landing covering `canonical`'s cells with the best spin, fewest taps.
    pub(crate) fn best_path_to(&self, canonical: Placed) -> Option<Vec<Button>> {
        let best = self
            .landings
            .iter()
            .filter(|l| l.placed.canonical() == canonical)
            .fold(None::<&Landing>, |best, l| match best {
                Some(b) if spin_class(b.spin) >= spin_class(l.spin) => Some(b),
                _ => Some(l),
            })?;
        Some(self.path(best))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_position_inside_the_board_has_a_slot() {
        for piece in Piece::ALL {
            for rotation in Rotation::ALL {
                for x in -3..10 {
                    for y in -4..40 {
                        let p = Placed {
                            piece,
                            rotation,
                            x,
                            y,
                        };
                        let on_board = p
                            .cells()
                            .iter()
                            .all(|&(cx, cy)| (0..10).contains(&cx) && (0..40).contains(&cy));
                        if on_board {
                            assert!(position(&p).is_some(), "{p:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn canonical_placements_cover_the_same_cells() {
        for piece in Piece::ALL {
            for rotation in Rotation::ALL {
                let p = Placed {
                    piece,
                    rotation,
                    x: 3,
                    y: 20,
                };
                let c = p.canonical();
                let mut a = p.cells();
                let mut b = c.cells();
                a.sort_unstable();
                b.sort_unstable();
                assert_eq!(a, b, "{p:?} -> {c:?}");
                assert!(c.rotation as u8 <= rotation as u8);
                // Distinct shapes stay distinct: only look-alikes share a canonical rotation.
                let distinct = match piece {
                    Piece::O => 1,
                    Piece::I | Piece::S | Piece::Z => 2,
                    _ => 4,
                };
                assert!((c.rotation as usize) < distinct, "{p:?}");
            }
        }
    }
}
