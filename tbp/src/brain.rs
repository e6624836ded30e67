//! minotty-bot's choice of moves: every reachable placement of the piece in play (and of the
//! one hold gives) is played on a game set up at the bot's position, under the engine's rules;
//! the best few are looked at one piece further when the next piece is known, and the moves
//! are suggested best first. Deterministic: the same position gives the same suggestion.

use minotty_bots::versus::{Brain, Level};
use minotty_bots::{Weights, evaluate};
use minotty_engine::{Game, GameConfig, Piece};

use crate::frame::placed_to_location;
use crate::msg::Move;
use crate::path::{Reached, outcomes, same_cells};
use crate::state::TbpState;

/// How many moves a suggestion lists.
pub const SUGGESTED: usize = 5;
/// How many of the best placements are looked at one piece further.
const WIDEN: usize = 8;

/// The engine's versus brain at one of its levels, choosing for minotty-bot: its choice is
/// suggested first, then [`suggest`]'s moves. Its seeded randomness (the mistakes of the lower
/// levels) runs on from one suggestion to the next.
#[derive(Clone, Debug)]
pub struct VersusBrain {
    level: Level,
    seed: u32,
    brain: Brain,
}

impl VersusBrain {
    pub fn new(level: Level, seed: u32) -> VersusBrain {
        VersusBrain {
            level,
            seed,
            brain: Brain::new(level.spec(), seed),
        }
    }

    /// The moves to suggest at `state`, best first.
    pub fn suggest(&mut self, state: &TbpState) -> Vec<Move> {
        let mut moves = Vec::with_capacity(SUGGESTED + 1);
        if let Some(position) = state.position() {
            // The brain looks `depth` pieces ahead: no further than the pieces the bot knows
            // (those after them are the generator's guesses).
            let mut spec = self.level.spec();
            let known_next = u8::try_from(position.next.len()).unwrap_or(u8::MAX);
            spec.depth = spec.depth.min(known_next.saturating_sub(1)).max(1);
            if spec != *self.brain.spec() {
                self.brain = Brain::new(spec, self.seed);
            }
            let game = Game::from_position(GameConfig::default(), &position, 0);
            if let Some(d) = self.brain.decide(&game) {
                moves.push(Move {
                    location: placed_to_location(d.target),
                    spin: d.spin.into(),
                });
            }
        }
        for m in suggest(state) {
            let same = |a: &Move| {
                let cells = |m: &Move| crate::frame::location_to_placed(&m.location);
                matches!((cells(a), cells(&m)), (Some(x), Some(y)) if same_cells(&x, &y))
            };
            if moves.len() < SUGGESTED && !moves.iter().any(same) {
                moves.push(m);
            }
        }
        moves
    }
}

/// The moves to suggest at `state`, best first; empty when the bot has no piece to play or
/// every placement tops out.
pub fn suggest(state: &TbpState) -> Vec<Move> {
    let Some(position) = state.position() else {
        return Vec::new();
    };
    let game = Game::from_position(GameConfig::default(), &position, 0);
    if game.is_over() {
        return Vec::new();
    }
    let weights = Weights::default();
    let mut scored: Vec<(i64, Reached)> = outcomes(&game)
        .into_iter()
        .map(|r| (score(&r, &weights), r))
        .collect();
    // Stable: among equal scores the order the move generation found them in (fewest taps
    // first), so the choice is deterministic.
    scored.sort_by_key(|s| std::cmp::Reverse(s.0));
    // The best few are ranked again by the best board one piece later (when that piece is
    // known), and stay ahead of the rest, whose scores count one piece only.
    let head = scored.len().min(WIDEN);
    for (s, r) in scored[..head].iter_mut() {
        if let Some(next) = look_ahead(state, r, &weights) {
            *s = next;
        }
    }
    scored[..head].sort_by_key(|s| std::cmp::Reverse(s.0));
    // One move per set of cells: an I, O, S or Z covers the same cells in two orientations.
    let mut chosen: Vec<&Reached> = Vec::with_capacity(SUGGESTED);
    for (_, r) in &scored {
        if !chosen.iter().any(|c| same_cells(&c.placed, &r.placed)) {
            chosen.push(r);
        }
        if chosen.len() == SUGGESTED {
            break;
        }
    }
    chosen
        .into_iter()
        .map(|r| Move {
            location: placed_to_location(r.placed),
            spin: r.spin.into(),
        })
        .collect()
}

/// The board evaluation after one placement; a top-out scores lowest.
fn score(r: &Reached, weights: &Weights) -> i64 {
    if r.after.is_over() && !r.after.outcome().is_some_and(|o| o.1) {
        return i64::MIN / 2;
    }
    evaluate(r.after.board(), r.lines, weights)
}

/// The best evaluation after `first` and one more placement, when the bot knows which piece
/// comes next (the pieces after the known queue are the generator's guesses, not the game's).
fn look_ahead(state: &TbpState, first: &Reached, weights: &Weights) -> Option<i64> {
    let used_hold_from_empty =
        state.hold.is_none() && first.placed.piece != state.queue.front().copied()?;
    // The pieces the first move takes from the queue; the next one must be known too.
    let consumed = 1 + usize::from(used_hold_from_empty);
    if state.queue.len() < consumed + 1 || first.after.is_over() {
        return None;
    }
    let mut after = first.after.fork();
    // Wait out a line clear (and an appearance delay) so the next piece is in play.
    for _ in 0..4 {
        if after.active().is_some() {
            break;
        }
        let t = after.next_deadline()?;
        after.update(t, None);
    }
    after.active()?;
    let best = outcomes(&after)
        .iter()
        .filter(|r| !uses_unknown_piece(state, consumed, r.placed.piece, &after))
        .map(|r| score(r, weights) + weights.lines * i64::from(first.lines))
        .max()?;
    Some(best)
}

/// Whether playing `piece` second would use a piece the bot has not been told of: holding from
/// an empty hold takes the piece after the next one.
fn uses_unknown_piece(state: &TbpState, consumed: usize, piece: Piece, after: &Game) -> bool {
    let in_play = after.active().map(|a| a.placed.piece);
    if Some(piece) == in_play || Some(piece) == after.hold_piece() {
        return false;
    }
    // Hold was empty: the piece comes from the queue, after the one in play.
    state.queue.len() < consumed + 2
}
