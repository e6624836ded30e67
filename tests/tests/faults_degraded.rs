//! Degraded, not silent (issue 24, item 4): a real `minotty serve` on PostgreSQL through a
//! [`Link`] that the test cuts and mends. A login during the outage is told that the account
//! cannot be reached and waits for it (or plays as a guest for now, and retries from the
//! menu); once the database is back the player gets their account (their name, their stored
//! games), a new key gets the welcome screen, and `/health` says `degraded: database
//! unreachable` meanwhile and `ok` again after. And two instances where one loses NATS: its
//! `/health` says `degraded: NATS unreachable` until the link is mended.
//!
//! Nothing here asserts how fast anything was: every wait is for something to appear, with a
//! generous timeout.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::Child;
use std::time::Duration;

use anyhow::{Context, bail};
use minotty_tests::cluster::{Instance, http_get, two_linked_instances};
use minotty_tests::faults::Link;
use minotty_tests::serve::{serve_command, spawn_accepting};
use minotty_tests::{Connection, Key, Login, PtySession, WELCOME, keys, new_key};

type Result = anyhow::Result<()>;

/// Long enough for a look-up that times out (2 s at login, 3 s at the session's start), an
/// automatic retry (every 5 s) and a probe (every 3 s), many times over on a busy machine.
const OUTAGE_WAIT: Duration = Duration::from_secs(60);

/// What the player is told while the account cannot be reached.
const UNREACHABLE: &str = "Your account cannot be reached right now";

