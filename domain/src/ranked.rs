//! Ranked play as a series: how long a ranked series is by rating band, placement, letter
//! ranks by percentile, the deviation that grows while a player is idle, and seasons. Pure
//! functions of their arguments (the store and the server call them with the time they hold).
//!
//! **Series length by band** ([`SERIES_BANDS`], [`series_first_to`]): a ranked quick match is
//! a series, first to 3 below 1600, first to 5 from 1600, first to 7 from 1900 (no win-by
//! margin); the queue's pair plays the length of the *lower* of its two ratings
//! ([`pair_first_to`]). A series is rated once, at its end, as one Glicko-2 game won by the
//! series' winner. A player who leaves a series before its end (during a game or between
//! two) loses the series: it is rated then, won by the one who stayed.
//!
//! **Placement** ([`PLACEMENT_SERIES`], [`placement`]): a player's first ten rated series are
//! placement series, shown as "placement 3/10"; they start at Glicko-2's default deviation
//! (350), high, so the rating moves fast; no letter rank while placing.
//!
//! **Letter ranks** ([`LETTERS`], [`letter`]): once placed and with a deviation of at most
//! [`LETTER_MAX_DEVIATION`], a player's letter is by their percentile among the rated
//! population (the placed players with such a deviation): the share of that population rated
//! strictly above them.
//!
//! **Idle deviation** ([`idle_grown`]): each full week ([`IDLE_PERIOD_MS`]) since a player's
//! last rated series is one Glicko-2 rating period without games: phi' = sqrt(phi^2 +
//! sigma^2) (on the Glicko-2 scale), so after k weeks phi_k = sqrt(phi^2 + k sigma^2), never
//! above the default 350. Applied when a rating is read for a series (the queue) and by the
//! store before it rates one.
//!
//! **Seasons** ([`Season`]): a season is a calendar quarter (UTC). The season's board lists
//! the players who finished a rated series in it, with the rating of their latest series in
//! it and their season record; a new season starts that board and record empty. Nothing else
//! resets: the rating, its deviation, the placement count and the all-time board go on.

use minotty_engine::rating::Rating;

use crate::UnixMs;
use crate::period::civil_date;

/// Glicko's scale between the Glicko and Glicko-2 scales (the engine's `rating.rs` too).
const SCALE: f64 = 173.7178;

/// The series' length by rating band: `(lowest rating of the band, first to)`, lowest band
/// first. A rating below every band's floor is in the first band.
pub const SERIES_BANDS: [(f64, u8); 3] = [(f64::NEG_INFINITY, 3), (1600.0, 5), (1900.0, 7)];

/// Game wins that win a ranked series for a player of `rating`.
pub fn series_first_to(rating: f64) -> u8 {
    SERIES_BANDS
        .iter()
        .rev()
        .find(|(floor, _)| rating >= *floor)
        .map_or(SERIES_BANDS[0].1, |&(_, n)| n)
}

/// The length of a ranked series between players of ratings `a` and `b`: the lower band's.
pub fn pair_first_to(a: f64, b: f64) -> u8 {
    // A NaN (never stored, but a peer could claim one) is the lowest band.
    let low = if a.is_nan() || b.is_nan() {
        f64::NEG_INFINITY
    } else {
        a.min(b)
    };
    series_first_to(low)
}

/// Rated series that are placement.
pub const PLACEMENT_SERIES: u32 = 10;

/// "placement 3/10": `Some((played, PLACEMENT_SERIES))` while a player who has played
/// `series` rated series still places, `None` once placed.
pub fn placement(series: u32) -> Option<(u32, u32)> {
    (series < PLACEMENT_SERIES).then_some((series, PLACEMENT_SERIES))
}

/// The highest deviation that has a letter rank (and counts in the rated population).
pub const LETTER_MAX_DEVIATION: f64 = 100.0;

/// The letters by percentile: `(share of the population rated above, at most, letter)`, best
/// first; the first row whose share is not exceeded gives the letter.
pub const LETTERS: [(f64, &str); 7] = [
    (0.01, "X"),
    (0.05, "SS"),
    (0.15, "S"),
    (0.35, "A"),
    (0.60, "B"),
    (0.85, "C"),
    (1.00, "D"),
];

