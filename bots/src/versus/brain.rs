//! The versus bot's choice of placement: a beam search over the piece in play, hold and the
//! preview.
//!
//! Each search node is a light copy of what matters for the next pieces: the board, combo,
//! back-to-back, the hold piece, the garbage waiting to rise (with its known hole columns) and
//! the pieces still to come. Its children are the placements move generation finds for the
//! piece to play (and, where hold is allowed, for the piece hold brings in), each locked the
//! way the game locks it: lines cleared, the spin, the attack by the scoring tables,
//! cancelling, and garbage rising after a lock that clears nothing. A node's value is the sum
//! of its moves' rewards plus its board's value; the best `beam` nodes of each depth go on.
//! The choice is the first move of the best node at the deepest depth reached.

use super::Spec;
use super::eval::{Move, Weights, board_value, move_value};
use crate::movegen::{Flag, Landing, Mover, Search};
use minotty_engine::board::{BUFFER_HEIGHT, Board};
use minotty_engine::game::Game;
use minotty_engine::piece::{Piece, Placed};
use minotty_engine::rng::SplitMix;
use minotty_engine::scoring::{self, Spin};

/// What the brain decided for the piece in play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// Where the piece locks.
    pub target: Placed,
    /// Hold first (the target is of the piece hold brings in).
    pub hold: bool,
    /// The spin the lock earns.
    pub spin: Spin,
}

/// Garbage lines the search keeps track of (the rest is counted as danger only).
const GARBAGE_SLOTS: usize = 8;

/// One search node.
#[derive(Clone, Debug)]
struct Node {
    board: Board,
    /// Combo index of the running chain, -1 without one.
    combo: i32,
    b2b: bool,
    hold: Option<Piece>,
    /// The piece to play, and the index in the queue of the one after it.
    piece: Option<Piece>,
    next: usize,
    /// Incoming garbage, oldest first: (lines, hole column).
    garbage: [(u8, u8); GARBAGE_SLOTS],
    garbage_len: usize,
    reward: i32,
    value: i32,
    /// Index of the first move of the path in `Brain::firsts`.
    first: usize,
}

impl Node {
    fn pending(&self) -> u32 {
        self.garbage[..self.garbage_len]
            .iter()
            .map(|&(l, _)| u32::from(l))
            .sum()
    }
}

/// The versus bot's brain: its level's search and its own seeded randomness (mistakes), so the
/// same game and seed give the same decisions.
#[derive(Clone, Debug)]
pub struct Brain {
    spec: Spec,
    weights: Weights,
    rng: SplitMix,
    search: Search,
    /// The first moves of this decision, each with the deepest depth a path under it reached
    /// and the best value there.
    firsts: Vec<(Decision, usize, i32)>,
}

impl Brain {
    pub fn new(spec: Spec, seed: u32) -> Brain {
        Brain {
            weights: if spec.spins {
                Weights::SPINS
            } else {
                Weights::PLAIN
            },
            spec,
            rng: SplitMix::new(seed, 0x0062_7261_696e),
            search: Search::default(),
            firsts: Vec::new(),
        }
    }

    pub fn spec(&self) -> &Spec {
        &self.spec
    }

