//! minotty-load: N concurrent players against a running minotty server on this machine.
//!
//! Each player connects with its own key, asks for a PTY, walks the menus into a 40 Lines game
//! by reading the screen, then plays on a schedule (a tap every `--tap-ms`, a hard drop every
//! `--drop-every` taps, Retry when a game ends). After everyone is in, the measurement window
//! runs for `--seconds`; then everyone quits. Reported: server CPU (from /proc/PID/stat when
//! `--server-pid` is given), RSS per session, bytes/s per player and the input-to-frame latency
//! (time from sending a key to the next data packet), and the players the server dropped
//! (sessions that closed before the window ended). Bounded: at most 5000 players and 3600 s
//! (the soak in `tests/soak.sh`), loopback addresses only.
//!
//! `--versus rooms` pairs the players in 1v1 battle rooms instead (the first of each pair
//! creates a room as a guest, the second joins it by code, the first starts), and `--versus
//! quick` sends registered players through the ranked quick-match queue (the server needs
//! `--ranked-same-address`: every player here is on loopback). Both then play the
//! same schedule; a decided match is followed by a rematch. With `--versus-seed` (the seed the
//! server deals, `minotty --versus-seed`) each room's host first plays a tetris planned for
//! that seed and the tool reports the clear-to-garbage-meter latency: from sending the hard
//! drop that clears the tetris to the first frame on the opponent's screen with the meter lit.
//!
//! `--versus bots` gives every player a room of their own with a server bot of `--bot-level`
//! (the host adds it with `b` and starts); the players play the same schedule, rematching.
//! The tool then also reports the CPU of the server's bot threads (`minotty-bot-*`: every
//! bot decision runs there) apart from the whole server's.
//!
//! `--addr-b` (a second instance of a cluster, `minotty serve --nats`) puts the second player
//! of each pair there: every match then crosses instances, and with `--versus rooms
//! --versus-seed` the clear-to-meter latency is the cross-instance one (the tetris on `--addr`,
//! the meter on `--addr-b`). `tests/bench-cluster.sh` runs it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use clap::Parser;
use minotty_engine::{Button, Mode};
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::procfs::{clock_ticks_per_second, cpu_ticks, cpu_ticks_of, rss_kib};
use minotty_tests::{Connection, Login, PtySession, keys, versus};
use tokio::sync::{Barrier, Mutex, Semaphore, oneshot};

/// How players meet in versus mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum VersusMode {
    /// Pairs in private rooms (guests).
    Rooms,
    /// Registered players through the ranked queue.
    Quick,
    /// Each player alone in a room with a server bot.
    Bots,
}

#[derive(Debug, Parser)]
#[command(name = "minotty-load", about = "Load test for a local minotty server")]
struct Args {
    /// Server address (loopback only).
    #[arg(long, default_value = "127.0.0.1:2222")]
    addr: SocketAddr,
    /// Concurrent players (at most 5000).
    #[arg(long, default_value_t = 100)]
    sessions: usize,
    /// Length of the measurement window in seconds (at most 3600).
    #[arg(long, default_value_t = 30)]
    seconds: u64,
    /// The server's process id, for CPU and memory figures.
    #[arg(long)]
    server_pid: Option<u32>,
    /// Milliseconds between a player's key taps.
    #[arg(long, default_value_t = 200)]
    tap_ms: u64,
    /// A hard drop every this many taps.
    #[arg(long, default_value_t = 10)]
    drop_every: u32,
    /// Taps left, rotate, right and soft drop in turn and never hard drops (the key pattern of
    /// issue 14's independent client, with `--tap-ms 250`) instead of the default schedule,
    /// without waiting for the screen: bytes and frames only, no latency.
    #[arg(long)]
    moves: bool,
    /// Writes what the first player received during the window to this file (for profiling
    /// frames, e.g. with `tests/frame-profile.py`).
    #[arg(long)]
    record: Option<std::path::PathBuf>,
    /// Players connecting at the same time while ramping up.
    #[arg(long, default_value_t = 16)]
    connect_parallel: usize,
    #[arg(long, default_value_t = 100)]
    cols: u16,
    #[arg(long, default_value_t = 40)]
    rows: u16,
    /// Versus: players in pairs (an even number of sessions).
    #[arg(long, value_enum)]
    versus: Option<VersusMode>,
    /// The seed the server deals every versus match (its hidden `--versus-seed`): rooms then
    /// measure the clear-to-garbage-meter latency.
    #[arg(long)]
    versus_seed: Option<u32>,
    /// The level of the bots of `--versus bots` (1-7).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(1..=7))]
    bot_level: u8,
    /// A second instance of a cluster (`minotty serve --nats`): the second player of each
    /// versus pair connects there, so every match crosses instances (rooms: the host's room is
    /// on `--addr`, the guest joins it by code from here, and the clear-to-meter latency is
    /// measured across NATS).
    #[arg(long)]
    addr_b: Option<SocketAddr>,
    /// The second instance's process id: its CPU is added to the server's.
    #[arg(long)]
    server_pid_b: Option<u32>,
}

