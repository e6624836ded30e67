//! The figures of a game as a player reads them, formatted here and nowhere else, so that the
//! results, the leaderboards, the profile, the mode select and the `leaderboard` command say the
//! same thing about one game: a finished time `0:41.674` (every millisecond, as stored), pieces
//! per second `2.45`, attack per minute `61.3`, keys per piece `3.10`, a score `123,456`, and a
//! difference to a personal best `-1.234` / `+500`.
//!
//! Rates are rounded to their last digit, half up, from integral counts (no floating point
//! drift): 100 pieces in 40.9 s is 2.4449... pieces per second, shown `2.44`; 2.445 shows `2.45`.
//! The running game clock (tenths, while a game is played) is [`crate::text::clock`].

use std::fmt::Write;

use crate::text::{StackStr, sfmt};

/// A finished game's time, `m:ss.mmm` (hours fold into minutes): `0:41.674`, `60:00.005`.
pub fn time(ms: u64) -> StackStr<16> {
    sfmt!(16; "{}:{:02}.{:03}", ms / 60_000, ms / 1000 % 60, ms % 1000)
}

/// `n / d` with `places` decimals (1 or 2), rounded half up; `None` when `d` is 0.
fn rounded(n: u64, d: u64, places: u32) -> Option<StackStr<16>> {
    if d == 0 {
        return None;
    }
    let scale = 10u64.pow(places);
    let n = u128::from(n) * u128::from(scale);
    let d = u128::from(d);
    let v = (2 * n + d) / (2 * d);
    let (whole, frac) = (v / u128::from(scale), v % u128::from(scale));
    Some(match places {
        1 => sfmt!(16; "{}.{:01}", whole, frac),
        _ => sfmt!(16; "{}.{:02}", whole, frac),
    })
}

/// Pieces per second, two decimals rounded: `2.45`; `0.00` before any time passed.
pub fn pps(pieces: u32, ms: u64) -> StackStr<16> {
    rounded(u64::from(pieces) * 1000, ms, 2).unwrap_or_else(|| sfmt!(16; "0.00"))
}

/// Pieces per second with one decimal, rounded: `2.4`; `0.0` before any time passed.
pub fn pps_short(pieces: u32, ms: u64) -> StackStr<16> {
    rounded(u64::from(pieces) * 1000, ms, 1).unwrap_or_else(|| sfmt!(16; "0.0"))
}

/// A count per minute (attack per minute), one decimal rounded: `61.3`; `0.0` before any time.
pub fn per_minute(count: u32, ms: u64) -> StackStr<16> {
    rounded(u64::from(count) * 60_000, ms, 1).unwrap_or_else(|| sfmt!(16; "0.0"))
}

/// Keys per piece, two decimals rounded: `3.10`; `-` before the first piece.
pub fn per_piece(keys: u64, pieces: u32) -> StackStr<16> {
    rounded(keys, u64::from(pieces), 2).unwrap_or_else(|| sfmt!(16; "-"))
}

/// Digits grouped by three with commas: `123,456`.
pub fn thousands(n: u64) -> StackStr<32> {
    let digits = sfmt!(32; "{}", n);
    let d = digits.as_str();
    let mut out = StackStr::<32>::new();
    for (i, c) in d.chars().enumerate() {
        if i > 0 && (d.len() - i).is_multiple_of(3) {
            let _ = out.write_char(',');
        }
        let _ = out.write_char(c);
    }
    out
}

/// A difference of times in seconds with its sign, every millisecond: `-1.234`, `+0.500`,
/// `+0.000` for a tie.
pub fn time_delta(ms: i64) -> StackStr<16> {
    let sign = if ms < 0 { '-' } else { '+' };
    let a = ms.unsigned_abs();
    sfmt!(16; "{}{}.{:03}", sign, a / 1000, a % 1000)
}

/// A difference of counts with its sign, grouped: `+500`, `-1,250`, `+0`.
pub fn count_delta(d: i64) -> StackStr<16> {
    let sign = if d < 0 { '-' } else { '+' };
    sfmt!(16; "{}{}", sign, thousands(d.unsigned_abs()).as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_keep_every_millisecond() {
        assert_eq!(time(41_674).as_str(), "0:41.674");
        assert_eq!(time(62_345).as_str(), "1:02.345");
        assert_eq!(time(3_600_005).as_str(), "60:00.005");
        assert_eq!(time(0).as_str(), "0:00.000");
    }

    #[test]
    fn rates_round_half_up() {
        // The game: 102 pieces in 41.674 s is 2.4476 pieces per second.
        assert_eq!(pps(102, 41_674).as_str(), "2.45");
        assert_eq!(pps(100, 40_900).as_str(), "2.44");
        // Exactly 2.445 rounds up, 2.4449 down.
        assert_eq!(pps(489, 200_000).as_str(), "2.45");
        assert_eq!(pps(10, 4000).as_str(), "2.50");
        assert_eq!(pps(1, 3000).as_str(), "0.33");
        assert_eq!(pps(2, 3000).as_str(), "0.67");
        assert_eq!(pps(0, 0).as_str(), "0.00");
        assert_eq!(pps(u32::MAX, 1).as_str(), "4294967295000.00");
        assert_eq!(per_minute(41, 40_123).as_str(), "61.3");
        assert_eq!(per_minute(0, 0).as_str(), "0.0");
        assert_eq!(per_piece(310, 100).as_str(), "3.10");
        assert_eq!(per_piece(2, 3).as_str(), "0.67");
        assert_eq!(per_piece(5, 0).as_str(), "-");
    }

    #[test]
    fn counts_and_differences() {
        assert_eq!(thousands(0).as_str(), "0");
        assert_eq!(thousands(999).as_str(), "999");
        assert_eq!(thousands(1_000).as_str(), "1,000");
        assert_eq!(thousands(1_234_567).as_str(), "1,234,567");
        assert_eq!(time_delta(-1_234).as_str(), "-1.234");
        assert_eq!(time_delta(500).as_str(), "+0.500");
        assert_eq!(time_delta(0).as_str(), "+0.000");
        assert_eq!(time_delta(-61_005).as_str(), "-61.005");
        assert_eq!(count_delta(500).as_str(), "+500");
        assert_eq!(count_delta(-1_250).as_str(), "-1,250");
    }
}
