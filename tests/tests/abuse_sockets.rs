//! Clients that keep a connection from ending: one that never finishes the key exchange, one
//! that never opens its channel window. Whatever path gives up on them (the login timeout, the
//! idle close, shutdown), the server closes their sockets and only then frees their slots.
//!
//! Sockets are counted on the server's side: the `connections_open` and `sockets_open` gauges,
//! and the server's sockets in the kernel's table (`/proc/net/tcp`, those with an owner); the
//! tests run one at a time since the gauges are the process's.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicUsize, Ordering};
use std::time::Duration;

use anyhow::{Context, ensure};
use minotty_server::Limits;
use minotty_server::metrics::METRICS;
use minotty_server::ssh::limits::Startups;
use minotty_tests::isolated::IsolatedServer;
use minotty_tests::relay::Relay;
use minotty_tests::slots::plays_once_a_slot_frees;
use minotty_tests::{Connection, Login, TestServer};
use rand::Rng;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::time::{Instant, sleep, timeout, timeout_at};

type Result = anyhow::Result<()>;

/// The gauges are the process's: one test at a time.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// An unencrypted SSH_MSG_IGNORE binary packet (RFC 4253 §6): length, padding length, payload
/// (the message number and a string), random padding of at least 4 bytes making the whole a
/// multiple of 8.
fn ignore_packet() -> Vec<u8> {
    let mut payload = vec![2u8];
    payload.extend_from_slice(&4u32.to_be_bytes());
    payload.extend_from_slice(b"ping");
    let mut padding = 8 - (5 + payload.len()) % 8;
    if padding < 4 {
        padding += 8;
    }
    let mut packet = Vec::new();
    let length = u32::try_from(1 + payload.len() + padding).expect("small");
    packet.extend_from_slice(&length.to_be_bytes());
    packet.push(u8::try_from(padding).expect("small"));
    packet.extend_from_slice(&payload);
    let mut pad = vec![0u8; padding];
    rand::rng().fill_bytes(&mut pad);
    packet.extend_from_slice(&pad);
    assert_eq!(packet.len() % 8, 0);
    packet
}

/// One attacker's connection: the version line, then an SSH_MSG_IGNORE every 100 ms and never
/// a key exchange, until the server closes the connection. Says whether the server admitted
/// it (answered with its own version rather than a refusal).
async fn stall_key_exchange(addr: std::net::SocketAddr) -> anyhow::Result<bool> {
    let mut stream = TcpStream::connect(addr).await?;
    stream.write_all(b"SSH-2.0-stall_1.0\r\n").await?;
    let mut first = Vec::new();
    let mut buf = [0u8; 4096];
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    loop {
        tokio::select! {
            read = stream.read(&mut buf) => match read {
                Ok(n) if n > 0 => {
                    if first.len() < 16 {
                        first.extend_from_slice(&buf[..n]);
                    }
                }
                _ => break,
            },
            _ = tick.tick() => {
                if stream.write_all(&ignore_packet()).await.is_err() {
                    break;
                }
            }
        }
    }
    Ok(first.starts_with(b"SSH-2.0-minotty"))
}

/// The server's sockets on `port` that a process still holds (the listener's excepted):
/// connections closed by the server but not yet by the client are orphans, owned by no one.
fn server_sockets(port: u16) -> usize {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    let local = format!(":{port:04X}");
    table
        .lines()
        .skip(1)
        .filter(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (Some(addr), Some(state), Some(inode)) = (f.get(1), f.get(3), f.get(9)) else {
                return false;
            };
            addr.ends_with(&local) && *state != "0A" && *inode != "0"
        })
        .count()
}

fn open_fds() -> usize {
    std::fs::read_dir("/proc/self/fd").map_or(0, Iterator::count)
}

/// Waits (at most 30 s) until `check` holds; says whether it did.
async fn settles(mut check: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if check() {
            return true;
        }
        sleep(Duration::from_millis(50)).await;
    }
    check()
}

const WAVES: usize = 10;
const PER_WAVE: usize = 100;

