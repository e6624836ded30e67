//! The profile's charts as SVG, from the same `ProfileCharts` as the terminal's profile: each
//! board's personal best over time (a step line, better upwards) and pieces per second of the
//! latest games (bars). Only numbers this module computes go into the drawing.

use minotty_engine::ModeKind;
use minotty_protocol::{BestHistory, GamePps};

/// The drawing's size (the page scales it to its width).
pub const WIDTH: f64 = 600.0;
pub const HEIGHT: f64 = 160.0;
const PAD: f64 = 8.0;

/// One chart, ready for the template.
pub struct Chart {
    pub title: String,
    /// `points` of a polyline, or empty.
    pub line: String,
    /// Bars as (x, y, width, height).
    pub bars: Vec<(String, String, String, String)>,
    /// The figures at the chart's top and bottom, and a description for screen readers.
    pub top: String,
    pub bottom: String,
    pub label: String,
}

/// Whether a smaller figure is the better one (40 lines' time, cheese's pieces).
fn lower_is_better(mode: ModeKind) -> bool {
    minotty_domain::modes::measure(mode).lower_is_better()
}

/// A time (40 lines', survival's) as a clock, any other figure as a number.
fn figure(mode: ModeKind, v: u64) -> String {
    if minotty_domain::modes::measure(mode).is_time() {
        minotty_ui::boards::time(v)
    } else {
        minotty_ui::boards::thousands(v)
    }
}

/// A board's personal best over time: a step at each improvement, the newest at the right.
pub fn best(h: &BestHistory) -> Chart {
    let title = if h.ruleset == minotty_domain::home_ruleset(h.mode) {
        h.mode.title().to_owned()
    } else {
        format!("{} · {}", h.mode.title(), h.ruleset.id())
    };
    let (Some(first), Some(last)) = (h.points.first(), h.points.last()) else {
        return Chart {
            label: format!("{title}: no best yet"),
            title,
            line: String::new(),
            bars: Vec::new(),
            top: String::new(),
            bottom: String::new(),
        };
    };
    let values = h.points.iter().map(|p| p.value);
    let (lo, hi) = (values.clone().min().unwrap_or(0), values.max().unwrap_or(0));
    let span_t = (last.at - first.at).max(1) as f64;
    let span_v = (hi - lo).max(1) as f64;
    let lower = lower_is_better(h.mode);
    let x = |at: i64| PAD + (at - first.at) as f64 / span_t * (WIDTH - 2.0 * PAD);
    let y = |v: u64| {
        // Better is up: the best figure at the top whichever way the mode counts.
        let up = if lower { hi - v } else { v - lo } as f64 / span_v;
        HEIGHT - PAD - up * (HEIGHT - 2.0 * PAD)
    };
    let mut points = Vec::with_capacity(h.points.len() * 2 + 1);
    let mut previous: Option<u64> = None;
    for p in &h.points {
        if let Some(v) = previous {
            points.push(format!("{:.1},{:.1}", x(p.at), y(v)));
        }
        points.push(format!("{:.1},{:.1}", x(p.at), y(p.value)));
        previous = Some(p.value);
    }
    // A single point still draws: a flat line across.
    if h.points.len() == 1 {
        points.push(format!("{:.1},{:.1}", WIDTH - PAD, y(first.value)));
    }
    let (best, worst) = if lower { (lo, hi) } else { (hi, lo) };
    Chart {
        label: format!(
            "{title}: personal best from {} to {} over {} improvements",
            figure(h.mode, first.value),
            figure(h.mode, last.value),
            h.points.len()
        ),
        title,
        line: points.join(" "),
        bars: Vec::new(),
        top: figure(h.mode, best),
        bottom: figure(h.mode, worst),
    }
}

/// Pieces per second of the latest games, oldest at the left.
pub fn pps(games: &[GamePps]) -> Chart {
    let hi = games.iter().map(|g| g.pps).fold(0.0_f64, f64::max).max(0.1);
    let n = games.len().max(1) as f64;
    let slot = (WIDTH - 2.0 * PAD) / n;
    let bars = games
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let h = (g.pps.max(0.0) / hi) * (HEIGHT - 2.0 * PAD);
            (
                format!("{:.1}", PAD + i as f64 * slot),
                format!("{:.1}", HEIGHT - PAD - h),
                format!("{:.1}", (slot * 0.8).max(1.0)),
                format!("{h:.1}"),
            )
        })
        .collect();
    let mean = if games.is_empty() {
        0.0
    } else {
        games.iter().map(|g| g.pps).sum::<f64>() / n
    };
    Chart {
        title: "Pieces a second, latest games".into(),
        line: String::new(),
        bars,
        top: format!("{hi:.2}"),
        bottom: "0".into(),
        label: format!(
            "pieces a second over the latest {} games: mean {mean:.2}, best {hi:.2}",
            games.len()
        ),
    }
}

#[cfg(test)]
mod tests {
    use minotty_engine::RulesetId;
    use minotty_protocol::BestPoint;

    use super::*;

    fn history(mode: ModeKind, values: &[u64]) -> BestHistory {
        BestHistory {
            mode,
            ruleset: RulesetId::Standard,
            points: values
                .iter()
                .enumerate()
                .map(|(i, &value)| BestPoint {
                    at: 1_000 * i as i64,
                    value,
                })
                .collect(),
        }
    }

    fn ys(line: &str) -> Vec<f64> {
        line.split(' ')
            .map(|p| p.split(',').nth(1).unwrap().parse().unwrap())
            .collect()
    }

    #[test]
    fn better_goes_up_whichever_way_the_mode_counts() {
        // 40 lines: times fall as the player improves; the line rises (smaller y).
        let sprint = best(&history(ModeKind::Sprint, &[60_000, 50_000, 41_000]));
        let y = ys(&sprint.line);
        assert!(y.first() > y.last(), "{}", sprint.line);
        assert_eq!(sprint.top, "0:41.000");
        // Marathon: scores rise; so does the line.
        let marathon = best(&history(ModeKind::Marathon, &[1_000, 5_000, 9_000]));
        let y = ys(&marathon.line);
        assert!(y.first() > y.last(), "{}", marathon.line);
        assert_eq!(marathon.top, "9,000");
        // Steps: a horizontal then a vertical segment per improvement.
        assert_eq!(y.len(), 5);
        for chart in [&sprint, &marathon] {
            for v in ys(&chart.line) {
                assert!((PAD..=HEIGHT - PAD).contains(&v), "{v}");
            }
        }
    }

    #[test]
    fn one_point_and_no_point_still_draw() {
        let one = best(&history(ModeKind::Ultra, &[12_345]));
        assert_eq!(ys(&one.line).len(), 2);
        let none = best(&history(ModeKind::Ultra, &[]));
        assert!(none.line.is_empty() && none.label.contains("no best"));
        let bars = pps(&[]);
        assert!(bars.bars.is_empty());
    }

    #[test]
    fn bars_are_as_tall_as_their_pace() {
        let games: Vec<GamePps> = [1.0, 2.0, 4.0]
            .iter()
            .enumerate()
            .map(|(i, &pps)| GamePps {
                game: i as i64,
                mode: ModeKind::Sprint,
                pps,
            })
            .collect();
        let chart = pps(&games);
        let heights: Vec<f64> = chart.bars.iter().map(|b| b.3.parse().unwrap()).collect();
        assert_eq!(heights.len(), 3);
        assert!((heights[2] - (HEIGHT - 2.0 * PAD)).abs() < 0.1);
        assert!((heights[0] * 4.0 - heights[2]).abs() < 0.5);
        assert_eq!(chart.top, "4.00");
    }
}
