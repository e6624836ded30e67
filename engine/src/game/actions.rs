//! Inputs and piece movement: shifting with DAS/ARR, rotation with kicks, drops, hold, and the
//! lock-delay bookkeeping that follows every movement.

use super::{Game, Phase, Shift};
use crate::event::{EndReason, EventKind};
use crate::garbage::Incoming;
use crate::input::{Button, Input};
use crate::piece::Turn;
use crate::ruleset::Time;

impl Game {
    pub(super) fn apply(&mut self, input: Input) {
        if self.is_over() {
            return;
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
        }
    }

    fn press(&mut self, button: Button) {
        match button {
            Button::Left | Button::Right => {
                let dx = if button == Button::Left { -1 } else { 1 };
                self.shift = Some(Shift {
                    dx,
                    next: self.now + Time::from(self.config.handling.das),
                    charged: false,
                });
                if self.phase == Phase::Falling {
                    self.try_shift(dx);
                }
            }
            _ if self.phase != Phase::Falling => {}
            Button::RotateCw => {
                self.try_rotate(Turn::Cw);
            }
            Button::RotateCcw => {
                self.try_rotate(Turn::Ccw);
            }
            Button::Rotate180 => {
                self.try_rotate(Turn::Half);
            }
            Button::SoftDrop => {
                if self.fall_interval().is_none() {
                    self.drop_to_floor(true);
                } else {
                    self.soft_step();
                }
            }
            Button::HardDrop => self.hard_drop(),
            Button::SonicDrop => self.drop_to_floor(true),
            Button::Hold => self.hold(),
        }
    }

    fn release(&mut self, button: Button) {
        match button {
            Button::Left | Button::Right => {
                let dx = if button == Button::Left { -1 } else { 1 };
                if self.shift.is_some_and(|s| s.dx == dx) {
                    // Fall back to the other direction if it is still held.
                    let other = if dx < 0 { Button::Right } else { Button::Left };
                    self.shift = self.buttons[other as usize].then(|| Shift {
                        dx: -dx,
                        next: self.now + Time::from(self.config.handling.das),
                        charged: false,
                    });
                }
            }
            Button::SoftDrop => {
                // Gravity returns to its own pace from the last row the piece fell.
            }
            _ => {}
        }
    }

    fn receive_garbage(&mut self, lines: u8) {
        if lines == 0 {
            return;
        }
        let hole = self.rng.below(crate::board::WIDTH as u32) as u8;
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
            next: self.now + Time::from(arr.max(1)),
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
        let moved = a.placed.shifted(dx, 0);
        if !self.board.fits(&moved) {
            return false;
        }
        a.placed = moved;
        a.rotated = None;
        self.emit(EventKind::Move { dx, dy: 0 });
        self.after_move(true);
        true
    }

    fn try_rotate(&mut self, turn: Turn) -> bool {
        let Some(a) = self.active.as_mut() else {
            return false;
        };
        let from = a.placed;
        let to = from.rotation.turned(turn.quarter_turns());
        let kicks = self.rules.rotation.kicks(from.piece, from.rotation, turn);
        for (i, &(kx, ky)) in kicks.iter().enumerate() {
            let candidate = crate::piece::Placed {
                rotation: to,
                x: from.x + kx,
                y: from.y + ky,
                ..from
            };
            if self.board.fits(&candidate) {
                a.placed = candidate;
                a.rotated = Some((i as u8, i + 1 == kicks.len() && i > 0));
                self.emit(EventKind::Rotate {
                    turn,
                    to,
                    kick: i as u8,
                });
                self.after_move(true);
                return true;
            }
        }
        false
    }

    /// One soft-drop row (a press, or a repeat while held).
    fn soft_step(&mut self) {
        let Some(a) = self.active.as_mut() else {
            return;
        };
        let down = a.placed.shifted(0, 1);
        if !self.board.fits(&down) {
            return;
        }
        a.placed = down;
        a.rotated = None;
        self.last_fall = self.now;
        self.stats.score += 1;
        self.emit(EventKind::Move { dx: 0, dy: 1 });
        self.after_move(true);
    }

    /// A gravity step, or a soft-drop repeat while soft drop is held.
    pub(super) fn step_down(&mut self) {
        if self.soft_dropping() {
            self.soft_step();
            return;
        }
        let Some(a) = self.active.as_mut() else {
            return;
        };
        let down = a.placed.shifted(0, 1);
        if !self.board.fits(&down) {
            // Resting already: let the lock-delay bookkeeping start the timer.
            self.after_move(false);
            return;
        }
        a.placed = down;
        a.rotated = None;
        self.last_fall = self.now;
        self.emit(EventKind::Fall { rows: 1 });
        self.after_move(false);
    }

    /// Sonic drop (and soft drop at infinite speed): straight to the floor without locking,
    /// one point per row.
    fn drop_to_floor(&mut self, scored: bool) {
        let Some(a) = self.active else { return };
        let rows = self.drop_distance(&a.placed);
        if rows == 0 {
            return;
        }
        if let Some(a) = self.active.as_mut() {
            a.placed = a.placed.shifted(0, rows);
            a.rotated = None;
        }
        self.last_fall = self.now;
        if scored {
            self.stats.score += rows as u64;
        }
        self.emit(EventKind::Move { dx: 0, dy: rows });
        self.after_move(true);
    }

    fn hard_drop(&mut self) {
        let Some(a) = self.active else { return };
        let rows = self.drop_distance(&a.placed);
        if let Some(a) = self.active.as_mut()
            && rows > 0
        {
            a.placed = a.placed.shifted(0, rows);
            a.rotated = None;
        }
        self.stats.score += 2 * rows as u64;
        self.emit(EventKind::HardDrop {
            from: a.placed,
            rows: rows as u8,
        });
        self.lock_piece();
    }

    fn hold(&mut self) {
        if self.hold_used {
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
    pub(super) fn after_move(&mut self, by_player: bool) {
        let instant = self.fall_interval().is_none();
        let Some(mut a) = self.active else { return };
        if instant {
            let rows = self.drop_distance(&a.placed);
            if rows > 0 {
                a.placed = a.placed.shifted(0, rows);
                a.rotated = None;
                if self.soft_dropping() && self.config.mode.gravity != crate::mode::Gravity::Instant
                {
                    self.stats.score += rows as u64;
                }
                self.emit(EventKind::Fall { rows: rows as u8 });
            }
        }
        let was_timing = a.lock_at.is_some();
        let mut reset = false;
        if by_player && was_timing && a.resets < self.rules.lock_resets {
            a.resets += 1;
            reset = true;
        }
        if a.placed.y > a.lowest {
            a.lowest = a.placed.y;
            a.resets = 0;
            a.lock_at = None;
            reset = true;
        }
        let grounded = !self.board.fits(&a.placed.shifted(0, 1));
        let lock_now = if !grounded {
            a.lock_at = None;
            false
        } else if a.lock_at.is_none() {
            if a.resets >= self.rules.lock_resets {
                true
            } else {
                a.lock_at = Some(self.now + Time::from(self.rules.lock_delay));
                false
            }
        } else {
            if reset {
                a.lock_at = Some(self.now + Time::from(self.rules.lock_delay));
            }
            false
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
