//! minotty-crash: crash safety of stored games. Starts the release server as a child process,
//! has N registered players top out short games (40 Lines, hard drops from the spawn position:
//! about ten pieces a game) as fast as the countdown allows, notes every game whose results
//! screen says the server stored it ("Global rank", "NEW PERSONAL BEST" or "not ranked": the
//! `GameRecorded` answer, sent once the game's transaction has committed), stops the server
//! (SIGSTOP, then SIGKILL once the players have read what it sent) while the games keep coming,
//! restarts it on the same database and checks that
//!
//! - every acknowledged game is in the database (matched by player, pieces, lines, score and
//!   time as the results screen showed them),
//! - every registered player is still known (logs in without the welcome screen),
//! - `PRAGMA integrity_check` says `ok` and `PRAGMA foreign_key_check` finds nothing.
//!
//! `--rounds R` repeats play-and-kill R times on the same database before the check. Loopback
//! only; bounded in players and time. `tests/crash-safety.sh` builds and runs it.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, bail, ensure};
use clap::Parser;
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::{Connection, Key, Login, PtySession, WELCOME, board, new_key, versus};
use tokio::sync::{Mutex, Semaphore};

mod check;

use check::{Acked, check_database};

#[derive(Debug, Parser)]
#[command(
    name = "minotty-crash",
    about = "SIGKILL the server mid-game; check stored games"
)]
struct Args {
    /// The server binary.
    #[arg(long, default_value = "target/release/minotty")]
    bin: PathBuf,
    /// Port on 127.0.0.1 for the server.
    #[arg(long, default_value_t = 2350)]
    port: u16,
    /// Registered players (at most 1000).
    #[arg(long, default_value_t = 200)]
    players: usize,
    /// Seconds of play, once everyone is in a game, before each SIGKILL (at most 300).
    #[arg(long, default_value_t = 20)]
    kill_after: u64,
    /// Play-and-kill rounds on the same database.
    #[arg(long, default_value_t = 1)]
    rounds: u32,
    /// Milliseconds between hard drops.
    #[arg(long, default_value_t = 60)]
    drop_ms: u64,
    /// Directory for the database, host key and logs (default: a new one under /tmp, kept).
    #[arg(long)]
    dir: Option<PathBuf>,
}

/// Figures of one round.
#[derive(Debug, Default)]
struct Round {
    acked: AtomicU64,
    /// Games whose results showed before the kill but whose acknowledgement had not arrived.
    unacked: AtomicU64,

    in_game: AtomicUsize,
    failed: AtomicUsize,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    ensure!((1..=1000).contains(&args.players), "1 to 1000 players");
    ensure!(
        (1..=300).contains(&args.kill_after),
        "1 to 300 s before the kill"
    );
    ensure!((1..=10).contains(&args.rounds), "1 to 10 rounds");
    let dir = match &args.dir {
        Some(d) => d.clone(),
        None => tempfile::Builder::new()
            .prefix("minotty-crash.")
            .tempdir_in("/tmp")?
            .keep(),
    };
    std::fs::create_dir_all(&dir)?;
    println!("directory:              {}", dir.display());
    let addr: SocketAddr = ([127, 0, 0, 1], args.port).into();
    let keys: Vec<Key> = (0..args.players).map(|_| new_key()).collect();
    let acked = Arc::new(Mutex::new(Vec::<Acked>::new()));
    let mut kills = Vec::new();

