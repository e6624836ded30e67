//! Finesse: did the player reach each placement with as few key presses as it takes?
//!
//! A piece is a **finesse fault** when the player pressed more movement keys for it than the
//! fewest taps that reach the cells it locked in. Both sides are counted the way move
//! generation ([`crate::movegen`]) counts a tap:
//!
//! - The player's side counts *presses*: every press of a shift, rotation (clockwise,
//!   counter-clockwise, 180°), soft drop or sonic drop key, from the previous piece's lock (so
//!   a press during the line-clear pause or the spawn delay, and an initial rotation, count
//!   for the piece that comes next) to this piece's lock. A press of a key the game already
//!   holds (a terminal's key repeat) is not a new press, and the auto-shift's own repeats are
//!   the engine's, not presses: holding a shift key to slide to the wall is one press.
//! - The fewest taps come from move generation, from where the piece appears (unrotated at
//!   its spawn position) on the board it appeared over. There one tap moves one column, turns
//!   once, or (where soft drop moves a row per tap) drops one row: a slide to the wall counts
//!   as one tap per column. A player who holds the key for it presses less than that, so using
//!   auto-shift is never a fault, and neither is tapping column by column.
//! - Hard drop and hold are never counted. A hold starts the count again: the piece that comes
//!   out is judged from where it appears, with the presses made after the hold.
//! - A piece locked where no tap sequence leads (a placement only waiting on gravity reaches)
//!   cannot be judged and is not a fault.
//!
//! It is computed once per game, by re-simulating its replay: one move generation per locked
//! piece (about 165 µs each, some 20 ms for a 40-line game), never while the game is played.

use crate::movegen::{Mover, Search};
use minotty_engine::board::Board;
use minotty_engine::event::EventKind;
use minotty_engine::game::Game;
use minotty_engine::input::{Button, Input};
use minotty_engine::piece::{Piece, Placed};
use minotty_engine::replay::{Replay, ReplayError};
use minotty_engine::ruleset::Time;

/// The finesse of a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Finesse {
    /// Pieces locked.
    pub pieces: u32,
    /// Pieces that took more presses than the fewest taps (see the module documentation).
    pub faults: u32,
}

/// Whether a press of `button` counts for finesse: the keys that move or turn the piece.
pub fn counts_for_finesse(button: Button) -> bool {
    !matches!(button, Button::HardDrop | Button::Hold)
}

/// The finesse of the game `replay` records (see the module documentation).
pub fn finesse(replay: &Replay) -> Result<Finesse, ReplayError> {
    let mut game = replay.new_game()?;
    let mut judge = Judge::default();
    for &(time, input) in &replay.inputs {
        judge.advance(&mut game, time);
        let repeat = match input {
            Input::Press(b) => game.is_held(b) || !counts_for_finesse(b),
            _ => true,
        };
        if !repeat {
            judge.presses = judge.presses.saturating_add(1);
        }
        let events = game.update(time, Some(input)).to_vec();
        judge.observe(&game, &events);
    }
    judge.advance(&mut game, replay.end);
    Ok(judge.result)
}

/// Where the piece in judgement started, and the presses made for it so far.
#[derive(Default)]
struct Judge {
    /// The board the piece appeared over and the piece (`None`: it cannot be judged).
    start: Option<(Board, Piece, Mover)>,
    presses: u32,
    result: Finesse,
}

impl Judge {
    /// Runs the game's own deadlines up to `time` one at a time, so that a piece's start is
    /// seen before anything later in the same stretch of time changes the board.
    fn advance(&mut self, game: &mut Game, time: Time) {
        while let Some(t) = game.next_deadline().filter(|&t| t <= time) {
            let events = game.update(t, None).to_vec();
            self.observe(game, &events);
            // Every deadline up to `t` is settled now; one that is not would loop forever.
            if game.next_deadline().is_some_and(|next| next <= t) {
                break;
            }
        }
        let events = game.update(time, None).to_vec();
        self.observe(game, &events);
    }

    fn observe(&mut self, game: &Game, events: &[minotty_engine::event::Event]) {
        for (i, e) in events.iter().enumerate() {
            match e.kind {
                EventKind::Lock { at, .. } => {
                    self.result.pieces += 1;
                    if let Some((board, piece, mover)) = self.start.take()
                        && self.presses > 0
                        && self.presses > fewest_taps(&mover, &board, piece, at).unwrap_or(u32::MAX)
                    {
                        self.result.faults += 1;
                    }
                    self.presses = 0;
                }
                EventKind::Hold { .. } => self.presses = 0,
                EventKind::Spawn { piece, .. } => {
                    // The board is the one the piece appeared over unless it locked already in
                    // the same update: then it is not judged.
                    let locked_later = events[i..]
                        .iter()
                        .any(|e| matches!(e.kind, EventKind::Lock { .. }));
                    self.start =
                        (!locked_later).then(|| (game.board().clone(), piece, Mover::of(game)));
                }
                _ => {}
            }
        }
    }
}

/// The fewest taps (hard drop left out) that bring `piece`, appearing over `board`, to the
/// cells of `at`; `None` when none do.
fn fewest_taps(mover: &Mover, board: &Board, piece: Piece, at: Placed) -> Option<u32> {
    let start = mover.spawn(board, piece)?;
    let mut search = Search::default();
    search.run(board, mover, start, None);
    let target = at.canonical();
    search
        .reaches(false)
        .iter()
        .filter(|r| r.placed.canonical() == target)
        .map(|r| r.buttons.iter().filter(|&&b| counts_for_finesse(b)).count() as u32)
        .min()
}
