//! A very small HTTP/1.1 server for the operator: `GET /metrics` (the Prometheus text format)
//! and `GET /health` (200 "ok" while serving, 200 "degraded: <reasons>" while serving without
//! the database or NATS, see `deps.rs`; 503 while starting or draining); anything else is 404 (405 for another method on a known path).
//!
//! It must never become a way to exhaust the server, nor to keep the operator's monitoring from
//! its answers: at most [`MAX_PER_ADDRESS`] connections at once from one address (IPv6: one
//! /64) and [`MAX_CONNECTIONS`] in all (more are closed at once), so that slow clients from one
//! address cannot hold every slot; a request head of at most [`MAX_REQUEST`] bytes read within
//! [`READ_TIMEOUT`] (else the connection is closed), one request per connection, the answer
//! written within [`WRITE_TIMEOUT`]. Bodies are never read.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;
use tokio::time::timeout;

use super::Health;

/// Connections served at once in all; more are closed without an answer.
pub const MAX_CONNECTIONS: usize = 64;
/// Connections served at once from one address (IPv6: one /64); more are closed without an
/// answer.
pub const MAX_PER_ADDRESS: usize = 4;
/// The longest request head (request line and headers).
pub const MAX_REQUEST: usize = 4096;
/// How long a client has to send its whole request head.
pub const READ_TIMEOUT: Duration = Duration::from_secs(2);
/// How long writing the answer may take.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// How the endpoint bounds its clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub max_connections: usize,
    pub max_per_address: usize,
    pub read_timeout: Duration,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            max_connections: MAX_CONNECTIONS,
            max_per_address: MAX_PER_ADDRESS,
            read_timeout: READ_TIMEOUT,
        }
    }
}

/// Serves `listener` until `shutdown` completes; `health` answers `/health`. The connections
/// being answered are this function's tasks: they end when it returns (or is dropped).
pub async fn serve(
    listener: TcpListener,
    health: &'static Health,
    shutdown: impl Future<Output = ()>,
) {
    serve_with(listener, health, shutdown, Bounds::default()).await;
}

/// [`serve`] with other bounds (tests).
pub async fn serve_with(
    listener: TcpListener,
    health: &'static Health,
    shutdown: impl Future<Output = ()>,
    bounds: Bounds,
) {
    let slots = Arc::new(Slots {
        bounds,
        held: Mutex::new(Held::default()),
    });
    // Owned here: dropping the set (shutdown, or this future dropped) aborts what is left.
    let mut connections: JoinSet<()> = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => return,
            // Answered connections are reaped as they end: the set holds only live ones.
            Some(_) = connections.join_next() => continue,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::warn!(error = %e, "metrics: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let Some(slot) = slots.try_acquire(peer.ip()) else {
            // Dropped: closed at once.
            continue;
        };
        let read_timeout = bounds.read_timeout;
        connections.spawn(async move {
            answer(stream, health, read_timeout).await;
            drop(slot);
        });
    }
}

/// The connections being served, in all and per address.
#[derive(Debug)]
struct Slots {
    bounds: Bounds,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    total: usize,
    per_address: HashMap<IpAddr, usize>,
}

/// One connection's place, given back on drop.
#[derive(Debug)]
struct Slot {
    slots: Arc<Slots>,
    address: IpAddr,
}

/// What one address is: an IPv4 address (IPv4-mapped ones included) or an IPv6 /64.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from_bits(v6.to_bits() & !((1u128 << 64) - 1))),
        },
    }
}

impl Slots {
    fn try_acquire(self: &Arc<Self>, ip: IpAddr) -> Option<Slot> {
        let address = address_key(ip);
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        let from_address = held.per_address.get(&address).copied().unwrap_or(0);
        if held.total >= self.bounds.max_connections || from_address >= self.bounds.max_per_address
        {
            return None;
        }
        held.total += 1;
        held.per_address.insert(address, from_address + 1);
        Some(Slot {
            slots: Arc::clone(self),
            address,
        })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut held = self
            .slots
            .held
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        held.total = held.total.saturating_sub(1);
        if let Some(n) = held.per_address.get_mut(&self.address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                held.per_address.remove(&self.address);
            }
        }
    }
}

/// What a request head asks for, as the status line, content type and body to send.
pub fn respond(head: &[u8], health: &Health) -> (&'static str, &'static str, String) {
    const TEXT: &str = "text/plain; charset=utf-8";
    let line = head
        .split(|&b| b == b'\r' || b == b'\n')
        .next()
        .unwrap_or_default();
    let mut parts = line.split(|&b| b == b' ');
    let (method, target, version) = (parts.next(), parts.next(), parts.next());
    let valid = matches!(version, Some(v) if v.starts_with(b"HTTP/1.")) && parts.next().is_none();
    let (Some(method), Some(target), true) = (method, target, valid) else {
        return ("400 Bad Request", TEXT, "bad request\n".into());
    };
    // The query string is ignored (Prometheus sends none; a browser may).
    let path = target.split(|&b| b == b'?').next().unwrap_or_default();
    let known = path == b"/metrics" || path == b"/health";
    if !known {
        return ("404 Not Found", TEXT, "not found\n".into());
    }
    if method != b"GET" {
        return ("405 Method Not Allowed", TEXT, "only GET\n".into());
    }
    if path == b"/metrics" {
        return (
            "200 OK",
            "text/plain; version=0.0.4; charset=utf-8",
            super::render(),
        );
    }
    let (status, body) = super::DEPENDENCIES.health(health);
    (status, TEXT, body)
}

async fn answer(mut stream: TcpStream, health: &Health, read_timeout: Duration) {
    let Ok(Some(head)) = timeout(read_timeout, read_head(&mut stream)).await else {
        // Too slow, too long, or closed early: nothing is answered.
        return;
    };
    let (status, content_type, body) = respond(&head, health);
    let mut reply = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    )
    .into_bytes();
    reply.extend_from_slice(body.as_bytes());
    let _ = timeout(WRITE_TIMEOUT, async {
        let _ = stream.write_all(&reply).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// Reads up to the end of the request head; `None` when it is longer than [`MAX_REQUEST`] or
/// the client stops before its end.
async fn read_head(stream: &mut TcpStream) -> Option<Vec<u8>> {
    let mut head = Vec::with_capacity(512);
    let mut chunk = [0u8; 512];
    loop {
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        let start = head.len().saturating_sub(3);
        head.extend_from_slice(chunk.get(..n)?);
        if let Some(end) = head
            .get(start..)?
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .map(|i| start + i + 4)
            && end <= MAX_REQUEST
        {
            head.truncate(end);
            return Some(head);
        }
        if head.len() > MAX_REQUEST {
            return None;
        }
    }
}

#[cfg(test)]
#[path = "http_tests.rs"]
mod tests;