/// 1,000 connections from one address (in waves of 100) that send the version line and then
/// SSH_MSG_IGNORE every 100 ms, never finishing the key exchange, against `--max-per-ip 2`
/// and a 1 s login timeout. The server never holds more than 2 of their sockets in slots (it
/// held 2 more after each wave: the slot was freed when the login timeout gave up, the socket
/// kept by the session task), closes every one, and ends with as many sockets, descriptors and
/// tasks as it started with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_stalling_the_key_exchange_holds_no_more_sockets_than_its_slots() -> Result {
    let _serial = SERIAL.lock().await;
    let limits = Limits {
        max_per_ip: 2,
        auth_timeout: Duration::from_secs(1),
        connect_burst: 100_000,
        connects_per_minute: 1_000_000,
        max_startups: Startups {
            start: 10_000,
            rate: 100,
            full: 10_000,
        },
        ..Limits::default()
    };
    let server = IsolatedServer::start(limits).await?;
    let port = server.addr.port();
    sleep(Duration::from_millis(300)).await;
    let (tasks_before, fds_before) = (server.tasks_alive(), open_fds());
    let sockets_before = METRICS.sockets_open.get();
    ensure!(METRICS.connections_open.get() == 0 && server_sockets(port) == 0);

    // Counted on the server's side, all along.
    let stop = Arc::new(AtomicBool::new(false));
    let most_in_slots = Arc::new(AtomicI64::new(0));
    let most_sockets = Arc::new(AtomicUsize::new(0));
    let sampler = {
        let (stop, in_slots, sockets) = (
            Arc::clone(&stop),
            Arc::clone(&most_in_slots),
            Arc::clone(&most_sockets),
        );
        tokio::spawn(async move {
            let mut samples = 0u64;
            while !stop.load(Ordering::Relaxed) {
                in_slots.fetch_max(METRICS.connections_open.get(), Ordering::Relaxed);
                sockets.fetch_max(server_sockets(port), Ordering::Relaxed);
                samples += 1;
                sleep(Duration::from_millis(5)).await;
            }
            samples
        })
    };

    let mut admitted = 0usize;
    let mut still_open = Vec::new();
    for _ in 0..WAVES {
        let wave: Vec<_> = (0..PER_WAVE)
            .map(|_| tokio::spawn(stall_key_exchange(server.addr)))
            .collect();
        // The login timeout, the disconnect's patience, and room to spare.
        let deadline = Instant::now() + Duration::from_secs(8);
        for mut attempt in wave {
            match timeout_at(deadline, &mut attempt).await {
                Ok(result) => admitted += usize::from(result??),
                Err(_) => still_open.push(attempt),
            }
        }
    }
    stop.store(true, Ordering::Relaxed);
    let samples = sampler.await?;
    let (in_slots, sockets) = (
        most_in_slots.load(Ordering::Relaxed),
        most_sockets.load(Ordering::Relaxed),
    );
    println!(
        "{} attempts, {admitted} admitted, {} still open after their wave; at most {in_slots} \
         in slots and {sockets} server sockets (refusals in flight included) over {samples} \
         samples",
        WAVES * PER_WAVE,
        still_open.len()
    );
    ensure!(
        still_open.is_empty(),
        "{} stalled connections were never closed by the server",
        still_open.len()
    );
    ensure!(
        in_slots <= 2,
        "{in_slots} sockets in slots at once, limit 2"
    );
    ensure!(admitted >= WAVES, "the attack got in ({admitted} admitted)");

    // Everything is given back.
    let flat = settles(|| {
        server_sockets(port) == 0
            && METRICS.connections_open.get() == 0
            && METRICS.sockets_open.get() <= sockets_before
            && server.tasks_alive() <= tasks_before
            && open_fds() <= fds_before
    })
    .await;
    let after = (
        server_sockets(port),
        METRICS.sockets_open.get(),
        server.tasks_alive(),
        open_fds(),
    );
    println!(
        "before: 0 server sockets, {sockets_before} open, {tasks_before} tasks, {fds_before} \
         descriptors; after: {after:?}"
    );
    ensure!(
        flat,
        "sockets, tasks and descriptors did not come back: {after:?}"
    );
    server.stop()
}

