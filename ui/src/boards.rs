//! Leaderboards as players read them, as text: every value shown for a board, a personal best
//! or a recent game is formatted here, once, so the game screens, the server's `leaderboard`
//! command and `minotty play`'s own scoreboard say the same thing: 40 lines `1:02.345`,
//! marathon `123,456`, master `150 lines 4:01.290`, cheese `37 pieces`, combo `12 combo`,
//! descent `37 gems`, versus `1,523 ±87`. Pure: the server's store pages are turned into
//! [`LeaderboardPage`]s by the server (`minotty_server::boards`), with these values.

use std::fmt::Write;

use minotty_domain::modes::{self, Second, Shows};
use minotty_domain::{Period, UnixMs, has_board, home_ruleset};
use minotty_engine::{ModeKind, RulesetId, Stats};

use crate::figures;
use crate::text::plural;
use minotty_protocol::{BoardId, BoardPeriod, LeaderboardPage, RecentGame};

/// The store's period of a UI period.
pub fn period(p: BoardPeriod) -> Period {
    match p {
        BoardPeriod::AllTime => Period::AllTime,
        BoardPeriod::Month => Period::Month,
        BoardPeriod::Today => Period::Today,
    }
}

/// The UI period of a store period.
pub fn board_period(p: Period) -> BoardPeriod {
    match p {
        Period::AllTime => BoardPeriod::AllTime,
        Period::Month => BoardPeriod::Month,
        Period::Today => BoardPeriod::Today,
    }
}

/// `m:ss.mmm`, e.g. `1:02.345` (hours fold into minutes): [`figures::time`], the one time
/// format of a finished game, which the results screen shows too.
pub fn time(ms: u64) -> String {
    figures::time(ms).as_str().to_owned()
}

/// Digits grouped by three with commas: `123,456` ([`figures::thousands`]).
pub fn thousands(n: u64) -> String {
    figures::thousands(n).as_str().to_owned()
}

/// Pieces per second, two decimals rounded ([`figures::pps`]); `-` without a time.
fn pps(pieces: u32, ms: u64) -> String {
    if ms == 0 {
        return "-".into();
    }
    figures::pps(pieces, ms).as_str().to_owned()
}

/// A rating and its deviation, rounded: `1,523 ±87`.
pub fn rating(rating: f64, deviation: f64) -> String {
    let r = rating.round().max(0.0) as u64;
    let d = deviation.round().max(0.0) as u64;
    format!("{} ±{}", thousands(r), d)
}

/// The versus board's rank cell: the letter, `place 3/10` while placing, `-` without a letter
/// (a deviation too high).
pub fn rank_cell(letter: Option<&str>, series: u32) -> String {
    match (minotty_domain::ranked::placement(series), letter) {
        (Some((played, of)), _) => format!("place {played}/{of}"),
        (None, Some(l)) => l.to_owned(),
        (None, None) => "-".to_owned(),
    }
}

/// The profile's ranked standing: `Rank A  2026 Q4 #3` or `Placement 3/10  2026 Q4 #7`
/// (the season's rank, when the player finished a series in it).
pub fn ranked_standing(
    letter: Option<&str>,
    series: u32,
    season: &str,
    season_rank: Option<u64>,
) -> String {
    let standing = match (minotty_domain::ranked::placement(series), letter) {
        (Some((played, of)), _) => format!("Placement {played}/{of}"),
        (None, Some(l)) => format!("Rank {l}"),
        (None, None) => "Rank - (deviation high)".to_owned(),
    };
    match season_rank {
        Some(r) => format!("{standing}  Season {season} #{r}"),
        None => format!("{standing}  Season {season}: no series yet"),
    }
}

/// The numbers of a game that boards rank and show (from a board entry or a game's stats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Figures {
    pub time_ms: u64,
    pub score: u64,
    pub lines: u32,
    pub pieces: u32,
    pub max_combo: u32,
    /// The level reached (a puzzle game's stage); 0 for leaderboard entries, which do not
    /// keep it (no board ranks on it).
    pub level: u32,
}

impl From<&Stats> for Figures {
    fn from(s: &Stats) -> Figures {
        Figures {
            time_ms: s.time,
            score: s.score,
            lines: s.lines,
            pieces: s.pieces,
            max_combo: s.max_combo,
            level: s.level,
        }
    }
}

