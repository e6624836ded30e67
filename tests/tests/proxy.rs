//! Behind a load balancer (issue 15, item 4), over real TCP and a russh client: SSH keepalives
//! keep an idle player's connection busy enough for a proxy that drops idle TCP and drop a peer
//! that stopped answering; PROXY protocol headers (v2, and v1 lines) from a trusted address give the address
//! the limits count, and are refused from anywhere else or when malformed.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use minotty_server::Limits;
use minotty_server::ssh::proxy_protocol::{Cidr, TrustedProxies, encode};
use minotty_tests::relay::Relay;
use minotty_tests::slots::open_once_a_slot_frees;
use minotty_tests::{ClientHandler, Connection, Login, TestServer, WAIT, client_config};
use russh::client;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

type Result = anyhow::Result<()>;

/// Logs in as a guest on an SSH session over `stream`.
async fn guest_over(stream: TcpStream) -> anyhow::Result<Connection> {
    let mut handle = client::connect_stream(client_config(), stream, ClientHandler)
        .await
        .context("SSH over the proxied stream")?;
    let answer = handle
        .authenticate_keyboard_interactive_start("guest", None)
        .await?;
    if !matches!(answer, client::KeyboardInteractiveAuthResponse::Success) {
        bail!("guest login refused");
    }
    Ok(Connection { handle })
}

/// A connection to `server` that first sends a PROXY v2 header saying it relays `source` (LOCAL
/// when `None`).
async fn proxied(server: SocketAddr, source: Option<&str>) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(server).await?;
    let header = match source {
        Some(source) => encode(Some((source.parse()?, server)), &[0x04, 0, 1, 0]),
        None => encode(None, &[]),
    };
    stream.write_all(&header).await?;
    Ok(stream)
}

/// A connection to `server` that first sends a PROXY v1 (text) line saying it relays `source`.
async fn proxied_v1(server: SocketAddr, source: SocketAddr) -> anyhow::Result<TcpStream> {
    let mut stream = TcpStream::connect(server).await?;
    let family = if source.is_ipv4() { "TCP4" } else { "TCP6" };
    let line = format!(
        "PROXY {family} {} {} {} {}\r\n",
        source.ip(),
        server.ip(),
        source.port(),
        server.port()
    );
    stream.write_all(line.as_bytes()).await?;
    Ok(stream)
}

/// Opens the game through a proxied connection from `source` and waits for the welcome.
async fn play_as(
    server: SocketAddr,
    source: Option<&str>,
) -> anyhow::Result<(Connection, minotty_tests::PtySession)> {
    let conn = guest_over(proxied(server, source).await?).await?;
    let mut pty = conn.play(80, 24).await?;
    pty.skip_welcome().await?;
    Ok((conn, pty))
}