impl Args {
    /// The server's CPU ticks so far (both instances' with `--server-pid-b`).
    fn server_ticks(&self) -> Option<u64> {
        let a = self.server_pid.and_then(cpu_ticks)?;
        match self.server_pid_b {
            Some(pid) => cpu_ticks(pid).map(|b| a + b),
            None => Some(a),
        }
    }

    /// Where player `i` of a versus pair connects.
    fn addr_of(&self, i: usize) -> SocketAddr {
        match (i, self.addr_b) {
            (1, Some(b)) => b,
            _ => self.addr,
        }
    }
}

/// The ghost piece's glyph ("░", U+2591) as UTF-8.
const GHOST: &[u8] = "░".as_bytes();

/// Figures one player collects during the measurement window.
#[derive(Debug, Default)]
struct PlayerStats {
    latencies_us: Vec<u64>,
    garbage_us: Vec<u64>,
    missed: u64,
    bytes: u64,
    packets: u64,
    /// The session closed before the window ended.
    dropped: bool,
}

#[derive(Debug, Default)]
struct Totals {
    latencies_us: Vec<u64>,
    garbage_us: Vec<u64>,
    missed: u64,
    bytes: u64,
    packets: u64,
    players: u64,
    dropped: u64,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    ensure!(
        args.addr.ip().is_loopback() && args.addr_b.is_none_or(|b| b.ip().is_loopback()),
        "loopback addresses only"
    );
    ensure!((1..=5000).contains(&args.sessions), "1 to 5000 sessions");
    ensure!((1..=3600).contains(&args.seconds), "1 to 3600 seconds");
    if args.versus.is_some() {
        ensure!(
            args.sessions % 2 == 0 || args.versus == Some(VersusMode::Bots),
            "versus needs an even number of sessions"
        );
        return versus_main(Arc::new(args)).await;
    }
    let args = Arc::new(args);

    let rss_before = args.server_pid.and_then(rss_kib);
    let failed = Arc::new(AtomicU64::new(0));
    let ready = Arc::new(Barrier::new(args.sessions + 1));
    let done = Arc::new(Barrier::new(args.sessions + 1));
    let totals = Arc::new(Mutex::new(Totals::default()));
    let gate = Arc::new(Semaphore::new(args.connect_parallel.max(1)));
    let ramp_start = Instant::now();

