//! The figures: the players' totals, percentiles, and the CPU of the server, its bot threads,
//! the load tool and the whole machine read from /proc.

use minotty_tests::procfs::{clock_ticks_per_second, cpu_ticks_of};

use crate::player::PlayerStats;

#[derive(Debug, Default)]
pub struct Totals {
    pub latencies_us: Vec<u64>,
    pub garbage_us: Vec<u64>,
    pub missed: u64,
    pub bytes: u64,
    pub packets: u64,
    pub players: u64,
    pub dropped: u64,
}

impl Totals {
    /// Adds one player's figures.
    pub fn add(&mut self, stats: PlayerStats) {
        self.latencies_us.extend(stats.latencies_us);
        self.garbage_us.extend(stats.garbage_us);
        self.missed += stats.missed;
        self.bytes += stats.bytes;
        self.packets += stats.packets;
        self.players += 1;
        self.dropped += u64::from(stats.dropped);
    }

    pub fn print_dropped(&self) {
        println!(
            "players dropped:        {} (sessions closed by the server)",
            self.dropped
        );
    }

    /// Bytes a second per player over `elapsed` seconds.
    pub fn print_bytes(&self, elapsed: f64) {
        println!(
            "bytes/s per player:     {:.0}",
            self.bytes as f64 / self.players.max(1) as f64 / elapsed
        );
    }

    /// The input-to-frame latency (`latencies_us` sorted).
    pub fn print_latency(&self) {
        println!(
            "input-to-frame latency: p50 {} ms, p99 {} ms, max {} ms ({} moves; {} without a visible move within 1 s)",
            ms(percentile(&self.latencies_us, 0.50)),
            ms(percentile(&self.latencies_us, 0.99)),
            ms(self.latencies_us.last().copied()),
            self.latencies_us.len(),
            self.missed
        );
    }
}

/// The CPU used between two readings of a process's ticks over `elapsed` seconds, in percent
/// of one core.
pub fn cpu_percent(start: Option<u64>, end: Option<u64>, elapsed: f64) -> Option<f64> {
    let (start, end) = (start?, end?);
    Some((end - start) as f64 / clock_ticks_per_second() / elapsed * 100.0)
}

pub fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let idx = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted.get(idx).copied()
}

pub fn ms(us: Option<u64>) -> String {
    us.map_or("n/a".to_owned(), |us| format!("{:.1}", us as f64 / 1000.0))
}

/// (busy, total) jiffies of all CPUs from /proc/stat.
pub fn machine_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let line = stat.lines().next()?.strip_prefix("cpu ")?;
    let v: Vec<u64> = line
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    let total: u64 = v.iter().take(8).sum();
    let idle = v.get(3)? + v.get(4)?;
    Some((total - idle, total))
}

/// CPU ticks of the server's bot threads (`minotty-bot-*`), where every bot decision runs.
pub fn bot_thread_ticks(pid: u32) -> u64 {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return 0;
    };
    tasks
        .flatten()
        .filter(|t| {
            std::fs::read_to_string(t.path().join("comm"))
                .is_ok_and(|c| c.starts_with("minotty-bot"))
        })
        .filter_map(|t| cpu_ticks_of(&t.path().join("stat").to_string_lossy()))
        .sum()
}

/// Prints how busy the whole machine was between two readings of `machine_ticks`.
pub fn print_machine(start: Option<(u64, u64)>, end: Option<(u64, u64)>) {
    if let (Some((busy0, all0)), Some((busy1, all1))) = (start, end) {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as f64;
        println!(
            "whole machine busy:     {:.0}% of {:.0}% (all processes, {} cores)",
            (busy1 - busy0) as f64 / (all1 - all0).max(1) as f64 * cores * 100.0,
            cores * 100.0,
            cores
        );
    }
}
