//! Integer weights of the recency and balance-relative generators, as fixed-point tables
//! computed at compile time (see the comment below).

use super::{DEFAULT_SNAP_CENTI, MAX_SNAP_CENTI};

// ---------------------------------------------------------------------------------------------
// Fixed-point arithmetic for recency weights.
//
// `recency_weight(a, c)` is `a^(c/100)` in units of 2^-40. With `c = 100 n + f` (`f < 100`) it
// is `a^n * 2^(f * log2(a) / 100)`: the integer power `a^n` exactly (so integer snaps give exact
// weights), times the fractional power computed in fixed point:
//
// * `LOG2_Q48[a]` is `log2(a)` in Q48 (48 fraction bits) for `a` in 1..=255, by the classic
//   bit-by-bit method: `a = 2^j * y` with `y` in [1, 2) held in Q62; each of 48 steps squares `y`
//   (truncating to Q62) and, if `y >= 2`, halves it and sets the next fraction bit.
// * `EXP2_Q62[i]` is `2^(2^-(i+1))` in Q62 for i in 0..48: the first is `isqrt(2 * 2^124)` and
//   each next one `isqrt(previous * 2^62)` (successive square roots of 2, truncated).
// * `EXP2_BYTES_Q62[j][b]` is `2^(b / 256^(j+1))` in Q62 for j in 0..6 and b in 0..256: the
//   product of `EXP2_Q62[i]` over the bits of `b` (truncating to Q62, most significant first).
// * The exponent `e = f * LOG2_Q48[a] / 100` (integer division, truncating) is split into its
//   integer part `k` and its six fraction bytes; the mantissa `m` starts at 1.0 in Q62 and is
//   multiplied (truncating to Q62) by `EXP2_BYTES_Q62[j][byte j]` for each nonzero byte, most
//   significant first. The fractional power is `(m >> 22) << k`: the mantissa with 40 fraction
//   bits, shifted by `k`; the weight is that times `a^n`.
//
// All tables are computed at compile time by `const fn`s with `u128` integer arithmetic only.
// Every step truncates; the relative error against the real `a^snap` is 0 for integer snaps
// and below 2^-38 (about 4e-12) otherwise; tests check 1e-10 against f64. With `a <= 255` and
// snap <= 10 a weight is at most `255^10 * 2^40 < 2^120` (and every intermediate product is
// below the final weight's bound), so the sum of seven is below 2^123: no overflow.
// ---------------------------------------------------------------------------------------------

const ONE_Q62: u128 = 1 << 62;

const fn log2_q48(a: u32) -> u64 {
    let n = 31 - a.leading_zeros();
    let mut y: u128 = ((a as u128) << 62) >> n;
    let mut result: u64 = (n as u64) << 48;
    let mut bit: u64 = 1 << 47;
    while bit > 0 {
        y = (y * y) >> 62;
        if y >= 2 * ONE_Q62 {
            y >>= 1;
            result |= bit;
        }
        bit >>= 1;
    }
    result
}

const LOG2_Q48: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut a = 1;
    while a < 256 {
        table[a] = log2_q48(a as u32);
        a += 1;
    }
    table
};

/// Each entry is in (1, 2) in Q62, so below 2^63: stored as `u64` so that a product of two is
/// one widening 64 x 64 -> 128 bit multiplication.
const EXP2_Q62: [u64; 48] = {
    let mut table = [0u64; 48];
    let mut x = (2 * ONE_Q62 * ONE_Q62).isqrt();
    let mut i = 0;
    while i < 48 {
        table[i] = x as u64;
        x = (x * ONE_Q62).isqrt();
        i += 1;
    }
    table
};

/// `EXP2_BYTES_Q62[j][b]` is `2^(b / 256^(j+1))` in Q62: the product (truncating to Q62, most
/// significant first) of `EXP2_Q62[8j + 7 - t]` over the set bits `t` of `b`.
const EXP2_BYTES_Q62: [[u64; 256]; 6] = {
    let mut table = [[0u64; 256]; 6];
    let mut j = 0;
    while j < 6 {
        let mut b = 0;
        while b < 256 {
            let mut m = ONE_Q62 as u64;
            let mut t = 8;
            while t > 0 {
                t -= 1;
                if b & (1 << t) != 0 {
                    m = ((m as u128 * EXP2_Q62[8 * j + 7 - t] as u128) >> 62) as u64;
                }
            }
            table[j][b] = m;
            b += 1;
        }
        j += 1;
    }
    table
};

