//! Piece generators as data: a [`Generator`] is the configuration a game (and its replay) stores,
//! and a [`PieceSource`] is its running state, seeded per game.
//!
//! The generators and their facts (stock and restock, recency weights `age^snap` with a default
//! snap of 2.5, balance weights `e^-(count - min count)`) follow the tetrs engine; the arithmetic
//! is this crate's own and is integer only, so that every platform deals the same pieces bit for
//! bit: no floating point is used while dealing, and the few real numbers involved (`a^snap`,
//! `e^-d`) are replaced by integer tables whose construction is documented below.
//!
//! Randomness: [`Generator::Bag`] deals by the ruleset's [`BagShuffle`]: exactly [`rng::Bag`]
//! from the rules seed's LCG (`tui-tetris`, and every ruleset's version 1), or
//! [`rng::FairBag`], every order equally likely. The fair bag and every other generator draw
//! from `SplitMix::new(seed, PIECE_STREAM)` with [`PIECE_STREAM`] = 3: stream 1 is the game's
//! garbage and start boards, stream 2 the versus router's, and the streams must never be
//! shared.

use crate::piece::Piece;
use crate::rng::{self, SplitMix};

#[cfg(test)]
mod tests;
mod weights;

use weights::DEFAULT_RECENCY;
pub use weights::{balance_weight, recency_weight};

/// How the 7-bag is shuffled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BagShuffle {
    /// The rules seed's exact queue: [`rng::Bag`], its LCG's value modulo `i + 1` (1,260 of
    /// the 5,040 orders occur).
    SeedLcg,
    /// [`rng::FairBag`]: every order with equal chance.
    Fair,
}

/// How a ruleset's version deals what its [`Generator`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dealing {
    pub bag: BagShuffle,
    /// Recency may deal the piece it just dealt (weight `1^snap`: "any piece may be generated
    /// at any time"); version 1 gave it weight 0.
    pub recency_repeats: bool,
}

impl Dealing {
    /// The current versions of `standard` and `tetrs` (`tui-tetris` keeps the seed's bag).
    pub const CURRENT: Dealing = Dealing {
        bag: BagShuffle::Fair,
        recency_repeats: true,
    };
}

/// The [`SplitMix`] stream the non-bag generators draw from (1 is garbage's, 2 the versus
/// router's).
pub const PIECE_STREAM: u64 = 3;

/// The default recency snap, in hundredths (snap 2.5, the tetrs seed's default).
pub const DEFAULT_SNAP_CENTI: u16 = 250;

/// The largest recency snap, in hundredths (snap 10).
pub const MAX_SNAP_CENTI: u16 = 1000;

/// The largest stock multiplicity.
pub const MAX_MULTIPLICITY: u8 = 8;

/// Recency ages saturate here (they are stored as `u8`): a piece unseen for 255 or more pieces
/// weighs as if unseen for 255. Even with snap 0 (uniform dealing) the chance that one piece is
/// missing from 255 consecutive pieces is `(6/7)^255 < 10^-17`, so the cap never changes a real
/// game; it is what keeps the weights within `u128` (see [`recency_weight`]).
pub const MAX_AGE: u8 = u8::MAX;

/// Which generator a game uses. This is configuration (stored in replays); the running state is
/// a [`PieceSource`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Generator {
    /// The 7-bag (the default), shuffled as the ruleset's [`Dealing`] says: uniformly
    /// ([`rng::FairBag`]) or as the rules seed's LCG queue ([`rng::Bag`], `tui-tetris`).
    #[default]
    Bag,
    /// Bag variants: `multiplicity` copies of each piece per stock (1..=8), drawn one at a time
    /// with probability proportional to the copies left, and restocked (adding `multiplicity`
    /// of each piece) as soon as `restock` pieces are left (`0 <= restock < 7 * multiplicity`).
    Stock { multiplicity: u8, restock: u8 },
    /// Recency-based: each piece is weighted by `age^snap`, where `age` is how many pieces ago
    /// it was last dealt (1 for the piece just dealt, so any piece may come next) and all ages
    /// start at 1 (the first piece is uniform). `snap_centi` is snap × 100, 0..=1000; default
    /// 250. (Version 1 rulesets counted the piece just dealt as age 0, weight 0: it never came
    /// twice in a row; see [`Dealing::recency_repeats`].)
    Recency { snap_centi: u16 },
    /// Uniformly random.
    Uniform,
    /// Balance-relative: the weight of a piece is `e^-(its count - the smallest count)`, counts
    /// being the pieces dealt so far.
    BalanceRelative,
}

