//! What the load tools read of a process from `/proc`: its CPU time and resident memory.
//! Benchmarks only: tests count work and never compare these to a threshold.

/// utime + stime of the process whose `stat` file is `path`, in clock ticks.
pub fn cpu_ticks_of(path: &str) -> Option<u64> {
    let stat = std::fs::read_to_string(path).ok()?;
    // Fields after the command name (which may contain spaces) start after the last ')'.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some(utime + stime)
}

/// utime + stime of process `pid`, in clock ticks.
pub fn cpu_ticks(pid: u32) -> Option<u64> {
    cpu_ticks_of(&format!("/proc/{pid}/stat"))
}

/// Resident memory of process `pid`, in KiB.
pub fn rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The kernel's clock ticks per second (`getconf CLK_TCK`, 100 when it cannot be asked).
pub fn clock_ticks_per_second() -> f64 {
    std::process::Command::new("getconf")
        .arg("CLK_TCK")
        .output()
        .ok()
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(100.0)
}
