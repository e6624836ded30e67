//! Lock down after every movement: extended placement (the rules seed's, and `standard`'s
//! variant) and the tetrs seed's timer lock down with its ground-time cap.

use super::{Active, Game, Ground};
use crate::ruleset::{ResetRefill, Time};

/// What moved the active piece, for the lock-down bookkeeping.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Cause {
    /// A shift, a rotation or a drop by the player.
    Player,
    /// A gravity step that moved the piece.
    Gravity,
    /// Nothing moved: a spawn, a new board, a gravity step onto the ground.
    Settle,
}

impl Game {
    /// Extended placement lock down; returns whether the piece locks now.
    pub(super) fn extended_lock(
        &self,
        a: &mut Active,
        cause: Cause,
        grounded: bool,
        limit: u8,
        landing_uses_reset: bool,
        refill: ResetRefill,
    ) -> bool {
        // During a line clear pause with the piece in play, from the pause's last step.
        let lock_at = self.rules.after(self.timer_start(), self.rules.lock_delay);
        if refill == ResetRefill::Airborne {
            // The rules seed: in the air nothing counts; every move or gravity step that ends
            // on the ground restarts the timer while resets last (the landing one included).
            if !grounded {
                a.lock_at = None;
                a.resets = 0;
                return false;
            }
            let moved = cause != Cause::Settle;
            if moved && (landing_uses_reset || a.lock_at.is_some()) && a.resets < limit {
                a.resets += 1;
                a.lock_at = Some(lock_at);
            } else if a.lock_at.is_none() {
                a.lock_at = Some(lock_at);
            }
            return false;
        }
        let was_timing = a.lock_at.is_some();
        let mut reset = false;
        let counts = cause == Cause::Player || (landing_uses_reset && cause == Cause::Gravity);
        if counts && (was_timing || landing_uses_reset) && a.resets < limit {
            a.resets += 1;
            reset = true;
        }
        if a.placed.y > a.lowest {
            a.lowest = a.placed.y;
            a.resets = 0;
            a.lock_at = None;
            reset = true;
        }
        if !grounded {
            a.lock_at = None;
            false
        } else if a.lock_at.is_none() {
            if a.resets >= limit {
                true
            } else {
                a.lock_at = Some(lock_at);
                false
            }
        } else {
            if reset {
                a.lock_at = Some(lock_at);
            }
            false
        }
    }

    /// The tetrs seed's timer lock down with its ground-time cap and ground-continuity fix.
    pub(super) fn timer_lock(
        &self,
        a: &mut Active,
        g: &mut Ground,
        cause: Cause,
        grounded: bool,
        cap: u32,
    ) {
        let now = self.now;
        let bottom = a.placed.y + bottom_row(a.placed);
        let new_low = bottom > a.lowest;
        if new_low {
            a.lowest = bottom;
            g.left = cap;
            g.touchdown = None;
            g.liftoff = None;
            if !self.rules.legacy.ground_clock_stops {
                // The seed resets the ground time here, not the clock: a piece still on the
                // ground counts afresh from now (the touch down below), one in the air from
                // its next touch down. Version 1 left `on_ground` set, so a piece that stayed
                // down never started counting again and could be moved forever.
                g.on_ground = false;
            }
        }
        if !grounded {
            if g.on_ground {
                g.on_ground = false;
                g.liftoff = Some(now);
            }
            a.lock_at = None;
            return;
        }
        if !g.on_ground {
            g.on_ground = true;
            match (g.touchdown, g.liftoff) {
                (Some(down), Some(up)) => {
                    let close = self
                        .gravity_interval()
                        .is_none_or(|i| now.saturating_sub(up) <= 2 * Time::from(i));
                    if !close {
                        // Far: the earlier contact is spent; this one counts afresh.
                        let spent = up.saturating_sub(down).min(Time::from(u32::MAX)) as u32;
                        g.left = g.left.saturating_sub(spent);
                        g.touchdown = Some(now);
                    }
                }
                _ => g.touchdown = Some(now),
            }
            g.liftoff = None;
        }
        if a.lock_at.is_none() || cause == Cause::Player {
            let on_ground = now.saturating_sub(g.touchdown.unwrap_or(now));
            let left = Time::from(g.left).saturating_sub(on_ground);
            let delay = Time::from(self.rules.lock_delay_at(self.rules_level())).min(left);
            a.lock_at = Some(now + delay);
        }
    }
}

/// The lowest cell row of a placed piece, relative to its box.
pub(super) fn bottom_row(placed: crate::piece::Placed) -> i8 {
    placed
        .piece
        .cells(placed.rotation)
        .iter()
        .map(|&(_, y)| y)
        .max()
        .unwrap_or(0)
}
