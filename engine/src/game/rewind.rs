//! Going back in a game: a [`Checkpoint`] is the whole game at one moment, and
//! [`Game::rewind`] puts the game back there (undo, a savepoint loaded back).
//!
//! The game after a rewind is the game as if the moves since the checkpoint had never been
//! made: its recorded inputs are cut back to those the checkpoint had seen, and an
//! [`Input::Rewind`] marks the place, so its replay still re-simulates to its state (a judge
//! sees the marker and does not rank it: the player saw what came after). The clock goes back
//! too: the game goes on from the checkpoint's game time.
//!
//! A checkpoint belongs to the line of play it was taken on. Once a rewind has cut the inputs
//! below the count a checkpoint had seen, the inputs it followed are gone, and rewinding to it
//! is refused (it would join two histories into one replay that no game played). The game keeps
//! where each rewind cut (one entry per rewind, and each rewind records an input, so at most
//! [`crate::MAX_INPUTS`] of them).

use super::Game;
use crate::input::Input;
use crate::ruleset::Time;

/// A game at one moment, to come back to with [`Game::rewind`].
#[derive(Clone, Debug)]
pub struct Checkpoint {
    /// The game then, without its recorded inputs (a fork).
    game: Game,
    /// How many inputs the game had recorded then.
    inputs: usize,
    /// How many rewinds the game had made then.
    rewinds: usize,
}

impl Checkpoint {
    /// The game time the checkpoint was taken at.
    pub fn time(&self) -> Time {
        self.game.now()
    }

    /// The game as it was then (for looking at: hold, queue, board, stats).
    pub fn game(&self) -> &Game {
        &self.game
    }
}

impl Game {
    /// The game now, to come back to.
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            game: self.fork(),
            inputs: self.inputs.len(),
            rewinds: self.cuts.len(),
        }
    }

    /// Whether [`Game::rewind`] to `to` would be taken: the game is not over, `to` was taken on
    /// this game's current line of play (same config and seed, its inputs all still recorded)
    /// and not later than now.
    pub fn can_rewind(&self, to: &Checkpoint) -> bool {
        !self.is_over()
            && to.game.config == self.config
            && to.game.seed == self.seed
            && to.game.rules == self.rules
            && to.inputs <= self.inputs.len()
            && to.rewinds <= self.cuts.len()
            && self.cuts[to.rewinds..].iter().all(|&cut| to.inputs <= cut)
            && to.game.now <= self.now
    }

    /// Puts the game back to `to`: its whole state, its clock, and its recorded inputs (those
    /// since `to` are dropped), then records [`Input::Rewind`] at `to`'s time. Every button
    /// counts as released afterwards (an [`Input::ReleaseAll`] follows the marker). Returns
    /// whether it happened (see [`Game::can_rewind`]); refused, nothing changes.
    pub fn rewind(&mut self, to: &Checkpoint) -> bool {
        if !self.can_rewind(to) {
            return false;
        }
        let mut inputs = std::mem::take(&mut self.inputs);
        inputs.truncate(to.inputs);
        let mut cuts = std::mem::take(&mut self.cuts);
        cuts.push(to.inputs);
        *self = to.game.fork();
        self.inputs = inputs;
        self.cuts = cuts;
        let now = self.now;
        self.update(now, Some(Input::Rewind));
        self.update(now, Some(Input::ReleaseAll));
        true
    }
}
