//! The operator's view: process-wide counters, gauges and histograms, written out in the
//! Prometheus text exposition format (0.0.4) by [`render`] and served by the web front end (`minotty-web`'s `operator`).
//!
//! Everything is a plain atomic in one `static` ([`METRICS`]): a hook on a hot path (a frame
//! written, a key answered) is one or two relaxed atomic adds, no lock and no allocation. The
//! gauges that follow a lifetime (a session, a room, a match) are guards that add one when
//! made and take it back when dropped, so a panic or an early return cannot leave them wrong.
//!
//! Several servers in one process (the tests) share these numbers; a test compares before and
//! after rather than expecting exact values.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU8, AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub mod cluster;
mod deps;
mod store;

pub use deps::{DEPENDENCIES, Dependency, note_dependency, note_spool, use_dependency};
pub use store::{SPOOL, SpoolMetrics, StoreMetrics, observer as store_observer};

/// A number that only goes up.
#[derive(Debug)]
pub struct Counter(AtomicU64);

impl Default for Counter {
    fn default() -> Counter {
        Counter::new()
    }
}

impl Counter {
    pub const fn new() -> Counter {
        Counter(AtomicU64::new(0))
    }

    pub fn add(&self, n: u64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// A number that goes up and down.
#[derive(Debug)]
pub struct Gauge(AtomicI64);

impl Default for Gauge {
    fn default() -> Gauge {
        Gauge::new()
    }
}

impl Gauge {
    pub const fn new() -> Gauge {
        Gauge(AtomicI64::new(0))
    }

    pub fn add(&self, n: i64) {
        self.0.fetch_add(n, Ordering::Relaxed);
    }

    pub fn set(&self, n: i64) {
        self.0.store(n, Ordering::Relaxed);
    }

    pub fn get(&self) -> i64 {
        self.0.load(Ordering::Relaxed)
    }

    /// One more until the guard is dropped.
    pub fn track(&'static self) -> Tracked {
        self.add(1);
        Tracked(self)
    }
}

/// One unit of a [`Gauge`], given back on drop.
#[derive(Debug)]
pub struct Tracked(&'static Gauge);

impl Drop for Tracked {
    fn drop(&mut self) {
        self.0.add(-1);
    }
}

/// Upper bounds of the latency buckets, in microseconds (0.5 ms to 5 s).
const LATENCY_BOUNDS_US: [u64; 14] = [
    500, 1_000, 2_500, 5_000, 10_000, 16_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
    2_500_000, 5_000_000,
];
const BUCKETS: usize = LATENCY_BOUNDS_US.len();

/// A latency histogram over fixed buckets ([`LATENCY_BOUNDS_US`]), in microseconds inside and
/// seconds outside.
#[derive(Debug)]
pub struct Histogram {
    /// Observations in each bucket alone (not cumulative); past the last bound they are only
    /// in `count`.
    buckets: [AtomicU64; BUCKETS],
    sum_us: AtomicU64,
    count: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram::new()
    }
}

impl Histogram {
    pub const fn new() -> Histogram {
        Histogram {
            buckets: [const { AtomicU64::new(0) }; BUCKETS],
            sum_us: AtomicU64::new(0),
            count: AtomicU64::new(0),
        }
    }

    pub fn observe(&self, d: Duration) {
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        if let Some(i) = LATENCY_BOUNDS_US.iter().position(|&b| us <= b)
            && let Some(bucket) = self.buckets.get(i)
        {
            bucket.fetch_add(1, Ordering::Relaxed);
        }
        self.sum_us.fetch_add(us, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
    }

    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }
}

/// What a `/health` request answers.
#[derive(Debug)]
pub struct Health(AtomicU8);

const STARTING: u8 = 0;
const SERVING: u8 = 1;
const DRAINING: u8 = 2;

impl Default for Health {
    fn default() -> Health {
        Health::new()
    }
}

impl Health {
    pub const fn new() -> Health {
        Health(AtomicU8::new(STARTING))
    }

    /// The server accepts players (`/health` answers 200).
    pub fn set_serving(&self) {
        // Draining is for good: a late "serving" never undoes it.
        let _ = self
            .0
            .compare_exchange(STARTING, SERVING, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// The server stops taking players (shutdown or drain): `/health` answers 503, so a load
    /// balancer sends new players elsewhere.
    pub fn set_draining(&self) {
        self.0.store(DRAINING, Ordering::Relaxed);
    }

    pub fn is_serving(&self) -> bool {
        self.0.load(Ordering::Relaxed) == SERVING
    }

    /// "ok", "starting" or "draining".
    pub fn word(&self) -> &'static str {
        match self.0.load(Ordering::Relaxed) {
            SERVING => "ok",
            STARTING => "starting",
            _ => "draining",
        }
    }
}

/// Every metric of the process.
#[derive(Debug)]
pub struct Metrics {
    pub sessions_open: Gauge,
    pub sessions_total: Counter,
    pub solo_players: Gauge,
    pub versus_players: Gauge,
    pub rooms_open: Gauge,
    pub matches_running: Gauge,
    pub frames_sent: Counter,
    pub bytes_sent: Counter,
    pub input_to_frame: Histogram,
    /// Transactions of the game writer, and of the match recorder.
    pub db_write_games: Histogram,
    pub db_write_matches: Histogram,
    /// Games handed to the game writer and matches to the recorder, not yet stored.
    pub db_queue_games: Gauge,
    pub db_queue_matches: Gauge,
    pub nats_rtt: Histogram,
    pub nats_rtt_last_us: Gauge,
    /// Accepted SSH sockets still open (`socket.rs`), and those of them holding a slot.
    pub sockets_open: Gauge,
    pub connections_open: Gauge,
}

impl Metrics {
    /// Every metric at zero.
    pub const fn new() -> Metrics {
        Metrics {
            sessions_open: Gauge::new(),
            sessions_total: Counter::new(),
            solo_players: Gauge::new(),
            versus_players: Gauge::new(),
            rooms_open: Gauge::new(),
            matches_running: Gauge::new(),
            frames_sent: Counter::new(),
            bytes_sent: Counter::new(),
            input_to_frame: Histogram::new(),
            db_write_games: Histogram::new(),
            db_write_matches: Histogram::new(),
            db_queue_games: Gauge::new(),
            db_queue_matches: Gauge::new(),
            nats_rtt: Histogram::new(),
            nats_rtt_last_us: Gauge::new(),
            sockets_open: Gauge::new(),
            connections_open: Gauge::new(),
        }
    }
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

/// The process's metrics.
pub static METRICS: Metrics = Metrics::new();

/// The process's health, for `/health`: `server::run` sets it serving once it listens and
/// draining when it begins to shut down.
pub static HEALTH: Health = Health::new();

/// A session task runs (one per game or TV stream) until the guard is dropped.
pub fn session_opened() -> Tracked {
    METRICS.sessions_total.add(1);
    METRICS.sessions_open.track()
}

/// A room task runs until the guard is dropped.
pub fn room_opened() -> Tracked {
    METRICS.rooms_open.track()
}

/// A match is played until the guard is dropped.
pub fn match_running() -> Tracked {
    METRICS.matches_running.track()
}

/// One write of `bytes` to a player (a frame, with any control sequences before it).
pub fn frame_sent(bytes: usize) {
    METRICS.frames_sent.add(1);
    METRICS.bytes_sent.add(bytes as u64);
}

/// Runs one write of the match recorder, timing it (successful or not).
pub async fn match_write_timed<T>(write: impl std::future::Future<Output = T>) -> T {
    timed(&METRICS.db_write_matches, write).await
}

async fn timed<T>(h: &Histogram, write: impl std::future::Future<Output = T>) -> T {
    let started = Instant::now();
    let result = write.await;
    h.observe(started.elapsed());
    result
}

/// Matches handed to the match recorder (positive) or stored or given up (negative).
pub fn match_recorder_queued(delta: i64) {
    METRICS.db_queue_matches.add(delta);
}

/// A NATS round trip (a request answered, or the client's own ping) took `d`. For the
/// cross-instance rooms: until they call it, the histogram stays empty and the gauge 0.
pub fn nats_rtt(d: Duration) {
    METRICS.nats_rtt.observe(d);
    METRICS
        .nats_rtt_last_us
        .set(i64::try_from(d.as_micros()).unwrap_or(i64::MAX));
}

/// Whether a session's player is in a game, and which kind; keeps the players-in-game gauges.
#[derive(Debug, Default)]
pub struct Playing {
    now: Option<bool>,
}

impl Playing {
    /// The session's state this turn: `in_game`, and if so whether it is a versus game. Cheap
    /// when nothing changed (a comparison).
    pub fn set(&mut self, in_game: bool, versus: bool) {
        let next = in_game.then_some(versus);
        if next == self.now {
            return;
        }
        self.gauge(-1);
        self.now = next;
        self.gauge(1);
    }

    fn gauge(&self, delta: i64) {
        match self.now {
            Some(true) => METRICS.versus_players.add(delta),
            Some(false) => METRICS.solo_players.add(delta),
            None => {}
        }
    }
}

impl Drop for Playing {
    fn drop(&mut self) {
        self.gauge(-1);
    }
}

/// From a key's arrival to the write of the frame that answers it, per session: the earliest
/// key not yet answered is kept; the next frame written observes it.
#[derive(Debug, Default)]
pub struct InputLatency {
    pending: Option<Instant>,
}

impl InputLatency {
    /// A key that arrived at `at` changed what the player sees.
    pub fn key(&mut self, at: impl Into<Instant>) {
        self.pending.get_or_insert(at.into());
    }

    /// A frame was handed to the player's channel now.
    pub fn frame(&mut self) {
        if let Some(at) = self.pending.take() {
            METRICS.input_to_frame.observe(at.elapsed());
        }
    }
}

/// The metrics in the Prometheus text exposition format, version 0.0.4.
pub fn render() -> String {
    render_with(&METRICS, &HEALTH)
}

fn render_with(m: &Metrics, health: &Health) -> String {
    let mut out = String::with_capacity(4096);
    let o = &mut out;
    header(o, "minotty_build_info", "gauge", "The server's version.");
    line(
        o,
        "minotty_build_info",
        &format!("version=\"{}\"", env!("CARGO_PKG_VERSION")),
        1,
    );
    header(
        o,
        "minotty_up",
        "gauge",
        "1 while the server accepts players, 0 while it starts or drains.",
    );
    line(o, "minotty_up", "", i64::from(health.is_serving()));
    gauge(
        o,
        "minotty_sessions_open",
        "Sessions running (games and TV streams).",
        &m.sessions_open,
    );
    counter(
        o,
        "minotty_sessions_total",
        "Sessions started.",
        &m.sessions_total,
    );
    header(o, "minotty_players_in_game", "gauge", "Players in a game.");
    line(
        o,
        "minotty_players_in_game",
        "mode=\"solo\"",
        m.solo_players.get(),
    );
    line(
        o,
        "minotty_players_in_game",
        "mode=\"versus\"",
        m.versus_players.get(),
    );
    gauge(
        o,
        "minotty_sockets_open",
        "Accepted SSH sockets still open (being refused or awaiting a PROXY header included).",
        &m.sockets_open,
    );
    gauge(
        o,
        "minotty_connections_open",
        "SSH sockets holding a connection slot (counted against the connection limits).",
        &m.connections_open,
    );
    if let Ok(runtime) = tokio::runtime::Handle::try_current() {
        header(
            o,
            "minotty_tasks_alive",
            "gauge",
            "Tasks alive in the server's runtime.",
        );
        let tasks = runtime.metrics().num_alive_tasks();
        line(
            o,
            "minotty_tasks_alive",
            "",
            i64::try_from(tasks).unwrap_or(i64::MAX),
        );
    }
    gauge(o, "minotty_rooms_open", "Versus rooms open.", &m.rooms_open);
    gauge(
        o,
        "minotty_matches_running",
        "Versus matches being played.",
        &m.matches_running,
    );
    counter(
        o,
        "minotty_frames_sent_total",
        "Writes to players' terminals (frames).",
        &m.frames_sent,
    );
    counter(
        o,
        "minotty_bytes_sent_total",
        "Bytes written to players' terminals (before SSH encryption).",
        &m.bytes_sent,
    );
    histogram(
        o,
        "minotty_input_to_frame_seconds",
        "From a key's arrival to the write of the frame that answers it.",
        &m.input_to_frame,
    );
    histograms(
        o,
        "minotty_db_write_seconds",
        "One database write: a transaction of the game writer, or of the match recorder.",
        &[
            ("writer=\"games\"", &m.db_write_games),
            ("writer=\"matches\"", &m.db_write_matches),
        ],
    );
    header(
        o,
        "minotty_db_queue",
        "gauge",
        "Finished games (matches) handed to the game writer (match recorder), not yet stored.",
    );
    line(
        o,
        "minotty_db_queue",
        "writer=\"games\"",
        m.db_queue_games.get(),
    );
    line(
        o,
        "minotty_db_queue",
        "writer=\"matches\"",
        m.db_queue_matches.get(),
    );
    histogram(
        o,
        "minotty_nats_rtt_seconds",
        "NATS round trips.",
        &m.nats_rtt,
    );
    header(
        o,
        "minotty_nats_rtt_last_seconds",
        "gauge",
        "The latest NATS round trip (0 until one is measured).",
    );
    let _ = writeln!(
        o,
        "minotty_nats_rtt_last_seconds {}",
        seconds(u64::try_from(m.nats_rtt_last_us.get()).unwrap_or(0))
    );
    cluster::render(o);
    DEPENDENCIES.render(o);
    store::render_spool(o);
    out
}

fn header(o: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(o, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

fn line(o: &mut String, name: &str, labels: &str, value: i64) {
    if labels.is_empty() {
        let _ = writeln!(o, "{name} {value}");
    } else {
        let _ = writeln!(o, "{name}{{{labels}}} {value}");
    }
}

fn gauge(o: &mut String, name: &str, help: &str, g: &Gauge) {
    header(o, name, "gauge", help);
    line(o, name, "", g.get());
}

fn counter(o: &mut String, name: &str, help: &str, c: &Counter) {
    header(o, name, "counter", help);
    let _ = writeln!(o, "{name} {}", c.get());
}

/// Microseconds as seconds, exactly (no float rounding in the text).
fn seconds(us: u64) -> String {
    let frac = us % 1_000_000;
    if frac == 0 {
        format!("{}", us / 1_000_000)
    } else {
        let s = format!("{}.{frac:06}", us / 1_000_000);
        s.trim_end_matches('0').to_owned()
    }
}

fn histogram(o: &mut String, name: &str, help: &str, h: &Histogram) {
    histograms(o, name, help, &[("", h)]);
}

/// A histogram family: one histogram per label set (`labels` as written, without braces).
fn histograms(o: &mut String, name: &str, help: &str, members: &[(&str, &Histogram)]) {
    header(o, name, "histogram", help);
    for (labels, h) in members {
        histogram_samples(o, name, labels, h);
    }
}

fn histogram_samples(o: &mut String, name: &str, labels: &str, h: &Histogram) {
    let (comma, braced) = if labels.is_empty() {
        (String::new(), String::new())
    } else {
        (format!("{labels},"), format!("{{{labels}}}"))
    };
    // Read the total first: buckets written after it may make the last ones exceed it by a
    // few, so the +Inf bucket (the total) is taken as at least the cumulative sum.
    let count = h.count.load(Ordering::Relaxed);
    let sum = h.sum_us.load(Ordering::Relaxed);
    let mut cumulative = 0u64;
    for (bound, bucket) in LATENCY_BOUNDS_US.iter().zip(&h.buckets) {
        cumulative += bucket.load(Ordering::Relaxed);
        let _ = writeln!(
            o,
            "{name}_bucket{{{comma}le=\"{}\"}} {cumulative}",
            seconds(*bound)
        );
    }
    let count = count.max(cumulative);
    let _ = writeln!(o, "{name}_bucket{{{comma}le=\"+Inf\"}} {count}");
    let _ = writeln!(o, "{name}_sum{braced} {}", seconds(sum));
    let _ = writeln!(o, "{name}_count{braced} {count}");
}

#[cfg(test)]
mod tests;
