//! The combo bot's decision: which placement (with or without hold) keeps the combo longest.
//!
//! The pieces the bot can see (the current one, the preview, the hold) are certain, so every
//! way to play them is followed: after each known piece the bot tracks the *set* of wells it
//! could be in, per hold piece, as bit masks over the model's wells (one OR of a precomputed
//! successor mask per well and piece). Where the known pieces run out, the bot will have seen
//! the next piece before it must commit to one of the ends it can reach, so each first
//! placement is scored by the average over that next piece (the pieces left in the bag, or any
//! piece) of the best placement of it or of the hold from any of those ends: the pieces placed
//! on the way, plus one, plus the [`Values`] of the well it leaves under what is then known of
//! the pieces to come. A line that dies within the known pieces scores the pieces it placed.
//! The best first placement is the choice (the first found among equals).

use super::model::{ComboModel, Transition, WellId};
use super::value::{FULL, Knowledge, NO_HOLD, Values};
use minotty_engine::piece::Piece;
use minotty_engine::ruleset::Ruleset;

/// The combo bot: the model of the well, the frontier values, and the successor masks.
#[derive(Clone, Debug)]
pub struct ComboBot {
    model: ComboModel,
    values: Values,
    /// `masks[7 * well + piece]`: bit `w` set when the piece can take the well to well `w`.
    masks: Vec<u64>,
}

/// One decision of the bot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Choice {
    /// Press hold first.
    pub hold: bool,
    /// The placement to make after the hold (if any). `None` only after a hold into an empty
    /// hold when no next piece is known: the bot decides again once it sees the new piece.
    pub placement: Option<Transition>,
    /// The choice's score: about how many pieces it expects to place from here on, counting
    /// this one (the known pieces, then the values).
    pub value: f32,
}

/// The most wells the bit masks hold.
const MAX_WELLS: usize = 64;

impl ComboBot {
    /// The bot for combo mode under `rules`. Builds the model and its values (about 50 ms in a
    /// release build); build it once and share it ([`ComboBot::shared`]).
    pub fn new(rules: &Ruleset) -> ComboBot {
        let model = ComboModel::new(rules);
        assert!(
            model.len() <= MAX_WELLS,
            "{} wells do not fit the bot's masks",
            model.len()
        );
        let mut masks = vec![0u64; 7 * model.len()];
        for w in 0..model.len() {
            for p in Piece::ALL {
                for t in model.transitions(w as WellId, p) {
                    masks[7 * w + p as usize] |= 1 << t.to;
                }
            }
        }
        let values = Values::new(&model);
        ComboBot {
            model,
            values,
            masks,
        }
    }

    pub fn model(&self) -> &ComboModel {
        &self.model
    }

    /// The value of a well with `hold` held when the next piece is not known yet.
    pub fn value(&self, knowledge: Knowledge, hold: Option<Piece>, well: WellId) -> f32 {
        self.values
            .get(knowledge, hold.map_or(NO_HOLD, |p| p as usize), well)
    }

    /// The best decision in `well` with `current` in play, `hold` held (`can_hold`: the hold
    /// has not been used for this piece) and `queue` next (the pieces the bot may look at);
    /// `knowledge` is what is known of the pieces after the last of `queue`. `None` when no
    /// placement of any piece it could play keeps the combo.
    pub fn choose(
        &self,
        well: WellId,
        current: Piece,
        hold: Option<Piece>,
        can_hold: bool,
        queue: &[Piece],
        knowledge: Knowledge,
    ) -> Option<Choice> {
        self.choose_among(well, current, hold, can_hold, queue, knowledge, u64::MAX)
    }

    /// [`ComboBot::choose`] when the piece in play can only reach the wells in `reachable`
    /// (it has moved since it spawned); pieces from the hold or the queue spawn afresh.
    #[allow(clippy::too_many_arguments)]
    pub fn choose_among(
        &self,
        well: WellId,
        current: Piece,
        hold: Option<Piece>,
        can_hold: bool,
        queue: &[Piece],
        knowledge: Knowledge,
        reachable: u64,
    ) -> Option<Choice> {
        let mut seq = [current; 64];
        let len = 1 + queue.len().min(seq.len() - 1);
        seq[1..len].copy_from_slice(&queue[..len - 1]);
        let seq = &seq[..len];
        // Index of the next piece to play in `seq` is the number of placements made plus this
        // (when a piece sits in a hold that started empty).
        let offset = usize::from(hold.is_none());
        let mut best: Option<Choice> = None;
        let mut consider = |hold: bool, t: &Transition, h: usize| {
            let value = self.future(seq, offset, t.to, h, knowledge);
            if best.is_none_or(|b| value > b.value) {
                best = Some(Choice {
                    hold,
                    placement: Some(*t),
                    value,
                });
            }
        };
        let slot = hold.map_or(NO_HOLD, |p| p as usize);
        for t in self.model.transitions(well, current) {
            if reachable & (1 << t.to) != 0 {
                consider(false, t, slot);
            }
        }
        if can_hold && hold != Some(current) {
            match hold {
                Some(held) => {
                    for t in self.model.transitions(well, held) {
                        consider(true, t, current as usize);
                    }
                }
                None => match seq.get(1) {
                    Some(&next) => {
                        for t in self.model.transitions(well, next) {
                            consider(true, t, current as usize);
                        }
                    }
                    None => {
                        let value = self.values.get(knowledge, current as usize, well);
                        if best.is_none_or(|b| value > b.value) {
                            best = Some(Choice {
                                hold: true,
                                placement: None,
                                value,
                            });
                        }
                    }
                },
            }
        }
        best
    }