/// Whether a player with this record counts in the rated population (and can have a letter).
pub fn is_rated(deviation: f64, series: u32) -> bool {
    placement(series).is_none() && deviation <= LETTER_MAX_DEVIATION
}

/// The letter of a player rated `rating` with `deviation` after `series` rated series, among
/// `population`: the rated population's ratings, ascending. `None` while placing, with a
/// deviation above [`LETTER_MAX_DEVIATION`] or without a population.
pub fn letter(
    rating: f64,
    deviation: f64,
    series: u32,
    population: &[f64],
) -> Option<&'static str> {
    if !is_rated(deviation, series) || population.is_empty() || rating.is_nan() {
        return None;
    }
    let not_above = population.partition_point(|&r| r <= rating);
    let above = population.len() - not_above;
    let share = above as f64 / population.len() as f64;
    LETTERS
        .iter()
        .find(|(most, _)| share <= *most)
        .map(|&(_, l)| l)
}

/// A rating period of idle time: one week.
pub const IDLE_PERIOD_MS: i64 = 7 * 86_400_000;

/// Whole idle weeks between the last rated series at `last_at` and `now` (0 for a clock
/// that went back).
pub fn idle_periods(last_at: UnixMs, now: UnixMs) -> u64 {
    u64::try_from(now.saturating_sub(last_at) / IDLE_PERIOD_MS).unwrap_or(0)
}

/// `r` after the idle rating periods between `last_at` and `now` (see the module's doc).
pub fn idle_grown(r: Rating, last_at: UnixMs, now: UnixMs) -> Rating {
    let k = idle_periods(last_at, now);
    if k == 0 {
        return r;
    }
    let cap = Rating::default().deviation;
    let phi = r.deviation / SCALE;
    let grown = (phi * phi + k as f64 * r.volatility * r.volatility).sqrt() * SCALE;
    Rating {
        deviation: grown.min(cap.max(r.deviation)),
        ..r
    }
}

/// A ranked season: a calendar quarter (UTC), numbered `year * 4 + quarter - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Season(pub i64);

impl Season {
    /// The season that `t` falls in.
    pub fn of(t: UnixMs) -> Season {
        let (y, m, _) = civil_date(t);
        Season(y * 4 + i64::from((m - 1) / 3))
    }

    pub fn year(self) -> i64 {
        self.0.div_euclid(4)
    }

    /// 1-4.
    pub fn quarter(self) -> u32 {
        self.0.rem_euclid(4) as u32 + 1
    }

