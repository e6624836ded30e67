//! What a well is worth once the known pieces run out: the expected number of further pieces
//! that keep the combo when each next piece is seen only as it arrives, the hold always
//! available, and the bot playing that game as well as it can. Computed once per model by value
//! iteration, for the 7-bag (by the pieces left in the current bag) and for pieces dealt
//! uniformly at random (every other generator).

use super::model::{ComboModel, WellId};
use minotty_engine::piece::Piece;

/// What is known about the pieces after the last one the bot can see.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Knowledge {
    /// Any piece may come, each as likely (how the bot treats every generator but the bag).
    Uniform,
    /// A 7-bag: bit `p` (in [`Piece::ALL`] order) is set for each piece still to come in the
    /// current bag. `0` (or `0x7f`) means the next piece starts a new bag.
    Bag(u8),
}

impl Knowledge {
    /// The knowledge of a 7-bag once `dealt` pieces were dealt since the game's first, `recent`
    /// being the latest of them, oldest first (only the last `dealt % 7` matter: those of the
    /// current bag).
    pub fn bag_after(dealt: usize, recent: impl DoubleEndedIterator<Item = Piece>) -> Knowledge {
        let mut left = FULL;
        for p in recent.rev().take(dealt % 7) {
            left &= !(1 << p as u8);
        }
        Knowledge::Bag(left)
    }
}

/// Every piece.
pub const FULL: u8 = 0x7f;
/// The hold slot's index for an empty hold.
pub const NO_HOLD: usize = 7;
/// The iteration stops when no value changed by more than this in a sweep...
const TOLERANCE: f32 = 1e-3;
/// ... or after this many sweeps.
const MAX_SWEEPS: usize = 2000;

/// Frontier values per (knowledge, hold, well).
#[derive(Clone, Debug)]
pub struct Values {
    wells: usize,
    /// Index `(bag * 8 + hold) * wells + well`, `bag` the mask of pieces left (1..=127).
    bag: Vec<f32>,
    /// Index `hold * wells + well`.
    uniform: Vec<f32>,
}

impl Values {
    pub fn new(model: &ComboModel) -> Values {
        let wells = model.len();
        // Sets of pieces left, fewest first (each leads to a smaller one, the last to a full bag).
        let mut by_size: Vec<usize> = (1..128).collect();
        by_size.sort_by_key(|m| m.count_ones());
        Values {
            wells,
            bag: iterate(model, 128, &by_size, |m| {
                // Context 0 is never used: an empty bag is a full one.
                let m = m as u8;
                (0..7u8)
                    .filter(|p| m & (1 << p) != 0)
                    .map(|p| {
                        let left = m & !(1 << p);
                        (p, if left == 0 { FULL } else { left } as usize)
                    })
                    .collect()
            }),
            uniform: iterate(model, 1, &[0], |_| (0..7u8).map(|p| (p, 0)).collect()),
        }
    }

    /// The value of `well` with `hold` (7 = empty) when the next piece is unknown.
    #[inline]
    pub fn get(&self, knowledge: Knowledge, hold: usize, well: WellId) -> f32 {
        match knowledge {
            Knowledge::Uniform => self.uniform[hold * self.wells + usize::from(well)],
            Knowledge::Bag(m) => {
                let m = if m == 0 { FULL } else { m & FULL };
                self.bag[(usize::from(m) * 8 + hold) * self.wells + usize::from(well)]
            }
        }
    }

    /// The slice of values for one knowledge and hold, indexed by well.
    #[inline]
    pub fn row(&self, knowledge: Knowledge, hold: usize) -> &[f32] {
        let start = match knowledge {
            Knowledge::Uniform => hold * self.wells,
            Knowledge::Bag(m) => {
                let m = if m == 0 { FULL } else { m & FULL };
                (usize::from(m) * 8 + hold) * self.wells
            }
        };
        &self.uniform_or_bag(knowledge)[start..start + self.wells]
    }

    fn uniform_or_bag(&self, knowledge: Knowledge) -> &[f32] {
        match knowledge {
            Knowledge::Uniform => &self.uniform,
            Knowledge::Bag(_) => &self.bag,
        }
    }
}

/// Value iteration over (context, hold, well): `draws(context)` lists each possible next piece
/// (as its index) with the context after it, all equally likely. The sweeps update in place,
/// contexts in the order given, so that contexts listed after those they lead to (the bag's
/// smaller sets of pieces left first) see this sweep's values: one sweep then looks a whole bag
/// further.
fn iterate(
    model: &ComboModel,
    contexts: usize,
    order: &[usize],
    draws: impl Fn(usize) -> Vec<(u8, usize)>,
) -> Vec<f32> {
    let wells = model.len();
    let draws: Vec<Vec<(u8, usize)>> = (0..contexts).map(draws).collect();
    // The wells each (well, piece) leads to, flattened.
    let next: Vec<Vec<usize>> = (0..wells * 7)
        .map(|i| {
            model
                .transitions((i / 7) as WellId, Piece::ALL[i % 7])
                .iter()
                .map(|t| usize::from(t.to))
                .collect()
        })
        .collect();
    let mut v = vec![0f32; contexts * 8 * wells];
    let at = |c: usize, h: usize, w: usize| (c * 8 + h) * wells + w;
    for _ in 0..MAX_SWEEPS {
        let mut change = 0f32;
        for &c in order {
            let options = &draws[c];
            if options.is_empty() {
                continue;
            }
            for h in 0..8 {
                for w in 0..wells {
                    let mut sum = 0f32;
                    for &(p, after) in options {
                        let p = usize::from(p);
                        let mut best = 0f32;
                        for &to in &next[w * 7 + p] {
                            best = best.max(1.0 + v[at(after, h, to)]);
                        }
                        if h == NO_HOLD {
                            best = best.max(v[at(after, p, w)]);
                        } else {
                            for &to in &next[w * 7 + h] {
                                best = best.max(1.0 + v[at(after, p, to)]);
                            }
                        }
                        sum += best;
                    }
                    let value = sum / options.len() as f32;
                    change = change.max((value - v[at(c, h, w)]).abs());
                    v[at(c, h, w)] = value;
                }
            }
        }
        if change < TOLERANCE {
            break;
        }
    }
    v
}
