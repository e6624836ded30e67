//! Inputs and piece movement: shifting with DAS/ARR, rotation with kicks, drops, hold, and the
//! lock-delay bookkeeping that follows every movement.

use super::lockdown::{Cause, bottom_row};
use super::{Game, Phase, Shift};
use crate::event::{EndReason, EventKind};
use crate::garbage::Incoming;
use crate::input::{Button, Input};
use crate::piece::{Piece, Turn};
use crate::ruleset::{LockDown, RotationFlag, Scoring, SoftDrop, Time};

impl Game {
    pub(super) fn apply(&mut self, input: Input) {
        if self.is_over() {
            return;
        }
        // Ascent's piece never drops: its drop buttons do nothing, held or not.
        if let Input::Press(b) | Input::Release(b) = input
            && super::descent::is_drop(b)
            && self.climbing()
        {
            return;
        }
        // Soft drop changes gravity's interval: the accumulator counts the steps before at the
        // interval they passed at.
        let soft = self.buttons[Button::SoftDrop as usize];
        if match input {
            Input::Press(b) => b == Button::SoftDrop && !soft,
            Input::Release(b) => b == Button::SoftDrop && soft,
            Input::ReleaseAll => soft,
            _ => false,
        } {
            let grounded = self.active.is_some_and(|a| a.lock_at.is_some());
            self.count_fall(grounded);
        }
        match input {
            Input::Press(b) => {
                if !self.buttons[b as usize] {
                    self.buttons[b as usize] = true;
                    self.press(b);
                }
            }
            Input::Release(b) => {
                if self.buttons[b as usize] {
                    self.buttons[b as usize] = false;
                    self.release(b);
                }
            }
            Input::ReleaseAll => {
                for b in Button::ALL {
                    if self.buttons[b as usize] {
                        self.buttons[b as usize] = false;
                        self.release(b);
                    }
                }
            }
            Input::Garbage(lines) => self.receive_garbage(lines),
            Input::Forfeit => self.end(EndReason::Forfeit, false),
            Input::Pause => self.paused = true,
            Input::Bot => self.bot = true,
            Input::Ghost => {}
            Input::Rewind => self.rewound = true,
        }
    }

    fn press(&mut self, button: Button) {
        match button {
            Button::Left | Button::Right => {
                let dx = if button == Button::Left { -1 } else { 1 };
                let teleport = self.double_tapped(dx);
                self.shift = Some(Shift {
                    dx,
                    next: self.now + Time::from(self.shift_delay(self.config.handling.das)),
                    charged: false,
                });
                if self.phase == Phase::Falling {
                    if teleport {
                        self.slide(dx);
                    } else {
                        self.try_shift(dx);
                    }
                } else if self.keeps_early_presses() {
                    self.press_early(match (teleport, dx) {
                        (false, _) => button,
                        (true, -1) => Button::TeleportLeft,
                        (true, _) => Button::TeleportRight,
                    });
                }
            }
            _ if self.keeps_early_presses() => self.press_early(button),
            _ if self.phase != Phase::Falling => {}
            Button::RotateCw => {
                self.try_rotate(Turn::Cw);
            }
            Button::RotateCcw => {
                self.try_rotate(Turn::Ccw);
            }
            Button::Rotate180 => {
                if self.rules.turns_180 {
                    self.try_rotate(Turn::Half);
                }
            }
            Button::SoftDrop => self.soft_press(),
            Button::HardDrop => {
                if !self.hard_drop_guarded() {
                    self.hard_drop();
                }
            }
            Button::SonicDrop => {
                if self.rules.sonic_drop {
                    self.drop_to_floor(self.scores_drops());
                }
            }
            Button::Hold => self.hold(),
            Button::TeleportLeft | Button::TeleportRight => {
                if self.rules.sonic_drop {
                    self.slide(if button == Button::TeleportLeft {
                        -1
                    } else {
                        1
                    });
                }
            }
        }
    }

    /// Whether this press of direction `dx` is the second of a double tap that the
    /// handling turns into a teleport ([`crate::Handling::double_tap`]): the same
    /// direction pressed again within the window, under a ruleset with teleports. A
    /// double tap uses both presses: a third starts a new pair.
    fn double_tapped(&mut self, dx: i8) -> bool {
        let window = Time::from(self.config.handling.double_tap);
        if window == 0 || !self.rules.sonic_drop {
            return false;
        }
        let again = self
            .last_tap
            .is_some_and(|(last, at)| last == dx && self.now - at <= window);
        self.last_tap = if again { None } else { Some((dx, self.now)) };
        again
    }

