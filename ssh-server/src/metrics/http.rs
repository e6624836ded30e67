//! A very small HTTP/1.1 server for the operator: `GET /metrics` (the Prometheus text format)
//! and `GET /health` (200 "ok" while serving, 503 while starting or draining); anything else
//! is 404 (405 for another method on a known path).
//!
//! It must never become a way to exhaust the server: at most [`MAX_CONNECTIONS`] at once (more
//! are closed at once), a request head of at most [`MAX_REQUEST`] bytes read within
//! [`READ_TIMEOUT`] (else the connection is closed), one request per connection, the answer
//! written within [`WRITE_TIMEOUT`]. Bodies are never read.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::timeout;

use super::Health;

/// Connections served at once; more are closed without an answer.
pub const MAX_CONNECTIONS: usize = 16;
/// The longest request head (request line and headers).
pub const MAX_REQUEST: usize = 4096;
/// How long a client has to send its whole request head.
pub const READ_TIMEOUT: Duration = Duration::from_secs(2);
/// How long writing the answer may take.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// Serves `listener` until `shutdown` completes; `health` answers `/health`.
pub async fn serve(
    listener: TcpListener,
    health: &'static Health,
    shutdown: impl Future<Output = ()>,
) {
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    tokio::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            () = &mut shutdown => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    tracing::warn!(error = %e, "metrics: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = Arc::clone(&slots).try_acquire_owned() else {
            // Dropped: closed at once.
            continue;
        };
        tokio::spawn(async move {
            answer(stream, health).await;
            drop(slot);
        });
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
    let word = health.word();
    let status = if health.is_serving() {
        "200 OK"
    } else {
        "503 Service Unavailable"
    };
    (status, TEXT, format!("{word}\n"))
}

async fn answer(mut stream: TcpStream, health: &Health) {
    let Ok(Some(head)) = timeout(READ_TIMEOUT, read_head(&mut stream)).await else {
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
