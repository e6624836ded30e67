//! What a change of the session redraws ([`Damage`]): the clock alone, the board with the
//! stats (the piece moved, turned or fell; an effect on the board's cells moved on), or all.

use minotty_engine::{Phase, Piece};

use super::{GameSession, RunState, Stamp};
use crate::damage::Damage;

/// What the game screen shows of a running session outside its board and its stats column
/// (the hold box, the queue, the piece counts, the footer) beyond what its [`Stamp`] holds
/// (the run state; the effects, of which the action text and what lies over the board are
/// off the board): a change that leaves both as they were is the board's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Around {
    hold: Option<Piece>,
    can_hold: bool,
    /// Pieces locked: the queue moves on and the counts change only with a lock (or a hold).
    pieces: u32,
    phase: u8,
    prompt: bool,
    bot: bool,
    /// A game whose screen has nothing else that a move changes: no ghost to race beside
    /// it, no puzzle stage, no descent.
    plain: bool,
}

impl GameSession {
    /// The stamp and the surroundings now, to say later what changed since
    /// ([`GameSession::damage_since`]).
    pub(super) fn before(&self) -> (Stamp, Around) {
        (self.stamp(), self.around())
    }

    fn around(&self) -> Around {
        let phase = match self.game.phase() {
            Phase::Ready => 0,
            Phase::Falling => 1,
            Phase::Clearing { .. } => 2,
            Phase::Over { .. } => 3,
        };
        let game = &self.game;
        Around {
            hold: game.hold_piece(),
            can_hold: game.can_hold(),
            pieces: game.stats().pieces,
            phase,
            prompt: self.pause_prompt,
            bot: self.bot_playing(),
            plain: self.race.is_none() && game.puzzle_state().is_none() && game.descent().is_none(),
        }
    }

    /// What changed since `before` ([`GameSession::before`]); `changed`: a key, the engine or
    /// an effect said that something visible changed.
    pub(super) fn damage_since(&self, (stamp, around): (Stamp, Around), changed: bool) -> Damage {
        let after = self.stamp();
        let clock_only = Stamp {
            clock: stamp.clock,
            ..after
        } == stamp;
        if !changed && clock_only {
            return if after.clock != stamp.clock {
                Damage::Time
            } else {
                Damage::None
            };
        }
        let running = stamp.state == RunState::Running && around.plain;
        let same_around = after.state == stamp.state
            && after.fx.off_board() == stamp.fx.off_board()
            && self.around() == around;
        if running && same_around {
            Damage::Board
        } else {
            Damage::All
        }
    }
}
