//! A population of press timings, to measure how often the release synthesizer reads a tap as a
//! tap and a hold as a hold when the terminal reports no releases (issue 36 item 2).
//!
//! Deterministic: a seeded [`SplitMix`] draws everything, no clock is read. Each row of the
//! table is a population of sessions (one client: its keyboard's repeat delay and rate, its
//! SSH path); a session is a series of episodes of one key, far enough apart (1.2-3 s) that
//! each starts afresh, while what the synthesizer learnt of the client stays.
//!
//! - A tap episode: a press, then after a rhythm gap (150-1000 ms, the pace of play) a double
//!   tap: a press and another 35-90 ms later (human timings, uniform in their ranges).
//! - A hold episode: a press, then the terminal's auto-repeat: a first repeat after the
//!   keyboard's delay (250-600 ms), then one every period (25-50 per second, the OS timer off
//!   by up to 0.5 ms each), for 200-1500 ms.
//!
//! Every press then crosses the SSH path: OpenSSH (9.5 and later) sends keystrokes on a 20 ms
//! timer, so presses in one 20 ms slot leave in one packet at the slot's end (the grid's phase
//! is the session's), and each packet is late by 0-7 ms of network jitter, never overtaking the
//! one before (TCP keeps order). What reaches the server is milliseconds of arrival.
//!
//! What counts: a tap is counted when the engine sees a press for it (the k-th press the
//! engine sees in an episode stands for the k-th the player made; more than the player made
//! are phantoms). A hold is read as a hold when the engine sees exactly two presses (the
//! first, and the terminal's first repeat, which nothing can yet tell from a tap), the key
//! stays down from that first repeat to the last, and it comes up within
//! [`REPEAT_TIMEOUT_MAX_MS`](super::REPEAT_TIMEOUT_MAX_MS) of the last.

use minotty_engine::rng::SplitMix;

use super::{Due, Forward, ReleaseSynth, initial_timeout};
use crate::keys::{Key, KeyKind};

/// OpenSSH's keystroke timer (`ObscureKeystrokeTiming`'s default interval).
const GRID_MS: u64 = 20;
/// Network jitter per packet: 0 to this, less one, in ms.
const JITTER_MS: u32 = 8;
const KEY: Key = Key::Right;
/// The default DAS, which the release timeout stays below.
const DAS_MS: u64 = 150;

/// One row of the table: what its episodes are.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Rhythm gap (ms range), then a double tap this far apart (ms range).
    Taps {
        rhythm: (u64, u64),
        double: (u64, u64),
    },
    /// A keyboard repeating after `delay` ms at `rate` per second (each a range).
    Hold { delay: (u64, u64), rate: (u64, u64) },
}

/// A row: its name, its episodes, and whether each session first holds the key once (so the
/// synthesizer has learnt the client's repeat delay and rate, as in play).
#[derive(Clone, Copy, Debug)]
pub struct Row {
    pub name: &'static str,
    pub kind: Kind,
    pub warm: bool,
    /// Whether 2 % of packets are 20-60 ms late besides the jitter (a congested path; not the
    /// issue's population, shown for what it costs).
    pub spikes: bool,
}