    let mut tasks = Vec::with_capacity(args.sessions);
    for i in 0..args.sessions {
        let (args, failed, ready, done, totals, gate) = (
            Arc::clone(&args),
            Arc::clone(&failed),
            Arc::clone(&ready),
            Arc::clone(&done),
            Arc::clone(&totals),
            Arc::clone(&gate),
        );
        tasks.push(tokio::spawn(async move {
            let joined = {
                let _slot = gate.acquire().await;
                join(&args, i).await
            };
            let mut joined = match joined {
                Ok(j) => Some(j),
                Err(e) => {
                    if failed.fetch_add(1, Ordering::Relaxed) < 5 {
                        eprintln!("player {i}: {e:#}");
                    }
                    None
                }
            };
            PtySession::read_while(joined.as_mut().map(|(_, s)| s), ready.wait()).await;
            if let Some((conn, mut session)) = joined {
                session.record = i == 0 && args.record.is_some();
                let stats = play(&args, &mut session, Duration::from_secs(args.seconds)).await;
                if let (Some(path), true) = (&args.record, session.record)
                    && let Err(e) = std::fs::write(path, &session.raw)
                {
                    eprintln!("--record {}: {e}", path.display());
                }
                let mut t = totals.lock().await;
                t.latencies_us.extend(stats.latencies_us);
                t.missed += stats.missed;
                t.bytes += stats.bytes;
                t.packets += stats.packets;
                t.players += 1;
                t.dropped += u64::from(stats.dropped);
                drop(t);
                done.wait().await;
                let _ = session.quit().await;
                conn.close().await;
            } else {
                done.wait().await;
            }
        }));
    }

    ready.wait().await;
    let ramp = ramp_start.elapsed();
    let rss_ready = args.server_pid.and_then(rss_kib);
    let cpu_start = args.server_pid.and_then(cpu_ticks);
    let self_start = cpu_ticks_of("/proc/self/stat");
    let machine_start = machine_ticks();
    let window = Instant::now();
    eprintln!(
        "{} players in game after {:.1} s ({} failed); measuring for {} s",
        args.sessions as u64 - failed.load(Ordering::Relaxed),
        ramp.as_secs_f64(),
        failed.load(Ordering::Relaxed),
        args.seconds
    );
    done.wait().await;
    let elapsed = window.elapsed().as_secs_f64();
    let cpu_end = args.server_pid.and_then(cpu_ticks);
    let self_end = cpu_ticks_of("/proc/self/stat");
    let machine_end = machine_ticks();
    for task in tasks {
        let _ = task.await;
    }

    let mut t = totals.lock().await;
    t.latencies_us.sort_unstable();
    let tck = clock_ticks_per_second();
    let cpu = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) => format!("{:.0}%", (b - a) as f64 / tck / elapsed * 100.0),
        _ => "n/a".to_owned(),
    };
    let players = t.players.max(1) as f64;
    println!("players in game:        {} of {}", t.players, args.sessions);
    println!(
        "players dropped:        {} (sessions closed by the server)",
        t.dropped
    );
    println!("ramp-up (connect+menu): {:.1} s", ramp.as_secs_f64());
    println!("window:                 {elapsed:.1} s");
    println!(
        "server CPU:             {} (100% = one core)",
        cpu(cpu_start, cpu_end)
    );
    println!("load tool CPU:          {}", cpu(self_start, self_end));
    print_machine(machine_start, machine_end);
    match (rss_before, rss_ready) {
        (Some(a), Some(b)) => println!(
            "server RSS:             {} MiB idle, {} MiB with players, {:.0} KiB per session",
            a / 1024,
            b / 1024,
            b.saturating_sub(a) as f64 / players
        ),
        _ => println!("server RSS:             n/a"),
    }
    println!(
        "bytes/s per player:     {:.0}",
        t.bytes as f64 / players / elapsed
    );
    println!(
        "frames/s per player:    {:.1}",
        t.packets as f64 / players / elapsed
    );
    println!(
        "input-to-frame latency: p50 {} ms, p99 {} ms, max {} ms ({} moves; {} without a visible move within 1 s)",
        ms(percentile(&t.latencies_us, 0.50)),
        ms(percentile(&t.latencies_us, 0.99)),
        ms(t.latencies_us.last().copied()),
        t.latencies_us.len(),
        t.missed
    );
    if t.players == 0 {
        bail!("no player got into a game");
    }
    Ok(())
}

/// Connects and walks into a 40 Lines game.
async fn join(args: &Args, i: usize) -> anyhow::Result<(Connection, PtySession)> {
    let conn = Connection::open(args.addr, &format!("load{i}"), Login::Key)
        .await
        .context("login")?;
    let mut session = conn.play(args.cols, args.rows).await.context("shell")?;
    session.start_40_lines().await.context("into a game")?;
    Ok((conn, session))
}

