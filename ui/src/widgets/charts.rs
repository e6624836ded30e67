//! Line charts over ratatui's `Chart` (and `Sparkline` when the area is small), drawn so that
//! they read in every theme: each series has a marker of its own (never colour alone), shown in
//! the legend; in ASCII and Electronika graphics every symbol the chart draws is mapped to
//! printable ASCII (`*`, `#`, `=`, `o`, `|`, `-`, `+`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::{Marker, bar};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Sparkline, Widget};

use crate::draw;
use crate::settings::Graphics;
use crate::theme::Theme;

/// Series a chart tells apart (more are left out).
pub const MAX_SERIES: usize = 4;
/// The smallest area that gets axes: below it a sparkline of the first series.
pub const MIN_CHART: (u16, u16) = (30, 7);
/// Below this nothing is drawn but the title.
pub const MIN_SPARKLINE: (u16, u16) = (12, 2);

/// The markers of the series in Unicode, and the glyph the legend shows for each.
const MARKERS: [(Marker, &str); MAX_SERIES] = [
    (Marker::Braille, "⣿"),
    (Marker::Dot, "•"),
    (Marker::Block, "█"),
    (Marker::Bar, "▄"),
];
/// The same markers once mapped to ASCII (see [`asciify`]), in the same order.
const ASCII_MARKS: [&str; MAX_SERIES] = ["o", "*", "#", "="];
/// In ASCII the series use the markers that map to one glyph each (never braille, which a
/// line of points would draw as many different patterns).
const ASCII_ORDER: [usize; MAX_SERIES] = [1, 2, 3, 0];

/// ASCII bars for sparklines.
const ASCII_BARS: bar::Set = bar::Set {
    full: "#",
    seven_eighths: "#",
    three_quarters: "=",
    five_eighths: "=",
    half: "-",
    three_eighths: "-",
    one_quarter: "_",
    one_eighth: "_",
    empty: " ",
};

/// A running value (a personal best) as the points of a step line: each value holds until the
/// next one, so between two points the line goes across at the earlier value, then up or down
/// to the later one (`(x1, y0)` between `(x0, y0)` and `(x1, y1)`), never straight between them
/// (which would show values no best ever had).
pub fn steps(points: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for &(x, y) in points {
        if let Some(&(_, before)) = out.last()
            && before != y
        {
            out.push((x, before));
        }
        out.push((x, y));
    }
    out
}

/// One line of a chart: `(x, y)` points in x order.
#[derive(Clone, Copy, Debug)]
pub struct Series<'a> {
    pub label: &'a str,
    pub points: &'a [(f64, f64)],
}

/// A chart with a title row (and the legend at its right), axes with labels at both ends and
/// the middle, formatted by the caller.
#[derive(Debug)]
pub struct ChartView<'a> {
    pub title: &'a str,
    pub series: &'a [Series<'a>],
    /// Formats a value of the x axis (e.g. a date, a time into the match).
    pub x_label: fn(f64) -> String,
    /// Formats a value of the y axis.
    pub y_label: fn(f64) -> String,
    /// The y axis starts at 0 rather than at the lowest value.
    pub from_zero: bool,
    pub theme: Theme,
}