    for round in 0..args.rounds {
        let mut server = start_server(&args, &dir, round).await?;
        let figures = Arc::new(Round::default());
        let gate = Arc::new(Semaphore::new(50));
        let mut tasks = Vec::new();
        for (i, key) in keys.iter().enumerate() {
            let (key, figures, acked, gate) =
                (key.clone(), figures.clone(), acked.clone(), gate.clone());
            let drop_ms = args.drop_ms;
            tasks.push(tokio::spawn(async move {
                let result =
                    player(addr, i, key, round == 0, drop_ms, &figures, &acked, &gate).await;
                if let Err(e) = result
                    && figures.failed.fetch_add(1, Ordering::Relaxed) < 5
                {
                    eprintln!("player {i}: {e:#}");
                }
            }));
        }
        // Everyone in a game (or given up), then play on, then the kill.
        let ramp = Instant::now();
        while figures.in_game.load(Ordering::Relaxed) + figures.failed.load(Ordering::Relaxed)
            < args.players
            && ramp.elapsed() < Duration::from_secs(120)
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        println!(
            "round {}: {} players in game after {:.1} s ({} failed)",
            round + 1,
            figures.in_game.load(Ordering::Relaxed),
            ramp.elapsed().as_secs_f64(),
            figures.failed.load(Ordering::Relaxed)
        );
        let before = figures.acked.load(Ordering::Relaxed);
        tokio::time::sleep(Duration::from_secs(args.kill_after)).await;
        let rate = (figures.acked.load(Ordering::Relaxed) - before) as f64 / args.kill_after as f64;
        // Freeze the server first (SIGSTOP: it never runs again, so this is the moment of the
        // crash), let the players read everything it had sent, then SIGKILL it. Without the
        // pause a player's view lags the server under this load and the kill's reset drops
        // frames in flight, so the last acknowledgements would never be seen (and an answer
        // sent before its commit could go unnoticed).
        kills.push(unix_ms());
        signal(&server, "-STOP")?;
        tokio::time::sleep(Duration::from_secs(3)).await;
        server.kill().context("SIGKILL")?;
        let _ = server.wait();
        let killed = Instant::now();
        for task in tasks {
            let _ = tokio::time::timeout(Duration::from_secs(30), task).await;
        }
        println!(
            "round {}: {} players failed",
            round + 1,
            figures.failed.load(Ordering::Relaxed)
        );
        println!(
            "round {}: SIGKILL after {} s of play at {rate:.0} acknowledged games/s; {} games \
             acknowledged; {} results on screen still waiting for theirs at the kill \
             (players gone {:.1} s after it)",
            round + 1,
            args.kill_after,
            figures.acked.load(Ordering::Relaxed),
            figures.unacked.load(Ordering::Relaxed),
            killed.elapsed().as_secs_f64()
        );
    }

    // Restart on the same database: every registered player is still known.
    let mut server = start_server(&args, &dir, args.rounds).await?;
    let lost_accounts = Arc::new(AtomicUsize::new(0));
    let gate = Arc::new(Semaphore::new(50));
    let mut tasks = Vec::new();
    for (i, key) in keys.iter().enumerate() {
        let (key, lost, gate) = (key.clone(), lost_accounts.clone(), gate.clone());
        tasks.push(tokio::spawn(async move {
            let _slot = gate.acquire().await;
            if let Err(e) = known_after_restart(addr, i, key).await
                && lost.fetch_add(1, Ordering::Relaxed) < 5
            {
                eprintln!("player {i} after the restart: {e:#}");
            }
        }));
    }
    for task in tasks {
        let _ = task.await;
    }
    // A clean stop before reading the file (SIGTERM: the server checkpoints and closes).
    stop_server(&mut server)?;
    let acked = acked.lock().await;
    let list: String = acked
        .iter()
        .map(|g| {
            format!(
                "{},{},{},{},{}\n",
                g.player, g.pieces, g.lines, g.score, g.time
            )
        })
        .collect();
    std::fs::write(dir.join("acknowledged.csv"), list)?;
    let report = check_database(&dir.join("minotty.db"), &acked, args.players, &kills).await?;
    println!("{report}");
    let lost = lost_accounts.load(Ordering::Relaxed);
    println!("players not recognised after the restart: {lost}");
    if !report.passed() || lost > 0 {
        bail!("crash safety: FAILED (directory kept: {})", dir.display());
    }
    println!("crash safety: ok");
    Ok(())
}