    /// The wells `piece` can take any well of `set` to.
    #[inline]
    fn successors(&self, mut set: u64, piece: Piece) -> u64 {
        let mut out = 0;
        while set != 0 {
            let w = set.trailing_zeros() as usize;
            set &= set - 1;
            out |= self.masks[7 * w + piece as usize];
        }
        out
    }

    /// The best score reachable after a first placement into `well` with hold slot `hold`.
    fn future(
        &self,
        seq: &[Piece],
        offset: usize,
        well: WellId,
        hold: usize,
        knowledge: Knowledge,
    ) -> f32 {
        let len = seq.len();
        let mut sets = [0u64; 8];
        sets[hold] = 1 << well;
        // The wells where the known pieces run out, per hold slot, and the pieces placed there.
        let mut front = [0u64; 8];
        let mut front_placed = [0usize; 8];
        let mut placed = 1usize;
        let mut deepest = 0usize;
        loop {
            let mut next = [0u64; 8];
            let mut any = 0u64;
            for (h, &set) in sets.iter().enumerate() {
                if set == 0 {
                    continue;
                }
                deepest = placed;
                let i = placed + if h == NO_HOLD { 0 } else { offset };
                if i >= len {
                    front[h] |= set;
                    front_placed[h] = placed;
                    continue;
                }
                let cur = seq[i];
                let moved = self.successors(set, cur);
                next[h] |= moved;
                any |= moved;
                if h != NO_HOLD {
                    let swapped = self.successors(set, Piece::ALL[h]);
                    next[cur as usize] |= swapped;
                    any |= swapped;
                } else if let Some(&after) = seq.get(i + 1) {
                    let swapped = self.successors(set, after);
                    next[cur as usize] |= swapped;
                    any |= swapped;
                } else {
                    // Hold the last known piece without placing.
                    front[cur as usize] |= set;
                    front_placed[cur as usize] = placed;
                }
            }
            if any == 0 {
                break;
            }
            sets = next;
            placed += 1;
        }
        if front.iter().all(|&s| s == 0) {
            return deepest as f32;
        }
        self.joint(&front, &front_placed, knowledge)
    }

    /// The value of being free to end in any (well, hold) of `front` once the next piece is
    /// seen: the average over the next piece of the best placement from any of them.
    fn joint(&self, front: &[u64; 8], placed: &[usize; 8], knowledge: Knowledge) -> f32 {
        let (pieces, count) = match knowledge {
            Knowledge::Uniform => (FULL, 7.0),
            Knowledge::Bag(m) => {
                let m = if m & FULL == 0 { FULL } else { m & FULL };
                (m, m.count_ones() as f32)
            }
        };
        let mut sum = 0f32;
        let mut stay = 0f32;
        for (h, &set) in front.iter().enumerate() {
            if set != 0 {
                stay = stay.max(placed[h] as f32);
            }
        }
        for p in 0..7usize {
            if pieces & (1 << p) == 0 {
                continue;
            }
            let after = match knowledge {
                Knowledge::Uniform => Knowledge::Uniform,
                Knowledge::Bag(_) => Knowledge::Bag(pieces & !(1 << p)),
            };
            let piece = Piece::ALL[p];
            let mut best = stay;
            for (h, &set) in front.iter().enumerate() {
                if set == 0 {
                    continue;
                }
                let base = placed[h] as f32;
                let moved = self.successors(set, piece);
                if moved != 0 {
                    best = best.max(base + 1.0 + self.frontier(moved, after, h));
                }
                if h == NO_HOLD {
                    best = best.max(base + self.frontier(set, after, p));
                } else {
                    let swapped = self.successors(set, Piece::ALL[h]);
                    if swapped != 0 {
                        best = best.max(base + 1.0 + self.frontier(swapped, after, p));
                    }
                }
            }
            sum += best;
        }
        sum / count
    }

    /// The best value among the wells of `set` with hold slot `hold`.
    #[inline]
    fn frontier(&self, mut set: u64, knowledge: Knowledge, hold: usize) -> f32 {
        let row = self.values.row(knowledge, hold);
        let mut best = 0f32;
        while set != 0 {
            let w = set.trailing_zeros() as usize;
            set &= set - 1;
            best = best.max(row[w]);
        }
        best
    }
}
