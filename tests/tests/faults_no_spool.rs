//! An instance without a spool, through a PostgreSQL outage and SIGTERM (issue 35, item 1).
//!
//! The layouts once gave two instances one spool directory: the second ran without one while
//! its `/health` said `ok`. Here a real `minotty serve` finds its spool directory held by
//! another process (the test holds its lock), on PostgreSQL through a relay of the test's own.
//! It must say so (`/health`: `degraded: no spool`; `minotty_spool_available 0`). A registered
//! player finishes a game while the database is up (stored), then PostgreSQL goes away (the
//! relay stops listening: its port refuses, as a stopped PostgreSQL's does), the player
//! finishes another and two guests play a match; then SIGTERM. The instance must exit without
//! waiting out retries, with the game logged whole (its replay) and the match logged whole
//! (the spool's JSON of it, every player), nothing lost silently.
//!
//! Before: SIGTERM took 89 s (each retry waited sqlx's 30 s for the refused connection), the
//! log said "the game writer did not finish in time; queued games may be lost" and the game
//! was gone with no replay logged; the match was logged by its players' names only.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

use anyhow::bail;
use minotty_store::spool::{Spool, SpoolLimits};
use minotty_tests::cluster::http_get;
use minotty_tests::serve::{serve_command, spawn_accepting};
use minotty_tests::versus::{create_room, drop_piece, guest, start_match};
use minotty_tests::{Connection, Login, PtySession, WAIT, WELCOME, keys, new_key};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

type Result = anyhow::Result<()>;

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// A relay from a loopback port to the PostgreSQL of a URL, which can stop listening.
struct Relay {
    url: String,
    task: JoinHandle<()>,
}

impl Relay {
    async fn in_front_of(url: &str) -> anyhow::Result<Relay> {
        let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
        let (credentials, rest) = rest.rsplit_once('@').unwrap_or(("", rest));
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        let Some(upstream) = tokio::net::lookup_host(authority)
            .await?
            .find(SocketAddr::is_ipv4)
        else {
            bail!("no IPv4 address for {authority}");
        };
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let task = tokio::spawn(async move {
            let mut conns = tokio::task::JoinSet::new();
            while let Ok((mut client, _)) = listener.accept().await {
                while conns.try_join_next().is_some() {}
                conns.spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
            }
        });
        Ok(Relay {
            url: format!("{scheme}://{credentials}@{addr}/{path}"),
            task,
        })
    }

    /// PostgreSQL goes away: connections close, the port refuses new ones.
    async fn refuse(&self) {
        self.task.abort();
        while !self.task.is_finished() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// Plays the game on screen to its end (hard drops in the middle top out) and on to the
/// results.
async fn finish_game(s: &mut PtySession) -> Result {
    minotty_tests::menu::top_out_to_results(s, 80, Duration::from_millis(150)).await?;
    Ok(())
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// SIGTERM, and the exit status once it comes (generously bounded: a hang is a failure).
async fn terminate(child: &mut Child, log: &Path) -> anyhow::Result<std::process::ExitStatus> {
    let pid = child.id().to_string();
    if !Command::new("kill")
        .args(["-TERM", &pid])
        .status()?
        .success()
    {
        bail!("kill -TERM {pid} failed");
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(240);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        if tokio::time::Instant::now() >= deadline {
            bail!("the server did not stop:\n{}", read(log));
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_without_a_spool_says_so_and_logs_what_it_cannot_store() -> Result {
    let Some(db) = minotty_tests::postgres::fresh_database("nospool").await else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    // The directory the server's spool defaults to, held by another process (this test).
    let held = Spool::open(&dir.path().join("host_key.spool"), SpoolLimits::default())?;
    let relay = Relay::in_front_of(&db).await?;
    let addr: SocketAddr = ([127, 0, 0, 1], free_port()?).into();
    let metrics: SocketAddr = ([127, 0, 0, 1], free_port()?).into();
    let log = dir.path().join("server.log");
    let mut cmd = serve_command(addr, &relay.url, &dir.path().join("host_key"), &log)?;
    cmd.args(["--metrics-listen", &metrics.to_string()]);
    let mut child = spawn_accepting(cmd, addr, &log, Duration::from_secs(60)).await?;

    // It says it has no spool.
    // (The body; `metrics/deps.rs` pins its status, 200.)
    let mut health = http_get(metrics, "/health").await?;
    let deadline = tokio::time::Instant::now() + WAIT;
    while health.contains("starting") && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        health = http_get(metrics, "/health").await?;
    }
    assert!(health.contains("degraded: no spool"), "{health}");
    let text = http_get(metrics, "/metrics").await?;
    assert!(
        text.lines().any(|l| l == "minotty_spool_available 0"),
        "{text}"
    );
    assert!(
        read(&log).contains("another process uses this spool"),
        "{}",
        read(&log)
    );

    // A game stored while the database is up.
    let conn = Connection::open(addr, "nospool", Login::With(new_key())).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(WELCOME, WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Hello, nospool!", WAIT).await?;
    s.start_40_lines().await?;
    finish_game(&mut s).await?;

    // PostgreSQL goes away; a game ends, and a match of two guests.
    relay.refuse().await;
    s.send(keys::ENTER).await?; // Retry
    s.wait_until("a new game", WAIT, |screen| {
        !screen.contents().contains("Retry")
    })
    .await?;
    finish_game(&mut s).await?;
    let (_ca, mut ann) = guest(addr, "ann").await?;
    let (_cb, mut bob) = guest(addr, "bob").await?;
    let code = create_room(&mut ann, false, 2).await?;
    start_match(&mut ann, &mut bob, &code).await?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while !bob.contents().contains("MATCH RESULTS") {
        if tokio::time::Instant::now() >= deadline {
            bail!("bob did not top out:\n{}", bob.contents());
        }
        drop_piece(&mut bob).await;
        bob.pump_for(Duration::from_millis(40)).await;
    }
    ann.wait_for_text("MATCH RESULTS", WAIT).await?;
    s.pump_for(Duration::from_secs(1)).await;

    // SIGTERM: a clean exit, nothing waited out, both records logged whole.
    let signalled = std::time::Instant::now();
    let status = terminate(&mut child, &log).await?;
    // For the record (RELIABILITY.md), not a threshold.
    eprintln!("SIGTERM to exit: {:?}", signalled.elapsed());
    let text = read(&log);
    assert!(status.success(), "{status}:\n{text}");
    assert!(
        !text.contains("did not finish in time"),
        "a writer was waited out:\n{text}"
    );
    let game = text
        .lines()
        .find(|l| l.contains("a finished game could not be stored"))
        .unwrap_or_else(|| panic!("the game is logged:\n{text}"));
    let replay = game
        .split("replay=")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("with its replay: {game}"));
    assert!(
        replay.len() > 40 && replay.chars().all(|c| c.is_ascii_hexdigit()),
        "the replay in hex: {game}"
    );
    let matched = text
        .lines()
        .find(|l| l.contains("A MATCH WAS NOT STORED"))
        .unwrap_or_else(|| panic!("the match is logged:\n{text}"));
    assert!(matched.contains("record="), "whole: {matched}");
    for field in ["\"players\"", "\"place\"", "\"lines\"", "ann", "bob"] {
        assert!(matched.contains(field), "{field} in {matched}");
    }
    drop((s, ann, bob, held));
    conn.close().await;
    minotty_tests::postgres::drop_database(&db).await?;
    Ok(())
}
