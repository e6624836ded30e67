//! Faults between the server and what it depends on (PostgreSQL, NATS): a TCP link that a test
//! puts in front of the dependency and then cuts, stalls or mends, the way an outage or a
//! network partition does, without touching the dependency itself (which other tests share).
//!
//! ```text
//! minotty serve --db postgres://..@LINK/..  --->  Link  --->  PostgreSQL
//! ```

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, bail};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::{JoinHandle, JoinSet};

/// What a [`Link`] does with traffic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Passes everything both ways.
    Pass,
    /// A partition: connections stay open but nothing passes either way (what was read is held
    /// and passed on once mended, as TCP's retransmissions would); new connections are accepted
    /// and stall too.
    Stall,
    /// An outage: every open connection is closed and a new one is closed at once.
    Cut,
}

/// A TCP link to one upstream address. Dropping it closes every connection through it.
#[derive(Debug)]
pub struct Link {
    /// Where the server under test connects instead of the upstream.
    pub addr: SocketAddr,
    upstream: SocketAddr,
    mode: watch::Sender<Mode>,
    accepted: Arc<AtomicU64>,
    task: JoinHandle<()>,
}

impl Link {
    /// A link on a free loopback port to `upstream`, passing traffic.
    pub async fn start(upstream: SocketAddr) -> anyhow::Result<Link> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (mode, rx) = watch::channel(Mode::Pass);
        let accepted = Arc::new(AtomicU64::new(0));
        let count = Arc::clone(&accepted);
        let task = tokio::spawn(async move {
            // Dropped with the accept loop: every connection's task ends with it.
            let mut conns = JoinSet::new();
            loop {
                let Ok((client, _)) = listener.accept().await else {
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                    continue;
                };
                count.fetch_add(1, Ordering::Relaxed);
                while conns.try_join_next().is_some() {}
                if *rx.borrow() == Mode::Cut {
                    drop(client);
                    continue;
                }
                conns.spawn(carry(client, upstream, rx.clone()));
            }
        });
        Ok(Link {
            addr,
            upstream,
            mode,
            accepted,
            task,
        })
    }

    /// A link to the `host:port` of `url` (`scheme://[user:password@]host:port/...`), and
    /// `url` with that address replaced by the link's.
    pub async fn in_front_of(url: &str) -> anyhow::Result<(Link, String)> {
        let (before, authority, after) = split_authority(url)?;
        let host_port = authority.rsplit('@').next().unwrap_or(authority);
        let upstream = tokio::net::lookup_host(host_port)
            .await
            .with_context(|| format!("resolving {host_port}"))?
            .find(SocketAddr::is_ipv4)
            .with_context(|| format!("no IPv4 address for {host_port}"))?;
        let link = Link::start(upstream).await?;
        let credentials = authority.rfind('@').map_or("", |at| &authority[..=at]);
        let through = format!("{before}{credentials}{}{after}", link.addr);
        Ok((link, through))
    }

    /// The address the link passes traffic on to.
    pub fn upstream(&self) -> SocketAddr {
        self.upstream
    }

    /// Connections accepted so far (including those closed at once while cut).
    pub fn accepted(&self) -> u64 {
        self.accepted.load(Ordering::Relaxed)
    }

    pub fn mode(&self) -> Mode {
        *self.mode.borrow()
    }

    /// An outage: closes every open connection and every new one.
    pub fn cut(&self) {
        self.mode.send_replace(Mode::Cut);
    }

    /// A partition: nothing passes, nothing is closed.
    pub fn stall(&self) {
        self.mode.send_replace(Mode::Stall);
    }

    /// The dependency is back: traffic passes again (connections closed by [`Link::cut`] stay
    /// closed; the server must reconnect).
    pub fn mend(&self) {
        self.mode.send_replace(Mode::Pass);
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// `(scheme and "//", authority, rest)` of a URL.
fn split_authority(url: &str) -> anyhow::Result<(&str, &str, &str)> {
    let Some(start) = url.find("://").map(|i| i + 3) else {
        bail!("not a URL with an address: {url}");
    };
    let end = url[start..]
        .find(['/', '?'])
        .map_or(url.len(), |i| start + i);
    Ok((&url[..start], &url[start..end], &url[end..]))
}

/// Carries one connection both ways until either side closes or the link is cut.
async fn carry(client: TcpStream, upstream: SocketAddr, mode: watch::Receiver<Mode>) {
    let Ok(server) = TcpStream::connect(upstream).await else {
        return;
    };
    let _ = client.set_nodelay(true);
    let _ = server.set_nodelay(true);
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    // Either direction ending (a close, or the cut) ends both: the halves drop, the sockets
    // close.
    tokio::select! {
        () = pump(client_read, server_write, mode.clone()) => {}
        () = pump(server_read, client_write, mode) => {}
    }
}

async fn pump(mut from: OwnedReadHalf, mut to: OwnedWriteHalf, mut mode: watch::Receiver<Mode>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = tokio::select! {
            read = from.read(&mut buf) => match read {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            },
            () = until_cut(&mut mode) => return,
        };
        // Held while stalled; dropped with the connection when cut meanwhile.
        loop {
            let now = *mode.borrow_and_update();
            match now {
                Mode::Pass => break,
                Mode::Cut => return,
                Mode::Stall => {
                    if mode.changed().await.is_err() {
                        return;
                    }
                }
            }
        }
        if to.write_all(&buf[..n]).await.is_err() {
            return;
        }
    }
}

