//! Gravity's clock ([`GravityClock`]) and the line clear pause with the next piece in play
//! ([`ClearPause::LivePiece`]), the rules seed's "Fixed-Step Semantics".
//!
//! The accumulator is state like every timer: its count `fall_acc` as of the step `last_fall`
//! (the last step it counted). Its next row is a deadline computed from them, the first step
//! at which the count reaches the interval; firing it adds the steps since, drops a row for
//! every whole interval and keeps the rest. While the piece lies on the ground no deadline
//! fires (the lock delay runs instead); the steps it spent there are counted when it leaves
//! the ground or when soft drop changes the interval, their rows dropping nothing, as the
//! seed's loop tries them and they fail. Everything is read at steps and inputs, never from
//! how time was chunked (`tests/chunking.rs`).
//!
//! The live pause is one time, `timers_from`: the pause's last step before the one in which it
//! ends. Gravity and the lock delay started before it count from it, so that the steps of
//! the pause count nothing but the last one, in which "gameplay resumes in the **same**
//! `tick()` call" (a row due then falls in it). Actions are not delayed at all.

use super::lockdown::Cause;
use super::{Game, Phase};
use crate::ruleset::{ClearPause, GravityClock, Time};

impl Game {
    /// When a timer started now (gravity's count, the lock delay) starts counting: now, or
    /// during a line clear pause with the piece in play, the pause's last step.
    #[inline]
    pub(super) fn timer_start(&self) -> Time {
        self.now.max(self.timers_from)
    }

    /// A new piece's gravity: from now, or the end of a line clear pause it appears in; the
    /// accumulator's count starts empty at the step that is.
    pub(super) fn restart_fall(&mut self) {
        let from = self.timer_start();
        self.fall_acc = 0;
        self.last_fall = match self.rules.gravity_clock {
            GravityClock::FromLastRow => from,
            GravityClock::Accumulator => self.rules.step_of(from),
        };
    }

    /// A row fell now by something that restarts gravity under [`GravityClock::FromLastRow`]
    /// (the accumulator counts on).
    #[inline]
    pub(super) fn fell_now(&mut self) {
        if self.rules.gravity_clock == GravityClock::FromLastRow {
            self.last_fall = self.now;
        }
    }

    /// When the next gravity row is due at `interval` ms a row (the piece in the air).
    #[inline]
    pub(super) fn gravity_due(&self, interval: u32) -> Time {
        match self.rules.gravity_clock {
            GravityClock::FromLastRow => self.rules.after(self.last_fall, interval),
            GravityClock::Accumulator => {
                // The first step after the last counted one at which the count holds a whole
                // interval (the next step at once when it already does: soft drop pressed).
                let step = Time::from(self.rules.step.max(1));
                let missing = Time::from(interval).saturating_sub(self.fall_acc).max(1);
                self.last_fall + missing.div_ceil(step) * step
            }
        }
    }

    /// The gravity row(s) due now.
    pub(super) fn gravity_rows(&mut self, interval: u32) {
        if self.rules.gravity_clock == GravityClock::FromLastRow {
            self.step_down();
            return;
        }
        let tick = self.rules.step_of(self.now);
        self.fall_acc += tick.saturating_sub(self.last_fall);
        self.last_fall = self.last_fall.max(tick);
        let interval = Time::from(interval.max(1));
        let rows = self.fall_acc / interval;
        self.fall_acc %= interval;
        // The seed's while-loop: a row for every whole interval; once the piece rests, the
        // rest of them move nothing (and none moves a piece that came after a lock).
        let pieces = self.stats.pieces;
        for _ in 0..rows {
            self.fall_one(Cause::Gravity);
            match self.active {
                Some(a)
                    if self.phase == Phase::Falling
                        && self.stats.pieces == pieces
                        && self.fits_below(&a) => {}
                _ => break,
            }
        }
    }

    fn fits_below(&self, a: &super::Active) -> bool {
        self.board.fits(&a.placed.shifted(0, 1))
    }

    /// Descent: a gravity step onto the ground restarts gravity (its piece never locks, so
    /// the next step is due an interval later, not at once again).
    pub(super) fn rest_fall(&mut self) {
        self.fall_acc = 0;
        self.last_fall = match self.rules.gravity_clock {
            GravityClock::FromLastRow => self.now,
            GravityClock::Accumulator => self.rules.step_of(self.now),
        };
    }

    /// Counts the accumulator up to the step `now` lies in, before the interval changes (soft
    /// drop pressed or released) or the piece leaves the ground: every step since it last
    /// counted passed at the current interval, and while `grounded` the rows they made due
    /// dropped nothing. (In the air no row was due in them, or it would have fired.)
    pub(super) fn count_fall(&mut self, grounded: bool) {
        if self.rules.gravity_clock != GravityClock::Accumulator {
            return;
        }
        let Some(interval) = self.fall_interval() else {
            return;
        };
        let tick = self.rules.step_of(self.now);
        if tick <= self.last_fall {
            return;
        }
        self.fall_acc += tick - self.last_fall;
        self.last_fall = tick;
        if grounded {
            self.fall_acc %= Time::from(interval.max(1));
        }
    }

    /// A lock that cleared `rows` under [`ClearPause::LivePiece`]: the limits, the rows gone at
    /// once (and the board refilled), the pause's end noted, and the next piece in play now
    /// (or after an appearance delay a tuning sets).
    pub(super) fn clear_with_live_piece(&mut self, rows: u64) {
        debug_assert_eq!(self.rules.clear_pause, ClearPause::LivePiece);
        self.check_limits();
        if self.is_over() {
            return;
        }
        let end = self.rules.after(self.now, self.rules.line_clear_delay);
        self.timers_from = end.saturating_sub(Time::from(self.rules.step.max(1)));
        self.remove_rows(rows);
        if self.is_over() {
            return;
        }
        self.appear_next();
    }

    /// What a snapshot keeps of gravity: the time the next row counts from (the accumulator's
    /// last counted step less its count).
    pub(super) fn fall_origin(&self) -> Time {
        self.last_fall.saturating_sub(self.fall_acc)
    }

    /// Gravity and a live pause from a snapshot's [`Game::fall_origin`] at `time`: an origin
    /// after `time`'s step is a live pause's last step (the count is empty then).
    pub(super) fn restore_fall(&mut self, origin: Time, time: Time) {
        let tick = self.rules.step_of(time);
        match self.rules.gravity_clock {
            GravityClock::FromLastRow => {
                self.last_fall = origin;
                self.fall_acc = 0;
            }
            GravityClock::Accumulator => {
                self.last_fall = origin.max(tick);
                self.fall_acc = self.last_fall - origin;
            }
        }
        if self.rules.clear_pause == ClearPause::LivePiece && origin > tick {
            self.timers_from = origin;
        }
    }
}