/// Plays until `window` has passed: taps left and right in turn, hard drops, retries.
async fn play(args: &Args, s: &mut PtySession, window: Duration) -> PlayerStats {
    play_schedule(args, s, window, b"Retry", Keys::legacy()).await
}

/// The bytes of the schedule's keys: legacy sequences, or kitty press and release pairs for a
/// session that negotiated the kitty keyboard protocol (versus players).
struct Keys {
    left: Vec<u8>,
    right: Vec<u8>,
    rotate: Vec<u8>,
    soft: Vec<u8>,
    drop: Vec<u8>,
    again: Vec<u8>,
}

impl Keys {
    fn legacy() -> Keys {
        Keys {
            left: keys::LEFT.to_vec(),
            right: keys::RIGHT.to_vec(),
            rotate: b"x".to_vec(),
            soft: keys::DOWN.to_vec(),
            drop: keys::HARD_DROP.to_vec(),
            again: b"r".to_vec(),
        }
    }

    fn kitty() -> Keys {
        Keys {
            left: kitty_tap(KittyKey::Arrow('D')),
            right: kitty_tap(KittyKey::Arrow('C')),
            rotate: kitty_tap(KittyKey::Char('x')),
            soft: kitty_tap(KittyKey::Arrow('B')),
            drop: kitty_tap(KittyKey::Char(' ')),
            again: kitty_tap(KittyKey::Char('r')),
        }
    }
}

/// The schedule of [`play`]; `needle` marks the results screen, where `r` plays again (Retry,
/// or a versus rematch).
async fn play_schedule(
    args: &Args,
    s: &mut PtySession,
    window: Duration,
    needle: &[u8],
    keys: Keys,
) -> PlayerStats {
    let mut stats = PlayerStats::default();
    let start = Instant::now();
    let bytes_before = s.bytes_received;
    let packets_before = s.packets_received;
    let tap = Duration::from_millis(args.tap_ms.max(10));
    // Spread the players' schedules.
    let offset = Duration::from_millis(rand::random_range(0..tap.as_millis() as u64));
    let mut next = tokio::time::Instant::now() + offset;
    let mut n: u32 = 0;
    // Past the menus the screen is not emulated (it costs the load tool CPU the server needs);
    // the results screen is recognised by its "Retry".
    s.emulate = false;
    s.flag_needle = Some(needle.to_vec());
    while start.elapsed() < window && !s.closed {
        if s.pump_until(next).await {
            continue;
        }
        n += 1;
        if args.moves {
            // A steady 4 keys a second: nothing waits for the screen (a move into a wall shows
            // nothing), so no latency is measured in this pattern.
            let key = match n % 4 {
                1 => &keys.left,
                2 => &keys.rotate,
                3 => &keys.right,
                _ => &keys.soft,
            };
            if s.send(key).await.is_err() {
                break;
            }
        } else if n.is_multiple_of(args.drop_every.max(1)) {
            if s.send(&keys.drop).await.is_err() {
                break;
            }
        } else {
            // A horizontal move redraws the ghost piece: its glyph marks the answering frame.
            let key = if n.is_multiple_of(2) {
                &keys.left
            } else {
                &keys.right
            };
            match s
                .send_and_wait_for(key, GHOST, Duration::from_secs(1))
                .await
            {
                Ok(Some(d)) => stats.latencies_us.push(d.as_micros() as u64),
                Ok(None) => stats.missed += 1,
                Err(_) => break,
            }
        }
        if s.flag_seen {
            // The game ended and the results offer "Retry" (or a rematch).
            s.flag_seen = false;
            let _ = s.send(&keys.again).await;
        }
        next += tap;
        let now = tokio::time::Instant::now();
        if next < now {
            next = now;
        }
    }
    stats.bytes = s.bytes_received - bytes_before;
    stats.packets = s.packets_received - packets_before;
    stats.dropped = s.closed && start.elapsed() < window;
    stats
}