/// Returns once the link is cut (or dropped).
async fn until_cut(mode: &mut watch::Receiver<Mode>) {
    loop {
        if *mode.borrow_and_update() == Mode::Cut {
            return;
        }
        if mode.changed().await.is_err() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// An upstream that echoes every byte.
    async fn echo() -> SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut s, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut buf = [0u8; 256];
                    while let Ok(n) = s.read(&mut buf).await {
                        if n == 0 || s.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                    }
                });
            }
        });
        addr
    }

    async fn round_trip(s: &mut TcpStream, msg: &[u8]) -> std::io::Result<Vec<u8>> {
        s.write_all(msg).await?;
        let mut got = vec![0u8; msg.len()];
        s.read_exact(&mut got).await?;
        Ok(got)
    }

    #[tokio::test]
    async fn passes_stalls_cuts_and_mends() {
        let link = Link::start(echo().await).await.unwrap();
        let mut s = TcpStream::connect(link.addr).await.unwrap();
        assert_eq!(round_trip(&mut s, b"hello").await.unwrap(), b"hello");

        // Stalled: nothing comes back, the connection stays; mended: the held bytes arrive.
        link.stall();
        s.write_all(b"held").await.unwrap();
        let mut got = [0u8; 4];
        let waited = tokio::time::timeout(Duration::from_millis(300), s.read_exact(&mut got));
        assert!(waited.await.is_err(), "a stalled link passed bytes");
        link.mend();
        tokio::time::timeout(Duration::from_secs(5), s.read_exact(&mut got))
            .await
            .unwrap()
            .unwrap();
        assert_eq!(&got, b"held");

        // Cut: the open connection closes and a new one is closed at once.
        link.cut();
        let mut buf = [0u8; 8];
        let n = tokio::time::timeout(Duration::from_secs(5), s.read(&mut buf))
            .await
            .unwrap();
        assert!(
            matches!(n, Ok(0) | Err(_)),
            "a cut link kept a connection open"
        );
        let mut again = TcpStream::connect(link.addr).await.unwrap();
        assert!(round_trip(&mut again, b"x").await.is_err());

        link.mend();
        let mut fresh = TcpStream::connect(link.addr).await.unwrap();
        assert_eq!(round_trip(&mut fresh, b"back").await.unwrap(), b"back");
        assert_eq!(link.accepted(), 3);
    }

    #[tokio::test]
    async fn rewrites_the_address_of_a_url_and_keeps_its_credentials() {
        let upstream = echo().await;
        let url = format!(
            "postgres://user:p%40ss@127.0.0.1:{}/db?x=1",
            upstream.port()
        );
        let (link, through) = Link::in_front_of(&url).await.unwrap();
        assert_eq!(link.upstream(), upstream);
        assert_eq!(
            through,
            format!("postgres://user:p%40ss@{}/db?x=1", link.addr)
        );
        let nats = format!("nats://127.0.0.1:{}", upstream.port());
        let (link, through) = Link::in_front_of(&nats).await.unwrap();
        assert_eq!(through, format!("nats://{}", link.addr));
        assert!(Link::in_front_of("no-scheme").await.is_err());
    }
}