/// What a game of `mode` is ranked on, as one short text (the first column of its board).
pub fn result(mode: ModeKind, f: Figures) -> String {
    match modes::rules(mode).shows.0 {
        Shows::Time => time(f.time_ms),
        Shows::Score => thousands(f.score),
        Shows::LinesAndTime => {
            let lines = plural(f.lines, "line", "lines");
            format!("{} {lines} {}", f.lines, time(f.time_ms))
        }
        Shows::Pieces => format!("{} {}", f.pieces, plural(f.pieces, "piece", "pieces")),
        Shows::Combo => format!("{} combo", f.max_combo),
        // A descent game's score is its gems.
        Shows::Gems if f.score == 1 => "1 gem".to_owned(),
        Shows::Gems => format!("{} gems", thousands(f.score)),
        // The level of a puzzle game is the stage it reached.
        Shows::Stage => format!("stage {}", f.level),
    }
}

/// A game of the profile's recent list: `outcome` is the store's word (`won`, `top_out`, ...),
/// shown as the player reads it ("finished", "topped out", ...).
pub fn recent_game(
    game: i64,
    mode: ModeKind,
    ruleset: RulesetId,
    ended_at: i64,
    outcome: &str,
    stats: &Stats,
) -> RecentGame {
    let outcome = match outcome {
        "won" | "limit" => "finished",
        "top_out" | "block_out" | "lock_out" => "topped out",
        "combo_broken" => "combo broken",
        "forfeit" => "gave up",
        "input_limit" => "too many inputs",
        _ => "unfinished",
    };
    // A ranked score says what it counts (endless shows its score bare).
    let figures = result(mode, Figures::from(stats));
    let result = if matches!(modes::measure(mode), modes::Measure::Points { .. }) {
        format!("{figures} pts")
    } else {
        figures
    };
    RecentGame {
        game,
        mode,
        ruleset,
        ended_at,
        result,
        outcome: outcome.to_owned(),
    }
}

/// The column titles of a board after rank and name.
pub fn columns(board: BoardId) -> Vec<String> {
    let titles: Vec<&str> = match board {
        BoardId::Solo(mode) => {
            let (first, second) = modes::rules(mode).shows;
            let first = match first {
                Shows::Time => "Time",
                Shows::Score => "Score",
                Shows::LinesAndTime | Shows::Stage => "Result",
                Shows::Pieces => "Pieces",
                Shows::Combo => "Combo",
                Shows::Gems => "Gems",
            };
            let second = second.map(|s| match s {
                Second::Pps => "PPS",
                Second::Lines => "Lines",
                Second::Time => "Time",
                Second::Pieces => "Pieces",
            });
            std::iter::once(first).chain(second).collect()
        }
        BoardId::Versus => vec!["Rating", "Rank", "Series", "Won"],
        BoardId::Climb => vec!["Height", "Floor", "Time"],
    };
    titles.into_iter().map(str::to_owned).collect()
}

/// The values of a solo board's row, one per [`columns`].
pub fn solo_values(mode: ModeKind, f: Figures) -> Vec<String> {
    let first = result(mode, f);
    let second = modes::rules(mode).shows.1.map(|s| match s {
        Second::Pps => pps(f.pieces, f.time_ms),
        Second::Lines => f.lines.to_string(),
        Second::Time => time(f.time_ms),
        Second::Pieces => f.pieces.to_string(),
    });
    std::iter::once(first).chain(second).collect()
}

/// The ruleset whose board is shown when `ruleset` is asked for `board`: boards without one
/// per ruleset are their mode's home ruleset (`tetrs` for descent; master, cheese, combo and
/// versus are `standard`).
pub fn board_ruleset(board: BoardId, ruleset: RulesetId) -> RulesetId {
    match board {
        BoardId::Solo(mode) if has_board(mode, ruleset) => ruleset,
        BoardId::Solo(mode) => home_ruleset(mode),
        BoardId::Versus | BoardId::Climb => RulesetId::Standard,
    }
}

/// The title of a board: `40 Lines` or `Versus (ranked 1v1)`.
pub fn title(board: BoardId) -> &'static str {
    match board {
        BoardId::Solo(mode) => mode.title(),
        BoardId::Versus => "Versus (ranked 1v1)",
        BoardId::Climb => "Climb (highest runs)",
    }
}

/// The date (UTC) of a Unix ms time, `YYYY-MM-DD`.
pub fn date(t: UnixMs) -> String {
    let (y, m, d) = minotty_domain::civil_date(t);
    format!("{y:04}-{m:02}-{d:02}")
}

