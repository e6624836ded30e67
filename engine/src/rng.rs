//! Seeded randomness owned by each game: the rules seed's LCG for its 7-bag, a uniformly
//! shuffled 7-bag, and SplitMix64 streams (derived from the same seed) for garbage holes and
//! start boards, so that garbage never changes the pieces a seed deals.

use crate::piece::Piece;

/// The rules seed's linear congruential generator: `state = (1664525 * state + 1013904223) mod
/// 2^32`, and the new state is the drawn value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Lcg {
    state: u32,
}

impl Lcg {
    pub fn new(seed: u32) -> Lcg {
        Lcg { state: seed }
    }

    /// Advances and returns the new state.
    pub fn next_u32(&mut self) -> u32 {
        self.state = self
            .state
            .wrapping_mul(1_664_525)
            .wrapping_add(1_013_904_223);
        self.state
    }
}

/// The 7-bag generator: each bag starts as `[I, O, T, S, Z, J, L]` and is shuffled by
/// Fisher-Yates from the last index down with `j = next() % (i + 1)`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bag {
    lcg: Lcg,
    bag: [Piece; 7],
    next: usize,
}

impl Bag {
    pub fn new(seed: u32) -> Bag {
        Bag {
            lcg: Lcg::new(seed),
            bag: Piece::ALL,
            next: 7,
        }
    }

    /// The next piece, shuffling a new bag when the current one is used up.
    #[inline]
    pub fn next_piece(&mut self) -> Piece {
        let lcg = &mut self.lcg;
        deal(&mut self.bag, &mut self.next, |n| {
            (lcg.next_u32() % n) as usize
        })
    }
}

impl Bag {
    /// The running state, for snapshots: the LCG's state, the current bag and how many of it
    /// were dealt.
    pub(crate) fn parts(&self) -> (u32, [Piece; 7], usize) {
        (self.lcg.state, self.bag, self.next)
    }

    /// A bag from [`Bag::parts`]; `None` unless `bag` is the seven pieces and `next <= 7`.
    pub(crate) fn from_parts(state: u32, bag: [Piece; 7], next: usize) -> Option<Bag> {
        valid_parts(bag, next).then_some(Bag {
            lcg: Lcg { state },
            bag,
            next,
        })
    }
}

/// Deals the next piece of a 7-bag, `bag[next]`; when the bag is used up (`next == 7`) a new
/// one starts as `[I, O, T, S, Z, J, L]` and is shuffled by Fisher-Yates from the last index
/// down with `j = below(i + 1)`, a draw in `0..i + 1`. [`Bag`] and [`FairBag`] differ only in
/// that draw.
#[inline]
fn deal(bag: &mut [Piece; 7], next: &mut usize, mut below: impl FnMut(u32) -> usize) -> Piece {
    if *next == 7 {
        *bag = Piece::ALL;
        for i in (1..7).rev() {
            let j = below(i as u32 + 1);
            bag.swap(i, j);
        }
        *next = 0;
    }
    let piece = bag[*next];
    *next += 1;
    piece
}

/// Whether a bag's parts from a snapshot are possible: the seven pieces and `next <= 7`.
fn valid_parts(bag: [Piece; 7], next: usize) -> bool {
    let mut seen = [false; 7];
    for p in bag {
        seen[p as usize] = true;
    }
    next <= 7 && seen.iter().all(|&s| s)
}

impl Iterator for Bag {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        Some(self.next_piece())
    }
}

/// The 7-bag shuffled so that every one of the 5,040 orders has the same chance: each bag
/// starts as `[I, O, T, S, Z, J, L]` and is shuffled by Fisher-Yates from the last index down
/// with `j` drawn exactly uniformly from `0..=i` ([`SplitMix::below_u64`], by rejection).
///
/// [`Bag`] (the rules seed's queue) takes `j = next() % (i + 1)` from an LCG modulo 2^32,
/// whose low bits have short periods: the parities of consecutive draws alternate, so only
/// 1,260 orders ever occur (no bag opens T then I). The draws here come from SplitMix64,
/// whose every output bit is well mixed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FairBag {
    rng: SplitMix,
    bag: [Piece; 7],
    next: usize,
}