/// Starts the server binary on the database in `dir` and waits until it accepts connections.
async fn start_server(args: &Args, dir: &Path, n: u32) -> anyhow::Result<Child> {
    let log = std::fs::File::create(dir.join(format!("server-{n}.log")))?;
    let child = Command::new(&args.bin)
        .arg("serve")
        .args(["--listen", &format!("127.0.0.1:{}", args.port)])
        // The web pages are served only where a test asks for them.
        .env("MINOTTY_HTTP_LISTEN", "off")
        .args([
            "--db",
            &format!("sqlite://{}", dir.join("minotty.db").display()),
        ])
        .args(["--host-key", &dir.join("host_key").display().to_string()])
        // Every player comes from 127.0.0.1: the connection limits are raised through the
        // environment (a server without one of these limits ignores its variable).
        .envs([
            ("MINOTTY_MAX_CONNECTIONS", "5000"),
            ("MINOTTY_MAX_PER_IP", "5000"),
            ("MINOTTY_MAX_PER_SUBNET", "5000"),
            ("MINOTTY_MAX_PER_SITE", "5000"),
            ("MINOTTY_MAX_STARTUPS", "500:30:1000"),
            ("MINOTTY_CONNECT_BURST", "5000"),
            ("MINOTTY_CONNECTS_PER_MINUTE", "60000"),
        ])
        .stdout(Stdio::from(log.try_clone()?))
        .stderr(Stdio::from(log))
        .spawn()
        .with_context(|| format!("starting {}", args.bin.display()))?;
    let deadline = Instant::now() + Duration::from_secs(30);
    while tokio::net::TcpStream::connect(("127.0.0.1", args.port))
        .await
        .is_err()
    {
        ensure!(
            Instant::now() < deadline,
            "the server did not start listening"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(child)
}

fn unix_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn stop_server(server: &mut Child) -> anyhow::Result<()> {
    signal(server, "-TERM")?;
    server.wait()?;
    Ok(())
}

/// Sends a signal (`-STOP`, `-TERM`) to the server with `kill`.
fn signal(server: &Child, which: &str) -> anyhow::Result<()> {
    let status = Command::new("kill")
        .args([which, &server.id().to_string()])
        .status()?;
    ensure!(status.success(), "kill {which} failed");
    Ok(())
}

/// One player's round: log in (registering the first time), into 40 Lines, then top out game
/// after game until the server goes away.
#[allow(clippy::too_many_arguments)]
async fn player(
    addr: SocketAddr,
    i: usize,
    key: Key,
    register: bool,
    drop_ms: u64,
    figures: &Round,
    acked: &Mutex<Vec<Acked>>,
    gate: &Semaphore,
) -> anyhow::Result<()> {
    let name = format!("crash{i}");
    let (conn, mut s) = {
        let _slot = gate.acquire().await?;
        let conn = Connection::open(addr, &name, Login::With(key)).await?;
        let mut s = versus::player_sized(&conn, 100, 40).await?;
        if register {
            versus::register(&mut s).await.context("registering")?;
        } else {
            ensure!(
                !s.contents().contains(WELCOME),
                "{name} is asked to register again"
            );
        }
        s.wait_for_text("Leaderboards", Duration::from_secs(10))
            .await?;
        s.send(&kitty_tap(K_ENTER)).await?;
        s.wait_for_text("40 Lines", Duration::from_secs(10)).await?;
        s.send(&kitty_tap(K_ENTER)).await?;
        wait_for_piece(&mut s).await?;
        (conn, s)
    };
    figures.in_game.fetch_add(1, Ordering::Relaxed);
    // Spread the players' games over time, so that games finish at every moment (in step,
    // they would finish in bursts every few seconds and a kill might fall between them).
    s.pump_for(Duration::from_millis(rand::random_range(0..5000)))
        .await;
    let drop = kitty_tap(KittyKey::Char(' '));
    let retry = kitty_tap(KittyKey::Char('r'));
    while !s.closed {
        if s.send(&drop).await.is_err() {
            break;
        }
        s.pump_for(Duration::from_millis(drop_ms)).await;
        if s.contents().contains("Enter: results") {
            // The final board waits for Enter.
            if s.send(&kitty_tap(K_ENTER)).await.is_err() {
                break;
            }
            s.pump_for(Duration::from_millis(drop_ms)).await;
        }
        if !s.contents().contains("RESULTS:") {
            continue;
        }
        // The game is over: wait for the server's word on storing it.
        let _ = s
            .wait_until("the acknowledgement", Duration::from_secs(30), |sc| {
                let t = sc.contents();
                check::acknowledged(&t) || t.contains("could not be stored")
            })
            .await;
        let text = s.contents();
        if check::acknowledged(&text) {
            let game = check::parse_results(&name, &text)
                .with_context(|| format!("reading the results:\n{text}"))?;
            acked.lock().await.push(game);
            figures.acked.fetch_add(1, Ordering::Relaxed);
        } else {
            figures.unacked.fetch_add(1, Ordering::Relaxed);
        }
        if s.closed || s.send(&retry).await.is_err() {
            break;
        }
        let _ = s
            .wait_until("the next game", Duration::from_secs(10), |sc| {
                !sc.contents().contains("RESULTS:")
            })
            .await;
    }
    drop_connection(conn).await;
    Ok(())
}

async fn wait_for_piece(s: &mut PtySession) -> anyhow::Result<()> {
    s.wait_until("the board with a piece", Duration::from_secs(10), |sc| {
        board::find(sc).is_some_and(|b| b.has_piece)
    })
    .await
}

async fn drop_connection(conn: Connection) {
    let _ = tokio::time::timeout(Duration::from_secs(2), conn.close()).await;
}

/// After the restart: the key still logs into its account (no welcome screen).
async fn known_after_restart(addr: SocketAddr, i: usize, key: Key) -> anyhow::Result<()> {
    let conn = Connection::open(addr, &format!("crash{i}"), Login::With(key)).await?;
    let mut s = versus::player_sized(&conn, 100, 40).await?;
    let text = s.contents();
    ensure!(!text.contains(WELCOME), "asked to register again");
    ensure!(
        text.contains(&format!("crash{i}")),
        "the menu does not name the player"
    );
    let _ = s.quit().await;
    drop_connection(conn).await;
    Ok(())
}
