//! A very small HTTP/1.1 server for the operator: `GET /metrics` (the Prometheus text format)
//! and `GET /health` (200 "ok" while serving, 200 "degraded: <reasons>" while serving without
//! the database or NATS, see `deps.rs`; 503 while starting or draining); anything else is 404 (405 for another method on a known path).
//!
//! It must never become a way to exhaust the server, nor to keep the operator's monitoring from
//! its answers: at most [`MAX_PER_ADDRESS`] connections at once from one address
//! ([`ClientAddr::key`]: IPv4 address, IPv6 /64; more are closed at once) and
//! [`MAX_CONNECTIONS`] in all; with every place held, a new connection takes the place of the
//! oldest one still waiting for its request head (the slowest client), so that however many
//! slow clients from however many addresses hold connections, a balancer's check (which sends
//! its request at once) is answered: it can only be let go if [`MAX_CONNECTIONS`] newer
//! connections arrive before its own request does. A request head of at most [`MAX_REQUEST`]
//! bytes read within [`READ_TIMEOUT`] (else the connection is closed), one request per
//! connection, the answer written within [`WRITE_TIMEOUT`]. Bodies are never read.

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use minotty_domain::{AddressKey, ClientAddr};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::{AbortHandle, JoinSet};
use tokio::time::timeout;

use super::Health;

/// Connections served at once in all; past them, the oldest still waiting for its request
/// is let go for the new one (none waiting: the new one is closed without an answer).
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
        let Some(slot) = slots.try_acquire(ClientAddr::new(peer.ip())) else {
            // Dropped: closed at once.
            continue;
        };
        let slot = Arc::new(slot);
        let read_timeout = bounds.read_timeout;
        let task = {
            let slot = Arc::clone(&slot);
            connections.spawn(async move {
                answer(stream, health, read_timeout, &slot).await;
                drop(slot);
            })
        };
        slot.spawned(task);
    }
}

/// The connections being served, in all and per address, oldest first.
#[derive(Debug)]
struct Slots {
    bounds: Bounds,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    /// By age (the id counts up).
    connections: BTreeMap<u64, Connection>,
    per_address: HashMap<AddressKey, usize>,
    next: u64,
}

#[derive(Debug)]
struct Connection {
    address: AddressKey,
    /// Its request head has not arrived yet: it may be let go for a newer connection.
    reading: bool,
    /// Ends its task (set once spawned).
    abort: Option<AbortHandle>,
}

impl Held {
    fn forget(&mut self, id: u64) -> Option<Connection> {
        let gone = self.connections.remove(&id)?;
        if let Some(n) = self.per_address.get_mut(&gone.address) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.per_address.remove(&gone.address);
            }
        }
        Some(gone)
    }
}

/// One connection's place, given back on drop.
#[derive(Debug)]
struct Slot {
    slots: Arc<Slots>,
    id: u64,
}

impl Slots {
    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a connection from `ip`: refused when its address holds its share; when
    /// every place is held, the oldest connection still waiting for its request head is let
    /// go for it (none waiting: refused), so that slow clients never keep a balancer's check,
    /// which sends its request at once, from its answer.
    fn try_acquire(self: &Arc<Self>, ip: ClientAddr) -> Option<Slot> {
        let address = ip.key();
        let mut held = self.lock();
        let from_address = held.per_address.get(&address).copied().unwrap_or(0);
        if from_address >= self.bounds.max_per_address {
            return None;
        }
        if held.connections.len() >= self.bounds.max_connections {
            let slowest = held
                .connections
                .iter()
                .find(|(_, c)| c.reading)
                .map(|(&id, _)| id)?;
            if let Some(gone) = held.forget(slowest)
                && let Some(abort) = gone.abort
            {
                abort.abort();
            }
        }
        let id = held.next;
        held.next += 1;
        held.connections.insert(
            id,
            Connection {
                address,
                reading: true,
                abort: None,
            },
        );
        *held.per_address.entry(address).or_insert(0) += 1;
        Some(Slot {
            slots: Arc::clone(self),
            id,
        })
    }
}

impl Slot {
    fn spawned(&self, abort: AbortHandle) {
        if let Some(c) = self.slots.lock().connections.get_mut(&self.id) {
            c.abort = Some(abort);
        }
    }

    /// The request head arrived: the connection is answered, never let go.
    fn head_read(&self) {
        if let Some(c) = self.slots.lock().connections.get_mut(&self.id) {
            c.reading = false;
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.lock().forget(self.id);
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

async fn answer(mut stream: TcpStream, health: &Health, read_timeout: Duration, slot: &Slot) {
    let Ok(Some(head)) = timeout(read_timeout, read_head(&mut stream)).await else {
        // Too slow, too long, or closed early: nothing is answered.
        return;
    };
    slot.head_read();
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