impl FairBag {
    /// The bag of a game's seed, drawing from `SplitMix::new(seed, stream)`.
    pub fn new(seed: u32, stream: u64) -> FairBag {
        FairBag {
            rng: SplitMix::new(seed, stream),
            bag: Piece::ALL,
            next: 7,
        }
    }

    /// The next piece, shuffling a new bag when the current one is used up.
    #[inline]
    pub fn next_piece(&mut self) -> Piece {
        let rng = &mut self.rng;
        deal(&mut self.bag, &mut self.next, |n| {
            rng.below_u64(u64::from(n)) as usize
        })
    }

    /// The running state, for snapshots: the stream's state, the current bag and how many of
    /// it were dealt.
    pub(crate) fn parts(&self) -> (u64, [Piece; 7], usize) {
        (self.rng.state(), self.bag, self.next)
    }

    /// A bag from [`FairBag::parts`]; `None` unless `bag` is the seven pieces and `next <= 7`.
    pub(crate) fn from_parts(state: u64, bag: [Piece; 7], next: usize) -> Option<FairBag> {
        valid_parts(bag, next).then_some(FairBag {
            rng: SplitMix::from_state(state),
            bag,
            next,
        })
    }
}

impl Iterator for FairBag {
    type Item = Piece;

    fn next(&mut self) -> Option<Piece> {
        Some(self.next_piece())
    }
}

/// SplitMix64: a tiny, well-mixed generator for everything that is not the piece sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SplitMix {
    state: u64,
}

impl SplitMix {
    /// A stream derived from a game seed; `stream` separates independent uses.
    pub fn new(seed: u32, stream: u64) -> SplitMix {
        SplitMix {
            state: (u64::from(seed) << 8) ^ stream.wrapping_mul(0xA076_1D64_78BD_642F),
        }
    }

    /// The raw state, for snapshots ([`SplitMix::from_state`] gives the stream back).
    pub(crate) fn state(&self) -> u64 {
        self.state
    }

    pub(crate) fn from_state(state: u64) -> SplitMix {
        SplitMix { state }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value in `0..n` (`n > 0`), by Lemire's multiply-shift (bias below 2^-32 here).
    pub fn below(&mut self, n: u32) -> u32 {
        (((self.next_u64() >> 32) * u64::from(n.max(1))) >> 32) as u32
    }

    /// A uniform value in `0..n` for totals too wide for [`SplitMix::below`] (`n = 0` is taken
    /// as 1), exactly unbiased, by rejection: with `b` the bit length of `n - 1`, draw a `b`-bit
    /// value (the top `b` bits of one draw when `b <= 64`; otherwise the top `b - 64` bits of a
    /// first draw above all 64 bits of a second) and draw again while it is `>= n`. Each attempt
    /// succeeds with probability above 1/2. `n == 1` returns 0 without drawing.
    pub fn below_u128(&mut self, n: u128) -> u128 {
        if let Ok(n) = u64::try_from(n) {
            return u128::from(self.below_u64(n));
        }
        let bits = 128 - (n - 1).leading_zeros();
        loop {
            let r = if bits <= 64 {
                u128::from(self.next_u64() >> (64 - bits))
            } else {
                let hi = u128::from(self.next_u64() >> (128 - bits));
                (hi << 64) | u128::from(self.next_u64())
            };
            if r < n {
                return r;
            }
        }
    }

    /// [`SplitMix::below_u128`] for a total that fits 64 bits: the same draws and the same
    /// value, in 64-bit arithmetic.
    pub fn below_u64(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        if n == 1 {
            return 0;
        }
        let bits = 64 - (n - 1).leading_zeros();
        loop {
            let r = self.next_u64() >> (64 - bits);
            if r < n {
                return r;
            }
        }
    }
}
