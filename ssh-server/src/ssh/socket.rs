//! A connection's socket with a kill switch: whoever gives up on a connection closes its socket
//! for certain, whatever the SSH session task is doing.
//!
//! russh's session task owns the stream it was given and only closes it when its loop ends; it
//! acts on a queued disconnect only between key exchanges and once no channel data is pending,
//! so a client that stalls a key exchange (or never opens its window) could keep the socket open
//! forever after the server stopped counting it. Here the session task gets a [`Socket`], and
//! the connection's own task keeps the [`KillSwitch`]: pulling it (or dropping it) takes the
//! TCP stream out from under the session, closes it at once, wakes any pending read or write,
//! and makes every later one fail. The connection's slot ([`ConnectionPermit`]) lives with the
//! stream, so it is released exactly when the socket closes, never before.
//!
//! Both are counted for operators and tests: [`METRICS`]'s `sockets_open` (every accepted SSH
//! socket still open, those being refused or awaiting a PROXY header included) and
//! `connections_open` (sockets holding a connection slot).

use std::io;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

use crate::metrics::{METRICS, Tracked};
use crate::ssh::limits::ConnectionPermit;

/// An accepted socket whose stream can be taken away by its [`KillSwitch`].
#[derive(Debug)]
pub struct Socket<S = TcpStream> {
    shared: Arc<Mutex<State<S>>>,
}

/// Closes the socket of its [`Socket`] when pulled or dropped.
#[derive(Debug)]
pub struct KillSwitch<S = TcpStream> {
    shared: Arc<Mutex<State<S>>>,
}

#[derive(Debug)]
struct State<S> {
    /// `None` once killed (or the [`Socket`] dropped): the stream is closed.
    open: Option<Open<S>>,
    read_waker: Option<Waker>,
    write_waker: Option<Waker>,
}

/// What goes when the socket closes, in this order: the stream, its slot, its counts.
#[derive(Debug)]
struct Open<S> {
    stream: S,
    permit: Option<(ConnectionPermit, Tracked)>,
    _socket: Tracked,
}

fn closed() -> io::Error {
    io::Error::new(
        io::ErrorKind::ConnectionAborted,
        "the server closed this connection",
    )
}

impl<S> Socket<S> {
    /// Wraps an accepted stream (counted in `sockets_open` until it is closed).
    pub fn new(stream: S) -> Socket<S> {
        Socket {
            shared: Arc::new(Mutex::new(State {
                open: Some(Open {
                    stream,
                    permit: None,
                    _socket: METRICS.sockets_open.track(),
                }),
                read_waker: None,
                write_waker: None,
            })),
        }
    }

    /// The switch that closes this socket; the socket is closed when it is dropped too.
    pub fn kill_switch(&self) -> KillSwitch<S> {
        KillSwitch {
            shared: Arc::clone(&self.shared),
        }
    }

    /// The connection's slot, released when the socket closes (counted in `connections_open`
    /// until then). A socket already closed releases it at once.
    pub fn hold(&self, permit: ConnectionPermit) {
        if let Some(open) = lock(&self.shared).open.as_mut() {
            open.permit = Some((permit, METRICS.connections_open.track()));
        }
    }

    /// Whether the socket is still open.
    pub fn is_open(&self) -> bool {
        lock(&self.shared).open.is_some()
    }

    /// Polls the stream, or fails once closed; a pending poll is woken when the switch is
    /// pulled.
    fn poll_with<T>(
        &self,
        cx: &mut Context<'_>,
        write: bool,
        poll: impl FnOnce(Pin<&mut S>, &mut Context<'_>) -> Poll<io::Result<T>>,
    ) -> Poll<io::Result<T>>
    where
        S: Unpin,
    {
        let mut state = lock(&self.shared);
        let Some(open) = state.open.as_mut() else {
            return Poll::Ready(Err(closed()));
        };
        let result = poll(Pin::new(&mut open.stream), cx);
        if result.is_pending() {
            // Registered under the lock the switch takes: no wakeup is lost.
            let slot = if write {
                &mut state.write_waker
            } else {
                &mut state.read_waker
            };
            match slot {
                Some(w) if w.will_wake(cx.waker()) => {}
                _ => *slot = Some(cx.waker().clone()),
            }
        }
        result
    }
}

impl<S> KillSwitch<S> {
    /// Closes the socket now: the stream is dropped, the slot released, and every pending and
    /// later read or write fails. Returns whether it was still open.
    pub fn kill(&self) -> bool {
        kill(&self.shared)
    }

    /// The connection has logged in: its slot no longer counts against the startups cap.
    pub fn logged_in(&self) {
        if let Some((permit, _)) = lock(&self.shared)
            .open
            .as_mut()
            .and_then(|o| o.permit.as_mut())
        {
            permit.logged_in();
        }
    }

    /// Whether the socket is still open.
    pub fn is_open(&self) -> bool {
        lock(&self.shared).open.is_some()
    }
}

impl<S> Drop for KillSwitch<S> {
    fn drop(&mut self) {
        kill(&self.shared);
    }
}

impl<S> Drop for Socket<S> {
    fn drop(&mut self) {
        kill(&self.shared);
    }
}

fn lock<S>(shared: &Mutex<State<S>>) -> MutexGuard<'_, State<S>> {
    shared.lock().unwrap_or_else(PoisonError::into_inner)
}

fn kill<S>(shared: &Mutex<State<S>>) -> bool {
    let (open, wakers) = {
        let mut state = lock(shared);
        let open = state.open.take();
        (open, [state.read_waker.take(), state.write_waker.take()])
    };
    let was_open = open.is_some();
    // Closed outside the lock: the stream, then the slot and the counts.
    drop(open);
    for waker in wakers.into_iter().flatten() {
        waker.wake();
    }
    was_open
}

impl<S: AsyncRead + Unpin> AsyncRead for Socket<S> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.poll_with(cx, false, |s, cx| s.poll_read(cx, buf))
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Socket<S> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_with(cx, true, |s, cx| s.poll_write(cx, buf))
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_with(cx, true, |s, cx| s.poll_flush(cx))
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        self.poll_with(cx, true, |s, cx| s.poll_shutdown(cx))
    }
}

#[cfg(test)]
#[path = "socket_tests.rs"]
mod tests;
