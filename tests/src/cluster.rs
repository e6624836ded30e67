//! Several instances for the cluster's end-to-end test: a `nats-server` of the distribution on
//! a free loopback port that requires a user and password (as `deploy/` runs it; its
//! monitoring port shows every connection's subscriptions), one shared database (a fresh PostgreSQL database when a server is
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
            "{} is missing: build it (`cargo build -p minotty`) or set MINOTTY_BIN",
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

/// The NATS user the instances log in as, and another (an operator's other service, or an
/// attacker who got NATS access) that has no cluster key.
pub const NATS_USER: &str = "minotty";
pub const NATS_PASSWORD: &str = "instances-nats-password";
pub const OTHER_USER: &str = "other";
pub const OTHER_PASSWORD: &str = "other-nats-password";
/// The cluster key every test instance is given (`MINOTTY_CLUSTER_KEY`).
pub const CLUSTER_KEY: &str = "the cluster key of the end-to-end tests, 32+ characters";

/// A `nats-server` on loopback requiring a user and password, killed when dropped.
#[derive(Debug)]
pub struct Nats {
    child: Child,
    /// With the instances' credentials in it (`nats://minotty:PASSWORD@127.0.0.1:PORT`).
    pub url: String,
    /// Without credentials: refused by the server.
    pub bare_url: String,
    /// The monitoring endpoint (`/connz?subs=1` lists every connection's subscriptions).
    pub monitor: SocketAddr,
    _dir: tempfile::TempDir,
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
    /// Starts `nats-server` on loopback with a config file that requires [`NATS_USER`] (or
    /// [`OTHER_USER`]) and waits until it accepts connections.
    pub async fn start() -> anyhow::Result<Nats> {
        let port = free_port()?;
        let monitor_port = free_port()?;
        let dir = tempfile::tempdir()?;
        let conf = dir.path().join("nats.conf");
        std::fs::write(
            &conf,
            format!(
                "listen: 127.0.0.1:{port}\nhttp: 127.0.0.1:{monitor_port}\n\
                 authorization {{\n  users = [\n    {{user: {NATS_USER}, password: \"{NATS_PASSWORD}\"}}\n    \
                 {{user: {OTHER_USER}, password: \"{OTHER_PASSWORD}\"}}\n  ]\n}}\n"
            ),
        )?;
        let child = Command::new("nats-server")
            .arg("-c")
            .arg(&conf)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("starting nats-server (install it: apt-get install nats-server)")?;
        let nats = Nats {
            child,
            url: format!("nats://{NATS_USER}:{NATS_PASSWORD}@127.0.0.1:{port}"),
            bare_url: format!("nats://127.0.0.1:{port}"),
            monitor: ([127, 0, 0, 1], monitor_port).into(),
            _dir: dir,
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

    /// The URL with the credentials of [`OTHER_USER`] (NATS access, no cluster key).
    pub fn other_url(&self) -> String {
        self.bare_url
            .replace("nats://", &format!("nats://{OTHER_USER}:{OTHER_PASSWORD}@"))
    }

    /// Every subject some connection subscribes to now (from the monitoring endpoint).
    pub async fn subscriptions(&self) -> anyhow::Result<String> {
        http_get(self.monitor, "/connz?subs=1").await
    }
}

/// The body of `GET path` on `addr` (HTTP/1.0, read to the end).
pub async fn http_get(addr: SocketAddr, path: &str) -> anyhow::Result<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    s.write_all(format!("GET {path} HTTP/1.0\r\nHost: localhost\r\n\r\n").as_bytes())
        .await?;
    let mut body = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut body))
        .await
        .context("an HTTP answer")??;
    let text = String::from_utf8_lossy(&body).into_owned();
    Ok(text
        .split_once("\r\n\r\n")
        .map_or(text.clone(), |(_, b)| b.to_owned()))
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
    /// Its `/metrics` and `/health`.
    pub metrics: SocketAddr,
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
        let metrics: SocketAddr = ([127, 0, 0, 1], free_port()?).into();
        let log = dir.join(format!("{name}.log"));
        let out = std::fs::File::create(&log)?;
        let mut cmd = Command::new(server_binary()?);
        cmd.arg("serve")
            .args(["--listen", &addr.to_string(), "--db", db, "--nats", nats])
            // The web pages are served only where a test asks for them.
            .env("MINOTTY_HTTP_LISTEN", "off")
            .args(["--instance-name", name])
            .arg("--host-key")
            .arg(dir.join(format!("host_key_{name}")))
            .args(["--drain-secs", &drain.as_secs().to_string()])
            .args(["--metrics-listen", &metrics.to_string()])
            .env("MINOTTY_CLUSTER_KEY", CLUSTER_KEY)
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
            metrics,
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

    /// The value of the metric line `series` (name and labels, as printed) in `/metrics`.
    pub async fn metric(&self, series: &str) -> anyhow::Result<i64> {
        let text = http_get(self.metrics, "/metrics").await?;
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.strip_prefix(' '))
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| anyhow!("no {series} in /metrics"))
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

/// Each instance's own links to NATS and to the database (see [`crate::faults::Link`]): cutting
/// or stalling `nats_b` takes instance B off NATS alone (a partition), cutting both is a NATS
/// outage; `db_a`/`db_b` are `None` on SQLite (a file cannot be cut).
#[derive(Debug)]
pub struct Links {
    pub nats_a: crate::faults::Link,
    pub nats_b: crate::faults::Link,
    pub db_a: Option<crate::faults::Link>,
    pub db_b: Option<crate::faults::Link>,
}

impl Links {
    /// Both instances' NATS links.
    pub fn nats(&self) -> [&crate::faults::Link; 2] {
        [&self.nats_a, &self.nats_b]
    }

    /// Both instances' database links (none on SQLite).
    pub fn db(&self) -> impl Iterator<Item = &crate::faults::Link> {
        self.db_a.iter().chain(self.db_b.iter())
    }
}

/// [`two_instances`] with each instance reaching NATS and the database through its own
/// [`Links`], for the fault tests.
pub async fn two_linked_instances(
    test: &str,
    seed: Option<u32>,
    drain: Duration,
) -> anyhow::Result<Option<(Shared, Instance, Instance, Links)>> {
    use crate::faults::Link;
    if !nats_available(test) {
        return Ok(None);
    }
    let nats = Nats::start().await?;
    let dir = tempfile::tempdir()?;
    let db = database_url(dir.path()).await?;
    let (nats_a, nats_url_a) = Link::in_front_of(&nats.url).await?;
    let (nats_b, nats_url_b) = Link::in_front_of(&nats.url).await?;
    let ((db_a, db_url_a), (db_b, db_url_b)) = if db.starts_with("postgres") {
        let (a, url_a) = Link::in_front_of(&db).await?;
        let (b, url_b) = Link::in_front_of(&db).await?;
        ((Some(a), url_a), (Some(b), url_b))
    } else {
        ((None, db.clone()), (None, db.clone()))
    };
    let a = Instance::start(dir.path(), &db_url_a, &nats_url_a, "a", seed, drain).await?;
    let b = Instance::start(dir.path(), &db_url_b, &nats_url_b, "b", seed, drain).await?;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let links = Links {
        nats_a,
        nats_b,
        db_a,
        db_b,
    };
    Ok(Some((Shared { nats, db, dir }, a, b, links)))
}
