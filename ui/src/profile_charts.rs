//! The profile's charts from stored games (the server's store and `minotty play`'s save file
//! alike): each board's personal best after every ranked game that improved it, and pieces
//! per second per game.

use minotty_domain::{PaceGame, RankedGame, rank_key};
use minotty_engine::{ModeKind, Stats};
use minotty_protocol::{BEST_POINTS, BestHistory, BestPoint, GamePps, PPS_GAMES, ProfileCharts};

/// Ranked games read for the personal-best chart, at most (the store keeps a player's newest
/// 1,000 games and every best).
pub const HISTORY_GAMES: u32 = 1000;

/// The figure a chart shows for a game of `mode`: the time for 40 lines, lines for master,
/// pieces for cheese, the longest combo for combo, the score (gems for descent) otherwise.
pub fn figure(mode: ModeKind, stats: &Stats) -> u64 {
    minotty_domain::modes::measure(mode).figure(stats)
}

/// Each board's running best, from ranked games oldest first: a point for every game that
/// beat the board's best so far (by the leaderboard's own key), the latest [`BEST_POINTS`].
pub fn best_histories(games: &[RankedGame]) -> Vec<BestHistory> {
    let mut out: Vec<(BestHistory, i64)> = Vec::new();
    for g in games {
        let Some(key) = rank_key(g.mode, &g.stats) else {
            continue;
        };
        let point = BestPoint {
            at: g.ended_at,
            value: figure(g.mode, &g.stats),
        };
        match out
            .iter_mut()
            .find(|(h, _)| h.mode == g.mode && h.ruleset == g.ruleset)
        {
            Some((h, best)) if key < *best => {
                *best = key;
                if h.points.len() == BEST_POINTS {
                    h.points.remove(0);
                }
                h.points.push(point);
            }
            Some(_) => {}
            None => out.push((
                BestHistory {
                    mode: g.mode,
                    ruleset: g.ruleset,
                    points: vec![point],
                },
                key,
            )),
        }
    }
    out.into_iter().map(|(h, _)| h).collect()
}

/// Pieces per second of each game (oldest first), the latest [`PPS_GAMES`].
pub fn pps(games: &[PaceGame]) -> Vec<GamePps> {
    let skip = games.len().saturating_sub(PPS_GAMES);
    games[skip..]
        .iter()
        .filter(|g| g.time_ms > 0)
        .map(|g| GamePps {
            game: g.id.0,
            mode: g.mode,
            pps: f64::from(g.pieces) * 1000.0 / g.time_ms as f64,
        })
        .collect()
}

/// Both charts.
pub fn profile_charts(ranked: &[RankedGame], pace: &[PaceGame]) -> ProfileCharts {
    ProfileCharts {
        bests: best_histories(ranked),
        pps: pps(pace),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_domain::GameId;
    use minotty_engine::RulesetId;

    fn sprint(at: i64, time: u64, ruleset: RulesetId) -> RankedGame {
        RankedGame {
            mode: ModeKind::Sprint,
            ruleset,
            ended_at: at,
            stats: Stats {
                time,
                lines: 40,
                ..Stats::default()
            },
        }
    }

    fn marathon(at: i64, score: u64) -> RankedGame {
        RankedGame {
            mode: ModeKind::Marathon,
            ruleset: RulesetId::Standard,
            ended_at: at,
            stats: Stats {
                score,
                ..Stats::default()
            },
        }
    }

    #[test]
    fn a_point_for_each_improvement_per_board() {
        use RulesetId::{Standard, Tetrs};
        let games = [
            sprint(1, 90_000, Standard),
            marathon(2, 1000),
            sprint(3, 95_000, Standard),
            sprint(4, 80_000, Tetrs),
            marathon(5, 800),
            sprint(6, 70_000, Standard),
            marathon(7, 5000),
            sprint(8, 70_000, Standard),
        ];
        let h = best_histories(&games);
        let points =
            |i: usize| -> Vec<(i64, u64)> { h[i].points.iter().map(|p| (p.at, p.value)).collect() };
        assert_eq!(h.len(), 3);
        assert_eq!((h[0].mode, h[0].ruleset), (ModeKind::Sprint, Standard));
        assert_eq!(
            points(0),
            [(1, 90_000), (6, 70_000)],
            "lower times only; a tie is not"
        );
        assert_eq!(h[1].mode, ModeKind::Marathon);
        assert_eq!(points(1), [(2, 1000), (7, 5000)], "higher scores only");
        assert_eq!((h[2].ruleset, points(2)), (Tetrs, vec![(4, 80_000)]));
    }

    /// The history and pace that `store/tests/store_tests/charts.rs` reads back from the
    /// database (moved here with the charts when the store became its own crate).
    #[test]
    fn the_stores_chart_games_draw_a_history_per_board_and_their_pace() {
        use RulesetId::{Standard, Tetrs};
        let minute = 60_000;
        let history = [
            sprint(0, 90_000, Standard),
            marathon(minute, 9000),
            sprint(2 * minute, 80_000, Standard),
            sprint(3 * minute, 70_000, Tetrs),
        ];
        let bests = best_histories(&history);
        assert_eq!(bests.len(), 3);
        assert_eq!(
            bests[0].points.iter().map(|p| p.value).collect::<Vec<_>>(),
            [90_000, 80_000]
        );
        let pace = [
            PaceGame {
                id: GameId(1),
                mode: ModeKind::Sprint,
                pieces: 100,
                time_ms: 90_000,
            },
            PaceGame {
                id: GameId(3),
                mode: ModeKind::Marathon,
                pieces: 130,
                time_ms: 600_000,
            },
        ];
        let p = pps(&pace);
        assert!((p[0].pps - 100.0 / 90.0).abs() < 1e-9);
    }

    #[test]
    fn histories_and_pace_are_bounded() {
        let games: Vec<RankedGame> = (0..200).map(|i| marathon(i, 1000 + i as u64)).collect();
        let h = best_histories(&games);
        assert_eq!(h[0].points.len(), BEST_POINTS);
        assert_eq!(h[0].points.last().map(|p| p.value), Some(1199));
        let pace: Vec<PaceGame> = (0..150)
            .map(|i| PaceGame {
                id: GameId(i),
                mode: ModeKind::Sprint,
                pieces: 100,
                time_ms: if i == 149 { 0 } else { 50_000 },
            })
            .collect();
        let p = pps(&pace);
        assert_eq!(p.len(), PPS_GAMES - 1, "a game of no time has no pace");
        assert_eq!(p[0].game, 50);
        assert!((p[0].pps - 2.0).abs() < 1e-9);
    }
}
