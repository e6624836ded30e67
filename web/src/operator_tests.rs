//! The operator's endpoint: its answers, and its bounds played by hostile clients (slow ones
//! from one address, many addresses, oversized and unfinished heads).

use std::net::{Ipv4Addr, SocketAddr};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};
use tokio::time::Instant;

use super::*;

/// An endpoint with `bounds` on 127.0.0.1, serving.
async fn start(bounds: Bounds) -> SocketAddr {
    let health: &'static Health = Box::leak(Box::new(Health::new()));
    health.set_serving();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(serve_with(listener, health, std::future::pending(), bounds));
    addr
}

/// A connection to `addr` from the loopback address `from` (127.0.0.0/8 is all loopback).
async fn connect_from(from: Ipv4Addr, addr: SocketAddr) -> TcpStream {
    let socket = TcpSocket::new_v4().expect("socket");
    socket.bind((from, 0).into()).expect("bind the source");
    socket.connect(addr).await.expect("connect")
}

/// Sends `request` from `from` and reads until the server closes.
async fn exchange_from(from: Ipv4Addr, addr: SocketAddr, request: &[u8]) -> String {
    let mut s = connect_from(from, addr).await;
    // A server that closes without reading everything may reset the connection: what was
    // read before that is the answer.
    let _ = s.write_all(request).await;
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut out))
        .await
        .expect("the server closes");
    String::from_utf8(out).expect("utf-8")
}

const ATTACKER: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 1);
const OPERATOR: Ipv4Addr = Ipv4Addr::new(127, 0, 0, 2);
const HEALTH: &[u8] = b"GET /health HTTP/1.1\r\n\r\n";

/// Slow clients that never finish their heads, `n` of them from `from`.
async fn slow_clients(from: Ipv4Addr, addr: SocketAddr, n: usize) -> Vec<TcpStream> {
    let mut slow = Vec::new();
    for _ in 0..n {
        let mut s = connect_from(from, addr).await;
        let _ = s.write_all(b"GET /health HTTP/1.1\r\n").await;
        slow.push(s);
    }
    slow
}

/// How many of `clients` the server closed without an answer (the others it still holds:
/// their read timeout is an hour away).
async fn closed_unanswered(clients: Vec<TcpStream>) -> usize {
    let reads = clients.into_iter().map(|mut s| {
        tokio::spawn(async move {
            let mut buf = [0u8; 64];
            matches!(
                tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf)).await,
                Ok(Ok(0) | Err(_))
            )
        })
    });
    let mut closed = 0;
    for read in reads.collect::<Vec<_>>() {
        closed += usize::from(read.await.expect("read task"));
    }
    closed
}

/// As many slow clients from one address as the endpoint takes in all (before, 16 of them
/// kept `/health` from answering anyone): the address holds only its own share, and the
/// operator's probe from another address is answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_from_one_address_do_not_keep_health_from_answering() {
    let addr = start(Bounds {
        head_timeout: Duration::from_secs(3600),
        lifetime: Duration::from_secs(3600),
        ..BOUNDS
    })
    .await;
    let slow = slow_clients(ATTACKER, addr, BOUNDS.max_connections).await;
    let reply = exchange_from(OPERATOR, addr, HEALTH).await;
    assert!(reply.starts_with("HTTP/1.1 200 "), "{reply:?}");
    assert!(reply.ends_with("ok\n"), "{reply:?}");
    // The attacker's connections past its share were closed at once, the rest are held.
    assert_eq!(
        closed_unanswered(slow).await,
        BOUNDS.max_connections - BOUNDS.max_per_address
    );
}

/// The attacker of issue 35: 64 slow clients over 16 addresses, each address within its
/// share, hold every place (before: 0 of 53 checks answered). Every check is answered now: it
/// takes the place of the oldest slow client, which is closed unanswered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_over_many_addresses_never_keep_health_from_answering() {
    let addr = start(Bounds {
        head_timeout: Duration::from_secs(3600),
        lifetime: Duration::from_secs(3600),
        ..BOUNDS
    })
    .await;
    let addresses = BOUNDS.max_connections / BOUNDS.max_per_address;
    let mut slow = Vec::new();
    for i in 0..addresses {
        let from = Ipv4Addr::new(127, 0, 1, i as u8);
        slow.push(slow_clients(from, addr, BOUNDS.max_per_address).await);
    }
    let checks = 20;
    for n in 0..checks {
        let reply = exchange_from(OPERATOR, addr, HEALTH).await;
        assert!(reply.starts_with("HTTP/1.1 200 "), "check {n}: {reply:?}");
        assert!(reply.ends_with("ok\n"), "check {n}: {reply:?}");
    }
    // Let go: the oldest first, at least one and at most one per check; the rest still held.
    let first = slow.remove(0);
    let mut closed = closed_unanswered(first).await;
    assert!(closed >= 1, "the oldest slow client was let go");
    // The others at once (each held one waits out the read's timeout).
    closed += closed_unanswered(slow.into_iter().flatten().collect()).await;
    assert!(
        (1..=checks).contains(&closed),
        "{closed} let go for {checks} checks"
    );
}

