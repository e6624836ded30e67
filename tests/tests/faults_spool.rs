//! A database outage across a restart: nothing acknowledged is lost (issue 24, item 3).
//!
//! A real `minotty serve` on PostgreSQL through a [`Link`]. A registered player finishes a
//! game (stored), the link is cut (an outage) or stalls (a partition), the player finishes two
//! more, two guests play a versus match to its end, and the server gets SIGTERM. It must exit
//! cleanly without waiting out retries that cannot succeed, with the two games and the match
//! in its spool (beside the host key). With the link mended, the server starts again on the
//! same spool and stores them: every game is in the database, with the scores the player got,
//! the match with its seats as played, and the spool is empty.
//!
//! Before the spool: the server took about 60 s to exit, said "the game writer did not finish
//! in time; queued games may be lost", and the games of the outage were gone.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::Duration;

use anyhow::{Context, bail};
use minotty_domain::PlayerName;
use minotty_store::Store;
use minotty_store::spool::{Record, format};
use minotty_store::{FinishedGame, NewMatch};
use minotty_tests::faults::Link;
use minotty_tests::rows::games_once_stored;
use minotty_tests::serve::{serve_command, spawn_accepting};
use minotty_tests::versus::{create_room, drop_piece, guest, start_match};
use minotty_tests::{Connection, Login, PtySession, WAIT, WELCOME, keys, new_key};

type Result = anyhow::Result<()>;

/// A `minotty serve` process on `db`, its host key (and so its spool) and log in `dir`.
struct Server {
    addr: SocketAddr,
    child: Child,
    log: PathBuf,
}

fn free_port() -> anyhow::Result<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

impl Server {
    async fn start(dir: &Path, db: &str, name: &str) -> anyhow::Result<Server> {
        let addr: SocketAddr = ([127, 0, 0, 1], free_port()?).into();
        let log = dir.join(format!("{name}.log"));
        let cmd = serve_command(addr, db, &dir.join("host_key"), &log)?;
        let child = spawn_accepting(cmd, addr, &log, Duration::from_secs(60)).await?;
        Ok(Server { addr, child, log })
    }