/// The kinds the issue names: taps of a move, a rotation and a hard drop, cold and warm, and
/// holds at each corner of the common delays and rates.
pub fn rows() -> Vec<Row> {
    let taps = |name, double, warm| Row {
        name,
        kind: Kind::Taps {
            rhythm: (150, 1000),
            double,
        },
        warm,
        spikes: false,
    };
    let hold = |name, delay, rate| Row {
        name,
        kind: Kind::Hold {
            delay: (delay, delay),
            rate: (rate, rate),
        },
        warm: false,
        spikes: false,
    };
    vec![
        taps("move taps, double 35-90 ms, cold", (35, 90), false),
        taps("move taps, double 35-90 ms, after a hold", (35, 90), true),
        taps("rotate double taps 50-60 ms, cold", (50, 60), false),
        taps("rotate double taps 50-60 ms, after a hold", (50, 60), true),
        taps("hard-drop double taps 35-60 ms, cold", (35, 60), false),
        taps(
            "hard-drop double taps 35-60 ms, after a hold",
            (35, 60),
            true,
        ),
        hold("hold, delay 250 ms, 25 Hz", 250, 25),
        hold("hold, delay 250 ms, 50 Hz", 250, 50),
        hold("hold, delay 600 ms, 25 Hz", 600, 25),
        hold("hold, delay 600 ms, 50 Hz", 600, 50),
        Row {
            name: "hold, delay 250-600 ms, 25-50 Hz",
            kind: Kind::Hold {
                delay: (250, 600),
                rate: (25, 50),
            },
            warm: false,
            spikes: false,
        },
        Row {
            spikes: true,
            ..taps(
                "move taps, double 35-90 ms, cold, 2 % of packets late",
                (35, 90),
                false,
            )
        },
        Row {
            name: "hold, delay 250-600 ms, 25-50 Hz, 2 % of packets late",
            kind: Kind::Hold {
                delay: (250, 600),
                rate: (25, 50),
            },
            warm: false,
            spikes: true,
        },
    ]
}

/// What a row measured.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub taps: u32,
    pub counted: u32,
    /// The second press of each double tap, and how many of them were counted.
    pub seconds: u32,
    pub seconds_counted: u32,
    /// Presses the engine saw that the player never made.
    pub phantoms: u32,
    /// The latest a counted tap reached the engine after it arrived (ms), and the sum of the
    /// second taps' latencies.
    pub worst_latency: u64,
    pub seconds_latency: u64,
    /// Taps whose key the engine saw down for [`DAS_MS`] or longer (an auto-shift).
    pub charged: u32,
    pub holds: u32,
    pub holds_read: u32,
}

impl Tally {
    pub fn taps_percent(&self) -> f64 {
        percent(self.counted, self.taps)
    }

    pub fn holds_percent(&self) -> f64 {
        percent(self.holds_read, self.holds)
    }
}

fn percent(n: u32, of: u32) -> f64 {
    if of == 0 {
        100.0
    } else {
        100.0 * f64::from(n) / f64::from(of)
    }
}

fn between(rng: &mut SplitMix, (lo, hi): (u64, u64)) -> u64 {
    lo + u64::from(rng.below((hi - lo + 1) as u32))
}

/// A client: its keyboard and its path.
struct Client {
    delay: u64,
    rate: u64,
    phase_ms: u64,
}

/// One episode's presses as the player (or the keyboard) makes them, in microseconds.
struct Episode {
    presses: Vec<u64>,
    hold: bool,
}

fn episode(rng: &mut SplitMix, kind: Kind, client: &Client, start_us: u64) -> Episode {
    match kind {
        Kind::Taps { rhythm, double } => {
            let first = start_us + u64::from(rng.below(1000));
            let second = first + 1000 * between(rng, rhythm) + u64::from(rng.below(1000));
            let third = second + 1000 * between(rng, double) + u64::from(rng.below(1000));
            Episode {
                presses: vec![first, second, third],
                hold: false,
            }
        }
        Kind::Hold { .. } => hold_presses(rng, client, start_us),
    }
}

fn hold_presses(rng: &mut SplitMix, client: &Client, start_us: u64) -> Episode {
    let period_us = 1_000_000 / client.rate;
    let length_us = 1000 * between(rng, (200, 1500));
    let first = start_us + u64::from(rng.below(1000));
    let mut presses = vec![first];
    let mut t = first + 1000 * client.delay;
    while t <= first + 1000 * client.delay + length_us {
        // The OS timer is off by up to half a millisecond either way.
        presses.push(t + u64::from(rng.below(1000)) - 500);
        t += period_us;
    }
    Episode {
        presses,
        hold: true,
    }
}

/// The SSH path: the 20 ms keystroke grid, then jitter per packet, in order.
struct Wire {
    phase: u64,
    spikes: bool,
    slot: Option<u64>,
    arrival: u64,
}

