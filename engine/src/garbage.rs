//! Incoming garbage: queued with the time it may rise, cancelled by the player's own attack,
//! and risen into the board only on a lock that clears nothing.

use std::collections::VecDeque;

use crate::ruleset::Time;

/// One attack waiting in a player's queue. Its lines share one hole column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Incoming {
    pub lines: u8,
    pub hole: u8,
    pub ready_at: Time,
    /// Set (with a `GarbageReady` event) once the game's time passes `ready_at`.
    pub ready: bool,
}

/// The queue of incoming attacks, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GarbageQueue {
    entries: VecDeque<Incoming>,
}

impl GarbageQueue {
    pub fn push(&mut self, incoming: Incoming) {
        if incoming.lines > 0 {
            self.entries.push_back(incoming);
        }
    }

    pub fn entries(&self) -> impl Iterator<Item = &Incoming> {
        self.entries.iter()
    }

    /// Total queued lines as `(ready, waiting)`.
    pub fn pending(&self) -> (u32, u32) {
        self.entries.iter().fold((0, 0), |(r, w), e| {
            if e.ready {
                (r + u32::from(e.lines), w)
            } else {
                (r, w + u32::from(e.lines))
            }
        })
    }

    /// The earliest time an entry that is not ready yet becomes ready.
    pub fn next_ready(&self) -> Option<Time> {
        self.entries
            .iter()
            .filter(|e| !e.ready)
            .map(|e| e.ready_at)
            .min()
    }

    /// Marks every entry due at `now` as ready and returns how many lines became ready.
    pub fn mark_ready(&mut self, now: Time) -> u32 {
        let mut lines = 0;
        for e in self
            .entries
            .iter_mut()
            .filter(|e| !e.ready && e.ready_at <= now)
        {
            e.ready = true;
            lines += u32::from(e.lines);
        }
        lines
    }

    /// Cancels up to `attack` queued lines, oldest first. Returns `(cancelled, left over)`.
    pub fn cancel(&mut self, attack: u32) -> (u32, u32) {
        let mut left = attack;
        while left > 0 {
            let Some(front) = self.entries.front_mut() else {
                break;
            };
            let take = left.min(u32::from(front.lines));
            front.lines -= take as u8;
            left -= take;
            if front.lines == 0 {
                self.entries.pop_front();
            }
        }
        (attack - left, left)
    }

    /// Takes up to `cap` ready lines, oldest first, as `(lines, hole)` chunks. An entry larger
    /// than what is left of the cap is split and its rest stays queued.
    pub fn take_ready(&mut self, cap: u32, mut out: impl FnMut(u8, u8)) {
        let mut left = cap;
        while left > 0 {
            let Some(front) = self.entries.front_mut() else {
                break;
            };
            if !front.ready {
                break;
            }
            let take = left.min(u32::from(front.lines)) as u8;
            out(take, front.hole);
            front.lines -= take;
            left -= u32::from(take);
            if front.lines == 0 {
                self.entries.pop_front();
            }
        }
    }
}
