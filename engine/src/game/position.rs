//! Games that start from a given position instead of from a seed's first piece: for bots that
//! are told a position (the Tetris Bot Protocol's `start`) and search it under the engine's own
//! rules.

use std::collections::VecDeque;

use super::{Game, GameConfig};
use crate::board::Board;
use crate::piece::Piece;

/// A position mid-game: the board, the piece in play, the known next pieces, the hold and the
/// chains.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub board: Board,
    pub current: Piece,
    /// The next pieces, soonest first.
    pub next: Vec<Piece>,
    pub hold: Option<Piece>,
    /// Consecutive line clears so far (0: no chain).
    pub combo: u32,
    pub back_to_back: bool,
}

impl Game {
    /// A game at `position`, at time 0, with `current` just spawned (hold not yet used). The
    /// pieces after `position.next` are dealt by the generator from `seed`: a caller that only
    /// knows `next` should not look further. A position whose piece does not fit at the spawn
    /// gives a game that is over (block out).
    ///
    /// Such a game did not start from its seed, so its replay does not reproduce it.
    pub fn from_position(config: GameConfig, position: &Position, seed: u32) -> Game {
        let mut game = Game::new(config, seed);
        game.board = position.board.clone();
        game.queue = position.next.iter().copied().collect::<VecDeque<_>>();
        game.refill_queue();
        game.hold = position.hold;
        game.combo = i32::try_from(position.combo).map_or(i32::MAX, |c| c - 1);
        game.b2b = position.back_to_back;
        game.due = None;
        game.spawn(position.current, false);
        game
    }
}