    /// SIGTERM; waits (generously) for the exit and fails unless it was clean.
    async fn stop(&mut self) -> Result {
        let pid = self.child.id().to_string();
        if !Command::new("kill")
            .args(["-TERM", &pid])
            .status()?
            .success()
        {
            bail!("kill -TERM {pid} failed");
        }
        let deadline = tokio::time::Instant::now() + Duration::from_secs(180);
        loop {
            if let Some(status) = self.child.try_wait()? {
                if !status.success() {
                    bail!("the server ended with {status}:\n{}", read(&self.log));
                }
                return Ok(());
            }
            if tokio::time::Instant::now() >= deadline {
                bail!("the server did not stop:\n{}", read(&self.log));
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The record files waiting in `spool`.
fn spooled(spool: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(spool)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "spool"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

/// Plays the game on screen to its end (hard drops in the middle top out) and on to the
/// results.
async fn finish_game(s: &mut PtySession) -> Result {
    minotty_tests::menu::top_out_to_results(s, 80, Duration::from_millis(150)).await?;
    Ok(())
}

/// `(score, lines, pieces)` of each game, sorted.
fn scores<'a>(games: impl Iterator<Item = &'a minotty_engine::Stats>) -> Vec<(u64, u32, u32)> {
    let mut v: Vec<_> = games.map(|s| (s.score, s.lines, s.pieces)).collect();
    v.sort_unstable();
    v
}

/// How the database goes away.
#[derive(Clone, Copy, Debug)]
enum Fault {
    /// Connections closed, new ones closed at once: an attempt fails in milliseconds.
    Cut,
    /// Nothing passes, nothing closes: an attempt waits for a connection (sqlx's 30 s).
    Stall,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_finished_during_a_database_outage_survive_a_restart() -> Result {
    outage_across_a_restart(Fault::Cut).await
}

/// The case: SIGTERM while the writer waits for a connection that never comes. Before,
/// shutdown waited 30 s for the writer, gave up on it ("queued games may be lost") and the
/// games were gone without a trace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_finished_during_a_database_partition_survive_a_restart() -> Result {
    outage_across_a_restart(Fault::Stall).await
}

async fn outage_across_a_restart(fault: Fault) -> Result {
    let Some(db) = minotty_tests::postgres::fresh_database("spool").await else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let spool = dir.path().join("host_key.spool");
    let (link, through) = Link::in_front_of(&db).await?;
    let mut server = Server::start(dir.path(), &through, "first").await?;

    // A registered player finishes a game while the database is up: it is stored.
    let conn = Connection::open(server.addr, "spooler", Login::With(new_key())).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(WELCOME, WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Hello, spooler!", WAIT).await?;
    s.start_40_lines().await?;
    finish_game(&mut s).await?;
    let direct = Store::open(&db).await?;
    let account = direct
        .account_by_name(&PlayerName::parse("spooler")?)
        .await?
        .context("the player is registered")?;
    let stored = games_once_stored(&direct, account.id).await?;
    assert_eq!(stored.len(), 1, "the first game is stored");

    // The database goes away; two more games end.
    match fault {
        Fault::Cut => link.cut(),
        Fault::Stall => link.stall(),
    }
    for _ in 0..2 {
        s.send(keys::ENTER).await?; // Retry
        s.wait_until("a new game", WAIT, |screen| {
            !screen.contents().contains("Retry")
        })
        .await?;
        finish_game(&mut s).await?;
    }
    // And a versus match of two guests: bob tops out.
    let (_ca, mut ann) = guest(server.addr, "ann").await?;
    let (_cb, mut bob) = guest(server.addr, "bob").await?;
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
    // Let the writer and the recorder take them (and fail at their first attempts).
    s.pump_for(Duration::from_secs(1)).await;

    // SIGTERM: a clean exit, with the two games in the spool.
    server.stop().await?;
    let log = read(&server.log);
    // For the record (RELIABILITY.md): from SIGTERM to the exit, what was spooled.
    for line in log.lines().filter(|l| {
        ["SIGTERM", "spool", "stopped", "retrying"]
            .iter()
            .any(|w| l.contains(w))
    }) {
        eprintln!("{fault:?}: {line}");
    }
    assert!(
        !log.contains("did not finish in time"),
        "the writer was waited out:\n{log}"
    );
    let files = spooled(&spool);
    let mut kept: Vec<FinishedGame> = Vec::new();
    let mut matches: Vec<NewMatch> = Vec::new();
    for f in &files {
        match format::decode(&std::fs::read(f)?) {
            Ok(Record::Game(g)) => kept.push(*g),
            Ok(Record::Match(m)) => matches.push(m),
            Err(e) => bail!("{}: {e}", f.display()),
        }
    }
    assert_eq!(kept.len(), 2, "two games spooled:\n{log}");
    assert_eq!(matches.len(), 1, "the match spooled:\n{log}");
    assert!(kept.iter().all(|g| g.player == account.id));
    assert!(log.contains("spool"), "the log says where:\n{log}");
    drop((s, ann, bob));
    conn.close().await;

    // The database is back; the server starts again on the same spool and stores them.
    link.mend();
    let mut again = Server::start(dir.path(), &through, "second").await?;
    let mut games = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while tokio::time::Instant::now() < deadline {
        games = direct.recent_games(account.id, 10).await?;
        if games.len() >= 3 && spooled(&spool).is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        games.len(),
        3,
        "every game is stored:\n{}",
        read(&again.log)
    );
    assert!(spooled(&spool).is_empty(), "the spool is empty");
    let id = direct
        .stored_match(&matches[0])
        .await?
        .context("the match is stored")?;
    let seats = direct.match_players(id).await?;
    assert_eq!(seats.len(), 2);
    assert_eq!(seats, matches[0].players, "the match as it was played");
    let want = scores(
        stored
            .iter()
            .map(|g| &g.stats)
            .chain(kept.iter().map(|g| &g.stats)),
    );
    assert_eq!(scores(games.iter().map(|g| &g.stats)), want);
    assert!(
        games.iter().all(|g| g.verdict != "rejected"),
        "the spooled replays verify: {games:?}"
    );
    again.stop().await?;
    // Once only: a third start finds nothing to store.
    let mut third = Server::start(dir.path(), &through, "third").await?;
    tokio::time::sleep(Duration::from_millis(500)).await;
    third.stop().await?;
    assert_eq!(direct.recent_games(account.id, 10).await?.len(), 3);
    direct.close().await;
    minotty_tests::postgres::drop_database(&db).await?;
    Ok(())
}