/// A head past `MAX_HEAD` is refused (431) and closed; so is a head never finished,
/// by the read timeout: on the paused clock it is closed when the timeout fires, not before
/// (the cause observed, no wall time compared).
#[tokio::test(start_paused = true)]
async fn oversized_and_unfinished_requests_are_closed_unanswered() {
    let addr = start(BOUNDS).await;
    let mut big = b"GET /metrics HTTP/1.1\r\nX: ".to_vec();
    big.resize(crate::listen::MAX_HEAD + 100, b'a');
    let reply = exchange_from(ATTACKER, addr, &big).await;
    assert!(
        reply.is_empty() || reply.starts_with("HTTP/1.1 431 "),
        "{reply:?}"
    );
    let started = Instant::now();
    assert_eq!(
        exchange_from(ATTACKER, addr, b"GET /metrics HTTP/1.1\r\n").await,
        ""
    );
    assert!(
        started.elapsed() >= BOUNDS.head_timeout,
        "closed by the read timeout"
    );
}

/// The connections being answered end with the endpoint: once `serve_with` returns on its
/// shutdown signal, the clients it still held (their read timeout an hour away) are closed,
/// every one of them. Before they were tasks of their own and outlived it by that hour.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_in_progress_end_with_the_endpoint() {
    let health: &'static Health = Box::leak(Box::new(Health::new()));
    health.set_serving();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let bounds = Bounds {
        head_timeout: Duration::from_secs(3600),
        lifetime: Duration::from_secs(3600),
        ..BOUNDS
    };
    let server = tokio::spawn(serve_with(
        listener,
        health,
        async {
            let _ = stopped.await;
        },
        bounds,
    ));
    let held = slow_clients(ATTACKER, addr, BOUNDS.max_per_address).await;
    // The endpoint answers (so the held clients were accepted before the shutdown).
    let reply = exchange_from(OPERATOR, addr, HEALTH).await;
    assert!(reply.starts_with("HTTP/1.1 200 "), "{reply:?}");
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the endpoint returns on its shutdown")
        .expect("the endpoint's task");
    assert_eq!(closed_unanswered(held).await, BOUNDS.max_per_address);
}

/// A metrics server on 127.0.0.1:0 with its own health.
async fn start_unserved() -> (SocketAddr, &'static Health) {
    let health: &'static Health = Box::leak(Box::new(Health::new()));
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(serve(listener, health, std::future::pending()));
    (addr, health)
}

async fn exchange(addr: SocketAddr, request: &[u8]) -> String {
    exchange_from(OPERATOR, addr, request).await
}

fn status(reply: &str) -> &str {
    reply.split("\r\n").next().unwrap_or_default()
}

#[tokio::test]
async fn the_endpoint_serves_metrics_health_and_404_by_path_and_method() {
    let (addr, health) = start_unserved().await;
    let reply = exchange(addr, b"GET /metrics HTTP/1.1\r\nHost: localhost\r\n\r\n").await;
    let (head, body) = reply.split_once("\r\n\r\n").expect("head and body");
    assert_eq!(status(head), "HTTP/1.1 200 OK");
    let head = head.to_ascii_lowercase();
    assert!(
        head.contains("content-type: text/plain; version=0.0.4"),
        "{head}"
    );
    assert!(
        head.contains(&format!("content-length: {}", body.len())),
        "{head}"
    );
    assert!(
        body.contains("# TYPE minotty_input_to_frame_seconds histogram"),
        "{body}"
    );
    let reply = exchange(addr, b"GET /metrics?x=1 HTTP/1.0\r\n\r\n").await;
    assert_eq!(status(&reply), "HTTP/1.0 200 OK");

    let reply = exchange(addr, HEALTH).await;
    assert!(reply.starts_with("HTTP/1.1 503 "), "{reply}");
    assert!(reply.ends_with("\r\n\r\nstarting\n"), "{reply}");
    health.set_serving();
    let reply = exchange(addr, HEALTH).await;
    assert!(reply.starts_with("HTTP/1.1 200 OK"), "{reply}");
    assert!(reply.ends_with("\r\n\r\nok\n"), "{reply}");
    health.set_draining();
    let reply = exchange(addr, HEALTH).await;
    assert!(reply.starts_with("HTTP/1.1 503 "), "{reply}");
    assert!(reply.ends_with("draining\n"), "{reply}");

    for path in ["/", "/admin", "/metricsx"] {
        let reply = exchange(addr, format!("GET {path} HTTP/1.1\r\n\r\n").as_bytes()).await;
        assert!(reply.starts_with("HTTP/1.1 404 "), "{path}: {reply}");
    }
    let reply = exchange(addr, b"POST /metrics HTTP/1.1\r\nContent-Length: 0\r\n\r\n").await;
    assert!(reply.starts_with("HTTP/1.1 405 "), "{reply}");
    for bad in [
        &b"GET\r\n\r\n"[..],
        b"GET /metrics SSH-2.0 x\r\n\r\n",
        b"SSH-2.0-OpenSSH_9.6\r\n",
    ] {
        let reply = exchange(addr, bad).await;
        assert!(
            reply.is_empty() || reply.starts_with("HTTP/1.1 400 "),
            "{bad:?}: {reply}"
        );
    }
}