impl Wire {
    fn arrive(&mut self, rng: &mut SplitMix, t_us: u64) -> u64 {
        let t = t_us.div_ceil(1000);
        let slot = self.phase + (t - self.phase).div_ceil(GRID_MS) * GRID_MS;
        if self.slot != Some(slot) {
            self.slot = Some(slot);
            let mut late = u64::from(rng.below(JITTER_MS));
            if self.spikes && rng.below(50) == 0 {
                late += 20 + u64::from(rng.below(41));
            }
            self.arrival = self.arrival.max(slot + late);
        }
        self.arrival
    }
}

/// An engine edge: down (a press) or up, at a time.
type Edge = (u64, bool);

/// Feeds one press arriving at `t`, after every synthetic event due by then.
fn feed(synth: &mut ReleaseSynth, t: u64, edges: &mut Vec<Edge>) {
    drain(synth, t, edges);
    match synth.on_event(KEY, KeyKind::Press, t) {
        Forward::Press => edges.push((t, true)),
        Forward::Repress => edges.extend([(t, false), (t, true)]),
        Forward::Release => edges.push((t, false)),
        Forward::Nothing => {}
    }
}

/// Every synthetic event due by `now`, as the session plays them.
fn drain(synth: &mut ReleaseSynth, now: u64, edges: &mut Vec<Edge>) {
    while let Some((_, at, due)) = synth.pop_due(now) {
        match due {
            Due::Release => edges.push((at, false)),
            Due::Tap => edges.extend([(at, false), (at, true)]),
        }
    }
}

/// Scores one episode: its presses' arrivals and the edges the engine saw meanwhile.
fn score(tally: &mut Tally, ep: &Episode, arrivals: &[u64], edges: &[Edge]) {
    let downs: Vec<u64> = edges.iter().filter(|e| e.1).map(|e| e.0).collect();
    if ep.hold {
        tally.holds += 1;
        tally.phantoms += (downs.len() as u32).saturating_sub(2);
        let (first_repeat, last) = (arrivals[1], arrivals[arrivals.len() - 1]);
        let up_between = edges
            .iter()
            .any(|&(t, down)| !down && t >= first_repeat && t < last);
        let up_in_time = edges
            .iter()
            .rev()
            .find(|e| !e.1)
            .is_some_and(|&(t, _)| t >= last && t <= last + super::REPEAT_TIMEOUT_MAX_MS);
        if downs.len() == 2 && downs[1] == first_repeat && !up_between && up_in_time {
            tally.holds_read += 1;
        }
        return;
    }
    let n = arrivals.len() as u32;
    tally.taps += n;
    tally.seconds += 1;
    let counted = (downs.len() as u32).min(n);
    tally.counted += counted;
    tally.phantoms += (downs.len() as u32).saturating_sub(n);
    if counted == n {
        tally.seconds_counted += 1;
    }
    for (d, a) in downs.iter().zip(arrivals) {
        tally.worst_latency = tally.worst_latency.max(d.saturating_sub(*a));
    }
    if let (Some(d), Some(a)) = (downs.get(2), arrivals.get(2)) {
        tally.seconds_latency += d.saturating_sub(*a);
    }
    let mut down_since = None;
    for &(t, down) in edges {
        match (down, down_since) {
            (true, None) => down_since = Some(t),
            (false, Some(s)) => {
                if t - s >= DAS_MS {
                    tally.charged += 1;
                }
                down_since = None;
            }
            _ => {}
        }
    }
}