/// One `minotty serve` on `db`, its log in a temporary directory; killed when dropped.
struct Served {
    addr: SocketAddr,
    metrics: SocketAddr,
    child: Child,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_addr() -> anyhow::Result<SocketAddr> {
    let l = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(l.local_addr()?)
}

async fn serve(db: &str) -> anyhow::Result<Served> {
    let dir = tempfile::tempdir()?;
    let addr = free_addr()?;
    let metrics = free_addr()?;
    let log = dir.path().join("server.log");
    let mut cmd = serve_command(addr, db, &dir.path().join("host_key"), &log)?;
    cmd.args(["--metrics-listen", &metrics.to_string()]);
    let child = spawn_accepting(cmd, addr, &log, Duration::from_secs(30)).await?;
    Ok(Served {
        addr,
        metrics,
        child,
        log,
        _dir: dir,
    })
}

impl Served {
    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// Waits until `/health` on `metrics` answers `want` (the body, trimmed).
async fn health_becomes(metrics: SocketAddr, want: &str) -> anyhow::Result<()> {
    let deadline = tokio::time::Instant::now() + OUTAGE_WAIT;
    let mut last = String::new();
    while tokio::time::Instant::now() < deadline {
        last = http_get(metrics, "/health").await.unwrap_or_default();
        if last.trim() == want {
            return Ok(());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    bail!("/health never said {want:?}; last {last:?}")
}

/// The value of `series` in `/metrics` on `metrics`.
async fn metric(metrics: SocketAddr, series: &str) -> anyhow::Result<Option<i64>> {
    let text = http_get(metrics, "/metrics").await?;
    Ok(text
        .lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok()))
}

const DB_UP: &str = "minotty_dependency_up{dependency=\"database\"}";
const NATS_UP: &str = "minotty_dependency_up{dependency=\"nats\"}";

/// A fresh PostgreSQL database behind a link, and a server on it. `None`: skipped (no
/// PostgreSQL and not required).
async fn server_behind_link(tag: &str) -> anyhow::Result<Option<(Served, Link, String)>> {
    let Some(db) = minotty_tests::postgres::fresh_database(tag).await else {
        return Ok(None);
    };
    let (link, url) = Link::in_front_of(&db).await?;
    let server = serve(&url).await?;
    Ok(Some((server, link, db)))
}

/// `name` with a new `key`: the welcome screen, Enter, until "Hello, name!" shows.
async fn sign_up(
    addr: SocketAddr,
    name: &str,
    key: Key,
) -> anyhow::Result<(Connection, PtySession)> {
    let conn = Connection::open(addr, name, Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(WELCOME, OUTAGE_WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text(&format!("Hello, {name}!"), OUTAGE_WAIT)
        .await?;
    Ok((conn, s))
}

/// Registers `name` with `key` on the welcome screen, forfeits one game of 40 Lines (stored,
/// unranked) and quits.
async fn register_with_a_game(addr: SocketAddr, name: &str, key: Key) -> Result {
    let (conn, mut s) = sign_up(addr, name, key).await?;
    forfeit_a_game(&mut s).await?;
    s.wait_until("the server's word on the game", OUTAGE_WAIT, |sc| {
        let text = sc.contents();
        text.contains("not ranked") || text.contains("Global rank")
    })
    .await?;
    let _ = s.quit().await;
    conn.close().await;
    Ok(())
}

/// From the main menu: a 40 Lines game, forfeited (Ctrl+D), to its results.
async fn forfeit_a_game(s: &mut PtySession) -> Result {
    s.send(keys::ENTER).await?;
    s.wait_for_text("40 Lines", OUTAGE_WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_until("the board with a piece", OUTAGE_WAIT, |sc| {
        minotty_tests::board::find(sc).is_some_and(|b| b.has_piece)
    })
    .await?;
    s.send(b"\x04").await?;
    s.pump_for(Duration::from_millis(300)).await;
    s.send(keys::ENTER).await?;
    s.wait_for_text("RESULTS", OUTAGE_WAIT).await
}

/// From the main menu: the profile, until its recent games have loaded; returns the screen.
async fn profile(s: &mut PtySession) -> anyhow::Result<String> {
    for _ in 0..3 {
        s.send(keys::DOWN).await?;
    }
    s.send(keys::ENTER).await?;
    s.wait_until("the profile's recent games", OUTAGE_WAIT, |sc| {
        let text = sc.contents();
        text.contains("RECENT GAMES") && !text.contains("Loading")
    })
    .await?;
    Ok(s.contents())
}

/// `name` signs up with `key` (the welcome screen, Enter: "Hello, name!"), then quits.
async fn signed_up(addr: SocketAddr, name: &str, key: Key) -> Result {
    let (conn, mut s) = sign_up(addr, name, key).await?;
    let _ = s.quit().await;
    conn.close().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_during_a_database_outage_waits_and_gets_the_account() -> Result {
    let Some((server, link, db)) = server_behind_link("degraded_wait").await? else {
        return Ok(());
    };
    let key = new_key();
    register_with_a_game(server.addr, "kitty", key.clone()).await?;
    health_becomes(server.metrics, "ok").await?;

    link.cut();
    let conn = Connection::open(server.addr, "kitty", Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(UNREACHABLE, OUTAGE_WAIT).await?;
    let seen = s.contents();
    assert!(seen.contains("Wait for my account"), "{seen}");
    assert!(
        !seen.contains("Hello, kitty!"),
        "never a silent guest:\n{seen}"
    );
    health_becomes(server.metrics, "degraded: database unreachable").await?;
    assert_eq!(metric(server.metrics, DB_UP).await?, Some(0));

    // The database is back: the waiting player is signed in without a key.
    link.mend();
    s.wait_for_text("Hello, kitty!", OUTAGE_WAIT)
        .await
        .with_context(|| server.log())?;
    health_becomes(server.metrics, "ok").await?;
    assert_eq!(metric(server.metrics, DB_UP).await?, Some(1));
    let p = profile(&mut s).await?;
    assert!(!p.contains("No games yet."), "their stored game:\n{p}");
    assert!(p.contains("kitty"), "{p}");
    let _ = s.quit().await;
    conn.close().await;
    drop(server);
    minotty_tests::postgres::drop_database(&db).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_for_now_retries_from_the_menu_and_nothing_is_stored_meanwhile() -> Result {
    let Some((server, link, db)) = server_behind_link("degraded_guest").await? else {
        return Ok(());
    };
    let key = new_key();
    signed_up(server.addr, "tabby", key.clone()).await?;

    // The probe alone finds the outage (no one logs in yet).
    link.cut();
    health_becomes(server.metrics, "degraded: database unreachable").await?;
    let conn = Connection::open(server.addr, "tabby", Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(UNREACHABLE, OUTAGE_WAIT).await?;
    // Play as a guest for now: the menu says how to try again, and the game is not stored.
    s.send(keys::ESC).await?;
    s.wait_for_text("Account unreachable: press r to try again", OUTAGE_WAIT)
        .await?;
    forfeit_a_game(&mut s).await?;
    s.wait_for_text("Account unreachable: not stored", OUTAGE_WAIT)
        .await?;
    // Esc: from the results to the menu.
    s.send(keys::ESC).await?;
    s.wait_for_text("Leaderboards", OUTAGE_WAIT).await?;

    link.mend();
    health_becomes(server.metrics, "ok").await?;
    s.send(b"r").await?;
    s.wait_for_text("Hello, tabby!", OUTAGE_WAIT)
        .await
        .with_context(|| server.log())?;
    // The guest's game was stored under no one: the account has none.
    let p = profile(&mut s).await?;
    assert!(p.contains("No games yet."), "{p}");
    let _ = s.quit().await;
    conn.close().await;
    drop(server);
    minotty_tests::postgres::drop_database(&db).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_key_during_the_outage_gets_the_welcome_screen_once_the_database_is_back() -> Result {
    let Some((server, link, db)) = server_behind_link("degraded_new").await? else {
        return Ok(());
    };
    link.cut();
    let conn = Connection::open(server.addr, "newcat", Login::Key).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(UNREACHABLE, OUTAGE_WAIT).await?;
    assert!(!s.contents().contains(WELCOME));
    link.mend();
    s.wait_for_text(WELCOME, OUTAGE_WAIT)
        .await
        .with_context(|| server.log())?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Hello, newcat!", OUTAGE_WAIT).await?;
    let _ = s.quit().await;
    conn.close().await;
    drop(server);
    minotty_tests::postgres::drop_database(&db).await
}

/// B's `/health` says ok; B's NATS link (`nats_b`) broken by `break_link` (cut, or stalled):
/// B's `/health` says NATS is unreachable and its NATS gauge is 0, while A (still reaching
/// NATS) says ok; the link mended, B's `/health` says ok again.
async fn b_degraded_until_its_nats_link_mends(
    a: &Instance,
    b: &Instance,
    nats_b: &Link,
    break_link: fn(&Link),
) -> Result {
    health_becomes(b.metrics, "ok").await?;
    break_link(nats_b);
    health_becomes(b.metrics, "degraded: NATS unreachable").await?;
    assert_eq!(metric(b.metrics, NATS_UP).await?, Some(0));
    // A still reaches NATS.
    assert_eq!(http_get(a.metrics, "/health").await?.trim(), "ok");
    nats_b.mend();
    health_becomes(b.metrics, "ok").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_without_nats_says_degraded_until_the_link_returns() -> Result {
    let test = "an_instance_without_nats_says_degraded_until_the_link_returns";
    let Some((shared, a, b, links)) =
        two_linked_instances(test, None, Duration::from_secs(5)).await?
    else {
        return Ok(());
    };
    b_degraded_until_its_nats_link_mends(&a, &b, &links.nats_b, Link::cut).await?;
    assert_eq!(metric(b.metrics, NATS_UP).await?, Some(1));
    drop((a, b, links));
    shared.release().await
}

/// The same through a partition (nothing passes, nothing closes): the look-ups time out
/// instead of failing, and the connections stuck in them must not keep the account away once
/// the link passes again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_during_a_database_partition_waits_and_gets_the_account() -> Result {
    let Some((server, link, db)) = server_behind_link("degraded_stall").await? else {
        return Ok(());
    };
    let key = new_key();
    signed_up(server.addr, "calico", key.clone()).await?;

    link.stall();
    let conn = Connection::open(server.addr, "calico", Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(UNREACHABLE, OUTAGE_WAIT)
        .await
        .with_context(|| server.log())?;
    health_becomes(server.metrics, "degraded: database unreachable").await?;
    // Asked for by hand as well as automatically: the tries queue behind the stuck one.
    s.send(b"r").await?;
    link.mend();
    s.wait_for_text("Hello, calico!", OUTAGE_WAIT)
        .await
        .with_context(|| server.log())?;
    health_becomes(server.metrics, "ok").await?;
    let _ = s.quit().await;
    conn.close().await;
    drop(server);
    minotty_tests::postgres::drop_database(&db).await
}

/// A partition between one instance and NATS (its link stalls: nothing passes, nothing closes):
/// the client still believes it is connected, and the round trip through the NATS server says
/// otherwise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_instance_partitioned_from_nats_says_degraded_until_the_link_returns() -> Result {
    let test = "an_instance_partitioned_from_nats_says_degraded_until_the_link_returns";
    let Some((shared, a, b, links)) =
        two_linked_instances(test, None, Duration::from_secs(5)).await?
    else {
        return Ok(());
    };
    b_degraded_until_its_nats_link_mends(&a, &b, &links.nats_b, Link::stall).await?;
    drop((a, b, links));
    shared.release().await
}
