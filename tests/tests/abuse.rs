//! Attacks by one hostile client, over real SSH, each bounded in time: a key flood, a resize
//! flood, a client that ignores the channel close, a paused player who walks away, weak key
//! exchanges, and a flood of new connections. Each test checks the server holds its bound and,
//! where it matters, that another player does not notice.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use minotty_server::Limits;
use minotty_server::budget::{INPUT_BYTES_BURST, INPUT_BYTES_PER_SEC};
use minotty_server::resize::RESIZE_QUIET;
use minotty_tests::relay::Relay;
use minotty_tests::slots::plays_once_a_slot_frees;
use minotty_tests::{Connection, Login, TestServer, WAIT, keys};
use russh::ChannelMsg;
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;

type Result = anyhow::Result<()>;

const GHOST: &[u8] = "░".as_bytes();

/// One frame-latency probe: a horizontal move, timed until the frame that redraws the ghost.
async fn probe(s: &mut minotty_tests::PtySession, i: usize) -> anyhow::Result<Option<Duration>> {
    let key = if i.is_multiple_of(2) {
        keys::LEFT
    } else {
        keys::RIGHT
    };
    s.send_and_wait_for(key, GHOST, Duration::from_secs(5))
        .await
}

/// A guest types one key as fast as SSH carries it: 30 MB of `x` inside a game. All but the
/// input budget's worth is discarded unparsed, as the server counts it (the server that
/// appended every key to the game grew by almost 1 GB), the flooder's session survives, and
/// another player's moves keep being answered meanwhile (counted: moves that got their frame;
/// timings are printed, not compared).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_flood_is_bounded_and_others_keep_their_frame_latency() -> Result {
    let server = TestServer::start().await?;
    let other_conn = Connection::open(server.addr, "bo", Login::Guest).await?;
    let mut other = other_conn.play(100, 40).await?;
    other.start_40_lines().await?;
    let flood_conn = Connection::open(server.addr, "eve", Login::Guest).await?;
    let mut flooder = flood_conn.play(100, 40).await?;
    flooder.start_40_lines().await?;

    let mut before = Vec::new();
    for i in 0..10 {
        before.extend(probe(&mut other, i).await?);
    }
    anyhow::ensure!(before.len() >= 5, "the game answers moves: {before:?}");
    let dropped_before = minotty_server::work::input_bytes_dropped();
    let flood_started = Instant::now();

    // The flooder's channel: its frames are read (and dropped) by a task while it floods.
    let (mut read, write) = flooder.into_channel()?.split();
    let received = Arc::new(AtomicU64::new(0));
    let closed = Arc::new(AtomicBool::new(false));
    let reader = {
        let (received, closed) = (Arc::clone(&received), Arc::clone(&closed));
        tokio::spawn(async move {
            while let Some(msg) = read.wait().await {
                match msg {
                    ChannelMsg::Data { data } => {
                        received.fetch_add(data.len() as u64, Ordering::Relaxed);
                    }
                    ChannelMsg::Close => break,
                    _ => {}
                }
            }
            closed.store(true, Ordering::Relaxed);
        })
    };
    const TOTAL: usize = 30 << 20;
    let chunk = vec![b'x'; 32 << 10];
    let flood = async {
        let started = Instant::now();
        let mut sent = 0;
        while sent < TOTAL {
            write
                .data_bytes(chunk.clone())
                .await
                .context("sending the flood")?;
            sent += chunk.len();
        }
        anyhow::Ok(started.elapsed())
    };
    let probes = async {
        let mut during = Vec::new();
        let mut missed = 0;
        for i in 0..40 {
            match probe(&mut other, i).await? {
                Some(d) => during.push(d),
                None => missed += 1,
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        anyhow::Ok((during, missed))
    };
    let (flood_time, probed) = tokio::time::timeout(Duration::from_secs(120), async {
        tokio::join!(flood, probes)
    })
    .await
    .context("the flood did not finish in two minutes")?;
    let flood_time = flood_time?;
    let (mut during, missed) = probed?;
    // Let the server digest what is queued, then measure.
    tokio::time::sleep(Duration::from_secs(1)).await;
    // What bounds the memory: the flood is discarded unparsed past the flooder's input budget,
    // so at most the budget's burst plus its rate for as long as the flood lasted was parsed
    // (a bound a slow machine only loosens). Counted, as the server counts it.
    let dropped = minotty_server::work::input_bytes_dropped() - dropped_before;
    let secs = flood_started.elapsed().as_secs() + 1;
    let parsed_at_most = INPUT_BYTES_BURST + INPUT_BYTES_PER_SEC * secs;
    println!(
        "{dropped} of {TOTAL} bytes discarded unparsed (at least {} expected)",
        TOTAL as u64 - parsed_at_most.min(TOTAL as u64)
    );
    anyhow::ensure!(
        dropped + parsed_at_most >= TOTAL as u64,
        "only {dropped} of {TOTAL} flood bytes discarded"
    );
    before.sort();
    during.sort();
    let (b, d) = (before[before.len() / 2], during.get(during.len() / 2));
    println!(
        "30 MB flood in {flood_time:?}; other player's latency median {b:?} before, {d:?} during ({} probes, {missed} missed)",
        during.len()
    );
    // A move against a wall or into a locking piece draws no new ghost: some probes miss
    // in any game; a stalled server would miss them all.
    anyhow::ensure!(missed <= 15, "{missed} of 40 moves got no frame");
    // The flooder is still connected: its budget dropped keys, not the connection.
    anyhow::ensure!(!closed.load(Ordering::Relaxed), "the flooder was dropped");
    anyhow::ensure!(received.load(Ordering::Relaxed) > 0);
    write.data_bytes(keys::CTRL_C.to_vec()).await?;
    reader.abort();
    Ok(())
}

/// How many times `needle` occurs in `haystack`.
fn occurrences(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

/// 20,000 window changes between 500x200 and 499x200, then 120x45: the server applies a few
/// sizes, not one per change (each applied size clears the client's screen and repaints all
/// of it, at 500x200 a 100,000-cell frame), and the game still ends up drawn at the last size.
/// Work is counted (screens cleared), not timed. The bound is what `crate::resize`'s rule
/// allows whatever the machine's load: a size needs `RESIZE_QUIET` without a change seen, so
/// at most one per `RESIZE_QUIET` of the flood's duration (a busy machine that stalls the
/// server mid-flood may see such pauses; a quiet one applies only the last size, as the
/// rule's own tests show with exact counts).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resize_flood_applies_a_few_sizes_and_the_last_wins() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "eve", Login::Guest).await?;
    let mut s = conn.play(100, 40).await?;
    s.start_40_lines().await?;
    s.emulate = false;
    s.drain().await;
    s.record = true;
    s.raw.clear();
    let started = Instant::now();
    for i in 0..20_000u32 {
        s.resize(if i.is_multiple_of(2) { 500 } else { 499 }, 200)
            .await?;
        if i.is_multiple_of(256) {
            s.drain().await;
        }
    }
    s.resize(120, 45).await?;
    s.emulate = true;
    s.pump_for(Duration::from_millis(500)).await;
    // The last size wins: the board is drawn for 120 x 45.
    s.send(keys::LEFT).await?;
    s.wait_until("a frame at 120 x 45", WAIT, |screen| {
        minotty_tests::board::find(screen).is_some_and(|b| b.has_piece)
    })
    .await?;
    let took = started.elapsed();
    // Every size applied clears the screen once (`RemoteTerminal::resize`).
    let applied = occurrences(&s.raw, b"\x1b[2J");
    let bound = 1 + took.as_millis() / RESIZE_QUIET.as_millis();
    println!(
        "20,000 window changes: {applied} sizes applied (bound {bound}), {} bytes sent back, in {took:?}",
        s.raw.len()
    );
    anyhow::ensure!(applied >= 1, "the last size was never applied");
    anyhow::ensure!(
        applied as u128 <= bound,
        "{applied} sizes applied for 20,000 window changes in {took:?} (at most {bound})"
    );
    drop(s);
    conn.close().await;
    Ok(())
}

/// A client that stops answering once its game is over (it never answers the channel close)
/// loses its connection, and so its slot, within the grace period: the server no longer
/// waits on keepalives (about a minute) or forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_ignores_the_channel_close_loses_its_connection() -> Result {
    let limits = Limits {
        idle_timeout: Duration::from_secs(2),
        max_per_ip: 1,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let mut relay = Relay::start(server.addr).await?;
    let conn = Connection::open(relay.addr, "eve", Login::Guest).await?;
    let mut s = conn.play(100, 40).await?;
    s.skip_welcome().await?;
    relay.frozen.store(true, Ordering::Relaxed);
    let frozen_at = Instant::now();
    // The session idles out after 2 s and says goodbye; nobody answers.
    tokio::time::timeout(
        Duration::from_secs(20),
        relay.server_closed.wait_for(|c| *c),
    )
    .await
    .context("the server kept the silent client's connection for 20 s")??;
    let took = frozen_at.elapsed();
    println!("connection closed {took:?} after the client went silent (idle timeout 2 s)");
    // Its slot is freed with it (the server waits at most 2 s more for its own goodbye):
    // another connection from the same address (limit 1) gets in.
    plays_once_a_slot_frees(server.addr, "bo", Login::Guest, WAIT).await
}

/// A paused solo game idles out like a menu: the player is disconnected with the usual note.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_idle_player_is_disconnected() -> Result {
    // Longer than the countdown: a game without input for the idle timeout pauses itself.
    let limits = Limits {
        idle_timeout: Duration::from_secs(5),
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let conn = Connection::open(server.addr, "ada", Login::Guest).await?;
    let mut s = conn.play(100, 40).await?;
    s.start_40_lines().await?;
    // In 40 lines Esc first asks whether to give up ranking; yes pauses.
    s.send(keys::ESC).await?;
    s.wait_for_text("PAUSE?", WAIT).await?;
    s.send(b"y").await?;
    s.wait_for_text("PAUSED", WAIT).await?;
    assert_eq!(s.wait_closed(WAIT).await?, Some(0));
    assert!(s.contents().contains("without input"), "{}", s.contents());
    Ok(())
}

/// A solo game left without input for the idle timeout pauses itself (a timed game so paused
/// is no longer ranked); paused, it idles out an idle timeout later like any paused game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_game_pauses_itself_then_idles_out() -> Result {
    let limits_idle = Duration::from_secs(6);
    let limits = Limits {
        idle_timeout: limits_idle,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let conn = Connection::open(server.addr, "ada", Login::Guest).await?;
    let mut s = conn.play(100, 40).await?;
    // The last key starts the game (3 s countdown): it pauses itself about 3 s into it, an
    // idle timeout after that key.
    let before_last_key = Instant::now();
    s.start_40_lines().await?;
    anyhow::ensure!(!s.contents().contains("PAUSED"), "paused too early");
    s.wait_for_text("PAUSED", WAIT).await?;
    assert!(s.contents().contains("Not ranked"), "{}", s.contents());
    assert_eq!(s.wait_closed(WAIT).await?, Some(0));
    // Paused an idle timeout after the last key, closed an idle timeout after the pause: at
    // least two idle timeouts after a moment before that key (a lower bound that a busy
    // machine only makes longer; closing at the pause would take one).
    let took = before_last_key.elapsed();
    assert!(
        took >= limits_idle * 2,
        "idled out {took:?} after the last key"
    );
    assert!(s.contents().contains("without input"), "{}", s.contents());
    Ok(())
}

/// Only elliptic-curve key exchanges are offered: a client that insists on finite-field
/// Diffie-Hellman (which costs the server a large modular exponentiation per connection) is
/// refused; curve25519 works.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_elliptic_curve_key_exchanges_are_offered() -> Result {
    let server = TestServer::start().await?;
    for (kex, ok) in [
        (russh::kex::DH_G16_SHA512, false),
        (russh::kex::DH_G14_SHA256, false),
        (russh::kex::DH_GEX_SHA256, false),
        (russh::kex::CURVE25519, true),
        (russh::kex::MLKEM768X25519_SHA256, true),
    ] {
        let config = russh::client::Config {
            nodelay: true,
            inactivity_timeout: None,
            preferred: russh::Preferred {
                kex: std::borrow::Cow::Owned(vec![kex]),
                ..russh::Preferred::default()
            },
            ..russh::client::Config::default()
        };
        let result = tokio::time::timeout(
            WAIT,
            Connection::open_with(Arc::new(config), server.addr, "eve", Login::Guest),
        )
        .await
        .context("connecting did not end")?;
        assert_eq!(result.is_ok(), ok, "{kex:?}: {:?}", result.err());
    }
    Ok(())
}

/// New connections from one address beyond its burst are refused before any cryptography,
/// with a line that says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn new_connections_per_address_are_rate_limited() -> Result {
    let limits = Limits {
        connect_burst: 3,
        connects_per_minute: 1,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    for _ in 0..3 {
        let mut raw = TcpStream::connect(server.addr).await?;
        let mut banner = [0u8; 8];
        raw.read_exact(&mut banner).await?;
        assert_eq!(&banner, b"SSH-2.0-");
    }
    let mut raw = TcpStream::connect(server.addr).await?;
    let mut text = Vec::new();
    tokio::time::timeout(WAIT, raw.read_to_end(&mut text)).await??;
    let text = String::from_utf8_lossy(&text);
    assert!(
        text.starts_with("minotty: too many new connections from your address"),
        "{text}"
    );
    Ok(())
}
