//! The personal-best context of a finished game: the player's all-time best on the game's
//! board before it, and the game's difference to it, as the results show them ("was 0:42.908",
//! "-1.234"). Read before the game is handed to the writer, so it is the best the game faced.

use minotty_domain::modes::Measure;
use minotty_domain::{Period, PlayerId, has_board, ranked_modes};
use minotty_engine::{ModeKind, Replay, RulesetId, Stats};
use minotty_protocol::ModeBest;
use minotty_ui::figures::{count_delta, time_delta};

use crate::boards;
use minotty_store::{Board, Entry, Store, StoreError, UnixMs};

/// How long the read may take before the results go without it.
pub(super) const READ_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// The board a game of `replay` would rank on, when it plays its mode's preset there.
pub(super) fn board_of(replay: &Replay) -> Option<Board> {
    let kind = replay.mode.kind;
    (has_board(kind, replay.ruleset) && replay.mode == kind.preset_at(replay.version))
        .then(|| Board::new(kind, replay.ruleset))
}

/// The player's all-time entry on `board`, if any.
pub(super) async fn read(
    store: &Store,
    board: Board,
    player: PlayerId,
    now: UnixMs,
) -> Result<Option<Entry>, StoreError> {
    store.rank_of(board, Period::AllTime, now, player).await
}

/// The player's all-time best on every board they are on, for the mode select.
pub(super) async fn all(
    store: &Store,
    player: PlayerId,
    now: UnixMs,
) -> Result<Vec<ModeBest>, StoreError> {
    let mut bests = Vec::new();
    for mode in ranked_modes() {
        for ruleset in RulesetId::ALL {
            if !has_board(mode, ruleset) {
                continue;
            }
            let board = Board::new(mode, ruleset);
            if let Some(e) = read(store, board, player, now).await? {
                bests.push(ModeBest {
                    mode,
                    ruleset,
                    best: minotty_ui::boards::result(mode, boards::entry_figures(&e)),
                });
            }
        }
    }
    Ok(bests)
}

fn signed(a: u64, b: u64) -> i64 {
    let d = i128::from(a) - i128::from(b);
    i64::try_from(d).unwrap_or(if d < 0 { i64::MIN } else { i64::MAX })
}

/// The previous best (formatted as its board shows it) and `stats`' difference to it, in the
/// board's measure: a time for 40 lines and survival, points for marathon, ultra and classic,
/// lines (then time, when they tie) for master, pieces for cheese, the longest combo, gems.
pub(super) fn context(mode: ModeKind, before: &Entry, stats: &Stats) -> (String, String) {
    let old = boards::entry_figures(before);
    let delta = match minotty_domain::modes::measure(mode) {
        Measure::Time | Measure::TimeSurvived => time_delta(signed(stats.time, old.time_ms))
            .as_str()
            .to_owned(),
        Measure::LinesThenTime if stats.lines != old.lines => format!(
            "{} lines",
            count_delta(signed(u64::from(stats.lines), u64::from(old.lines))).as_str()
        ),
        Measure::LinesThenTime => time_delta(signed(stats.time, old.time_ms))
            .as_str()
            .to_owned(),
        Measure::Pieces => format!(
            "{} pieces",
            count_delta(signed(u64::from(stats.pieces), u64::from(old.pieces))).as_str()
        ),
        Measure::Combo => count_delta(signed(u64::from(stats.max_combo), u64::from(old.max_combo)))
            .as_str()
            .to_owned(),
        Measure::Points { .. } | Measure::Gems | Measure::Unranked => {
            count_delta(signed(stats.score, old.score))
                .as_str()
                .to_owned()
        }
    };
    (minotty_ui::boards::result(mode, old), delta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_domain::{GameId, PlayerName};

    fn entry(time_ms: u64, score: u64, lines: u32, pieces: u32) -> Entry {
        Entry {
            rank: 1,
            player: PlayerId(1),
            name: PlayerName::parse("ada").expect("name"),
            game: GameId(1),
            achieved_at: 0,
            rank_key: 0,
            time_ms,
            score,
            lines,
            pieces,
            max_combo: 0,
        }
    }

    #[test]
    fn each_board_says_its_difference_in_its_measure() {
        let s = |time, score, lines, pieces| Stats {
            time,
            score,
            lines,
            pieces,
            ..Stats::default()
        };
        let old = entry(42_908, 5_000, 12, 60);
        let cases = [
            (
                ModeKind::Sprint,
                s(41_674, 0, 40, 100),
                "0:42.908",
                "-1.234",
            ),
            (
                ModeKind::Sprint,
                s(43_408, 0, 40, 100),
                "0:42.908",
                "+0.500",
            ),
            (ModeKind::Marathon, s(1, 5_500, 0, 0), "5,000", "+500"),
            (
                ModeKind::Master,
                s(1, 0, 15, 0),
                "12 lines 0:42.908",
                "+3 lines",
            ),
            (
                ModeKind::Master,
                s(40_000, 0, 12, 0),
                "12 lines 0:42.908",
                "-2.908",
            ),
            (ModeKind::Cheese, s(1, 0, 0, 57), "60 pieces", "-3 pieces"),
            // Classic by points; survival by its time, longer is the better.
            (ModeKind::Classic, s(1, 4_600, 0, 0), "5,000", "-400"),
            (
                ModeKind::Survival,
                s(52_908, 0, 3, 20),
                "0:42.908",
                "+10.000",
            ),
        ];
        for (mode, stats, was, delta) in cases {
            let (a, b) = context(mode, &old, &stats);
            assert_eq!((a.as_str(), b.as_str()), (was, delta), "{mode:?}");
        }
    }
}
