//! Several instances for the cluster's end-to-end test: a `nats-server` of the distribution on
//! a free loopback port, and minotty instances sharing one database, each on a runtime of its
//! own in threads of its own, so that one can be killed at once (its runtime dropped: every
//! task, connection and heartbeat gone, as when the process dies) while the others go on.

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use minotty_server::cluster::ClusterConfig;
use minotty_server::{HostKey, Limits, ServerConfig, Store};
use tokio::net::TcpListener;
use tokio::sync::oneshot;

/// The database every instance of a test shares. SQLite (one file, WAL and a busy timeout)
/// until the PostgreSQL store lands; then this is the one place to return a fresh PostgreSQL
/// database's URL instead.
pub async fn database_url(dir: &Path) -> anyhow::Result<String> {
    Ok(format!("sqlite://{}", dir.join("cluster.db").display()))
}

/// A free TCP port on loopback (bound, then released).
fn free_port() -> anyhow::Result<u16> {
    let l = std::net::TcpListener::bind("127.0.0.1:0")?;
    Ok(l.local_addr()?.port())
}

/// A `nats-server` on loopback, killed when dropped.
#[derive(Debug)]
pub struct Nats {
    child: Child,
    pub url: String,
}

impl Nats {
    /// Starts `nats-server -a 127.0.0.1 -p PORT` and waits until it accepts connections.
    pub async fn start() -> anyhow::Result<Nats> {
        let port = free_port()?;
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting nats-server (install it: apt-get install nats-server)")?;
        let nats = Nats {
            child,
            url: format!("nats://127.0.0.1:{port}"),
        };
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
        {
            if tokio::time::Instant::now() >= deadline {
                bail!("nats-server did not start on port {port}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(nats)
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How an instance ends.
#[derive(Debug)]
enum End {
    /// Its runtime is dropped at once: nothing is told, nothing is written.
    Kill,
    /// The shutdown signal: a drain, then the usual graceful stop.
    Stop,
}

/// One `minotty serve` with `--nats`, on a runtime of its own.
#[derive(Debug)]
pub struct Instance {
    pub addr: SocketAddr,
    end: Option<oneshot::Sender<End>>,
    thread: Option<std::thread::JoinHandle<anyhow::Result<()>>>,
}

impl Instance {
    /// Starts an instance named `name` on `db` (see [`database_url`]) joined to `nats`, its
    /// host key in `dir`, with `limits`; `drain` caps how long a stop lets matches finish.
    pub async fn start(
        dir: &Path,
        db: &str,
        nats: &str,
        name: &str,
        limits: Limits,
        drain: Duration,
    ) -> anyhow::Result<Instance> {
        let key_path = dir.join(format!("host_key_{name}"));
        let db = db.to_owned();
        let cluster = ClusterConfig {
            nats: nats.to_owned(),
            instance_name: name.to_owned(),
            drain,
            max_proxies: minotty_server::cluster::MAX_PROXIES,
        };
        let (ready_tx, ready_rx) = oneshot::channel::<anyhow::Result<SocketAddr>>();
        let (end_tx, end_rx) = oneshot::channel::<End>();
        let thread = std::thread::Builder::new()
            .name(format!("inst-{name}"))
            .spawn(move || -> anyhow::Result<()> {
                let rt = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()?;
                let end = rt.block_on(async move {
                    let started = async {
                        let (host_key, _) = HostKey::load_or_generate(&key_path)?;
                        let store = Store::open(&db).await?;
                        let listener = TcpListener::bind("127.0.0.1:0").await?;
                        anyhow::Ok((host_key, store, listener))
                    }
                    .await;
                    let (host_key, store, listener) = match started {
                        Ok(s) => s,
                        Err(e) => {
                            let _ = ready_tx.send(Err(anyhow!("{e:#}")));
                            return Ok(End::Kill);
                        }
                    };
                    let addr = listener.local_addr()?;
                    let config = ServerConfig {
                        host_key,
                        limits,
                        store: Some(store),
                        tbp: Default::default(),
                        cluster: Some(cluster),
                    };
                    let (stop_tx, stop_rx) = oneshot::channel::<()>();
                    let server = tokio::spawn(minotty_server::run(listener, config, async {
                        let _ = stop_rx.await;
                    }));
                    // The server joins NATS before it listens; give it a moment to be there.
                    let _ = ready_tx.send(Ok(addr));
                    let end = end_rx.await.unwrap_or(End::Kill);
                    if let End::Stop = end {
                        let _ = stop_tx.send(());
                        tokio::time::timeout(Duration::from_secs(120), server)
                            .await
                            .context("the instance did not stop in time")???;
                    }
                    anyhow::Ok(end)
                })?;
                if let End::Kill = end {
                    rt.shutdown_background();
                }
                Ok(())
            })?;
        let addr = ready_rx.await.context("instance thread ended")??;
        // Wait until it accepts SSH connections (it has joined NATS by then).
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while tokio::net::TcpStream::connect(addr).await.is_err() {
            if tokio::time::Instant::now() >= deadline {
                bail!("instance {name} does not accept connections");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(Instance {
            addr,
            end: Some(end_tx),
            thread: Some(thread),
        })
    }

    /// Kills the instance: its runtime is dropped at once, as if the process died.
    pub fn kill(&mut self) {
        if let Some(end) = self.end.take() {
            let _ = end.send(End::Kill);
        }
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }

    /// The shutdown signal (SIGTERM): the instance drains, then stops. Waits in a blocking
    /// thread for it to be done.
    pub async fn stop(&mut self) -> anyhow::Result<()> {
        if let Some(end) = self.end.take() {
            let _ = end.send(End::Stop);
        }
        if let Some(t) = self.thread.take() {
            tokio::task::spawn_blocking(move || t.join())
                .await?
                .map_err(|_| anyhow!("the instance's thread panicked"))??;
        }
        Ok(())
    }

    /// Whether it has not been stopped or killed.
    pub fn is_running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}
