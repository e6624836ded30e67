//! What a climb sends its people as it goes: each one's [`ClimbView`] when it changes, and
//! the others' boards (the [`SHOWN_OTHERS`] highest) on each flush.

use minotty_engine::versus::climb;
use minotty_protocol::{ClimbView, OpponentView};
use minotty_ui::Response;
use tokio::time::Instant;

use super::{ClimbTask, millis};
use crate::versus::Member;
use crate::versus::climb::SHOWN_OTHERS;

impl ClimbTask {
    /// What the climber in `slot` sees of their climb now.
    pub(super) fn view(&self, slot: usize, now: Instant) -> ClimbView {
        let Some(c) = self.slots[slot].as_ref() else {
            return ClimbView::default();
        };
        let height = c.height();
        let grace_ms = c
            .run
            .as_ref()
            .filter(|_| c.alive())
            .map_or(0, |r| climb::GRACE_MS.saturating_sub(millis(now, r.go)));
        let fatigue = c.run.as_ref().is_some_and(|r| {
            c.alive() && now >= r.go && millis(now, r.go) >= climb::FATIGUE_AFTER_MS
        });
        let higher = self
            .slots
            .iter()
            .flatten()
            .filter(|o| o.alive() && o.height() > height)
            .count();
        ClimbView {
            height,
            floor: climb::floor_of(height),
            next_at: climb::next_floor_at(height),
            // Whole seconds, so that the view changes once a second at most.
            grace_ms: grace_ms.div_ceil(1000) * 1000,
            fatigue,
            climbers: u8::try_from(self.occupied()).unwrap_or(u8::MAX),
            place: u8::try_from(higher + 1).unwrap_or(u8::MAX),
            ended: if c.alive() { None } else { c.last.clone() },
        }
    }

    pub(super) fn send_view(&mut self, slot: usize, now: Instant) {
        let view = self.view(slot, now);
        let Some(c) = self.slots[slot].as_mut().filter(|c| !c.bot) else {
            return;
        };
        if c.sent.as_ref() != Some(&view) {
            c.member.send(Response::Climb(view.clone()));
            c.sent = Some(view);
        }
    }

    /// Everyone's boards to every person climbing: the [`SHOWN_OTHERS`] highest others.
    pub(super) fn flush_boards(&mut self) {
        if !self.dirty {
            return;
        }
        self.dirty = false;
        let mut all: Vec<(usize, OpponentView, u32)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(seat, c)| {
                let c = c.as_ref()?;
                let view = OpponentView {
                    seat,
                    name: c.member.name.clone(),
                    board: c.board.clone(),
                    progress: c.progress,
                    alive: c.alive(),
                    place: None,
                    kos: 0,
                    target: c.target,
                };
                Some((seat, view, c.height()))
            })
            .collect();
        all.sort_by_key(|(seat, v, height)| (!v.alive, std::cmp::Reverse(*height), *seat));
        // Each person gets the others (themselves left out), highest first.
        let people: Vec<(usize, Member)> = self
            .slots
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.as_ref().filter(|c| !c.bot).map(|c| (i, c.member.clone())))
            .collect();
        for (slot, member) in people {
            let others: Vec<OpponentView> = all
                .iter()
                .filter(|(seat, ..)| *seat != slot)
                .take(SHOWN_OTHERS)
                .map(|(_, v, _)| v.clone())
                .collect();
            member.send(Response::Opponents(others));
        }
    }
}
