//! minotty-resize-bench: what a flood of window changes costs a running minotty server.
//!
//! One guest logs in with a `--cols` x `--rows` PTY, starts a 40 Lines game, then sends
//! `--changes` window changes alternating between 500x200 and 499x200 (the largest size the
//! server draws, one column apart so that every change is a new size), reading what arrives
//! every 256 changes, and finally 120x45. It waits until the game is drawn at 120x45 (the last
//! size wins) and reports the server's CPU time (utime + stime from `/proc/PID/stat`) and
//! resident memory (`VmRSS`) before the flood and after the final frame. Loopback only.
//! `tests/bench-resize.sh` starts a fresh release server and runs it.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use anyhow::{Context, ensure};
use clap::Parser;
use minotty_tests::{Connection, Login, WAIT, board, keys, procfs};

#[derive(Debug, Parser)]
#[command(
    name = "minotty-resize-bench",
    about = "Window-change flood against a local minotty server"
)]
struct Args {
    /// Server address (loopback only).
    #[arg(long, default_value = "127.0.0.1:2222")]
    addr: SocketAddr,
    /// The server's process id, for its CPU and memory figures.
    #[arg(long)]
    server_pid: u32,
    /// Window changes sent (at most 1,000,000).
    #[arg(long, default_value_t = 20_000)]
    changes: u32,
    #[arg(long, default_value_t = 100)]
    cols: u16,
    #[arg(long, default_value_t = 40)]
    rows: u16,
    /// Spread the changes over this many seconds (a batch every 10 ms) instead of sending them
    /// as fast as SSH carries them: a slower attacker that keeps the server resizing for longer.
    #[arg(long, default_value_t = 0.0)]
    seconds: f64,
}

/// The server's CPU time so far and its resident memory in KiB.
#[derive(Clone, Copy, Debug)]
struct Sample {
    cpu_ticks: u64,
    rss_kib: u64,
}

fn sample(pid: u32) -> anyhow::Result<Sample> {
    Ok(Sample {
        cpu_ticks: procfs::cpu_ticks(pid).with_context(|| format!("reading /proc/{pid}/stat"))?,
        rss_kib: procfs::rss_kib(pid).context("VmRSS in /proc/PID/status")?,
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    ensure!(args.addr.ip().is_loopback(), "loopback addresses only");
    ensure!(args.changes <= 1_000_000, "at most 1,000,000 changes");
    let conn = Connection::open(args.addr, "resize", Login::Guest).await?;
    let mut s = conn.play(args.cols, args.rows).await?;
    s.start_40_lines().await?;
    s.emulate = false;
    // Let the first frames settle before the first sample.
    s.pump_for(Duration::from_millis(500)).await;
    let before = sample(args.server_pid)?;
    let started = Instant::now();
    // With `--seconds`, the changes go out in batches every 10 ms.
    let batches = (args.seconds * 100.0).max(1.0) as u32;
    let per_batch = args.changes.div_ceil(batches).max(1);
    for i in 0..args.changes {
        s.resize(if i % 2 == 0 { 500 } else { 499 }, 200).await?;
        if i % 256 == 0 {
            s.drain().await;
        }
        if args.seconds > 0.0 && (i + 1) % per_batch == 0 {
            let due = started + Duration::from_millis(u64::from((i + 1) / per_batch) * 10);
            tokio::time::sleep_until(due.into()).await;
        }
    }
    s.resize(120, 45).await?;
    let sent_in = started.elapsed();
    s.emulate = true;
    s.pump_for(Duration::from_millis(500)).await;
    s.send(keys::LEFT).await?;
    s.wait_until("a frame at 120 x 45", WAIT, |screen| {
        board::find(screen).is_some_and(|b| b.has_piece)
    })
    .await?;
    let after = sample(args.server_pid)?;
    let ticks = after.cpu_ticks.saturating_sub(before.cpu_ticks);
    let cpu_s = ticks as f64 / procfs::clock_ticks_per_second();
    let rss_growth = i128::from(after.rss_kib) - i128::from(before.rss_kib);
    println!("window changes:     {}", args.changes);
    println!("sent in:            {:.2} s", sent_in.as_secs_f64());
    println!("server CPU:         {cpu_s:.2} s");
    println!(
        "server CPU each:    {:.1} us",
        cpu_s * 1e6 / f64::from(args.changes.max(1))
    );
    println!(
        "server RSS:         {} KiB -> {} KiB ({rss_growth:+} KiB)",
        before.rss_kib, after.rss_kib
    );
    println!("bytes received:     {}", s.bytes_received);
    drop(s);
    conn.close().await;
    Ok(())
}