impl Generator {
    /// The presets offered in menus, the default first.
    pub const PRESETS: [Generator; 5] = [
        Generator::Bag,
        Generator::Recency {
            snap_centi: DEFAULT_SNAP_CENTI,
        },
        Generator::Uniform,
        Generator::Stock {
            multiplicity: 2,
            restock: 0,
        },
        Generator::BalanceRelative,
    ];

    /// Recency with the default snap 2.5.
    pub const fn recency() -> Generator {
        Generator::Recency {
            snap_centi: DEFAULT_SNAP_CENTI,
        }
    }

    /// The same generator with out-of-range parameters clamped: multiplicity to 1..=8, restock
    /// to below `7 * multiplicity`, snap to 0..=10.0. [`PieceSource::new`] always deals from the
    /// validated generator.
    pub fn validated(self) -> Generator {
        match self {
            Generator::Stock {
                multiplicity,
                restock,
            } => {
                let multiplicity = multiplicity.clamp(1, MAX_MULTIPLICITY);
                Generator::Stock {
                    multiplicity,
                    restock: restock.min(7 * multiplicity - 1),
                }
            }
            Generator::Recency { snap_centi } => Generator::Recency {
                snap_centi: snap_centi.min(MAX_SNAP_CENTI),
            },
            other => other,
        }
    }

    /// The identifier used in configuration and commands: `bag`, `stock:2:3` (multiplicity,
    /// restock), `recency:2.5`, `uniform`, `balance`. [`Generator::parse`] reads it back.
    pub fn id(&self) -> String {
        match *self {
            Generator::Bag => "bag".to_string(),
            Generator::Stock {
                multiplicity,
                restock,
            } => format!("stock:{multiplicity}:{restock}"),
            Generator::Recency { snap_centi } => format!("recency:{}", snap_text(snap_centi)),
            Generator::Uniform => "uniform".to_string(),
            Generator::BalanceRelative => "balance".to_string(),
        }
    }

    /// A name for menus: `7-bag`, `Stock 2× (restock at 3)`, `Recency 2.5`, `Uniform`,
    /// `Balance-relative`.
    pub fn name(&self) -> String {
        match *self {
            Generator::Bag => "7-bag".to_string(),
            Generator::Stock {
                multiplicity,
                restock,
            } => format!("Stock {multiplicity}× (restock at {restock})"),
            Generator::Recency { snap_centi } => format!("Recency {}", snap_text(snap_centi)),
            Generator::Uniform => "Uniform".to_string(),
            Generator::BalanceRelative => "Balance-relative".to_string(),
        }
    }

    /// One line for menus.
    pub fn description(&self) -> &'static str {
        match self {
            Generator::Bag => "Every 7 pieces are the 7 tetrominoes in a random order.",
            Generator::Stock { .. } => "Several copies of each piece, dealt from a restocked pile.",
            Generator::Recency { .. } => "Pieces not seen for a while are more likely.",
            Generator::Uniform => "Every piece equally likely, every time.",
            Generator::BalanceRelative => "Pieces dealt less often so far are more likely.",
        }
    }

    /// Parses an identifier (ASCII case-insensitive, surrounding spaces ignored): `bag` (or
    /// `7bag`, `7-bag`), `stock:M` or `stock:M:R` (restock `R`, default 0), `recency` or
    /// `recency:S` (snap `S` with at most two decimals, default 2.5), `uniform` (or `random`),
    /// `balance` (or `balance-relative`). Out-of-range parameters are rejected (`None`), not
    /// clamped: a typo in a configuration should be seen.
    pub fn parse(s: &str) -> Option<Generator> {
        let s = s.trim().to_ascii_lowercase();
        let mut parts = s.split(':');
        let head = parts.next()?;
        let args: Vec<&str> = parts.collect();
        let g = match (head, args.as_slice()) {
            ("bag" | "7bag" | "7-bag", []) => Generator::Bag,
            ("uniform" | "random", []) => Generator::Uniform,
            ("balance" | "balance-relative", []) => Generator::BalanceRelative,
            ("recency", []) => Generator::recency(),
            ("recency", [snap]) => Generator::Recency {
                snap_centi: parse_centi(snap)?,
            },
            ("stock", [m]) => Generator::Stock {
                multiplicity: m.parse().ok()?,
                restock: 0,
            },
            ("stock", [m, r]) => Generator::Stock {
                multiplicity: m.parse().ok()?,
                restock: r.parse().ok()?,
            },
            _ => return None,
        };
        (g.validated() == g).then_some(g)
    }
}

