//! The breadth-first search over a piece's states: which states a start reaches with the
//! fewest taps, the distinct landings among them, and the taps back to each.

use super::Reach;
use super::mover::{Field, Flag, MOVES, Mover};
use minotty_engine::board::{Board, HEIGHT};
use minotty_engine::game::spin_at;
use minotty_engine::input::Button;
use minotty_engine::piece::Placed;
use minotty_engine::ruleset::RotationFlag;
use minotty_engine::scoring::Spin;

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

    pub(crate) fn reaches(&self, hold: bool) -> Vec<Reach> {
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
    use minotty_engine::piece::{Piece, Rotation};

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
