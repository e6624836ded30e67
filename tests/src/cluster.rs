//! Several instances for the cluster's end-to-end test: a `nats-server` of the distribution on
//! a free loopback port, one shared database (a fresh PostgreSQL database when a server is
//! there, as CI has; otherwise one SQLite file), and each instance a real `minotty serve`
//! process, so that killing one (SIGKILL) or draining it (SIGTERM) is what an operator's would
//! be.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, anyhow, bail};

/// The database every instance of a test shares: a fresh PostgreSQL database (see
/// [`crate::postgres::fresh_database`]; required in CI), or, without a PostgreSQL server here,
/// one SQLite file in `dir` (WAL and a busy timeout make that work on one machine).
pub async fn database_url(dir: &Path) -> anyhow::Result<String> {
    match crate::postgres::fresh_database("cluster").await {
        Some(url) => Ok(url),
        None => Ok(format!("sqlite://{}", dir.join("cluster.db").display())),
    }
}

/// Drops the database of [`database_url`] when it is a PostgreSQL one (a file goes with its
/// directory).
pub async fn release_database(url: &str) -> anyhow::Result<()> {
    if url.starts_with("postgres") {
        crate::postgres::drop_database(url).await?;
    }
    Ok(())
}

/// The `minotty` binary of this build: `MINOTTY_BIN`, or `minotty` beside the test binary's
/// directory (`target/debug/deps/..`), which `cargo test --workspace` builds before it runs any
/// test.
pub fn server_binary() -> anyhow::Result<PathBuf> {
    if let Some(bin) = std::env::var_os("MINOTTY_BIN") {
        return Ok(PathBuf::from(bin));
    }
    let exe = std::env::current_exe()?;
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("minotty"))
        .ok_or_else(|| anyhow!("no directory above {}", exe.display()))?;
    if !bin.exists() {
        bail!(
            "{} is missing: build it (`cargo build -p minotty-server`) or set MINOTTY_BIN",
            bin.display()
        );
    }
    Ok(bin)
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

/// Set to `1` (as `.ci/run` does) to fail instead of skipping when `nats-server` is missing.
pub const NATS_REQUIRED_VAR: &str = "MINOTTY_TEST_NATS_REQUIRED";

/// Whether `nats-server` can be run here; when not, prints that `test` is skipped, or panics
/// when [`NATS_REQUIRED_VAR`] requires it.
pub fn nats_available(test: &str) -> bool {
    let found = Command::new("nats-server")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        if std::env::var(NATS_REQUIRED_VAR).is_ok_and(|v| v == "1") {
            panic!("{test}: nats-server is required ({NATS_REQUIRED_VAR}=1) but not installed");
        }
        eprintln!("skipped: {test} (no nats-server: apt-get install nats-server)");
    }
    found
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

/// One `minotty serve --nats` process.
#[derive(Debug)]
pub struct Instance {
    pub addr: SocketAddr,
    pub name: String,
    child: Child,
    /// Its log (stdout and stderr).
    pub log: PathBuf,
}

impl Instance {
    /// Starts `minotty serve` named `name` on `db` (see [`database_url`]) joined to `nats`, its
    /// host key and log in `dir`; `seed` deals every versus match the same pieces; `drain`
    /// caps how long SIGTERM lets matches finish. Returns once it accepts connections (it has
    /// joined NATS and migrated the database by then).
    pub async fn start(
        dir: &Path,
        db: &str,
        nats: &str,
        name: &str,
        seed: Option<u32>,
        drain: Duration,
    ) -> anyhow::Result<Instance> {
        let port = free_port()?;
        let addr: SocketAddr = ([127, 0, 0, 1], port).into();
        let log = dir.join(format!("{name}.log"));
        let out = std::fs::File::create(&log)?;
        let mut cmd = Command::new(server_binary()?);
        cmd.arg("serve")
            .args(["--listen", &addr.to_string(), "--db", db, "--nats", nats])
            .args(["--instance-name", name])
            .arg("--host-key")
            .arg(dir.join(format!("host_key_{name}")))
            .args(["--drain-secs", &drain.as_secs().to_string()])
            // Every test player connects from loopback: one address.
            .arg("--ranked-same-address")
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(out.try_clone()?)
            .stderr(out);
        if let Some(seed) = seed {
            cmd.args(["--versus-seed", &seed.to_string()]);
        }
        let mut child = cmd.spawn().context("starting minotty serve")?;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        while tokio::net::TcpStream::connect(addr).await.is_err() {
            if let Some(status) = child.try_wait()? {
                let text = std::fs::read_to_string(&log).unwrap_or_default();
                bail!("instance {name} exited ({status}):\n{text}");
            }
            if tokio::time::Instant::now() >= deadline {
                let _ = child.kill();
                bail!("instance {name} does not accept connections");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Ok(Instance {
            addr,
            name: name.to_owned(),
            child,
            log,
        })
    }

    /// Kills the process (SIGKILL): nothing is told, nothing is written.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, as an operator's rolling upgrade sends: the instance drains, then stops. Waits
    /// (at most two minutes) for the process to end and fails unless it exited cleanly.
    pub async fn stop(&mut self) -> anyhow::Result<()> {
        let pid = self.child.id().to_string();
        let status = Command::new("kill").args(["-TERM", &pid]).status()?;
        if !status.success() {
            bail!("kill -TERM {pid} failed");
        }
        let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
        loop {
            if let Some(status) = self.child.try_wait()? {
                if !status.success() {
                    let text = std::fs::read_to_string(&self.log).unwrap_or_default();
                    bail!("instance {} ended with {status}:\n{text}", self.name);
                }
                return Ok(());
            }
            if tokio::time::Instant::now() >= deadline {
                bail!("instance {} did not stop in time", self.name);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Whether the process is still running.
    pub fn is_running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        self.kill();
    }
}

/// What every instance of a cluster test shares: the NATS server, the database and a directory
/// for host keys and logs.
#[derive(Debug)]
pub struct Shared {
    pub nats: Nats,
    pub db: String,
    pub dir: tempfile::TempDir,
}

impl Shared {
    /// Drops the database (after the instances are gone).
    pub async fn release(self) -> anyhow::Result<()> {
        release_database(&self.db).await
    }
}

/// The setup of a cluster test: `nats-server`, a database, instances A and B (in that order,
/// so A is the older and leads the queue) with `seed` and `drain`, and a pause until each has
/// heard the other's heartbeat. `None` when `test` is skipped for want of `nats-server`.
pub async fn two_instances(
    test: &str,
    seed: Option<u32>,
    drain: Duration,
) -> anyhow::Result<Option<(Shared, Instance, Instance)>> {
    if !nats_available(test) {
        return Ok(None);
    }
    let nats = Nats::start().await?;
    let dir = tempfile::tempdir()?;
    let db = database_url(dir.path()).await?;
    let a = Instance::start(dir.path(), &db, &nats.url, "a", seed, drain).await?;
    let b = Instance::start(dir.path(), &db, &nats.url, "b", seed, drain).await?;
    // Heartbeats are a second apart.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    Ok(Some((Shared { nats, db, dir }, a, b)))
}
