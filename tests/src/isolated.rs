//! The test process's own figures. Tests count work rather than time it: no CPU-time reader
//! lives here any more (a CPU-time bound flakes on a busy machine; timings go to benchmarks,
//! e.g. `minotty-resize-bench`).

use anyhow::Context;

/// This process's resident memory.
pub fn rss_bytes() -> anyhow::Result<u64> {
    let status = std::fs::read_to_string("/proc/self/status")?;
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .context("VmRSS in /proc/self/status")?;
    Ok(kb * 1024)
}
