//! The accept loop under both HTTP listeners (the pages and the operator's endpoint): HTTP/1.1
//! by hyper, each connection on a task this loop owns, an axum router answering.
//!
//! Its bounds ([`Bounds`]): at most `max_per_address` connections at once from one address
//! ([`ClientAddr::key`]: IPv4 address, IPv6 /64; more are closed at once) and
//! `max_connections` in all; with every place held, a new connection takes the place of the
//! oldest one still waiting for its first request head (the slowest client), so that however
//! many slow clients hold connections, a client that sends its request at once (a balancer's
//! check, a browser) is answered. A request head of at most [`MAX_HEAD`] bytes, read within
//! `head_timeout` (else the connection is closed); a connection lives at most `lifetime`
//! (a WebSocket upgraded from it has its own bounds and keeps its place until it ends, see
//! [`Place`]).

use std::collections::{BTreeMap, HashMap};
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use minotty_domain::{AddressKey, ClientAddr};
use tokio::net::TcpListener;
use tokio::task::{AbortHandle, JoinSet};
use tower::ServiceExt;

/// The longest request head (request line and headers): hyper's smallest read buffer.
pub const MAX_HEAD: usize = 8192;

/// How a listener bounds its clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub max_connections: usize,
    pub max_per_address: usize,
    /// How long a client has to send a whole request head.
    pub head_timeout: Duration,
    /// How long a connection may last, its answers written (not a WebSocket from it).
    pub lifetime: Duration,
    /// Whether a connection may carry more than one request.
    pub keep_alive: bool,
}

/// What the router's handlers know of the connection a request came on.
#[derive(Clone, Debug)]
pub struct Conn {
    pub peer: SocketAddr,
    pub client: ClientAddr,
    /// The connection's place: a WebSocket upgraded from it holds it while it lives.
    pub place: Arc<Place>,
}

/// Serves `listener` with `router` until `shutdown` completes. The connections being answered
/// are this function's tasks: they end when it returns (or is dropped).
pub async fn serve(
    listener: TcpListener,
    router: Router,
    bounds: Bounds,
    shutdown: impl Future<Output = ()>,
) {
    let places = Arc::new(Places {
        bounds,
        held: Mutex::new(Held::default()),
    });
    let mut connections: JoinSet<()> = JoinSet::new();
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut shutdown => return,
            // Connections are reaped as they end: the set holds only live ones.
            Some(_) = connections.join_next() => continue,
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::warn!(error = %e, "web: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let client = ClientAddr::new(peer.ip());
        let Some(place) = places.try_acquire(client) else {
            // Dropped: closed at once.
            continue;
        };
        let place = Arc::new(place);
        let conn = Conn {
            peer,
            client,
            place: Arc::clone(&place),
        };
        let router = router.clone();
        let task = connections.spawn(async move {
            let service =
                hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
                    conn.place.head_read();
                    request.extensions_mut().insert(conn.clone());
                    router.clone().oneshot(request)
                });
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(TokioTimer::new())
                .header_read_timeout(bounds.head_timeout)
                .max_buf_size(MAX_HEAD)
                .keep_alive(bounds.keep_alive)
                .serve_connection(TokioIo::new(stream), service)
                .with_upgrades();
            // Over its lifetime the connection is closed, answered or not.
            let _ = tokio::time::timeout(bounds.lifetime, connection).await;
        });
        place.spawned(task);
    }
}

/// The connections being served, in all and per address, oldest first.
#[derive(Debug)]
struct Places {
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
    /// Its first request head has not arrived yet: it may be let go for a newer connection.
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

/// One connection's place, given back when the last holder drops it (the connection's task,
/// and a WebSocket upgraded from it).
#[derive(Debug)]
pub struct Place {
    places: Arc<Places>,
    id: u64,
}

impl Places {
    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A place for a connection from `client`: refused when its address holds its share;
    /// when every place is held, the oldest connection still waiting for its first request
    /// head is let go for it (none waiting: refused).
    fn try_acquire(self: &Arc<Self>, client: ClientAddr) -> Option<Place> {
        let address = client.key();
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
        Some(Place {
            places: Arc::clone(self),
            id,
        })
    }
}

impl Place {
    fn spawned(&self, abort: AbortHandle) {
        if let Some(c) = self.places.lock().connections.get_mut(&self.id) {
            c.abort = Some(abort);
        }
    }

    /// A request head arrived: the connection is answered, never let go.
    fn head_read(&self) {
        if let Some(c) = self.places.lock().connections.get_mut(&self.id) {
            c.reading = false;
        }
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        self.places.lock().forget(self.id);
    }
}

#[cfg(test)]
#[path = "listen_tests.rs"]
mod tests;