/// `250` → `2.5`, `200` → `2`, `5` → `0.05`.
fn snap_text(centi: u16) -> String {
    let (whole, frac) = (centi / 100, centi % 100);
    match frac {
        0 => format!("{whole}"),
        f if f % 10 == 0 => format!("{whole}.{}", f / 10),
        f => format!("{whole}.{f:02}"),
    }
}

/// A decimal with at most two fraction digits, as hundredths, without floating point.
fn parse_centi(s: &str) -> Option<u16> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if (whole.is_empty() && frac.is_empty()) || !digits(whole) || !digits(frac) || frac.len() > 2 {
        return None;
    }
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac: u32 = match frac.len() {
        0 => 0,
        1 => frac.parse::<u32>().ok()? * 10,
        _ => frac.parse().ok()?,
    };
    u16::try_from(whole.checked_mul(100)?.checked_add(frac)?).ok()
}

/// The running state of a [`Generator`] for one game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PieceSource {
    pub(crate) state: State,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) enum State {
    Bag(rng::Bag),
    FairBag(rng::FairBag),
    Stock {
        rng: SplitMix,
        multiplicity: u8,
        restock: u8,
        /// Copies left of each piece, in [`Piece::ALL`] order (each at most `restock +
        /// multiplicity < 64`).
        left: [u8; 7],
    },
    Recency {
        rng: SplitMix,
        snap_centi: u16,
        /// How many pieces ago each piece was last dealt, saturating at [`MAX_AGE`]: the piece
        /// just dealt has age 1 when `repeats`, 0 (weight 0) otherwise (version 1).
        ages: [u8; 7],
        repeats: bool,
    },
    Uniform {
        rng: SplitMix,
    },
    Balance {
        rng: SplitMix,
        /// Pieces dealt of each piece minus the smallest such count (saturating at 255).
        relative: [u8; 7],
    },
}

impl PieceSource {
    /// The source for `generator` (validated first, see [`Generator::validated`]) and a game's
    /// seed, dealing as the current `standard` and `tetrs` do ([`Dealing::CURRENT`]).
    pub fn new(generator: Generator, seed: u32) -> PieceSource {
        PieceSource::dealing(generator, seed, Dealing::CURRENT)
    }

    /// The source for `generator` and a game's seed, dealing as a ruleset version does.
    pub fn dealing(generator: Generator, seed: u32, dealing: Dealing) -> PieceSource {
        let rng = SplitMix::new(seed, PIECE_STREAM);
        let state = match generator.validated() {
            Generator::Bag => match dealing.bag {
                BagShuffle::SeedLcg => State::Bag(rng::Bag::new(seed)),
                BagShuffle::Fair => State::FairBag(rng::FairBag::new(seed, PIECE_STREAM)),
            },
            Generator::Stock {
                multiplicity,
                restock,
            } => State::Stock {
                rng,
                multiplicity,
                restock,
                left: [multiplicity; 7],
            },
            Generator::Recency { snap_centi } => State::Recency {
                rng,
                snap_centi,
                ages: [1; 7],
                repeats: dealing.recency_repeats,
            },
            Generator::Uniform => State::Uniform { rng },
            Generator::BalanceRelative => State::Balance {
                rng,
                relative: [0; 7],
            },
        };
        PieceSource { state }
    }

