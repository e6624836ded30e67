//! SSH players and browser players side by side, against one server in one run: `--sessions`
//! players over SSH and `--web-sessions` over the web pages' WebSocket (`/play/ws`, what the
//! browser's terminal speaks), every one in a 40 Lines game of their own on the same schedule.
//!
//! The SSH players join first, then the web players: the server's RSS read after each
//! population is in gives the memory per session of each. Then two windows of `--seconds`:
//! in the first everyone plays; then the SSH players quit and in the second the web players
//! play alone. A web player's CPU is the second window's server CPU over the web players, an
//! SSH player's the first window's minus the second's over the SSH players (the same web
//! players play the same schedule in both). Bytes, frames and latency come per population
//! from the first window.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::bail;
use minotty_tests::PtySession;
use minotty_tests::procfs::{cpu_ticks, cpu_ticks_of, rss_kib};
use tokio::sync::{Barrier, Mutex, Semaphore};

use crate::args::Args;
use crate::figures::{Totals, cpu_percent, machine_ticks, print_machine};
use crate::player::{join, join_web, play};

/// The barriers of the run (each counts its players and the run itself).
struct Stages {
    /// The SSH players are in their games (or failed).
    ssh_in: Barrier,
    /// Everyone is in: the first window starts.
    all_in: Barrier,
    /// The first window is over.
    first_done: Barrier,
    /// The SSH players are gone: the second window starts.
    ssh_gone: Barrier,
    /// The second window is over.
    second_done: Barrier,
    gate: Semaphore,
    failed: AtomicU64,
    ssh: Mutex<Totals>,
    web: Mutex<Totals>,
    web_alone: Mutex<Totals>,
}

/// Readings of the server, this tool and the machine.
#[derive(Clone, Copy)]
struct Reading {
    at: Instant,
    server: Option<u64>,
    tool: Option<u64>,
    machine: Option<(u64, u64)>,
}

impl Reading {
    fn now(args: &Args) -> Reading {
        Reading {
            at: Instant::now(),
            server: args.server_pid.and_then(cpu_ticks),
            tool: cpu_ticks_of("/proc/self/stat"),
            machine: machine_ticks(),
        }
    }
}

/// A window's figures: its length and CPU percents (server, tool).
struct Window {
    seconds: f64,
    server: Option<f64>,
    tool: Option<f64>,
    machine: crate::crowd::Span<(u64, u64)>,
}

fn window(a: Reading, b: Reading) -> Window {
    let seconds = b.at.duration_since(a.at).as_secs_f64();
    Window {
        seconds,
        server: cpu_percent(a.server, b.server, seconds),
        tool: cpu_percent(a.tool, b.tool, seconds),
        machine: (a.machine, b.machine),
    }
}

fn count_failure(stages: &Stages, who: &str, e: &anyhow::Error) {
    if stages.failed.fetch_add(1, Ordering::Relaxed) < 5 {
        eprintln!("{who}: {e:#}");
    }
}

async fn ssh_player(args: Arc<Args>, stages: Arc<Stages>, i: usize) {
    let joined = {
        let _slot = stages.gate.acquire().await;
        join(&args, i).await
    };
    let mut joined = joined.map_err(|e| count_failure(&stages, "ssh", &e)).ok();
    let session = joined.as_mut().map(|(_, s)| s);
    PtySession::read_while(session, stages.ssh_in.wait()).await;
    let session = joined.as_mut().map(|(_, s)| s);
    PtySession::read_while(session, stages.all_in.wait()).await;
    if let Some((_, s)) = joined.as_mut() {
        let stats = play(&args, s, Duration::from_secs(args.seconds)).await;
        stages.ssh.lock().await.add(stats);
    }
    let session = joined.as_mut().map(|(_, s)| s);
    PtySession::read_while(session, stages.first_done.wait()).await;
    if let Some((conn, mut s)) = joined {
        let _ = s.quit().await;
        conn.close().await;
    }
    stages.ssh_gone.wait().await;
}

async fn web_player(args: Arc<Args>, stages: Arc<Stages>) {
    let joined = {
        let _slot = stages.gate.acquire().await;
        join_web(&args).await
    };
    let mut joined = joined.map_err(|e| count_failure(&stages, "web", &e)).ok();
    PtySession::read_while(joined.as_mut(), stages.all_in.wait()).await;
    let window = Duration::from_secs(args.seconds);
    if let Some(s) = joined.as_mut() {
        let stats = play(&args, s, window).await;
        stages.web.lock().await.add(stats);
    }
    PtySession::read_while(joined.as_mut(), stages.first_done.wait()).await;
    PtySession::read_while(joined.as_mut(), stages.ssh_gone.wait()).await;
    if let Some(s) = joined.as_mut() {
        let stats = play(&args, s, window).await;
        stages.web_alone.lock().await.add(stats);
    }
    PtySession::read_while(joined.as_mut(), stages.second_done.wait()).await;
    if let Some(mut s) = joined {
        let _ = s.quit().await;
    }
}