/// A client whose window is never opened again: through a relay that passes nothing on once
/// frozen, the client's window adjustments (of a 1 KiB window) never arrive, so the server's
/// frames and then its disconnect wait for ever behind them.
async fn stalled_player(
    server: std::net::SocketAddr,
) -> anyhow::Result<(Relay, Connection, minotty_tests::PtySession)> {
    let relay = Relay::start(server).await?;
    let config = Arc::new(russh::client::Config {
        window_size: 1024,
        nodelay: true,
        inactivity_timeout: None,
        ..russh::client::Config::default()
    });
    let conn = Connection::open_with(config, relay.addr, "eve", Login::Guest).await?;
    let mut s = conn.play(100, 40).await?;
    s.start_40_lines().await?;
    relay.frozen.store(true, Ordering::Relaxed);
    Ok((relay, conn, s))
}

/// Limits for the stalled players: keepalives too rare to end anything in these tests.
fn stalled_limits() -> Limits {
    Limits {
        // Longer than the countdown before a game.
        idle_timeout: Duration::from_secs(5),
        auth_timeout: Duration::from_secs(3),
        max_per_ip: 1,
        keepalive_interval: Duration::from_secs(600),
        shutdown_grace: Duration::from_secs(1),
        ..Limits::default()
    }
}

/// Within 10 s another guest (bo) gets in and reaches the main menu: the server's one slot
/// was freed.
async fn slot_is_free(server: &TestServer) -> Result {
    plays_once_a_slot_frees(server.addr, "bo", Login::Guest, Duration::from_secs(10)).await
}

/// A logged-in player stalls its window and goes idle: the game ends, the connection is given
/// up on, and its socket closed (the server's disconnect, queued behind frames the window
/// never lets out, waited for ever) and its slot freed: another connection from the address
/// (limit 1) gets in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_idle_player_loses_its_socket_and_its_slot() -> Result {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start_with(stalled_limits()).await?;
    let (mut relay, _conn, _s) = stalled_player(server.addr).await?;
    timeout(
        Duration::from_secs(60),
        relay.server_closed.wait_for(|c| *c),
    )
    .await
    .context("the server kept the stalled player's socket for 60 s")??;
    slot_is_free(&server).await
}

/// At shutdown, a player whose window is stalled has its socket closed by the server (it
/// stayed open after the server had stopped).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_player_loses_its_socket_at_shutdown() -> Result {
    let _serial = SERIAL.lock().await;
    let mut server = TestServer::start_with(Limits {
        idle_timeout: Duration::from_secs(600),
        ..stalled_limits()
    })
    .await?;
    let (mut relay, _conn, _s) = stalled_player(server.addr).await?;
    // Long enough for the frames to use up the window.
    sleep(Duration::from_secs(2)).await;
    server.stop(Duration::from_secs(30)).await?;
    timeout(
        Duration::from_secs(20),
        relay.server_closed.wait_for(|c| *c),
    )
    .await
    .context("the stalled player's socket outlived the server by 20 s")??;
    Ok(())
}

/// A logged-in client (no channel: `ssh -N`) starts a key re-exchange and never finishes it
/// (the server's KEXINIT never reaches it). The connection is closed as having nothing to
/// play, but russh sends no disconnect during a key exchange: before, the server freed the
/// slot and kept the socket; now the socket is closed, and the slot freed with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_stalling_a_rekey_loses_its_socket_and_its_slot() -> Result {
    let _serial = SERIAL.lock().await;
    let server = TestServer::start_with(Limits {
        auth_timeout: Duration::from_secs(2),
        ..stalled_limits()
    })
    .await?;
    let mut relay = Relay::start(server.addr).await?;
    let conn = Connection::open(relay.addr, "eve", Login::Guest).await?;
    relay.muted.store(true, Ordering::Relaxed);
    conn.handle.rekey_soon().await?;
    timeout(
        Duration::from_secs(30),
        relay.server_closed.wait_for(|c| *c),
    )
    .await
    .context("the server kept the socket of a client stalling its rekey for 30 s")??;
    slot_is_free(&server).await
}