/// Everything the server sends until it closes (within `WAIT`; a reset, which closing with
/// unread input makes, is a close too).
async fn read_all(mut stream: TcpStream) -> anyhow::Result<String> {
    let mut bytes = Vec::new();
    match tokio::time::timeout(WAIT, stream.read_to_end(&mut bytes))
        .await
        .context("the server did not close the connection")?
    {
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        Err(e) => return Err(e.into()),
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

fn trusting(cidr: &str, limits: Limits) -> anyhow::Result<Limits> {
    let cidr: Cidr = cidr.parse().map_err(anyhow::Error::msg)?;
    Ok(Limits {
        proxy_from: TrustedProxies(vec![cidr]),
        ..limits
    })
}

/// Bytes the client sent while it sat idle in the menu for `window`.
async fn idle_upstream_bytes(keepalive: Duration, window: Duration) -> anyhow::Result<u64> {
    let limits = Limits {
        keepalive_interval: keepalive,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let relay = Relay::start(server.addr).await?;
    let conn = Connection::open(relay.addr, "idle", Login::Guest).await?;
    let mut pty = conn.play(80, 24).await?;
    pty.skip_welcome().await?;
    pty.pump_for(Duration::from_millis(300)).await;
    let before = relay.up.load(Ordering::Relaxed);
    // The player touches nothing: whatever the client sends now answers the server.
    pty.pump_for(window).await;
    assert!(relay.down.load(Ordering::Relaxed) > 0);
    Ok(relay.up.load(Ordering::Relaxed) - before)
}

/// An idle player (in the menu, pressing nothing) still has traffic both ways within the
/// keepalive interval: the server's keepalive and the client's answer, so a proxy that drops
/// TCP idle for 60 s never sees this connection idle. Without keepalives in the window, the
/// client sends nothing at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_player_exchanges_keepalives_within_the_interval() -> Result {
    assert!(Limits::default().keepalive_interval <= Duration::from_secs(20));
    let window = Duration::from_millis(2_500);
    let with = idle_upstream_bytes(Duration::from_secs(1), window).await?;
    assert!(with > 0, "the client answered no keepalive in {window:?}");
    let without = idle_upstream_bytes(Duration::from_secs(3_600), window).await?;
    assert_eq!(without, 0, "an idle client sends nothing by itself");
    Ok(())
}

/// A peer that stops answering (the proxy or the player's network went silent, no FIN) is
/// dropped after the unanswered keepalives, and its slot is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_that_stops_answering_is_dropped() -> Result {
    let limits = Limits {
        keepalive_interval: Duration::from_secs(1),
        keepalive_max: 2,
        max_per_ip: 1,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let mut relay = Relay::start(server.addr).await?;
    let conn = Connection::open(relay.addr, "silent", Login::Guest).await?;
    let mut pty = conn.play(80, 24).await?;
    pty.skip_welcome().await?;
    // While it holds the only slot of 127.0.0.1, another connection is refused.
    let text = read_all(TcpStream::connect(server.addr).await?).await?;
    assert!(
        text.starts_with("minotty: too many connections from your address"),
        "{text}"
    );

    relay.frozen.store(true, Ordering::Relaxed);
    let frozen_at = Instant::now();
    tokio::time::timeout(
        Duration::from_secs(15),
        relay.server_closed.wait_for(|c| *c),
    )
    .await
    .context("the server kept a silent peer")??;
    let took = frozen_at.elapsed();
    // Dropped because its keepalives went unanswered: the server sent the silent peer its
    // `keepalive_max` keepalives first (each a read of its own, a second apart), then closed.
    let held = relay.held_reads.load(Ordering::Relaxed);
    println!("dropped {took:?} after going silent, {held} reads held back meanwhile");
    assert!(
        held >= 2,
        "dropped after {held} unanswered sends ({took:?})"
    );

    // The slot was given back: the same address plays again.
    let back = open_once_a_slot_frees(
        server.addr,
        "back",
        Login::Guest,
        WAIT,
        "the silent peer's slot was not freed",
    )
    .await?;
    let mut pty = back.play(80, 24).await?;
    pty.skip_welcome().await?;
    drop((pty, back));
    drop(conn);
    Ok(())
}

/// Behind a proxy on loopback, every player is counted by the address in their header: two
/// addresses behind the one proxy are not limited together, one address is, and the proxy's
/// own (LOCAL) connections count as the proxy's address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_behind_a_trusted_proxy_are_limited_by_their_own_address() -> Result {
    let limits = trusting(
        "127.0.0.0/8",
        Limits {
            max_per_ip: 1,
            ..Limits::default()
        },
    )?;
    let server = TestServer::start_with(limits).await?;
    let (_a, mut pty_a) = play_as(server.addr, Some("203.0.113.7:5000")).await?;
    let (_b, mut pty_b) = play_as(server.addr, Some("198.51.100.9:5001")).await?;
    let (_c, _) = play_as(server.addr, Some("[2001:db8::7]:40000")).await?;
    let (_local, _) = play_as(server.addr, None).await?;
    // A version 1 line (nginx's `proxy_protocol on`) counts the same way.
    let conn = guest_over(proxied_v1(server.addr, "192.0.2.77:7000".parse()?).await?).await?;
    conn.play(80, 24).await?.skip_welcome().await?;

    for source in [Some("203.0.113.7:6000"), None] {
        let text = read_all(proxied(server.addr, source).await?).await?;
        assert!(
            text.starts_with("minotty: too many connections from your address"),
            "{source:?}: {text}"
        );
    }
    for source in ["203.0.113.7:6001", "192.0.2.77:7001"] {
        let text = read_all(proxied_v1(server.addr, source.parse()?).await?).await?;
        assert!(
            text.starts_with("minotty: too many connections from your address"),
            "v1 {source}: {text}"
        );
    }
    // The players already in were not disturbed.
    pty_a.start_40_lines().await?;
    pty_b.start_40_lines().await?;
    Ok(())
}

/// A PROXY header from an address that is not trusted is refused (never believed), as is a
/// malformed one, a missing one, or one that never comes from a trusted proxy; the server goes
/// on serving.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn proxy_headers_are_refused_when_untrusted_or_malformed() -> Result {
    // Loopback is not trusted here.
    let server = TestServer::start_with(trusting("10.0.0.0/8", Limits::default())?).await?;
    for header in [
        encode(Some(("203.0.113.7:5000".parse()?, server.addr)), &[]),
        b"PROXY TCP4 203.0.113.7 127.0.0.1 5000 22\r\n".to_vec(),
    ] {
        let mut stream = TcpStream::connect(server.addr).await?;
        // The server speaks first, as to any SSH client...
        let mut banner = [0u8; 8];
        stream.read_exact(&mut banner).await?;
        assert_eq!(&banner, b"SSH-2.0-");
        // ...and closes on the header.
        stream.write_all(&header).await?;
        let text = read_all(stream).await?;
        assert!(!text.contains("minotty:"), "{text}");
    }
    let conn = Connection::open(server.addr, "plain", Login::Guest).await?;
    conn.play(80, 24).await?.skip_welcome().await?;

    // Loopback trusted: whatever is not a valid header is closed before any SSH byte.
    let limits = Limits {
        proxy_header_timeout: Duration::from_millis(300),
        ..trusting("127.0.0.1/32", Limits::default())?
    };
    let server = TestServer::start_with(limits).await?;
    let mut bad_version = encode(Some(("203.0.113.7:5000".parse()?, server.addr)), &[]);
    bad_version[12] = 0x31;
    let mut huge = encode(None, &[]);
    huge[14..16].copy_from_slice(&u16::MAX.to_be_bytes());
    let mut unknown_family = encode(None, &[]);
    unknown_family[13] = 0x51;
    unknown_family[12] = 0x21;
    for (name, bytes) in [
        ("wrong version", bad_version),
        ("huge length", huge),
        ("unknown family", unknown_family),
        ("plain SSH", b"SSH-2.0-OpenSSH_9.6\r\n".to_vec()),
        ("half a header", encode(None, &[])[..9].to_vec()),
        (
            "v1 port out of range",
            b"PROXY TCP4 203.0.113.7 127.0.0.1 99999 22\r\n".to_vec(),
        ),
        (
            "v1 with no end",
            [&b"PROXY TCP4 "[..], &[b'1'; 300]].concat(),
        ),
        ("v1 cut short", b"PROXY TCP4 203.0.113.7".to_vec()),
        ("nothing", Vec::new()),
    ] {
        // Closed without a byte (`read_all` waits for the close): refused, or given up on at
        // the 300 ms header deadline; without that deadline the login timeout (30 s)
        // would hold "nothing" and the cut-short headers past the wait.
        let mut stream = TcpStream::connect(server.addr).await?;
        stream.write_all(&bytes).await?;
        let text = read_all(stream).await?;
        assert_eq!(text, "", "{name}");
    }
    let (conn, pty) = play_as(server.addr, Some("192.0.2.44:1234")).await?;
    drop((pty, conn));
    // And it still stops promptly (nothing of the proxied admissions outlives the accept loop
    // and holds the game writer open).
    let mut server = server;
    server.stop(WAIT).await?;
    Ok(())
}
