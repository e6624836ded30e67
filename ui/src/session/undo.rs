//! Taking placements back (undo, Ctrl+Z) and loading this game's savepoint back (Ctrl+L): the
//! session keeps a checkpoint of the engine at each new piece ([`UNDO_DEPTH`] of them) and the
//! last savepoint (Ctrl+S), and puts the game back to one with
//! [`minotty_engine::Game::rewind`]. The game goes on from the checkpoint's game time, with
//! every key released; its replay says it was taken back, so it no longer ranks
//! ([`minotty_domain::Unranked::Rewound`]), which the session shows from then on.

use std::collections::VecDeque;

use minotty_engine::{Button, Checkpoint};

use super::{GameSession, RunState};
use crate::keymap::Keymap;

/// How many placements undo can take back in a row.
pub const UNDO_DEPTH: usize = 32;

/// Why a take-back did not happen (the footer says it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoRewind {
    /// Versus, a ghost race, Descent: the game cannot go back.
    NotHere,
    /// Nothing has been placed yet (or the pieces placed were all taken back already).
    NothingYet,
    /// Ctrl+L without a Ctrl+S in this game.
    NoSavepoint,
    /// Not while paused, counting down or over.
    NotRunning,
}

impl NoRewind {
    pub fn text(self) -> &'static str {
        match self {
            NoRewind::NotHere => "Nothing can be taken back in this game",
            NoRewind::NothingYet => "Nothing placed to take back",
            NoRewind::NoSavepoint => "No savepoint in this game: Ctrl+S stores one",
            NoRewind::NotRunning => "Only a running game can be taken back",
        }
    }
}

/// What undo shows once it took something back.
pub const TAKEN_BACK: &str = "Taken back: this game no longer ranks";
/// What loading the savepoint back shows.
pub const LOADED: &str = "Savepoint loaded: this game no longer ranks";
/// What the blindfold shows as it goes on and off.
pub const BLINDFOLD_ON: &str = "Blindfold: the stack is hidden (Ctrl+B shows it)";
pub const BLINDFOLD_OFF: &str = "Blindfold off";

/// The checkpoints a session keeps.
#[derive(Debug, Default)]
pub(super) struct Rewinds {
    /// One per piece, oldest first: the game as each piece spawned.
    pub(super) marks: VecDeque<Checkpoint>,
    /// The last Ctrl+S of this game.
    savepoint: Option<Checkpoint>,
    /// Undo or a savepoint was used: the game no longer ranks.
    pub(super) used: bool,
}

impl GameSession {
    /// Whether this game can be taken back at all: a solo game (not versus, not a ghost
    /// race, whose ghost runs on) that is not Descent (whose piece never locks).
    pub fn can_take_back(&self) -> bool {
        !self.is_versus() && self.race.is_none() && self.game.descent().is_none()
    }

    /// Ctrl+B: the blindfold on or off (the stack hidden; the game plays on, and ranks, as
    /// ever). Returns whether it is on now.
    pub fn toggle_blindfold(&mut self) -> bool {
        self.blindfold = !self.blindfold;
        self.blindfold
    }

    /// Whether the blindfold is on.
    pub fn blindfold(&self) -> bool {
        self.blindfold
    }

    /// Whether undo or a savepoint was used in this game.
    pub fn taken_back(&self) -> bool {
        self.rewinds.used
    }

    /// After an update of the engine that `spawned` a piece: a new piece in play is a
    /// checkpoint to come back to (one per piece: a hold's spawn is the same piece's).
    pub(super) fn note_checkpoint(&mut self, spawned: bool) {
        if !spawned || !self.can_take_back() || self.game.is_over() {
            return;
        }
        let pieces = self.game.stats().pieces;
        let new_piece = self
            .rewinds
            .marks
            .back()
            .is_none_or(|m| m.game().stats().pieces != pieces);
        if new_piece {
            if self.rewinds.marks.len() == UNDO_DEPTH {
                self.rewinds.marks.pop_front();
            }
            self.rewinds.marks.push_back(self.game.checkpoint());
        }
    }

    /// Ctrl+S: keeps the game now as this game's savepoint (besides the stored snapshot).
    pub fn keep_savepoint(&mut self) {
        if self.can_take_back() && self.state == RunState::Running && !self.game.is_over() {
            self.rewinds.savepoint = Some(self.game.checkpoint());
        }
    }

    /// Ctrl+Z: takes back the last placement: the game goes back to the moment the last piece
    /// placed came into play (during a line clear, the piece that cleared; pressed again, the
    /// one before, up to [`UNDO_DEPTH`]).
    pub fn undo(&mut self, now: u64, keys: &Keymap) -> Result<(), NoRewind> {
        self.ready_to_rewind(now, keys)?;
        let placed = self.game.stats().pieces;
        let at = self
            .rewinds
            .marks
            .iter()
            .rposition(|m| m.game().stats().pieces < placed && self.game.can_rewind(m))
            .ok_or(NoRewind::NothingYet)?;
        let mark = self.rewinds.marks[at].clone();
        self.rewind_to(&mark);
        Ok(())
    }

    /// Ctrl+L: loads this game's savepoint back into it.
    pub fn load_savepoint(&mut self, now: u64, keys: &Keymap) -> Result<(), NoRewind> {
        self.ready_to_rewind(now, keys)?;
        let mark = self
            .rewinds
            .savepoint
            .clone()
            .filter(|m| self.game.can_rewind(m))
            .ok_or(NoRewind::NoSavepoint)?;
        self.rewind_to(&mark);
        Ok(())
    }

    fn ready_to_rewind(&mut self, now: u64, keys: &Keymap) -> Result<(), NoRewind> {
        if !self.can_take_back() {
            return Err(NoRewind::NotHere);
        }
        self.tick(now, keys);
        if self.state != RunState::Running || self.game.is_over() {
            return Err(NoRewind::NotRunning);
        }
        Ok(())
    }

    /// Puts the game back to `mark` (one [`Game::can_rewind`](minotty_engine::Game) takes)
    /// and the session's clock with it: game time goes on from the mark's, every key counts
    /// as released, the effects of what was taken back go.
    fn rewind_to(&mut self, mark: &Checkpoint) {
        if !self.game.rewind(mark) {
            return;
        }
        // `game = base + now - origin` is the mark's time from now on.
        self.origin = (self.base + self.now).saturating_sub(mark.time());
        self.held = [0; Button::ALL.len()];
        self.synth.clear();
        let trail = !self.fx.no_trail();
        self.fx = super::Effects::default();
        self.fx.set_trail(trail);
        self.finesse = std::sync::OnceLock::new();
        let game = &self.game;
        self.rewinds.marks.retain(|m| game.can_rewind(m));
        if let Some(p) = &mut self.pilot {
            p.observe(&self.game);
            p.replan();
        }
        // The engine recorded the release of every button with the rewind.
        self.rewinds.used = true;
    }
}