impl ChartView<'_> {
    fn series(&self) -> impl Iterator<Item = (usize, &Series<'_>)> {
        self.series
            .iter()
            .take(MAX_SERIES)
            .enumerate()
            .filter(|(_, s)| !s.points.is_empty())
    }

    /// The marker of series `i` and the glyph its legend shows.
    fn marker(&self, i: usize) -> (Marker, &'static str) {
        if self.ascii() {
            let m = ASCII_ORDER[i % MAX_SERIES];
            (MARKERS[m].0, ASCII_MARKS[m])
        } else {
            MARKERS[i % MAX_SERIES]
        }
    }

    fn ascii(&self) -> bool {
        self.theme.graphics != Graphics::Unicode
    }

    fn style(&self, i: usize) -> Style {
        let t = self.theme;
        [t.accent(), t.good(), t.bad(), t.text()][i % MAX_SERIES]
    }

    /// The data's bounds, widened where they are a single value.
    fn bounds(&self) -> Option<([f64; 2], [f64; 2])> {
        let mut points = self.series().flat_map(|(_, s)| s.points.iter());
        let &(x, y) = points.next()?;
        let (mut x0, mut x1, mut y0, mut y1) = (x, x, y, y);
        for &(x, y) in points {
            x0 = x0.min(x);
            x1 = x1.max(x);
            y0 = y0.min(y);
            y1 = y1.max(y);
        }
        if self.from_zero {
            y0 = y0.min(0.0);
        }
        if x1 <= x0 {
            x1 = x0 + 1.0;
        }
        if y1 <= y0 {
            let pad = (y0.abs() * 0.1).max(1.0);
            y0 = if self.from_zero { y0 } else { y0 - pad };
            y1 += pad;
        }
        Some(([x0, x1], [y0, y1]))
    }

    fn legend(&self, buf: &mut Buffer, area: Rect) {
        let title = draw::width(self.title);
        let n = self.series().count() as u16;
        // Every series keeps its entry: long labels are cut to share the row after the title.
        let room = area.width.saturating_sub(title + 2);
        let full: u16 = self.series().map(|(_, s)| draw::width(s.label) + 4).sum();
        let cut = (full > room).then(|| (room / n.max(1)).saturating_sub(4).max(1));
        let mut entries: Vec<(usize, String)> = Vec::new();
        for (i, s) in self.series() {
            let label: String = match cut {
                Some(max) => crate::text::fit_width(s.label, usize::from(max)).to_owned(),
                None => s.label.to_string(),
            };
            entries.push((i, format!("{} {}", self.marker(i).1, label)));
        }
        let width: u16 = entries.iter().map(|(_, e)| draw::width(e) + 2).sum::<u16>();
        let mut x = area.right().saturating_sub(width).max(area.x + title + 2);
        for (i, e) in entries {
            if x >= area.right() {
                break;
            }
            x = draw::put(buf, area, x, area.y, &e, self.style(i)) + 2;
        }
    }
}

impl Widget for &ChartView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        if area.width == 0 || area.height == 0 {
            return;
        }
        draw::put(buf, area, area.x, area.y, self.title, theme.dim());
        let Some((xb, yb)) = self.bounds() else {
            if area.height > 1 {
                draw::put(buf, area, area.x, area.y + 1, "No data yet.", theme.dim());
            }
            return;
        };
        let body = Rect::new(area.x, area.y + 1, area.width, area.height - 1);
        if area.width < MIN_CHART.0 || area.height < MIN_CHART.1 {
            if area.width >= MIN_SPARKLINE.0 && area.height >= MIN_SPARKLINE.1 {
                sparkline(self, body, buf, yb);
            }
            return;
        }
        self.legend(buf, area);
        let datasets: Vec<Dataset<'_>> = self
            .series()
            .map(|(i, s)| {
                Dataset::default()
                    .marker(self.marker(i).0)
                    .graph_type(GraphType::Line)
                    .style(self.style(i))
                    .data(s.points)
            })
            .collect();
        let labels = |b: [f64; 2], f: fn(f64) -> String| -> Vec<Line<'static>> {
            let mut texts = vec![f(b[0]), f((b[0] + b[1]) / 2.0), f(b[1])];
            // A middle label that reads as an end's (a range of 0 to 1 in whole numbers) would
            // name two places by one value: the ends alone then.
            if texts[1] == texts[0] || texts[1] == texts[2] {
                texts.remove(1);
            }
            texts
                .into_iter()
                .map(|t| Line::from(Span::styled(t, theme.text())))
                .collect()
        };
        // An x label that repeats the one before it is left blank: the moments of a personal
        // best chart within one minute would otherwise read `14:05 14:05 14:05`.
        let mut x_labels = labels(xb, self.x_label);
        for i in (1..x_labels.len()).rev() {
            if x_labels[..i].contains(&x_labels[i]) {
                x_labels[i] = Line::from("");
            }
        }
        let chart = Chart::new(datasets)
            .x_axis(
                Axis::default()
                    .bounds(xb)
                    .labels(x_labels)
                    .style(theme.dim()),
            )
            .y_axis(
                Axis::default()
                    .bounds(yb)
                    .labels(labels(yb, self.y_label))
                    .style(theme.dim()),
            )
            // The legend is drawn on the title row instead (with the series' glyphs).
            .hidden_legend_constraints((
                ratatui::layout::Constraint::Length(0),
                ratatui::layout::Constraint::Length(0),
            ));
        chart.render(body, buf);
        if self.ascii() {
            asciify(buf, body);
        }
    }
}

