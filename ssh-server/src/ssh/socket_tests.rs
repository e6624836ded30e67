use std::net::{IpAddr, Ipv4Addr};

use tokio::io::{AsyncReadExt, AsyncWriteExt, duplex};

use super::*;
use crate::ssh::limits::{ConnectionLimiter, ConnectionLimits};

const IP: IpAddr = IpAddr::V4(Ipv4Addr::new(192, 0, 2, 7));

fn limiter() -> Arc<ConnectionLimiter> {
    ConnectionLimiter::new(ConnectionLimits::default())
}

/// A read waiting on a peer that never sends (a stalled client) fails as soon as the switch is
/// pulled, and so does every later read and write.
#[tokio::test]
async fn pulling_the_switch_fails_a_pending_read_and_everything_after() {
    let (server_side, _client) = duplex(64);
    let mut socket = Socket::new(server_side);
    let switch = socket.kill_switch();
    let reader = tokio::spawn(async move {
        let mut buf = [0u8; 8];
        let first = socket.read(&mut buf).await;
        let again = socket.read(&mut buf).await;
        let write = socket.write_all(b"x").await;
        (first, again, write)
    });
    // The read is pending (the client sends nothing) until the switch is pulled.
    tokio::task::yield_now().await;
    assert!(!reader.is_finished());
    assert!(switch.kill());
    let (first, again, write) = reader.await.unwrap();
    assert_eq!(first.unwrap_err().kind(), io::ErrorKind::ConnectionAborted);
    assert_eq!(again.unwrap_err().kind(), io::ErrorKind::ConnectionAborted);
    assert_eq!(write.unwrap_err().kind(), io::ErrorKind::ConnectionAborted);
    assert!(!switch.kill(), "already closed");
}

/// A write blocked on a client that does not read (its buffer full) fails when the switch is
/// pulled, and the client then sees the stream end: the server's side is really closed.
#[tokio::test]
async fn pulling_the_switch_fails_a_blocked_write_and_closes_the_stream() {
    let (server_side, mut client) = duplex(16);
    let mut socket = Socket::new(server_side);
    let switch = socket.kill_switch();
    let writer = tokio::spawn(async move { socket.write_all(&[7u8; 1024]).await });
    tokio::task::yield_now().await;
    assert!(!writer.is_finished(), "the write waits for the client");
    switch.kill();
    let err = writer.await.unwrap().unwrap_err();
    assert_eq!(err.kind(), io::ErrorKind::ConnectionAborted);
    let mut rest = Vec::new();
    client.read_to_end(&mut rest).await.unwrap();
    assert_eq!(rest.len(), 16, "what was buffered before, then the end");
}

/// The slot goes with the socket: held while it is open even when the connection's task is
/// done with it, released when it closes.
#[tokio::test]
async fn the_slot_is_released_when_the_socket_closes_not_before() {
    let limiter = limiter();
    let (server_side, _client) = duplex(64);
    let socket = Socket::new(server_side);
    socket.hold(limiter.try_acquire(IP.into()).unwrap());
    let switch = socket.kill_switch();
    switch.logged_in();
    assert_eq!((limiter.total(), limiter.logging_in()), (1, 0));
    // Held by the socket (as the session task would), not by the switch's owner.
    assert!(switch.is_open());
    assert_eq!(limiter.total(), 1);
    drop(switch);
    assert!(!socket.is_open(), "dropping the switch closes the socket");
    assert_eq!(limiter.total(), 0);
}

/// A socket the session dropped (the client hung up) releases its slot too, and the switch
/// then has nothing left to close.
#[tokio::test]
async fn a_socket_dropped_by_its_session_releases_its_slot() {
    let limiter = limiter();
    let (server_side, _client) = duplex(64);
    let socket = Socket::new(server_side);
    socket.hold(limiter.try_acquire(IP.into()).unwrap());
    let switch = socket.kill_switch();
    drop(socket);
    assert_eq!(limiter.total(), 0);
    assert!(!switch.is_open());
    assert!(!switch.kill());
}

/// A permit handed to a socket already closed is released at once.
#[tokio::test]
async fn a_slot_given_to_a_closed_socket_is_released() {
    let limiter = limiter();
    let (server_side, _client) = duplex(64);
    let socket = Socket::new(server_side);
    socket.kill_switch().kill();
    socket.hold(limiter.try_acquire(IP.into()).unwrap());
    assert_eq!(limiter.total(), 0);
}
