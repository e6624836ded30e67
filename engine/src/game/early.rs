//! Presses during a line clear delay or a spawn delay (ARE), kept for the next piece
//! (ruleset version 3 on; [`Legacy::presses_lost_in_delays`](crate::ruleset::Legacy) before).
//!
//! Nothing pressed while no piece is in play is lost: a rotation turns the next piece as it
//! spawns (initial rotation: without kicks, as a held rotation button always did), hold holds
//! it (initial hold), each tap of a direction moves it once, and a soft, sonic or hard drop
//! acts on it, in that order, right after it spawns. A direction held through the delay has
//! been charging DAS since it was pressed (its deadline is state, like every timer), so the
//! piece auto-shifts as soon as it spawns when DAS ran out in the delay. What was pressed is
//! state changed only by inputs and read at the spawn deadline, so any chunking of time gives
//! the same game (`tests/chunking.rs`). Like the buttons, neither these presses nor the
//! hard-drop guard's window are part of a [`Snapshot`](crate::Snapshot): a game resumed from
//! one starts with nothing pressed.
//!
//! The handling's "prevent accidental hard drop" ([`Handling::hard_drop_guard`]) ignores a hard
//! drop pressed within its window after a lock that cleared lines, in the delay or after it;
//! its DAS cut ([`Handling::das_cut`]) holds auto-shift back after a spawn or a rotation.
//!
//! [`Handling::hard_drop_guard`]: crate::ruleset::Handling::hard_drop_guard
//! [`Handling::das_cut`]: crate::ruleset::Handling::das_cut

use super::{Game, Phase};
use crate::input::Button;
use crate::piece::Turn;
use crate::ruleset::{SoftDrop, Time};

/// The most taps of a direction kept for one spawn (each way).
pub(crate) const MAX_EARLY_TAPS: i8 = 9;

/// What was pressed during the current delay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Early {
    /// A rotation was pressed; `quarters` is their sum (clockwise quarter turns, mod 4).
    pub rotated: bool,
    pub quarters: u8,
    pub hold: bool,
    /// Taps of a direction: right positive, left negative.
    pub taps: i8,
    pub soft: bool,
    pub sonic: bool,
    pub hard: bool,
}

impl Early {
    /// The turn the presses add up to, if a rotation was pressed (`Some(None)`: turns that
    /// cancel out).
    pub fn turn(&self) -> Option<Option<Turn>> {
        self.rotated.then_some(match self.quarters % 4 {
            1 => Some(Turn::Cw),
            2 => Some(Turn::Half),
            3 => Some(Turn::Ccw),
            _ => None,
        })
    }
}

impl Game {
    /// Whether presses during a delay are kept for the next piece (version 3 on).
    pub(super) fn keeps_early_presses(&self) -> bool {
        !self.rules.legacy.presses_lost_in_delays && matches!(self.phase, Phase::Clearing { .. })
    }

    /// A press while no piece is in play (the caller checked [`Game::keeps_early_presses`]).
    pub(super) fn press_early(&mut self, button: Button) {
        let e = &mut self.early;
        match button {
            Button::Left => e.taps = (e.taps - 1).max(-MAX_EARLY_TAPS),
            Button::Right => e.taps = (e.taps + 1).min(MAX_EARLY_TAPS),
            Button::RotateCw => e.turn_by(1),
            Button::RotateCcw => e.turn_by(3),
            Button::Rotate180 => {
                if self.rules.turns_180 {
                    self.early.turn_by(2);
                }
            }
            Button::SoftDrop => e.soft = true,
            Button::SonicDrop => e.sonic |= self.rules.sonic_drop,
            Button::HardDrop => {
                if !self.hard_drop_guarded() {
                    self.early.hard = true;
                }
            }
            Button::Hold => e.hold = true,
            // A teleport in the delay moves the next piece as far as taps can.
            Button::TeleportLeft if self.rules.sonic_drop => e.taps = -MAX_EARLY_TAPS,
            Button::TeleportRight if self.rules.sonic_drop => e.taps = MAX_EARLY_TAPS,
            Button::TeleportLeft | Button::TeleportRight => {}
        }
    }

    /// Whether a hard drop pressed now falls in the "prevent accidental hard drop" window
    /// after the last lock that cleared lines.
    pub(super) fn hard_drop_guarded(&self) -> bool {
        let guard = self.config.handling.hard_drop_guard;
        guard > 0
            && self
                .cleared_at
                .is_some_and(|t| self.now < t + Time::from(guard))
    }

    /// The DAS cut after a spawn or a rotation: the next auto-shift waits at least the cut
    /// (and an ARR-0 slide waits for it too).
    pub(super) fn cut_das(&mut self) {
        let cut = self.config.handling.das_cut;
        if cut == 0 {
            return;
        }
        if let Some(s) = self.shift.as_mut() {
            s.next = s.next.max(self.now + Time::from(cut));
            s.charged = false;
        }
    }

    /// Right after a spawn that ended a delay: the taps and drops pressed during it (the
    /// rotation and the hold went into the spawn itself).
    pub(super) fn apply_early(&mut self, early: Early) {
        let dx = early.taps.signum();
        for _ in 0..early.taps.unsigned_abs() {
            if self.phase != Phase::Falling || !self.try_shift(dx) {
                break;
            }
        }
        if early.soft && self.phase == Phase::Falling {
            let held = self.buttons[Button::SoftDrop as usize];
            // A released stepped soft drop steps once; held, it also starts its repeats.
            if !held && matches!(self.rules.soft_drop, SoftDrop::Steps { .. }) {
                self.soft_step();
            } else {
                self.soft_press();
            }
        }
        if early.sonic && self.phase == Phase::Falling {
            self.drop_to_floor(self.scores_drops());
        }
        if early.hard && self.phase == Phase::Falling {
            self.hard_drop();
        }
    }
}

impl Early {
    fn turn_by(&mut self, quarters: u8) {
        self.rotated = true;
        self.quarters = (self.quarters + quarters) % 4;
    }
}