fn percentile(sorted: &[u64], p: f64) -> Option<u64> {
    if sorted.is_empty() {
        return None;
    }
    let idx = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted.get(idx).copied()
}

fn ms(us: Option<u64>) -> String {
    us.map_or("n/a".to_owned(), |us| format!("{:.1}", us as f64 / 1000.0))
}

/// (busy, total) jiffies of all CPUs from /proc/stat.
fn machine_ticks() -> Option<(u64, u64)> {
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
fn bot_thread_ticks(pid: u32) -> u64 {
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

/// A player's part in a versus pair.
enum Role {
    /// Plays the planned tetris first, then says when its last hard drop went out.
    Attacker(Vec<Vec<Button>>, oneshot::Sender<Instant>),
    /// Watches its garbage meter until the attacker's tetris shows up there.
    Target(oneshot::Receiver<Instant>),
    Plain,
}

/// Versus mode: pairs join rooms (or the queue), then every player plays the schedule.
async fn versus_main(args: Arc<Args>) -> anyhow::Result<()> {
    let plan = match (args.versus, args.versus_seed) {
        (Some(VersusMode::Rooms), Some(seed)) => Some(
            versus::tetris_plan(Mode::custom(0, true, None), seed).with_context(|| {
                let good = (1..500)
                    .find(|&s| versus::tetris_plan(Mode::custom(0, true, None), s).is_some());
                format!("seed {seed} allows no quick tetris; try {good:?}")
            })?,
        ),
        _ => None,
    };
    let failed = Arc::new(AtomicU64::new(0));
    let ready = Arc::new(Barrier::new(args.sessions + 1));
    let done = Arc::new(Barrier::new(args.sessions + 1));
    let totals = Arc::new(Mutex::new(Totals::default()));
    let gate = Arc::new(Semaphore::new(args.connect_parallel.max(1)));
    let rss_before = args.server_pid.and_then(rss_kib);
    let ramp_start = Instant::now();
    let mut tasks = Vec::new();
    // People per room: a pair, or one beside a bot.
    let group = if args.versus == Some(VersusMode::Bots) {
        1
    } else {
        2
    };
    for pair in 0..args.sessions / group {
        let (args, failed, ready, done, totals, gate, plan) = (
            Arc::clone(&args),
            Arc::clone(&failed),
            Arc::clone(&ready),
            Arc::clone(&done),
            Arc::clone(&totals),
            Arc::clone(&gate),
            plan.clone(),
        );
        tasks.push(tokio::spawn(async move {
            let joined = {
                let _slot = gate.acquire().await;
                join_pair(&args, pair).await
            };
            let players = match joined {
                Ok(p) => p,
                Err(e) => {
                    if failed.fetch_add(group as u64, Ordering::Relaxed) < 10 {
                        eprintln!("pair {pair}: {e:#}");
                    }
                    for _ in 0..group {
                        ready.wait().await;
                    }
                    for _ in 0..group {
                        done.wait().await;
                    }
                    return;
                }
            };
            let (tx, rx) = oneshot::channel();
            let roles = match plan {
                Some(plan) => [Role::Attacker(plan, tx), Role::Target(rx)],
                None => [Role::Plain, Role::Plain],
            };
            let mut both = Vec::new();
            for ((conn, mut s), role) in players.into_iter().zip(roles) {
                let (args, ready, done, totals) = (
                    Arc::clone(&args),
                    Arc::clone(&ready),
                    Arc::clone(&done),
                    Arc::clone(&totals),
                );
                both.push(tokio::spawn(async move {
                    PtySession::read_while(Some(&mut s), ready.wait()).await;
                    let window = Duration::from_secs(args.seconds);
                    let stats = play_versus(&args, &mut s, window, role).await;
                    let mut t = totals.lock().await;
                    t.latencies_us.extend(stats.latencies_us);
                    t.garbage_us.extend(stats.garbage_us);
                    t.missed += stats.missed;
                    t.bytes += stats.bytes;
                    t.packets += stats.packets;
                    t.players += 1;
                    t.dropped += u64::from(stats.dropped);
                    drop(t);
                    done.wait().await;
                    let _ = s.quit().await;
                    conn.close().await;
                }));
            }
            for t in both {
                let _ = t.await;
            }
        }));
    }
    ready.wait().await;
    let ramp = ramp_start.elapsed();
    let rss_ready = args.server_pid.and_then(rss_kib);
    let cpu_start = args.server_ticks();
    let bots_start = args.server_pid.map(bot_thread_ticks);
    let self_start = cpu_ticks_of("/proc/self/stat");
    let machine_start = machine_ticks();
    let window = Instant::now();
    eprintln!(
        "{} players in matches after {:.1} s ({} failed); measuring for {} s",
        args.sessions as u64 - failed.load(Ordering::Relaxed),
        ramp.as_secs_f64(),
        failed.load(Ordering::Relaxed),
        args.seconds
    );
    done.wait().await;
    let elapsed = window.elapsed().as_secs_f64();
    let cpu_end = args.server_ticks();
    let bots_end = args.server_pid.map(bot_thread_ticks);
    let self_end = cpu_ticks_of("/proc/self/stat");
    let machine_end = machine_ticks();
    for task in tasks {
        let _ = task.await;
    }
    let mut t = totals.lock().await;
    t.latencies_us.sort_unstable();
    t.garbage_us.sort_unstable();
    let players = t.players.max(1) as f64;
    println!("players in matches:     {} of {}", t.players, args.sessions);
    println!(
        "players dropped:        {} (sessions closed by the server)",
        t.dropped
    );
    println!("1v1 matches:            {}", t.players / group as u64);
    println!("ramp-up (connect+room): {:.1} s", ramp.as_secs_f64());
    println!("window:                 {elapsed:.1} s");
    match (cpu_start, cpu_end) {
        (Some(a), Some(b)) => println!(
            "server CPU:             {:.0}% (100% = one core)",
            (b - a) as f64 / clock_ticks_per_second() / elapsed * 100.0
        ),
        _ => println!("server CPU:             n/a"),
    }
    if let (Some(a), Some(b)) = (self_start, self_end) {
        println!(
            "load tool CPU:          {:.0}%",
            (b - a) as f64 / clock_ticks_per_second() / elapsed * 100.0
        );
    }
    print_machine(machine_start, machine_end);
    if let (Some(a), Some(b)) = (bots_start, bots_end)
        && args.versus == Some(VersusMode::Bots)
    {
        println!(
            "bot threads CPU:        {:.0}% (their decisions, part of the above)",
            (b - a) as f64 / clock_ticks_per_second() / elapsed * 100.0
        );
    }
    if let (Some(a), Some(b)) = (rss_before, rss_ready) {
        println!(
            "server RSS:             {} MiB idle, {} MiB with players",
            a / 1024,
            b / 1024
        );
    }
    println!(
        "bytes/s per player:     {:.0}",
        t.bytes as f64 / players / elapsed
    );
    println!(
        "input-to-frame latency: p50 {} ms, p99 {} ms, max {} ms ({} moves; {} without a visible move within 1 s)",
        ms(percentile(&t.latencies_us, 0.50)),
        ms(percentile(&t.latencies_us, 0.99)),
        ms(t.latencies_us.last().copied()),
        t.latencies_us.len(),
        t.missed
    );
    println!(
        "clear-to-meter latency: p50 {} ms, p99 {} ms, max {} ms ({} tetrises)",
        ms(percentile(&t.garbage_us, 0.50)),
        ms(percentile(&t.garbage_us, 0.99)),
        ms(t.garbage_us.last().copied()),
        t.garbage_us.len()
    );
    if t.players == 0 {
        bail!("no player got into a match");
    }
    Ok(())
}

/// Connects a pair and gets both into a running match.
async fn join_pair(args: &Args, pair: usize) -> anyhow::Result<Vec<(Connection, PtySession)>> {
    let open = |i: usize, login: Login| async move {
        let conn = Connection::open(args.addr_of(i), &format!("vs{pair}x{i}"), login)
            .await
            .context("login")?;
        let s = versus::player_sized(&conn, args.cols, args.rows)
            .await
            .context("shell")?;
        anyhow::Ok((conn, s))
    };
    let mut players = Vec::new();
    match args.versus {
        Some(VersusMode::Quick) => {
            for i in 0..2 {
                let (conn, mut s) = open(i, Login::Key).await?;
                versus::register(&mut s).await.context("registering")?;
                versus::versus_item(&mut s, 0).await.context("queue")?;
                players.push((conn, s));
            }
        }
        Some(VersusMode::Bots) => {
            let (c0, mut host) = open(0, Login::Guest).await?;
            versus::create_room(&mut host, false, 2)
                .await
                .context("creating a room")?;
            // A new host's next bot is level 3: step to the level asked for, then add it.
            let key = if args.bot_level > 3 { '+' } else { '-' };
            for _ in 0..args.bot_level.abs_diff(3) {
                host.send(&kitty_tap(KittyKey::Char(key))).await?;
            }
            host.send(&kitty_tap(KittyKey::Char('b'))).await?;
            host.wait_for_text(
                &format!("Bot level {}", args.bot_level),
                Duration::from_secs(10),
            )
            .await
            .context("the bot takes its seat")?;
            host.send(&kitty_tap(K_ENTER)).await?;
            players.push((c0, host));
        }
        _ => {
            let (c0, mut host) = open(0, Login::Guest).await?;
            let code = versus::create_room(&mut host, false, 2)
                .await
                .context("creating a room")?;
            let (c1, mut guest) = open(1, Login::Guest).await?;
            versus::join_room(&mut guest, &code, false)
                .await
                .context("joining")?;
            host.wait_for_text(&format!("vs{pair}x1"), Duration::from_secs(10))
                .await?;
            // Enter twice: the first names who is not ready, the second starts anyway.
            host.send(&kitty_tap(K_ENTER)).await?;
            host.send(&kitty_tap(K_ENTER)).await?;
            players.push((c0, host));
            players.push((c1, guest));
        }
    }
    for (_, s) in &mut players {
        versus::wait_for_play(s).await.context("match start")?;
    }
    Ok(players)
}

/// One versus player's window: the role's tetris or meter watch, then the solo schedule
/// (taps, hard drops), with a rematch whenever a match is decided.
async fn play_versus(args: &Args, s: &mut PtySession, window: Duration, role: Role) -> PlayerStats {
    let mut stats = PlayerStats::default();
    let start = Instant::now();
    match role {
        Role::Attacker(plan, tx) => {
            let last = plan.len().saturating_sub(1);
            if versus::play(s, &plan[..last]).await.is_ok() {
                let sent = Instant::now();
                let _ = s.send(&versus::taps(&plan[last])).await;
                let _ = tx.send(sent);
            }
        }
        Role::Target(mut rx) => {
            let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
            let mut sent: Option<Instant> = None;
            while tokio::time::Instant::now() < deadline {
                s.pump_for(Duration::from_millis(2)).await;
                if sent.is_none() {
                    sent = rx.try_recv().ok();
                }
                if let Some(at) = sent
                    && versus::meter(s.screen()) > 0
                {
                    stats.garbage_us.push(at.elapsed().as_micros() as u64);
                    break;
                }
            }
        }
        Role::Plain => {}
    }
    let rest = window.saturating_sub(start.elapsed());
    let solo = play_schedule(args, s, rest, b"MATCH RESULTS", Keys::kitty()).await;
    stats.latencies_us = solo.latencies_us;
    stats.missed = solo.missed;
    stats.bytes = solo.bytes;
    stats.packets = solo.packets;
    stats.dropped = solo.dropped;
    stats
}

/// Prints how busy the whole machine was between two readings of `machine_ticks`.
fn print_machine(start: Option<(u64, u64)>, end: Option<(u64, u64)>) {
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