    /// The placement for the piece in play; `None` when there is none, or no placement keeps
    /// the game going (the bot then drops where it is).
    pub fn decide(&mut self, game: &Game) -> Option<Decision> {
        let active = game.active().filter(|a| !a.dropped)?;
        let mover = Mover::of(game).without_steps();
        let depth = usize::from(self.spec.depth.max(1));
        let queue: Vec<Piece> = game.preview().take(depth + 1).collect();
        let mut root = Node {
            board: game.board().clone(),
            combo: game.combo().map_or(-1, |c| c as i32),
            b2b: game.back_to_back(),
            hold: game.hold_piece(),
            piece: Some(active.placed.piece),
            next: 0,
            garbage: [(0, 0); GARBAGE_SLOTS],
            garbage_len: 0,
            reward: 0,
            value: 0,
            first: 0,
        };
        for e in game.garbage().entries() {
            if root.garbage_len < GARBAGE_SLOTS {
                root.garbage[root.garbage_len] = (e.lines, e.hole);
                root.garbage_len += 1;
            }
        }
        self.firsts.clear();
        let mut beam = Vec::new();
        // Depth 1: the real piece where it is now, and the hold side.
        let hold_ok = self.spec.hold && game.can_hold();
        self.expand(
            &root,
            &mover,
            &queue,
            Some((active.placed, active.rotated)),
            hold_ok,
            true,
            &mut beam,
        );
        if self.firsts.is_empty() {
            return None;
        }
        for level in 2..=depth {
            beam.sort_by_key(|n: &Node| std::cmp::Reverse(n.value));
            beam.truncate(usize::from(self.spec.beam.max(1)));
            let mut next = Vec::new();
            for node in &beam {
                if node.piece.is_none() {
                    next.push(node.clone());
                    continue;
                }
                let before = next.len();
                self.expand(node, &mover, &queue, None, self.spec.hold, false, &mut next);
                if next.len() == before {
                    // Every placement ends the game: keep the node as the dead end it is.
                    let mut dead = node.clone();
                    dead.value = i32::MIN / 2 + node.reward.clamp(-1_000_000, 1_000_000);
                    next.push(dead);
                }
            }
            for n in &next {
                let (_, reached, best) = &mut self.firsts[n.first];
                if *reached < level {
                    (*reached, *best) = (level, n.value);
                } else {
                    *best = (*best).max(n.value);
                }
            }
            beam = next;
        }
        Some(self.pick())
    }

    /// The best first move by the best value under it, or with the level's mistake rate one a
    /// few places lower.
    fn pick(&mut self) -> Decision {
        let mut ranked: Vec<usize> = (0..self.firsts.len()).collect();
        ranked.sort_by_key(|&i| {
            let (_, reached, value) = self.firsts[i];
            (std::cmp::Reverse((reached, value)), i)
        });
        let mut choice = ranked[0];
        if self.spec.mistakes_per_mille > 0
            && self.rng.below(1000) < u32::from(self.spec.mistakes_per_mille)
            && ranked.len() > 1
        {
            let worse = 1 + self.rng.below(ranked.len().min(5) as u32 - 1) as usize;
            choice = ranked[worse];
        }
        self.firsts[choice].0
    }

