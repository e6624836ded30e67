//! A TCP relay between one client and the server, for tests of what happens on the wire: a
//! load balancer in front of the server, a client gone silent without closing.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// A TCP relay between one client and the server, as a load balancer is: it counts the bytes
/// each way, and once frozen passes nothing on (a peer gone silent without closing), while it
/// notices the server closing its side.
#[derive(Debug)]
pub struct Relay {
    /// Where the client connects.
    pub addr: SocketAddr,
    /// Bytes passed on from the client to the server.
    pub up: Arc<AtomicU64>,
    /// Bytes passed on from the server to the client.
    pub down: Arc<AtomicU64>,
    /// Set: nothing is passed on either way any more.
    pub frozen: Arc<AtomicBool>,
    /// Set: the client's bytes still pass, the server's are read and dropped (a client that
    /// never hears the server's side of a key exchange).
    pub muted: Arc<AtomicBool>,
    /// Reads from the server while frozen (what it sent a silent peer, e.g. keepalives).
    pub held_reads: Arc<AtomicU64>,
    /// Becomes `true` when the server closed its side.
    pub server_closed: tokio::sync::watch::Receiver<bool>,
}

impl Relay {
    pub async fn start(server: SocketAddr) -> anyhow::Result<Relay> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let up = Arc::new(AtomicU64::new(0));
        let down = Arc::new(AtomicU64::new(0));
        let frozen = Arc::new(AtomicBool::new(false));
        let muted = Arc::new(AtomicBool::new(false));
        let muted2 = Arc::clone(&muted);
        let held_reads = Arc::new(AtomicU64::new(0));
        let held = Arc::clone(&held_reads);
        let (closed_tx, server_closed) = tokio::sync::watch::channel(false);
        let (up2, down2, frozen2) = (Arc::clone(&up), Arc::clone(&down), Arc::clone(&frozen));
        tokio::spawn(async move {
            let Ok((client, _)) = listener.accept().await else {
                return;
            };
            let Ok(upstream) = TcpStream::connect(server).await else {
                return;
            };
            let (mut cr, mut cw) = client.into_split();
            let (mut ur, mut uw) = upstream.into_split();
            let frozen3 = Arc::clone(&frozen2);
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 << 10];
                while let Ok(n) = cr.read(&mut buf).await {
                    if n == 0 {
                        break;
                    }
                    if frozen3.load(Ordering::Relaxed) {
                        continue;
                    }
                    up2.fetch_add(n as u64, Ordering::Relaxed);
                    if uw.write_all(&buf[..n]).await.is_err() {
                        break;
                    }
                }
                // A silent peer never closes: keep the upstream half open.
                std::future::pending::<()>().await;
            });
            let mut buf = vec![0u8; 64 << 10];
            while let Ok(n) = ur.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                if frozen2.load(Ordering::Relaxed) {
                    held.fetch_add(1, Ordering::Relaxed);
                } else if !muted2.load(Ordering::Relaxed) {
                    down2.fetch_add(n as u64, Ordering::Relaxed);
                    let _ = cw.write_all(&buf[..n]).await;
                }
            }
            let _ = closed_tx.send(true);
        });
        Ok(Relay {
            addr,
            up,
            down,
            frozen,
            muted,
            held_reads,
            server_closed,
        })
    }
}