    fn release(&mut self, button: Button) {
        match button {
            Button::Left | Button::Right => {
                let dx = if button == Button::Left { -1 } else { 1 };
                if self.shift.is_some_and(|s| s.dx == dx) {
                    // Fall back to the other direction if it is still held.
                    let other = if dx < 0 { Button::Right } else { Button::Left };
                    let das = self.shift_delay(self.config.handling.das);
                    self.shift = self.buttons[other as usize].then(|| Shift {
                        dx: -dx,
                        next: self.now + Time::from(das),
                        charged: false,
                    });
                }
            }
            Button::SoftDrop => {
                self.soft_next = None;
                // Gravity returns to its own pace: from the last row the piece fell, or in
                // tetrs from the release.
                if self.rules.soft_drop == SoftDrop::TetrsFactor {
                    self.last_fall = self.now;
                }
            }
            _ => {}
        }
    }

    fn receive_garbage(&mut self, lines: u8) {
        if lines == 0 {
            return;
        }
        // A hole of `size` columns starts in one of the columns that leave it on the board
        // (the whole width for today's one-column hole).
        let size = u32::from(self.config.mode.garbage.values().hole_size);
        let hole = self.rng.below(crate::board::WIDTH as u32 + 1 - size) as u8;
        let ready_at = self.now + Time::from(self.rules.garbage_delay);
        self.garbage.push(Incoming {
            lines,
            hole,
            ready_at,
            ready: false,
        });
        self.stats.garbage_received += u32::from(lines);
        self.emit(EventKind::GarbageQueued { lines, ready_at });
    }

    /// A due auto-shift: one step (ARR > 0) or a slide to the wall (ARR 0).
    pub(super) fn auto_shift(&mut self, s: Shift) {
        let arr = self.config.handling.arr;
        self.shift = Some(Shift {
            charged: true,
            next: self.now + Time::from(self.shift_delay(arr).max(1)),
            ..s
        });
        if arr == 0 {
            self.slide(s.dx);
        } else {
            self.try_shift(s.dx);
        }
    }

    fn slide(&mut self, dx: i8) {
        self.sliding = true;
        while self.phase == Phase::Falling && self.try_shift(dx) {}
        self.sliding = false;
    }

    pub(super) fn try_shift(&mut self, dx: i8) -> bool {
        let Some(a) = self.active.as_mut() else {
            return false;
        };
        if a.dropped {
            return false;
        }
        let moved = a.placed.shifted(dx, 0);
        if !self.board.fits(&moved) {
            return false;
        }
        a.placed = moved;
        a.rotated = None;
        self.emit(EventKind::Move { dx, dy: 0 });
        self.after_move(Cause::Player);
        true
    }

    /// DAS and ARR, which tetrs' timer lock down caps at one ms below the lock delay, and so
    /// does extended lock down when the handling asks ([`crate::Handling::move_under_lock`]).
    fn shift_delay(&self, ms: u32) -> u32 {
        let capped = match self.rules.lock {
            LockDown::Timer { .. } => true,
            LockDown::Extended { .. } => self.config.handling.move_under_lock,
            LockDown::Gravity => false,
        };
        if capped {
            ms.min(
                self.rules
                    .lock_delay_at(self.rules_level())
                    .saturating_sub(1),
            )
        } else {
            ms
        }
    }

    /// Whether hard and sonic drops score points (the guideline tables do, tetrs and the NES
    /// do not).
    pub(super) fn scores_drops(&self) -> bool {
        matches!(self.rules.scoring, Scoring::Guideline { .. })
    }

    fn try_rotate(&mut self, turn: Turn) -> bool {
        let Some(from) = self.active.filter(|a| !a.dropped).map(|a| a.placed) else {
            return false;
        };
        if from.piece == Piece::O && !self.rules.o_rotates {
            return false;
        }
        let to = from.rotation.turned(turn.quarter_turns());
        let kicks = self.rules.kicks(from.piece, from.rotation, turn);
        for (i, &(kx, ky)) in kicks.iter().enumerate() {
            let candidate = crate::piece::Placed {
                rotation: to,
                x: from.x + kx,
                y: from.y + ky,
                ..from
            };
            if self.fits(&candidate)
                && let Some(a) = self.active.as_mut()
            {
                a.placed = candidate;
                a.rotated = Some((i as u8, i + 1 == kicks.len() && i > 0));
                self.emit(EventKind::Rotate {
                    turn,
                    to,
                    kick: i as u8,
                });
                self.cut_das();
                self.after_move(Cause::Player);
                if self.descent.is_some() {
                    self.after_descent_rotation();
                }
                return true;
            }
        }
        false
    }