    /// Adds `node`'s children to `out`: the placements of its piece (from `start` when the
    /// piece is already in play, else from where it appears), and through hold when `hold`.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        node: &Node,
        mover: &Mover,
        queue: &[Piece],
        start: Option<(Placed, Flag)>,
        hold: bool,
        first: bool,
        out: &mut Vec<Node>,
    ) {
        let Some(piece) = node.piece else {
            return;
        };
        // Play the piece: the next one comes from the queue.
        let here = match start {
            Some(s) => Some(s),
            None => mover.spawn(&node.board, piece).map(|p| (p, None)),
        };
        if let Some((placed, flag)) = here {
            let after = (node.hold, queue.get(node.next).copied(), node.next + 1);
            self.children(node, mover, placed, flag, after, false, first, out);
        }
        if !hold {
            return;
        }
        // Hold: the held piece comes in (or the next, and the one after it follows).
        let (incoming, after) = match node.hold {
            Some(h) if h == piece => return,
            Some(h) => (
                Some(h),
                (Some(piece), queue.get(node.next).copied(), node.next + 1),
            ),
            None => (
                queue.get(node.next).copied(),
                (
                    Some(piece),
                    queue.get(node.next + 1).copied(),
                    node.next + 2,
                ),
            ),
        };
        let Some(incoming) = incoming else {
            return;
        };
        if let Some(placed) = mover.spawn(&node.board, incoming) {
            self.children(node, mover, placed, None, after, true, first, out);
        }
    }

    /// Searches the placements from `start` and locks each into a child of `node`. `after`:
    /// the hold piece, the next piece and the queue index after this move.
    #[allow(clippy::too_many_arguments)]
    fn children(
        &mut self,
        node: &Node,
        mover: &Mover,
        start: Placed,
        flag: Flag,
        after: (Option<Piece>, Option<Piece>, usize),
        held: bool,
        first: bool,
        out: &mut Vec<Node>,
    ) {
        self.search.run(&node.board, mover, start, flag);
        let landings = std::mem::take(&mut self.search.landings);
        for landing in &landings {
            let Some(mut child) = self.lock(node, landing, mover) else {
                continue;
            };
            (child.hold, child.piece, child.next) = after;
            if first {
                child.first = self.firsts.len();
                self.firsts.push((
                    Decision {
                        target: landing.placed,
                        hold: held,
                        spin: landing.spin,
                    },
                    1,
                    child.value,
                ));
            }
            out.push(child);
        }
        self.search.landings = landings;
    }

    /// `node` after the lock at `landing`; `None` when the game would end.
    fn lock(&self, node: &Node, landing: &Landing, mover: &Mover) -> Option<Node> {
        let mut child = node.clone();
        let placed = landing.placed;
        child.board.lock(&placed);
        let rows = child.board.full_rows();
        let lines = rows.count_ones();
        let spin = landing.spin;
        if lines == 0 && placed.cells().iter().all(|&(_, y)| y < BUFFER_HEIGHT as i8) {
            return None;
        }
        let qualifies = scoring::qualifies_for_b2b(lines, spin);
        let b2b = lines > 0 && qualifies && node.b2b;
        let mut attack = 0;
        let mut combo_attack = 0;
        let mut perfect = false;
        if lines > 0 {
            child.combo += 1;
            child.b2b = qualifies;
            child.board.clear_rows(rows);
            perfect = child.board.is_empty();
            let combo = child.combo.max(0) as u32;
            attack = scoring::attack(lines, spin, b2b, combo, perfect);
            combo_attack = scoring::combo_attack(combo);
            cancel(&mut child, attack);
        } else {
            child.combo = -1;
            if rise(&mut child, mover.garbage_cap()) {
                return None;
            }
        }
        let m = Move {
            lines,
            spin,
            t_piece: placed.piece == Piece::T,
            b2b,
            combo_attack,
            perfect,
            attack,
        };
        child.reward = node.reward + move_value(&self.weights, &m);
        child.value = child.reward
            + board_value(&child.board, &self.weights, child.pending())
            + if child.b2b { self.weights.b2b_kept } else { 0 };
        Some(child)
    }
}

/// The attack cancels incoming garbage, oldest first.
fn cancel(node: &mut Node, mut attack: u32) {
    while attack > 0 && node.garbage_len > 0 {
        let front = &mut node.garbage[0];
        let take = attack.min(u32::from(front.0));
        front.0 -= take as u8;
        attack -= take;
        if front.0 == 0 {
            node.garbage.copy_within(1..node.garbage_len, 0);
            node.garbage_len -= 1;
        }
    }
}

/// After a lock that clears nothing, up to `cap` lines of garbage rise (the search treats all
/// of it as ready). `true` when that pushes blocks out over the top.
fn rise(node: &mut Node, cap: u32) -> bool {
    let mut left = cap;
    while left > 0 && node.garbage_len > 0 {
        let (lines, hole) = node.garbage[0];
        let take = u32::from(lines).min(left);
        if node.board.push_garbage(take as usize, usize::from(hole)) {
            return true;
        }
        left -= take;
        if take == u32::from(lines) {
            node.garbage.copy_within(1..node.garbage_len, 0);
            node.garbage_len -= 1;
        } else {
            node.garbage[0].0 -= take as u8;
        }
    }
    false
}