/// Measures `row` over `sessions` sessions of `episodes` episodes each, from `seed`.
pub fn measure(row: &Row, seed: u32, sessions: u32, episodes: u32) -> Tally {
    let mut tally = Tally::default();
    let mut rng = SplitMix::new(seed, 36);
    for _ in 0..sessions {
        let (delay, rate) = match row.kind {
            Kind::Hold { delay, rate } => (delay, rate),
            Kind::Taps { .. } => ((250, 600), (25, 50)),
        };
        let client = Client {
            delay: between(&mut rng, delay),
            rate: between(&mut rng, rate),
            phase_ms: u64::from(rng.below(GRID_MS as u32)),
        };
        let mut wire = Wire {
            phase: client.phase_ms,
            spikes: row.spikes,
            slot: None,
            arrival: 0,
        };
        let mut synth = ReleaseSynth::new(true, initial_timeout(150, DAS_MS));
        let mut start_us = 10_000_000;
        let mut edges = Vec::new();
        if row.warm {
            let ep = hold_presses(&mut rng, &client, start_us);
            for &p in &ep.presses {
                let t = wire.arrive(&mut rng, p);
                feed(&mut synth, t, &mut edges);
            }
            start_us = ep.presses[ep.presses.len() - 1] + 1000 * between(&mut rng, (1200, 3000));
        }
        for _ in 0..episodes {
            let ep = episode(&mut rng, row.kind, &client, start_us);
            let arrivals: Vec<u64> = ep
                .presses
                .iter()
                .map(|&p| wire.arrive(&mut rng, p))
                .collect();
            let end = ep.presses[ep.presses.len() - 1];
            start_us = end + 1000 * between(&mut rng, (1200, 3000));
            edges.clear();
            for &t in &arrivals {
                feed(&mut synth, t, &mut edges);
            }
            // Everything this episode causes is due before the next one starts.
            drain(&mut synth, start_us / 1000, &mut edges);
            score(&mut tally, &ep, &arrivals, &edges);
        }
    }
    tally
}

/// The table as printed for BENCHMARKS.md.
pub fn table(seed: u32, sessions: u32, episodes: u32) -> String {
    let mut out = String::from(
        "| population | taps counted | second taps counted | phantom presses | taps held to DAS | second taps' latency, mean / worst | holds read as holds |\n| --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for row in rows() {
        let t = measure(&row, seed, sessions, episodes);
        let (taps, seconds, holds) = if t.taps > 0 {
            (
                format!("{:.2} % of {}", t.taps_percent(), t.taps),
                format!("{:.2} %", percent(t.seconds_counted, t.seconds)),
                "-".to_string(),
            )
        } else {
            (
                "-".to_string(),
                "-".to_string(),
                format!("{:.2} % of {}", t.holds_percent(), t.holds),
            )
        };
        let charged = if t.taps > 0 {
            t.charged.to_string()
        } else {
            "-".to_string()
        };
        let latency = if t.taps > 0 {
            let mean = t.seconds_latency as f64 / f64::from(t.seconds_counted.max(1));
            format!("{mean:.1} / {} ms", t.worst_latency)
        } else {
            "-".to_string()
        };
        out.push_str(&format!(
            "| {} | {taps} | {seconds} | {} | {} | {latency} | {holds} |\n",
            row.name, t.phantoms, charged
        ));
    }
    out
}

/// The bar: at least 98 % of taps counted and 99 % of holds read as holds, in every
/// row, with no phantom press among the taps and no tap held long enough to charge DAS.
#[test]
fn every_row_of_the_population_counts_its_taps_and_reads_its_holds() {
    let mut wrong = Vec::new();
    for row in rows().into_iter().filter(|r| !r.spikes) {
        let t = measure(&row, 7, 40, 25);
        assert!(t.taps + t.holds >= 1000, "{}: {t:?}", row.name);
        let phantoms = t.taps > 0 && t.phantoms > 0;
        if t.taps_percent() < 98.0 || t.holds_percent() < 99.0 || phantoms || t.charged > 0 {
            wrong.push(format!("{}: {t:?}", row.name));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

/// The table of BENCHMARKS.md: `cargo test -p minotty-ui --lib
/// release::population::table_for_benchmarks -- --ignored --nocapture` (a count, not a time:
/// a debug build prints the same figures in about a second).
#[test]
#[ignore = "prints the measurement"]
fn table_for_benchmarks() {
    println!("{}", table(36, 200, 50));
}
