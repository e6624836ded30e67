//! The endpoint's bounds, played by hostile clients: slow ones from one address, many
//! addresses, oversized and unfinished heads.

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
        read_timeout: Duration::from_secs(3600),
        ..Bounds::default()
    })
    .await;
    let slow = slow_clients(ATTACKER, addr, MAX_CONNECTIONS).await;
    let reply = exchange_from(OPERATOR, addr, HEALTH).await;
    assert!(reply.starts_with("HTTP/1.1 200 "), "{reply:?}");
    assert!(reply.ends_with("ok\n"), "{reply:?}");
    // The attacker's connections past its share were closed at once, the rest are held.
    assert_eq!(
        closed_unanswered(slow).await,
        MAX_CONNECTIONS - MAX_PER_ADDRESS
    );
}

/// The attacker of issue 35: 64 slow clients over 16 addresses, each address within its
/// share, hold every place (before: 0 of 53 checks answered). Every check is answered now: it
/// takes the place of the oldest slow client, which is closed unanswered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_over_many_addresses_never_keep_health_from_answering() {
    let addr = start(Bounds {
        read_timeout: Duration::from_secs(3600),
        ..Bounds::default()
    })
    .await;
    let addresses = MAX_CONNECTIONS / MAX_PER_ADDRESS;
    let mut slow = Vec::new();
    for i in 0..addresses {
        let from = Ipv4Addr::new(127, 0, 1, i as u8);
        slow.push(slow_clients(from, addr, MAX_PER_ADDRESS).await);
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
    for clients in slow {
        closed += closed_unanswered(clients).await;
    }
    assert!(
        (1..=checks).contains(&closed),
        "{closed} let go for {checks} checks"
    );
}

/// A connection whose request arrived is answered, never let go: with every place held by
/// clients that sent their heads and wait for their answers, a new one is closed.
#[tokio::test]
async fn answered_connections_are_not_let_go() {
    let slots = Arc::new(Slots {
        bounds: Bounds {
            max_connections: 2,
            max_per_address: 2,
            read_timeout: READ_TIMEOUT,
        },
        held: Mutex::new(Held::default()),
    });
    let a = ClientAddr::new("192.0.2.1".parse().unwrap());
    let b = ClientAddr::new("::ffff:192.0.2.2".parse().unwrap());
    let first = slots.try_acquire(a).expect("a place");
    let second = slots.try_acquire(a).expect("a place");
    assert!(
        slots.try_acquire(a).is_none(),
        "the address holds its share"
    );
    first.head_read();
    second.head_read();
    assert!(
        slots.try_acquire(b).is_none(),
        "nobody is waiting for a head"
    );
    drop(first);
    let third = slots.try_acquire(b).expect("a place came back");
    // `third` still reads: a newer connection takes its place.
    let fourth = slots.try_acquire(ClientAddr::new("192.0.2.3".parse().unwrap()));
    assert!(fourth.is_some());
    assert_eq!(slots.lock().connections.len(), 2);
    drop(third);
    assert_eq!(
        slots.lock().connections.len(),
        2,
        "let go already: nothing given back twice"
    );
    drop(second);
    assert_eq!(slots.lock().per_address.len(), 1);
}

/// IPv6 addresses count by /64, IPv4-mapped ones as IPv4 (the one address type).
#[test]
fn addresses_are_counted_by_ipv4_address_or_ipv6_slash_64() {
    let key = |s: &str| ClientAddr::new(s.parse().unwrap()).key();
    assert_eq!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:2:bbbb::2"));
    assert_ne!(key("2001:db8:1:2:aaaa::1"), key("2001:db8:1:3::1"));
    assert_eq!(key("::ffff:192.0.2.1"), key("192.0.2.1"));
}

/// A head past MAX_REQUEST without its end is closed unanswered; so is a head never finished,
/// by the read timeout: on the paused clock it is closed when the timeout fires, not before
/// (the cause observed, no wall time compared).
#[tokio::test(start_paused = true)]
async fn oversized_and_unfinished_requests_are_closed_unanswered() {
    let addr = start(Bounds::default()).await;
    let mut big = b"GET /metrics HTTP/1.1\r\nX: ".to_vec();
    big.resize(MAX_REQUEST + 100, b'a');
    assert_eq!(exchange_from(ATTACKER, addr, &big).await, "");
    let started = Instant::now();
    assert_eq!(
        exchange_from(ATTACKER, addr, b"GET /metrics HTTP/1.1\r\n").await,
        ""
    );
    assert!(
        started.elapsed() >= READ_TIMEOUT,
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
        read_timeout: Duration::from_secs(3600),
        ..Bounds::default()
    };
    let server = tokio::spawn(serve_with(
        listener,
        health,
        async {
            let _ = stopped.await;
        },
        bounds,
    ));
    let held = slow_clients(ATTACKER, addr, MAX_PER_ADDRESS).await;
    // The endpoint answers (so the held clients were accepted before the shutdown).
    let reply = exchange_from(OPERATOR, addr, HEALTH).await;
    assert!(reply.starts_with("HTTP/1.1 200 "), "{reply:?}");
    let _ = stop.send(());
    tokio::time::timeout(Duration::from_secs(10), server)
        .await
        .expect("the endpoint returns on its shutdown")
        .expect("the endpoint's task");
    assert_eq!(closed_unanswered(held).await, MAX_PER_ADDRESS);
}