/// `page` as a plain text table (no colours, no control characters), as the `leaderboard`
/// command prints it: a title line, a header, a line per entry, and a summary line.
pub fn table(page: &LeaderboardPage) -> String {
    let period = match page.period {
        BoardPeriod::AllTime => "all time",
        // The versus board's seasons are calendar quarters (`minotty_domain::ranked`).
        BoardPeriod::Month if page.board == BoardId::Versus => "this season",
        BoardPeriod::Month => "this month",
        BoardPeriod::Today => "today",
    };
    let mut out = String::new();
    // Boards of another ruleset than `standard` name it: "40 Lines (tetrs) - all time".
    match page.ruleset {
        RulesetId::Standard => {
            let _ = writeln!(out, "{} - {}", title(page.board), period);
        }
        r => {
            let _ = writeln!(out, "{} ({}) - {}", title(page.board), r.id(), period);
        }
    }
    if page.rows.is_empty() {
        out.push_str("No entries yet.\n");
        return out;
    }
    let mut header: Vec<String> = vec!["#".into(), "Player".into()];
    header.extend(page.columns.iter().cloned());
    header.push("Date".into());
    let lines: Vec<Vec<String>> = page
        .rows
        .iter()
        .map(|r| {
            let mut cells = vec![r.rank.to_string(), crate::sanitize(&r.name)];
            cells.extend(r.values.iter().cloned());
            cells.push(date(r.achieved_at));
            cells
        })
        .collect();
    // Widths in columns, not characters: a CJK name is twice as wide as its length.
    let mut widths: Vec<usize> = header.iter().map(|h| crate::text::width(h)).collect();
    for cells in &lines {
        for (w, c) in widths.iter_mut().zip(cells) {
            *w = (*w).max(crate::text::width(c));
        }
    }
    for cells in std::iter::once(&header).chain(&lines) {
        let mut line = String::new();
        for (i, (cell, w)) in cells.iter().zip(&widths).enumerate() {
            if i > 0 {
                line.push_str("  ");
            }
            let pad = w.saturating_sub(crate::text::width(cell));
            // Rank and the numbers right-aligned, the name and the date left-aligned.
            if i == 1 || i + 1 == cells.len() {
                line.push_str(cell);
                line.push_str(&" ".repeat(pad));
            } else {
                line.push_str(&" ".repeat(pad));
                line.push_str(cell);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let shown = page.rows.len() as u64;
    let _ = writeln!(
        out,
        "{} of {} {}",
        shown,
        page.total,
        if page.total == 1 { "entry" } else { "entries" }
    );
    out
}

pub fn board_title(board: BoardId) -> &'static str {
    match board {
        BoardId::Solo(kind) => kind.title(),
        BoardId::Versus => "Versus",
        BoardId::Climb => "Climb",
    }
}

/// The versus board's middle period is the ranked season (a calendar quarter).
pub fn period_title(board: BoardId, p: BoardPeriod) -> &'static str {
    match p {
        BoardPeriod::AllTime => "All time",
        BoardPeriod::Month if board == BoardId::Versus => "This season",
        BoardPeriod::Month => "This month",
        BoardPeriod::Today => "Today",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rank_cell_and_the_standing_say_letter_or_placement() {
        // (letter, series, cell, standing in 2026 Q4 with the season's rank)
        let cases = [
            (None, 0, "place 0/10", "Placement 0/10  Season 2026 Q4 #4"),
            (
                Some("A"),
                3,
                "place 3/10",
                "Placement 3/10  Season 2026 Q4 #4",
            ),
            (Some("SS"), 10, "SS", "Rank SS  Season 2026 Q4 #4"),
            (None, 12, "-", "Rank - (deviation high)  Season 2026 Q4 #4"),
        ];
        for (letter, series, cell, standing) in cases {
            assert_eq!(rank_cell(letter, series), cell);
            assert_eq!(
                ranked_standing(letter, series, "2026 Q4", Some(4)),
                standing
            );
        }
        assert_eq!(
            ranked_standing(Some("B"), 20, "2026 Q4", None),
            "Rank B  Season 2026 Q4: no series yet"
        );
    }
    use minotty_protocol::BoardRow;

    #[test]
    fn values_are_formatted() {
        assert_eq!(time(62_345), "1:02.345");
        assert_eq!(time(3_600_000 + 5), "60:00.005");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(123_456), "123,456");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(rating(1523.4, 86.6), "1,523 ±87");
        let f = Figures {
            time_ms: 241_290,
            score: 123_456,
            lines: 150,
            pieces: 37,
            max_combo: 12,
            level: 7,
        };
        assert_eq!(result(ModeKind::Sprint, f), "4:01.290");
        assert_eq!(result(ModeKind::Puzzle, f), "stage 7");
        assert_eq!(result(ModeKind::Marathon, f), "123,456");
        assert_eq!(result(ModeKind::Master, f), "150 lines 4:01.290");
        assert_eq!(result(ModeKind::Cheese, f), "37 pieces");
        assert_eq!(result(ModeKind::Combo, f), "12 combo");
        for board in [
            BoardId::Solo(ModeKind::Sprint),
            BoardId::Solo(ModeKind::Marathon),
            BoardId::Solo(ModeKind::Ultra),
            BoardId::Solo(ModeKind::Master),
            BoardId::Solo(ModeKind::Cheese),
            BoardId::Solo(ModeKind::Combo),
            BoardId::Solo(ModeKind::Custom),
        ] {
            let BoardId::Solo(mode) = board else {
                unreachable!()
            };
            assert_eq!(columns(board).len(), solo_values(mode, f).len(), "{mode:?}");
        }
        assert_eq!(date(1_709_212_455_678), "2024-02-29");
    }

    #[test]
    fn tables_align_and_strip_names() {
        let page = LeaderboardPage {
            board: BoardId::Solo(ModeKind::Sprint),
            ruleset: RulesetId::Standard,
            period: BoardPeriod::AllTime,
            offset: 0,
            total: 2,
            columns: columns(BoardId::Solo(ModeKind::Sprint)),
            rows: vec![
                BoardRow {
                    rank: 1,
                    name: "ada".into(),
                    values: vec!["0:58.001".into(), "1.72".into()],
                    achieved_at: 1_709_212_455_678,
                    game: Some(1),
                },
                BoardRow {
                    rank: 2,
                    name: "bob\x1b[31m".into(),
                    values: vec!["1:02.345".into(), "1.60".into()],
                    achieved_at: 1_709_212_455_678,
                    game: Some(2),
                },
            ],
            own: None,
        };
        let text = table(&page);
        assert_eq!(
            text,
            "40 Lines - all time\n\
             #  Player       Time   PPS  Date\n\
             1  ada      0:58.001  1.72  2024-02-29\n\
             2  bob[31m  1:02.345  1.60  2024-02-29\n\
             2 of 2 entries\n"
        );
        assert!(!text.contains('\x1b'));
        let tetrs = LeaderboardPage {
            ruleset: RulesetId::Tetrs,
            ..page
        };
        assert!(table(&tetrs).starts_with("40 Lines (tetrs) - all time\n"));
        let versus = BoardId::Versus;
        assert_eq!(board_ruleset(versus, RulesetId::Tetrs), RulesetId::Standard);
        let master = BoardId::Solo(ModeKind::Master);
        assert_eq!(board_ruleset(master, RulesetId::Tetrs), RulesetId::Standard);
        let ultra = BoardId::Solo(ModeKind::Ultra);
        assert_eq!(
            board_ruleset(ultra, RulesetId::TuiTetris),
            RulesetId::TuiTetris
        );
        // Descent's one board is tetrs, whichever ruleset is asked for.
        let descent = BoardId::Solo(ModeKind::Descent);
        for r in RulesetId::ALL {
            assert_eq!(board_ruleset(descent, r), RulesetId::Tetrs);
        }
    }

    #[test]
    fn descent_boards_show_gems() {
        let f = |score| Figures {
            time_ms: 180_000,
            score,
            lines: 0,
            pieces: 0,
            max_combo: 0,
            level: 0,
        };
        assert_eq!(result(ModeKind::Descent, f(37)), "37 gems");
        assert_eq!(result(ModeKind::Descent, f(1)), "1 gem");
        assert_eq!(result(ModeKind::Descent, f(1_204)), "1,204 gems");
        let board = BoardId::Solo(ModeKind::Descent);
        assert_eq!(columns(board), vec!["Gems".to_owned()]);
        assert_eq!(
            solo_values(ModeKind::Descent, f(0)),
            vec!["0 gems".to_owned()]
        );
    }
}
