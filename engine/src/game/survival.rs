//! Survival ([`StartBoard::Survival`]): garbage rows rise from below on a clock that speeds
//! up with every row, each with one random hole (drawn as the cheese generator draws its
//! holes), until the player tops out.
//!
//! The clock is a deadline computed from state, the count of rows risen: the first row rises
//! [`SURVIVAL_FIRST`] ms into the game, and each next one [`SURVIVAL_SPEED_UP`] ms sooner after
//! the last than the one before, never sooner than [`SURVIVAL_MIN`] ms: rows at 10, 19.5, 28.5,
//! 37, 45 s ..., the 18th at 103.5 s, then one a second. On a ruleset's step grid (the rules
//! seed's 16 ms) a row rises at the first step at or after its time.
//!
//! A row rises whatever the phase: it pushes the board up one row (a full row being cleared
//! moves up with it), and the piece in play rides up with the stack when the new row reaches
//! it; a cell pushed out over the top of the buffer, or a piece that cannot ride up, tops the
//! game out.

use super::lockdown::Cause;
use super::{Game, Phase};
use crate::board::WIDTH;
use crate::event::{EndReason, EventKind};
use crate::mode::StartBoard;
use crate::ruleset::Time;

/// When the first row rises (ms of game time).
pub const SURVIVAL_FIRST: Time = 10_000;
/// How much sooner each row rises after the last than the row before it did (ms).
pub const SURVIVAL_SPEED_UP: Time = 500;
/// The shortest time between two rows (ms).
pub const SURVIVAL_MIN: Time = 1_000;

/// The game time at which the row after `risen` rows rises (before any step grid): the sum of
/// the intervals `max(SURVIVAL_FIRST - k * SURVIVAL_SPEED_UP, SURVIVAL_MIN)` for `k` in
/// `0..=risen`.
pub fn survival_rise_at(risen: u32) -> Time {
    // The intervals that are still shrinking: k = 0 .. FAST (10 000 down to 1 500 ms).
    const FAST: Time = (SURVIVAL_FIRST - SURVIVAL_MIN) / SURVIVAL_SPEED_UP;
    let rows = Time::from(risen) + 1;
    let fast = rows.min(FAST);
    let shrinking = fast * SURVIVAL_FIRST - SURVIVAL_SPEED_UP * fast * (fast - 1) / 2;
    shrinking + (rows - fast) * SURVIVAL_MIN
}

impl Game {
    /// When Survival's next row rises (`None` in every other mode).
    #[inline]
    pub(super) fn survival_due(&self) -> Option<Time> {
        if !matches!(self.config.mode.start_board, StartBoard::Survival) {
            return None;
        }
        Some(self.rules.on_step(survival_rise_at(self.risen)))
    }

    /// The row due now rises.
    pub(super) fn rise_survival_row(&mut self) {
        self.risen += 1;
        let hole = self.rng.below(WIDTH as u32) as u8;
        let overflow = self.board.push_garbage(1, usize::from(hole));
        self.stats.garbage_received += 1;
        self.emit(EventKind::GarbageRisen { lines: 1, hole });
        if let Phase::Clearing { until, rows } = self.phase {
            self.phase = Phase::Clearing {
                until,
                rows: rows >> 1,
            };
        }
        if overflow {
            self.end(EndReason::TopOut, false);
            return;
        }
        let Some(mut a) = self.active else { return };
        if !self.board.fits(&a.placed) {
            a.placed.y -= 1;
            a.lowest -= 1;
            if !self.fits(&a.placed) {
                self.end(EndReason::TopOut, false);
                return;
            }
            self.active = Some(a);
        }
        // Lifted or not, the piece may have reached the ground (or a lock it was waiting for).
        self.after_move(Cause::Settle);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schedule summed interval by interval, the way its doc says.
    #[test]
    fn the_closed_form_is_the_sum_of_the_intervals() {
        let mut at = 0;
        for k in 0..100u32 {
            let interval = SURVIVAL_FIRST
                .saturating_sub(Time::from(k) * SURVIVAL_SPEED_UP)
                .max(SURVIVAL_MIN);
            at += interval;
            assert_eq!(survival_rise_at(k), at, "row {}", k + 1);
        }
        assert_eq!(survival_rise_at(u32::MAX) % 1000, 500);
    }
}