    /// The (validated) generator this source deals for.
    pub fn generator(&self) -> Generator {
        match self.state {
            State::Bag(_) | State::FairBag(_) => Generator::Bag,
            State::Stock {
                multiplicity,
                restock,
                ..
            } => Generator::Stock {
                multiplicity,
                restock,
            },
            State::Recency { snap_centi, .. } => Generator::Recency { snap_centi },
            State::Uniform { .. } => Generator::Uniform,
            State::Balance { .. } => Generator::BalanceRelative,
        }
    }

    /// The next piece. No allocation and no floating point:
    ///
    /// * `Bag`: [`rng::Bag::next_piece`] or [`rng::FairBag::next_piece`].
    /// * `Stock`: `r = below(total copies left)` ([`SplitMix::below`]), and the piece whose
    ///   cumulative copies in [`Piece::ALL`] order first exceed `r`; one copy is removed, and if
    ///   exactly `restock` copies are then left, `multiplicity` copies of every piece are added.
    /// * `Recency`: weights [`recency_weight`]`(age, snap_centi)`, `r =`
    ///   [`SplitMix::below_u128`]`(sum)`, the piece whose cumulative weight first exceeds `r`;
    ///   then every age grows by one (saturating at [`MAX_AGE`]) and the dealt piece's becomes 1
    ///   (0 in version 1).
    /// * `Uniform`: `Piece::ALL[below(7)]`.
    /// * `BalanceRelative`: weights [`balance_weight`]`(relative count)`, chosen as for recency;
    ///   the dealt piece's relative count grows by one, and if every count is then positive,
    ///   the smallest is subtracted from all.
    #[inline]
    pub fn next_piece(&mut self) -> Piece {
        match &mut self.state {
            State::Bag(bag) => bag.next_piece(),
            State::FairBag(bag) => bag.next_piece(),
            _ => self.next_drawn(),
        }
    }

    /// [`PieceSource::next_piece`] for every generator but the bag, kept out of line so that
    /// the bag's path stays small where it is inlined.
    #[inline(never)]
    fn next_drawn(&mut self) -> Piece {
        match &mut self.state {
            State::Bag(bag) => bag.next_piece(),
            State::FairBag(bag) => bag.next_piece(),
            State::Stock {
                rng,
                multiplicity,
                restock,
                left,
            } => {
                let total: u32 = left.iter().map(|&c| u32::from(c)).sum();
                let i = pick(left.map(u128::from), u128::from(rng.below(total)));
                left[i] -= 1;
                if total - 1 == u32::from(*restock) {
                    for c in left.iter_mut() {
                        *c += *multiplicity;
                    }
                }
                Piece::ALL[i]
            }
            State::Recency {
                rng,
                snap_centi,
                ages,
                repeats,
            } => {
                let i = if *snap_centi == DEFAULT_SNAP_CENTI {
                    let weights = ages.map(|a| DEFAULT_RECENCY[usize::from(a)]);
                    pick(weights, rng.below_u64(weights.iter().sum()))
                } else {
                    let weights = ages.map(|a| recency_weight(a, *snap_centi));
                    pick(weights, rng.below_u128(weights.iter().sum()))
                };
                for a in ages.iter_mut() {
                    *a = a.saturating_add(1);
                }
                ages[i] = u8::from(*repeats);
                Piece::ALL[i]
            }
            State::Uniform { rng } => Piece::ALL[rng.below(7) as usize],
            State::Balance { rng, relative } => {
                let weights = relative.map(|d| u128::from(balance_weight(d)));
                let i = pick(weights, rng.below_u128(weights.iter().sum()));
                relative[i] = relative[i].saturating_add(1);
                let min = relative.iter().copied().min().unwrap_or(0);
                if min > 0 {
                    for d in relative.iter_mut() {
                        *d -= min;
                    }
                }
                Piece::ALL[i]
            }
        }
    }
}

/// The index whose cumulative weight first exceeds `r` (`r` below the sum of `weights`).
fn pick<W: Copy + Ord + std::ops::SubAssign + From<u8>>(weights: [W; 7], mut r: W) -> usize {
    for (i, &w) in weights.iter().enumerate() {
        if r < w {
            return i;
        }
        r -= w;
    }
    // Unreachable for r < sum; the last piece with weight keeps it total all the same.
    weights.iter().rposition(|&w| w > W::from(0)).unwrap_or(6)
}

impl Iterator for PieceSource {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        Some(self.next_piece())
    }
}