    /// "2026 Q4".
    pub fn name(self) -> String {
        format!("{} Q{}", self.year(), self.quarter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_length_by_band() {
        // (rating, first to)
        let cases = [
            (0.0, 3),
            (1500.0, 3),
            (1599.99, 3),
            (1600.0, 5),
            (1899.0, 5),
            (1900.0, 7),
            (3000.0, 7),
            (f64::NEG_INFINITY, 3),
        ];
        for (rating, n) in cases {
            assert_eq!(series_first_to(rating), n, "{rating}");
        }
        // A pair plays the lower band's length.
        let pairs = [
            (1500.0, 2000.0, 3),
            (2000.0, 1650.0, 5),
            (1950.0, 2100.0, 7),
            (f64::NAN, 2100.0, 3),
        ];
        for (a, b, n) in pairs {
            assert_eq!(pair_first_to(a, b), n, "{a} {b}");
            assert_eq!(pair_first_to(b, a), n, "{b} {a}");
        }
    }

    #[test]
    fn the_first_ten_series_are_placement() {
        let cases = [
            (0, Some((0, 10))),
            (3, Some((3, 10))),
            (9, Some((9, 10))),
            (10, None),
            (500, None),
        ];
        for (series, shown) in cases {
            assert_eq!(placement(series), shown, "{series}");
        }
    }

    #[test]
    fn letters_by_percentile() {
        // 100 rated players: 1000, 1010, ..., 1990.
        let population: Vec<f64> = (0..100).map(|i| 1000.0 + 10.0 * f64::from(i)).collect();
        // (rating, letter): the share rated above picks the row.
        let cases = [
            (1990.0, "X"),  // 0 above
            (1980.0, "X"),  // 1 above: 1%
            (1970.0, "SS"), // 2%
            (1950.0, "SS"), // 4%
            (1940.0, "SS"), // 5%
            (1930.0, "S"),  // 6%
            (1850.0, "S"),  // 14%
            (1840.0, "S"),  // 15%
            (1830.0, "A"),  // 16%
            (1640.0, "A"),  // 35%
            (1630.0, "B"),  // 36%
            (1390.0, "B"),  // 60%
            (1380.0, "C"),  // 61%
            (1140.0, "C"),  // 85%
            (1130.0, "D"),  // 86%
            (1000.0, "D"),  // 99%
            (500.0, "D"),   // everyone above
            (2500.0, "X"),  // above everyone
            (1975.0, "SS"), // between 1970 and 1980: 2 above
        ];
        for (rating, l) in cases {
            assert_eq!(letter(rating, 60.0, 40, &population), Some(l), "{rating}");
        }
        // No letter while placing, with a high deviation, or with nobody rated.
        assert_eq!(letter(1990.0, 60.0, 9, &population), None);
        assert_eq!(letter(1990.0, 100.1, 40, &population), None);
        assert_eq!(letter(1990.0, 100.0, 40, &population), Some("X"));
        assert_eq!(letter(1990.0, 60.0, 40, &[]), None);
        assert_eq!(letter(f64::NAN, 60.0, 40, &population), None);
        // The table ends at everyone: every share has a letter.
        assert_eq!(LETTERS.last().map(|l| l.0), Some(1.0));
    }

    #[test]
    fn deviation_grows_per_idle_week() {
        const WEEK: i64 = IDLE_PERIOD_MS;
        let r = Rating {
            rating: 1800.0,
            deviation: 50.0,
            volatility: 0.06,
        };
        // (idle time, periods, deviation): phi_k = sqrt(phi^2 + k sigma^2) * 173.7178.
        let cases = [
            (0, 0, 50.0),
            (WEEK - 1, 0, 50.0),
            (WEEK, 1, 51.0749),
            (2 * WEEK + 5, 2, 52.1275),
            (10 * WEEK, 10, 59.8866),
            (52 * WEEK, 52, 90.2735),
            (-WEEK, 0, 50.0),
        ];
        for (idle, k, deviation) in cases {
            assert_eq!(idle_periods(1_000, 1_000 + idle), k, "{idle}");
            let grown = idle_grown(r, 1_000, 1_000 + idle);
            assert!(
                (grown.deviation - deviation).abs() < 1e-3,
                "{idle}: {}",
                grown.deviation
            );
            assert_eq!((grown.rating, grown.volatility), (r.rating, r.volatility));
        }
        // One step at a time is the closed form: the paper's step for a player who did not
        // play (the engine's `update` with no games).
        let mut stepped = r;
        for _ in 0..10 {
            stepped = stepped.update(&[], minotty_engine::rating::DEFAULT_TAU);
        }
        assert!((stepped.deviation - idle_grown(r, 0, 10 * WEEK).deviation).abs() < 1e-9);
        // Never above the default deviation (centuries idle).
        let long = idle_grown(r, 0, i64::MAX);
        assert_eq!(long.deviation, 350.0);
    }

    #[test]
    fn seasons_are_calendar_quarters() {
        // (time, season's name)
        let cases = [
            (0, "1970 Q1"),
            (1_709_212_455_678, "2024 Q1"), // 2024-02-29
            (1_711_929_599_999, "2024 Q1"), // 2024-03-31T23:59:59.999Z
            (1_711_929_600_000, "2024 Q2"), // 2024-04-01
            (1_727_740_800_000, "2024 Q4"), // 2024-10-01
            (1_735_689_599_999, "2024 Q4"), // 2024-12-31T23:59:59.999Z
            (1_735_689_600_000, "2025 Q1"),
        ];
        for (t, name) in cases {
            assert_eq!(Season::of(t).name(), name, "{t}");
        }
        assert!(Season::of(1_735_689_600_000) > Season::of(1_735_689_599_999));
        assert_eq!(Season::of(1_711_929_600_000).0, 2024 * 4 + 1);
    }
}
