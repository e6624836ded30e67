//! Leaderboard periods: all time, the current calendar month and the current day, in UTC.

use crate::UnixMs;

const DAY_MS: i64 = 86_400_000;

/// Which games a leaderboard counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Period {
    AllTime,
    /// The calendar month (UTC) that `now` falls in.
    Month,
    /// The day (UTC) that `now` falls in.
    Today,
}

impl Period {
    pub const ALL: [Period; 3] = [Period::AllTime, Period::Month, Period::Today];

    /// The value of the `period` column.
    pub fn as_db(self) -> &'static str {
        match self {
            Period::AllTime => "all",
            Period::Month => "month",
            Period::Today => "day",
        }
    }

    /// The first millisecond of the period that `t` falls in (0 for all time).
    pub fn start(self, t: UnixMs) -> UnixMs {
        match self {
            Period::AllTime => 0,
            Period::Today => t.div_euclid(DAY_MS) * DAY_MS,
            Period::Month => {
                let (y, m, _) = civil_from_days(t.div_euclid(DAY_MS));
                days_from_civil(y, m, 1) * DAY_MS
            }
        }
    }

    /// Parses `all`, `month` or `today` (and `day`).
    pub fn parse(s: &str) -> Option<Period> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" | "all-time" | "alltime" => Some(Period::AllTime),
            "month" => Some(Period::Month),
            "today" | "day" => Some(Period::Today),
            _ => None,
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Period::AllTime => "All time",
            Period::Month => "This month",
            Period::Today => "Today",
        }
    }
}

/// The date (UTC) that `t` falls in: year, month 1-12, day 1-31.
pub fn civil_date(t: UnixMs) -> (i64, u32, u32) {
    civil_from_days(t.div_euclid(DAY_MS))
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = i64::from((m + 9) % 12);
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day number (the inverse of [`days_from_civil`]).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    // Both in range by construction: day 1..=31, month 1..=12.
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2024-02-29T13:14:15.678Z
    const LEAP_DAY: UnixMs = 1_709_212_455_678;

    #[test]
    fn periods_start_at_utc_midnight_and_the_first_of_the_month() {
        assert_eq!(Period::AllTime.start(LEAP_DAY), 0);
        assert_eq!(Period::Today.start(LEAP_DAY), 1_709_164_800_000); // 2024-02-29
        assert_eq!(Period::Month.start(LEAP_DAY), 1_706_745_600_000); // 2024-02-01
        let march = 1_709_251_200_000; // 2024-03-01T00:00Z
        assert_eq!(Period::Month.start(march), march);
        assert_eq!(Period::Month.start(march - 1), 1_706_745_600_000);
        assert_eq!(Period::Today.start(march - 1), 1_709_164_800_000);
        assert_eq!(Period::Month.start(0), 0);
        assert_eq!(Period::Today.start(-1), -DAY_MS);
        // 2000-12-31T23:59:59.999Z and the new year.
        assert_eq!(Period::Month.start(978_307_199_999), 975_628_800_000);
        assert_eq!(Period::Month.start(978_307_200_000), 978_307_200_000);
    }

    #[test]
    fn the_calendar_round_trips() {
        for days in (-800_000..800_000).step_by(97) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
    }

    #[test]
    fn names_parse() {
        assert_eq!(Period::parse("Today"), Some(Period::Today));
        assert_eq!(Period::parse("month"), Some(Period::Month));
        assert_eq!(Period::parse("all"), Some(Period::AllTime));
        assert_eq!(Period::parse("week"), None);
    }
}