    /// A soft-drop press, by the ruleset's kind of soft drop.
    pub(super) fn soft_press(&mut self) {
        match self.rules.soft_drop {
            SoftDrop::Factor { .. } => {
                if self.fall_interval().is_none() {
                    self.drop_to_floor(true);
                } else {
                    self.soft_step();
                }
            }
            SoftDrop::Steps { repeat, .. } => {
                // A press is an action: it clears the rotation flag even when it cannot move.
                if let Some(a) = self.active.as_mut() {
                    a.rotated = None;
                }
                self.soft_next = Some(self.now + Time::from(repeat.max(1)));
                self.soft_step();
            }
            SoftDrop::TetrsFactor => {
                let Some(a) = self.active.filter(|a| !a.dropped) else {
                    return;
                };
                if self.board.fits(&a.placed.shifted(0, 1)) {
                    if self.fall_interval().is_none() {
                        self.drop_to_floor(false);
                    } else {
                        self.fall_one(Cause::Player);
                    }
                } else if !self.config.tuning.no_soft_drop_lock && self.descent.is_none() {
                    self.lock_piece();
                }
            }
        }
    }

    /// A soft-drop repeat of a ruleset whose soft drop moves in steps.
    pub(super) fn soft_repeat(&mut self) {
        let SoftDrop::Steps { repeat, .. } = self.rules.soft_drop else {
            self.soft_next = None;
            return;
        };
        self.soft_next = Some(self.now + Time::from(repeat.max(1)));
        if let Some(a) = self.active.as_mut() {
            a.rotated = None;
        }
        self.soft_step();
    }

    /// One scored soft-drop row (a press, or a repeat while held).
    pub(super) fn soft_step(&mut self) {
        let Some(a) = self.active.as_mut() else {
            return;
        };
        let down = a.placed.shifted(0, 1);
        if a.dropped || !self.board.fits(&down) {
            return;
        }
        a.placed = down;
        a.rotated = None;
        // The rules seed's soft-drop steps leave the gravity timer alone.
        if !matches!(self.rules.soft_drop, SoftDrop::Steps { .. }) {
            self.fell_now();
        }
        // Descent scores gems only.
        if self.descent.is_none() {
            self.stats.score += 1;
        }
        self.emit(EventKind::Move { dx: 0, dy: 1 });
        self.after_move(Cause::Player);
    }

    /// A gravity step, or a soft-drop repeat while soft drop is held.
    pub(super) fn step_down(&mut self) {
        if self.soft_dropping() && matches!(self.rules.soft_drop, SoftDrop::Factor { .. }) {
            self.soft_step();
            return;
        }
        self.fall_one(Cause::Gravity);
    }

    /// One unscored row down (gravity, or tetrs' soft drop).
    pub(super) fn fall_one(&mut self, cause: Cause) {
        let Some(a) = self.active.as_mut() else {
            return;
        };
        let down = a.placed.shifted(0, 1);
        if !self.board.fits(&down) {
            // Resting already: let the lock-delay bookkeeping start the timer.
            self.after_move(Cause::Settle);
            return;
        }
        a.placed = down;
        if self.rules.rotation_flag == RotationFlag::AnyMovement || cause == Cause::Player {
            a.rotated = None;
        }
        self.fell_now();
        self.emit(EventKind::Fall { rows: 1 });
        self.after_move(cause);
    }

    /// Sonic drop (and soft drop at infinite speed): straight to the floor without locking,
    /// one point per row.
    pub(super) fn drop_to_floor(&mut self, scored: bool) {
        let Some(a) = self.active.filter(|a| !a.dropped) else {
            return;
        };
        let rows = self.drop_distance(&a.placed);
        if rows == 0 {
            return;
        }
        if let Some(a) = self.active.as_mut() {
            a.placed = a.placed.shifted(0, rows);
            a.rotated = None;
        }
        self.fell_now();
        if scored {
            self.stats.score += rows as u64;
        }
        self.emit(EventKind::Move { dx: 0, dy: rows });
        self.after_move(Cause::Player);
    }