/// Runs both populations, then prints the figures per transport.
pub async fn run(args: Arc<Args>) -> anyhow::Result<()> {
    let (n_ssh, n_web) = (args.sessions, args.web_sessions);
    let stages = Arc::new(Stages {
        ssh_in: Barrier::new(n_ssh + 1),
        all_in: Barrier::new(n_ssh + n_web + 1),
        first_done: Barrier::new(n_ssh + n_web + 1),
        ssh_gone: Barrier::new(n_ssh + n_web + 1),
        second_done: Barrier::new(n_web + 1),
        gate: Semaphore::new(args.connect_parallel.max(1)),
        failed: AtomicU64::new(0),
        ssh: Mutex::new(Totals::default()),
        web: Mutex::new(Totals::default()),
        web_alone: Mutex::new(Totals::default()),
    });
    let rss_idle = args.server_pid.and_then(rss_kib);
    let ramp = Instant::now();
    let mut tasks = tokio::task::JoinSet::new();
    for i in 0..n_ssh {
        tasks.spawn(ssh_player(Arc::clone(&args), Arc::clone(&stages), i));
    }
    stages.ssh_in.wait().await;
    let rss_ssh = args.server_pid.and_then(rss_kib);
    eprintln!(
        "{n_ssh} SSH players in after {:.1} s; now the web players",
        ramp.elapsed().as_secs_f64()
    );
    for _ in 0..n_web {
        tasks.spawn(web_player(Arc::clone(&args), Arc::clone(&stages)));
    }
    stages.all_in.wait().await;
    let rss_all = args.server_pid.and_then(rss_kib);
    let ramp = ramp.elapsed();
    let failed = stages.failed.load(Ordering::Relaxed);
    eprintln!(
        "everyone in after {:.1} s ({failed} failed); two windows of {} s",
        ramp.as_secs_f64(),
        args.seconds
    );
    let start = Reading::now(&args);
    stages.first_done.wait().await;
    let first = window(start, Reading::now(&args));
    // The SSH players quit; the web players play alone.
    stages.ssh_gone.wait().await;
    let start = Reading::now(&args);
    stages.second_done.wait().await;
    let second = window(start, Reading::now(&args));
    while tasks.join_next().await.is_some() {}

    let (mut ssh, mut web, alone) = (
        stages.ssh.lock().await,
        stages.web.lock().await,
        stages.web_alone.lock().await,
    );
    println!("ramp-up (connect+menu): {:.1} s", ramp.as_secs_f64());
    println!("failed to get in:       {failed}");
    let pct = |p: Option<f64>| p.map_or("n/a".to_owned(), |p| format!("{p:.0}%"));
    println!(
        "window 1 (all play):    {:.1} s, server CPU {}, load tool CPU {}",
        first.seconds,
        pct(first.server),
        pct(first.tool)
    );
    print_machine(first.machine.0, first.machine.1);
    println!(
        "window 2 (web alone):   {:.1} s, server CPU {}, load tool CPU {}",
        second.seconds,
        pct(second.server),
        pct(second.tool)
    );
    print_machine(second.machine.0, second.machine.1);
    let per = |cpu: Option<f64>, n: u64| {
        cpu.map_or("n/a".to_owned(), |c| {
            format!("{:.3}% of a core", c / n.max(1) as f64)
        })
    };
    let ssh_cpu = first.server.zip(second.server).map(|(a, b)| a - b);
    let kib = |a: Option<u64>, b: Option<u64>, n: u64| match (a, b) {
        (Some(a), Some(b)) => format!("{:.0} KiB", b.saturating_sub(a) as f64 / n.max(1) as f64),
        _ => "n/a".to_owned(),
    };
    let figures = [
        (
            "SSH",
            per(ssh_cpu, ssh.players),
            kib(rss_idle, rss_ssh, ssh.players),
        ),
        (
            "web",
            per(second.server, alone.players),
            kib(rss_ssh, rss_all, web.players),
        ),
    ];
    for ((name, cpu, memory), totals) in figures.into_iter().zip([&mut *ssh, &mut *web]) {
        totals.latencies_us.sort_unstable();
        println!("== {name} players: {} in game", totals.players);
        totals.print_dropped();
        println!("server CPU per player:  {cpu}");
        println!("server RSS per session: {memory}");
        totals.print_bytes(first.seconds);
        println!(
            "frames/s per player:    {:.1}",
            totals.packets as f64 / totals.players.max(1) as f64 / first.seconds
        );
        totals.print_latency();
    }
    println!(
        "== web players alone (window 2): {} in game, {} dropped",
        alone.players, alone.dropped
    );
    if ssh.players + web.players == 0 {
        bail!("no player got into a game");
    }
    Ok(())
}