/// The recency weight of a piece `age` pieces old under snap `snap_centi / 100`: `age^snap` in
/// units of 2^-40 (so `2^40` is weight 1), with `0^0 = 1` and `0^snap = 0` otherwise.
/// `snap_centi` above 1000 is taken as 1000. Integer arithmetic only, as described in this
/// module's source: exact for integer snaps, relative error below 2^-38 otherwise.
pub const fn recency_weight(age: u8, snap_centi: u16) -> u128 {
    let snap_centi = if snap_centi > MAX_SNAP_CENTI {
        MAX_SNAP_CENTI
    } else {
        snap_centi
    };
    if snap_centi == 0 {
        return 1 << 40;
    }
    if age == 0 {
        return 0;
    }
    let whole = (snap_centi / 100) as u32;
    let frac = (snap_centi % 100) as u64;
    // frac < 2^7 and LOG2_Q48 < 8 * 2^48 = 2^51: the product is below 2^58; k <= 7.
    let e = frac * LOG2_Q48[age as usize] / 100;
    let k = e >> 48;
    // The six bytes of the fraction, most significant first; m stays in [1, 2) in Q62.
    let mut m = ONE_Q62 as u64;
    let mut j = 0;
    while j < 6 {
        let byte = ((e >> (40 - 8 * j)) & 0xFF) as usize;
        if byte != 0 {
            m = ((m as u128 * EXP2_BYTES_Q62[j][byte] as u128) >> 62) as u64;
        }
        j += 1;
    }
    // a^n <= 255^10 < 2^80 and the fractional power < a < 2^8 in Q40: the product < 2^128,
    // and in fact at most 255^10 * 2^40 < 2^120 (the power is monotonic in the snap).
    (age as u128).pow(whole) * (((m >> 22) as u128) << k)
}

/// [`recency_weight`] at the default snap for every age, computed at compile time (tetrs games
/// deal from it: a lookup instead of six multiplications per piece and weight). At this snap
/// seven weights add up to less than 2^64 (checked below), so the draw runs in 64 bits.
pub(super) static DEFAULT_RECENCY: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut age = 0;
    while age < 256 {
        let w = recency_weight(age as u8, DEFAULT_SNAP_CENTI);
        assert!(
            w <= u64::MAX as u128 / 7,
            "seven default weights must fit 64 bits"
        );
        t[age] = w as u64;
        age += 1;
    }
    t
};

/// `round(2^60 * e^-d)` for d in 0..=42, worked out once with 60-digit decimal arithmetic and
/// pinned; `e^-42 * 2^60` rounds to 1, and every larger difference also weighs 1 (such a
/// difference is never reached in practice: see the balance tests).
const BALANCE_Q60: [u64; 43] = [
    1_152_921_504_606_846_976,
    424_136_118_829_305_330,
    156_030_958_375_549_300,
    57_400_581_772_641_654,
    21_116_493_945_435_090,
    7_768_323_992_146_806,
    2_857_806_689_069_675,
    1_051_328_327_750_962,
    386_762_077_700_731,
    142_281_817_010_851,
    52_342_555_330_809,
    19_255_750_004_583,
    7_083_794_551_023,
    2_605_982_380_804,
    958_687_341_953,
    352_681_363_616,
    129_744_222_959,
    47_730_232_237,
    17_558_971_162,
    6_459_584_499,
    2_376_348_336,
    874_209_698,
    321_603_775,
    118_311_417,
    43_524_338,
    16_011_709,
    5_890_379,
    2_166_949,
    797_176,
    293_265,
    107_886,
    39_689,
    14_601,
    5_371,
    1_976,
    727,
    267,
    98,
    36,
    13,
    5,
    2,
    1,
];

/// The balance-relative weight of a piece dealt `d` more times than the least dealt piece:
/// `e^-d` in units of 2^-60, rounded, from a pinned table; 1 unit for `d >= 42`.
pub const fn balance_weight(d: u8) -> u64 {
    let i = if (d as usize) < BALANCE_Q60.len() {
        d as usize
    } else {
        BALANCE_Q60.len() - 1
    };
    BALANCE_Q60[i]
}