    pub(super) fn hard_drop(&mut self) {
        // Descent: a hard drop only drops; the piece never locks.
        if self.descent.is_some() {
            self.drop_to_floor(false);
            return;
        }
        let Some(a) = self.active.filter(|a| !a.dropped) else {
            return;
        };
        let rows = self.drop_distance(&a.placed);
        let delay = self.rules.hard_drop_delay;
        let flag_stays = rows == 0 && self.rules.rotation_flag == RotationFlag::AnyMovement;
        if let Some(a) = self.active.as_mut() {
            a.placed = a.placed.shifted(0, rows);
            if !flag_stays {
                a.rotated = None;
            }
            if delay > 0 {
                a.dropped = true;
                a.lock_at = Some(self.now + Time::from(delay));
            }
        }
        if self.scores_drops() {
            self.stats.score += 2 * rows as u64;
        }
        self.emit(EventKind::HardDrop {
            from: a.placed,
            rows: rows as u8,
        });
        if delay == 0 {
            self.lock_piece();
        }
    }

    fn hold(&mut self) {
        if self.climbing() {
            return self.swap_climber();
        }
        if !self.can_hold() {
            return;
        }
        let Some(a) = self.active.take() else { return };
        self.hold_used = true;
        let held = a.placed.piece;
        let out = self.hold.replace(held);
        self.emit(EventKind::Hold { held, out });
        let next = match out {
            Some(p) => p,
            None => self.take_next(),
        };
        self.spawn(next, false);
    }

    /// Bookkeeping after any successful movement of the active piece: instant gravity, the
    /// lowest row reached, the lock timer and its resets, and an ARR-0 slide.
    pub(super) fn after_move(&mut self, cause: Cause) {
        let instant = self.fall_interval().is_none();
        let Some(mut a) = self.active else { return };
        if a.dropped {
            return;
        }
        let mut cause = cause;
        if instant {
            let rows = self.drop_distance(&a.placed);
            if rows > 0 {
                a.placed = a.placed.shifted(0, rows);
                if self.rules.rotation_flag == RotationFlag::AnyMovement {
                    a.rotated = None;
                }
                if self.soft_dropping()
                    && self.config.mode.gravity != crate::mode::Gravity::Instant
                    && matches!(self.rules.soft_drop, SoftDrop::Factor { .. })
                {
                    self.stats.score += rows as u64;
                }
                self.emit(EventKind::Fall { rows: rows as u8 });
                if cause == Cause::Settle {
                    cause = Cause::Gravity;
                }
            }
        }
        let grounded = !self.board.fits(&a.placed.shifted(0, 1));
        if a.lock_at.is_some() && !grounded {
            // Off the ground: the accumulator counts the steps spent there (they dropped
            // nothing), so that the next row comes on its beat.
            self.count_fall(true);
        }
        let lock_now = match self.rules.lock {
            // Descent's piece never locks (its lowest row is still kept, as each lock down
            // counts it).
            _ if self.descent.is_some() => {
                let low = match self.rules.lock {
                    LockDown::Timer { .. } => a.placed.y + bottom_row(a.placed),
                    LockDown::Extended { .. } | LockDown::Gravity => a.placed.y,
                };
                a.lowest = a.lowest.max(low);
                a.lock_at = None;
                false
            }
            LockDown::Extended {
                resets,
                landing_uses_reset,
                refill,
            } => self.extended_lock(&mut a, cause, grounded, resets, landing_uses_reset, refill),
            LockDown::Timer { ground_cap } => {
                let mut g = self.ground;
                self.timer_lock(&mut a, &mut g, cause, grounded, ground_cap);
                self.ground = g;
                false
            }
            // No lock delay: the gravity step it cannot fall locks it (`Game::fire_falling`);
            // at infinite speed (soft drop at SDF 0) that step is now. Its lowest row is kept
            // as extended lock down keeps it.
            LockDown::Gravity => {
                a.lowest = a.lowest.max(a.placed.y);
                a.lock_at = None;
                grounded && instant
            }
        };
        self.active = Some(a);
        if lock_now {
            self.lock_piece();
            return;
        }
        if !self.sliding
            && let Some(s) = self.shift
            && s.charged
            && self.config.handling.arr == 0
        {
            self.slide(s.dx);
        }
    }
}
