//! Puzzle progress as the App knows it: the highest stage cleared (the store's answer, and
//! every stage cleared since), reported as it grows.

use super::{App, Screen, bests, menus::Menus};
use crate::Request;
use crate::screens::mode_select::ModeSelect;
use minotty_engine::Game;
use minotty_protocol::Identity;

impl App {
    /// The highest puzzle stage cleared, as far as this App knows (the store's answer to
    /// [`Request::PuzzleProgress`], and every stage cleared since).
    pub fn puzzle_cleared(&self) -> u8 {
        self.menus.modes().puzzle_cleared
    }

    /// Whether every puzzle stage has been cleared (unlocks what puzzle mode unlocks).
    pub fn puzzle_completed(&self) -> bool {
        completed(self.menus.modes())
    }

    /// Opens the mode select; the first time, asks for the player's puzzle progress.
    pub(super) fn open_modes(&mut self) {
        self.screen = Screen::ModeSelect;
        open_modes(&mut self.menus, &self.identity, &mut self.requests);
    }
}

/// Whether the mode select's progress has every puzzle stage cleared.
fn completed(modes: &ModeSelect) -> bool {
    modes.puzzle_cleared >= minotty_engine::puzzle::STAGE_COUNT
}

/// The mode select opens (the App shows it): the bests are asked for (see `bests.rs`), and the
/// first time the player's puzzle progress.
pub(super) fn open_modes(menus: &mut Menus, identity: &Identity, requests: &mut Vec<Request>) {
    bests::ask(identity, requests);
    if menus.ask_puzzle() {
        requests.push(Request::PuzzleProgress);
    }
}

/// Notes the stages the puzzle game in play has cleared: every stage before the one it plays
/// now, all of them once it is won. Progress only grows; each growth is reported.
pub(super) fn note_progress(game: &Game, modes: &mut ModeSelect, requests: &mut Vec<Request>) {
    let Some(p) = game.puzzle_state() else { return };
    let cleared = if game.outcome().is_some_and(|(_, won)| won) {
        p.stage
    } else {
        p.stage - 1
    };
    // Only a stage played in this game counts (starting at stage 5 clears nothing before).
    let start = game.mode().puzzle_start().unwrap_or(1);
    if cleared >= start && cleared > modes.puzzle_cleared {
        modes.note_puzzle_cleared(cleared);
        requests.push(Request::PuzzleCleared { stage: cleared });
    }
}

#[cfg(test)]
mod tests;