/// The first series as a sparkline, with its range written on the title row.
fn sparkline(view: &ChartView<'_>, area: Rect, buf: &mut Buffer, yb: [f64; 2]) {
    let Some((i, s)) = view.series().next() else {
        return;
    };
    let range = format!(
        "{} {}..{}",
        view.marker(i).1,
        (view.y_label)(yb[0]),
        (view.y_label)(yb[1])
    );
    let title = Rect::new(area.x, area.y.saturating_sub(1), area.width, 1);
    draw::put_right(buf, title, title.y, &range, view.style(i));
    // Heights relative to the lowest value (or zero), the last points that fit.
    let base = if view.from_zero { 0.0 } else { yb[0] };
    let take = usize::from(area.width);
    let skip = s.points.len().saturating_sub(take);
    let data: Vec<u64> = s.points[skip..]
        .iter()
        .map(|&(_, y)| ((y - base).max(0.0) * 1000.0) as u64 + 1)
        .collect();
    let mut spark = Sparkline::default().data(&data).style(view.style(i));
    if view.ascii() {
        spark = spark.bar_set(ASCII_BARS);
    }
    spark.render(area, buf);
}

/// Maps what ratatui's chart draws to printable ASCII: axes to `|`, `-` and `+`, the markers
/// to the series' ASCII glyphs.
pub fn asciify(buf: &mut Buffer, area: Rect) {
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let Some(cell) = buf.cell_mut((x, y)) else {
                continue;
            };
            let sym = cell.symbol();
            if sym.is_ascii() {
                continue;
            }
            let ascii = match sym {
                "│" | "┃" => "|",
                "─" | "━" => "-",
                "•" => ASCII_MARKS[1],
                "█" => ASCII_MARKS[2],
                "▄" | "▀" => ASCII_MARKS[3],
                "\u{2800}" => " ",
                s if s.chars().all(|c| ('\u{2801}'..='\u{28ff}').contains(&c)) => ASCII_MARKS[0],
                s if s.chars().all(|c| ('\u{2500}'..='\u{257f}').contains(&c)) => "+",
                _ => "?",
            };
            cell.set_symbol(ascii);
        }
    }
}

/// Game time between two samples of a seat's attack.
pub const SAMPLE_MS: u64 = 5000;
/// Samples kept per seat: past it every other one goes and the spacing doubles, so a match of
/// any length keeps at most this many.
pub const MAX_SAMPLES: usize = 120;
/// Seats followed at most.
pub const MAX_SEATS: usize = 16;

/// The attack each seat has sent over a match, sampled from the numbers the App already has
/// (its own game, the room's `Opponents`), for the results' attack-per-minute chart.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AttackTimeline {
    seats: Vec<SeatSamples>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct SeatSamples {
    seat: usize,
    /// The spacing of samples now (doubles when the samples are thinned).
    step: u64,
    /// `(game time ms, lines of attack sent)`, in time order.
    samples: Vec<(u64, u32)>,
}

impl AttackTimeline {
    pub fn clear(&mut self) {
        self.seats.clear();
    }

    pub fn is_empty(&self) -> bool {
        self.seats.iter().all(|s| s.samples.is_empty())
    }

    /// Seat `seat` had sent `sent` lines at game time `time_ms`: kept when the time is a
    /// sample's spacing past the seat's last sample.
    pub fn note(&mut self, seat: usize, time_ms: u64, sent: u32) {
        let i = match self.seats.iter().position(|s| s.seat == seat) {
            Some(i) => i,
            None if self.seats.len() < MAX_SEATS => {
                self.seats.push(SeatSamples {
                    seat,
                    step: SAMPLE_MS,
                    samples: Vec::new(),
                });
                self.seats.len() - 1
            }
            None => return,
        };
        let Some(s) = self.seats.get_mut(i) else {
            return;
        };
        let due = s.samples.last().map_or(s.step, |&(t, _)| t + s.step);
        if time_ms < due {
            return;
        }
        s.samples.push((time_ms, sent));
        if s.samples.len() > MAX_SAMPLES {
            // Keep every other sample (the latest always stays).
            let n = s.samples.len();
            let mut i = 0;
            s.samples.retain(|_| {
                i += 1;
                (n - i) % 2 == 0
            });
            s.step *= 2;
        }
    }

    /// Seat `seat`'s attack per minute over the match so far at each sample: `(seconds,
    /// lines a minute)`.
    pub fn apm(&self, seat: usize) -> Vec<(f64, f64)> {
        self.seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or_else(Vec::new, |s| {
                s.samples
                    .iter()
                    .filter(|&&(t, _)| t > 0)
                    .map(|&(t, sent)| (t as f64 / 1000.0, f64::from(sent) * 60_000.0 / t as f64))
                    .collect()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{ColorMode, Settings};
    use crate::testutil::lines;

    fn theme(graphics: Graphics, colors: ColorMode) -> Theme {
        Theme::new(&Settings {
            graphics,
            colors,
            ..Settings::default()
        })
    }

    fn draw(view: &ChartView<'_>, w: u16, h: u16) -> Vec<String> {
        let mut buf = Buffer::empty(Rect::new(0, 0, w, h));
        view.render(buf.area, &mut buf);
        lines(&buf)
    }

    fn int(v: f64) -> String {
        format!("{v:.0}")
    }

    const A: [(f64, f64); 4] = [(0.0, 10.0), (1.0, 30.0), (2.0, 20.0), (3.0, 50.0)];
    const B: [(f64, f64); 3] = [(0.0, 5.0), (1.5, 15.0), (3.0, 40.0)];

    /// Two players' series, over `A` and `B`.
    fn ada_and_bob() -> [Series<'static>; 2] {
        [
            Series {
                label: "ada",
                points: &A,
            },
            Series {
                label: "bob",
                points: &B,
            },
        ]
    }

    fn view<'a>(series: &'a [Series<'a>], theme: Theme) -> ChartView<'a> {
        ChartView {
            title: "ATTACK PER MINUTE",
            series,
            x_label: int,
            y_label: int,
            from_zero: true,
            theme,
        }
    }

    #[test]
    fn steps_go_across_then_up_or_down() {
        assert_eq!(steps(&[]), []);
        assert_eq!(steps(&[(1.0, 5.0)]), [(1.0, 5.0)]);
        assert_eq!(
            steps(&[(0.0, 30.0), (4.0, 20.0), (9.0, 10.0)]),
            [
                (0.0, 30.0),
                (4.0, 30.0),
                (4.0, 20.0),
                (9.0, 20.0),
                (9.0, 10.0)
            ]
        );
    }

    /// A best of 30 that held until a best of 10, drawn: the line runs across at 30 and down
    /// at the later best's moment; no cell of it is between the two (a diagonal's).
    #[test]
    fn a_best_chart_draws_steps_not_diagonals() {
        let points = steps(&[(0.0, 30.0), (10.0, 10.0)]);
        let series = [Series {
            label: "time",
            points: &points,
        }];
        let mut v = view(&series, theme(Graphics::Ascii, ColorMode::Monochrome));
        v.from_zero = false;
        let out = draw(&v, 40, 12);
        let text = out.join("\n");
        let marks: Vec<(usize, usize)> = out
            .iter()
            .enumerate()
            .skip(1)
            .flat_map(|(y, row)| {
                row.chars()
                    .enumerate()
                    .filter(|&(_, c)| c == '*')
                    .map(move |(x, _)| (x, y))
            })
            .collect();
        let top = marks.iter().map(|m| m.1).min().expect("drawn");
        let bottom = marks.iter().map(|m| m.1).max().expect("drawn");
        let left = marks.iter().map(|m| m.0).min().expect("drawn");
        let right = marks.iter().map(|m| m.0).max().expect("drawn");
        assert!(bottom > top + 3 && right > left + 10, "{text}");
        for &(x, y) in &marks {
            assert!(y == top || x == right, "({x}, {y}) off the steps:\n{text}");
        }
        assert!(marks.iter().filter(|m| m.1 == top).count() > 10, "{text}");
        assert!(marks.iter().filter(|m| m.0 == right).count() > 3, "{text}");
    }

    #[test]
    fn axes_labels_and_legend() {
        let series = ada_and_bob();
        for (w, h) in [(60, 12), (200, 40)] {
            let out = draw(
                &view(&series, theme(Graphics::Unicode, ColorMode::Ansi256)),
                w,
                h,
            );
            let text = out.join("\n");
            assert!(out[0].starts_with("ATTACK PER MINUTE"), "{text}");
            assert!(
                out[0].contains("⣿ ada") && out[0].contains("• bob"),
                "{text}"
            );
            // y from 0 to 50 with the middle, x from 0 to 3.
            for label in ["50", "25", "0", "1.5", "3"] {
                let label = if label == "1.5" { "2" } else { label };
                assert!(text.contains(label), "{label} missing:\n{text}");
            }
            assert!(text.contains('│') && text.contains('─'), "{text}");
            assert!(text.chars().any(|c| ('\u{2801}'..='\u{28ff}').contains(&c)));
            assert!(text.contains('•'), "{text}");
        }
    }

    #[test]
    fn ascii_graphics_draw_only_ascii() {
        let series = ada_and_bob();
        for graphics in [Graphics::Ascii, Graphics::Electronika] {
            let t = theme(graphics, ColorMode::Monochrome);
            let out = draw(&view(&series, t), 60, 12);
            let text = out.join("\n");
            assert!(text.is_ascii(), "{text}");
            assert!(!text.contains('?'), "{text}");
            assert!(
                out[0].contains("* ada") && out[0].contains("# bob"),
                "{text}"
            );
            assert!(text.matches('*').count() > 2, "{text}");
            assert!(text.matches('#').count() > 2, "{text}");
            assert!(text.contains('|') && text.contains('-'), "{text}");
        }
    }

    #[test]
    fn attack_is_sampled_every_five_seconds_and_bounded() {
        let mut t = AttackTimeline::default();
        assert!(t.is_empty());
        for ms in (0..=30_000).step_by(50) {
            t.note(0, ms, (ms / 1000) as u32);
            t.note(1, ms, (ms / 3000) as u32);
        }
        let a = t.apm(0);
        assert_eq!(a.len(), 6, "{a:?}");
        assert_eq!(a[0], (5.0, 60.0));
        assert_eq!(a[5], (30.0, 60.0));
        assert_eq!(t.apm(1)[5], (30.0, 20.0));
        assert!(t.apm(7).is_empty());
        // A long match keeps at most MAX_SAMPLES, spread over all of it.
        for ms in (30_050..=4 * 3_600_000).step_by(1000) {
            t.note(0, ms, (ms / 1000) as u32);
        }
        let a = t.apm(0);
        assert!(
            a.len() <= MAX_SAMPLES && a.len() > MAX_SAMPLES / 3,
            "{}",
            a.len()
        );
        assert!(a[0].0 < 600.0 && a[a.len() - 1].0 > 14_000.0, "{a:?}");
        assert!(a.windows(2).all(|w| w[0].0 < w[1].0));
        for seat in 2..40 {
            t.note(seat, 10_000, 1);
        }
        assert_eq!(t.seats.len(), MAX_SEATS);
        t.clear();
        assert!(t.is_empty());
    }

    #[test]
    fn small_areas_fall_back_to_a_sparkline_then_to_the_title() {
        let series = [Series {
            label: "ada",
            points: &A,
        }];
        let out = draw(
            &view(&series, theme(Graphics::Unicode, ColorMode::Ansi256)),
            40,
            3,
        );
        let text = out.join("\n");
        assert!(out[0].contains("0..50"), "{text}");
        assert!(text.contains('█'), "{text}");
        let ascii = draw(
            &view(&series, theme(Graphics::Ascii, ColorMode::Ansi16)),
            40,
            3,
        );
        assert!(ascii.join("\n").is_ascii());
        assert!(ascii.join("\n").contains('#'), "{ascii:?}");
        for (w, h) in [(0, 0), (1, 1), (5, 1), (11, 5), (29, 6), (30, 7)] {
            draw(
                &view(&series, theme(Graphics::Unicode, ColorMode::Ansi256)),
                w,
                h,
            );
        }
        let none = draw(
            &view(&[], theme(Graphics::Unicode, ColorMode::Ansi256)),
            40,
            5,
        );
        assert!(none[1].contains("No data yet."), "{none:?}");
    }
}
