//! What the tests of `deploy/local-cluster.sh` share (`local_cluster.rs`,
//! `local_cluster_outage.rs`): the script run on free ports in a state directory of the test's
//! own, its processes, the instances' metrics, and a guard that stops whatever it started.
// Each test file uses a part of these.
#![allow(dead_code)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use minotty_tests::cluster::http_get;
use minotty_tests::versus::fields;
use minotty_tests::{Connection, Login, PtySession};

/// Generous: the script waits for health checks, PostgreSQL's start and the drains.
pub const SLOW: Duration = Duration::from_secs(60);

/// The ports the test gives the script (all free when chosen).
pub struct Ports {
    pub lb: u16,
    pub a_metrics: u16,
    pub b_metrics: u16,
    pub env: Vec<(String, String)>,
}

/// A port free now, below the kernel's ephemeral range (32768 and up on Linux), so that no
/// outgoing connection of the cluster's processes (to PostgreSQL, NATS, the instances) takes
/// it as its local port before the process meant to listen on it starts; and not one `taken`.
pub fn free_port(taken: &[u16]) -> u16 {
    loop {
        let port = rand::random_range(20_000..32_000);
        if !taken.contains(&port) && std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

pub fn ports() -> Ports {
    let mut env = Vec::new();
    let mut taken = Vec::new();
    let mut take = |var: &str| {
        let p = free_port(&taken);
        taken.push(p);
        env.push((var.to_owned(), p.to_string()));
        p
    };
    let lb = take("CLUSTER_LB_PORT");
    let a_metrics = take("CLUSTER_A_METRICS_PORT");
    let b_metrics = take("CLUSTER_B_METRICS_PORT");
    for var in [
        "CLUSTER_STATS_PORT",
        "CLUSTER_PG_PORT",
        "CLUSTER_NATS_PORT",
        "CLUSTER_NATS_MONITOR_PORT",
        "CLUSTER_A_PORT",
        "CLUSTER_B_PORT",
    ] {
        take(var);
    }
    Ports {
        lb,
        a_metrics,
        b_metrics,
        env,
    }
}

/// Why this machine cannot run the test, if it cannot.
pub fn missing() -> Option<String> {
    let uid = Command::new("id").arg("-u").output().ok()?;
    if String::from_utf8_lossy(&uid.stdout).trim() != "0" {
        return Some("not root (initdb runs as the postgres user through runuser)".into());
    }
    for (program, package) in [
        ("haproxy", "haproxy"),
        ("nats-server", "nats-server"),
        ("curl", "curl"),
        ("runuser", "util-linux"),
    ] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {program}")])
            .output()
            .is_ok_and(|o| o.status.success());
        if !found {
            return Some(format!("no {program} (apt-get install {package})"));
        }
    }
    let pg = std::fs::read_dir("/usr/lib/postgresql")
        .ok()
        .is_some_and(|mut d| d.next().is_some());
    if !pg {
        return Some("no PostgreSQL (apt-get install postgresql)".into());
    }
    None
}

pub struct Cluster {
    pub dir: tempfile::TempDir,
    pub ports: Ports,
    pub bin: PathBuf,
}

impl Cluster {
    /// A cluster to start in a fresh state directory, or `None` (the test skips, or fails when
    /// required) where the script's programs are missing.
    pub fn prepared() -> Option<Cluster> {
        if let Some(why) = missing() {
            if minotty_tests::postgres::required() {
                panic!("local-cluster.sh test required (MINOTTY_TEST_PG_REQUIRED=1): {why}");
            }
            eprintln!("skipped: local-cluster.sh test ({why})");
            return None;
        }
        let dir = tempfile::Builder::new()
            .prefix("minotty-local-cluster-")
            .tempdir()
            .expect("a state directory");
        // initdb runs as postgres: it must be able to enter the directory.
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
                .expect("chmod");
        }
        Some(Cluster {
            dir,
            ports: ports(),
            bin: minotty_tests::cluster::server_binary().expect("the minotty binary"),
        })
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Runs `local-cluster.sh ARGS` to its end.
    pub fn script(&self, args: &[&str]) -> Output {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/local-cluster.sh");
        let out = Command::new("sh")
            .arg(script)
            .args(args)
            .env("CLUSTER_DIR", self.dir.path())
            .env("MINOTTY_BIN", &self.bin)
            // Several instances on one machine: none serves the web pages.
            .env("MINOTTY_HTTP_LISTEN", "off")
            .env("CLUSTER_DRAIN_SECS", "20")
            .envs(self.ports.env.iter().map(|(k, v)| (k, v)))
            .output()
            .expect("runs sh");
        eprintln!(
            "local-cluster.sh {}: {}\n{}{}",
            args.join(" "),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }

    pub fn pid(&self, rel: &str) -> u32 {
        let text = std::fs::read_to_string(self.path(rel)).expect(rel);
        text.trim().parse().expect("a pid")
    }

    pub fn log(&self, rel: &str) -> String {
        String::from_utf8_lossy(&std::fs::read(self.path(rel)).expect(rel)).into_owned()
    }

    /// Every process whose command line names the state directory (the cluster's own).
    pub fn processes(&self) -> Vec<(u32, String)> {
        let needle = self.dir.path().to_string_lossy().into_owned();
        let mut out = Vec::new();
        for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
            let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse().ok()) else {
                continue;
            };
            let Ok(raw) = std::fs::read(entry.path().join("cmdline")) else {
                continue;
            };
            let cmdline = String::from_utf8_lossy(&raw).replace('\0', " ");
            if cmdline.contains(&needle) {
                out.push((pid, cmdline));
            }
        }
        out
    }

    pub fn haproxies(&self) -> usize {
        self.processes()
            .iter()
            .filter(|(_, c)| c.starts_with("haproxy ") || c.contains("/haproxy "))
            .count()
    }

    /// Waits until the balancer accepts connections (the script may return before).
    pub async fn balancer_up(&self) {
        let deadline = tokio::time::Instant::now() + SLOW;
        while tokio::net::TcpStream::connect(self.lb()).await.is_err() {
            assert!(tokio::time::Instant::now() < deadline, "no balancer");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    pub fn lb(&self) -> SocketAddr {
        ([127, 0, 0, 1], self.ports.lb).into()
    }

    pub fn metrics(&self, name: &str) -> SocketAddr {
        let port = if name == "a" {
            self.ports.a_metrics
        } else {
            self.ports.b_metrics
        };
        ([127, 0, 0, 1], port).into()
    }

    /// Game sessions open on instance `name` now.
    pub async fn sessions(&self, name: &str) -> Option<u64> {
        let text = http_get(self.metrics(name), "/metrics").await.ok()?;
        text.lines()
            .find_map(|l| l.strip_prefix("minotty_sessions_open "))
            .and_then(|n| n.trim().parse().ok())
    }

    /// Waits until the instances hold `a` and `b` game sessions.
    pub async fn wait_sessions(&self, a: u64, b: u64) {
        let deadline = tokio::time::Instant::now() + SLOW;
        loop {
            let now = (self.sessions("a").await, self.sessions("b").await);
            if now == (Some(a), Some(b)) {
                return;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "sessions {now:?}, not ({a}, {b})"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// The instance (a or b) the one open game session is on.
    pub async fn instance_of_the_player(&self) -> &'static str {
        let deadline = tokio::time::Instant::now() + SLOW;
        loop {
            for name in ["a", "b"] {
                if self.sessions(name).await == Some(1) {
                    return name;
                }
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "no instance has the player"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

/// Cells filled on the player's own board.
pub fn own_filled(screen: &vt100::Screen) -> usize {
    fields(screen).first().map_or(0, |f| f.filled())
}

/// Whether `pid` is a live process (a zombie's command line is empty).
pub fn alive(pid: u32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| !c.is_empty())
}

/// SIGKILL to `pid`, and waits until it is gone.
pub async fn kill_and_wait(pid: u32) {
    let killed = Command::new("kill")
        .args(["-KILL", &pid.to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    while alive(pid) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A guest in the main menu, connected through the balancer.
pub async fn player_behind_the_balancer(c: &Cluster, name: &str) -> (Connection, PtySession) {
    let conn = Connection::open(c.lb(), name, Login::Guest)
        .await
        .expect("a guest through HAProxy");
    let mut pty = conn.play(80, 24).await.expect("a game session");
    pty.skip_welcome().await.expect("the menu");
    (conn, pty)
}

/// Runs `local-cluster.sh ARGS` on a thread while the caller watches its players.
pub fn script_in_background(c: &Cluster, args: &[&str]) -> std::thread::JoinHandle<Output> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/local-cluster.sh");
    let mut cmd = Command::new("sh");
    cmd.arg(script)
        .args(args)
        .env("CLUSTER_DIR", c.dir.path())
        .env("MINOTTY_BIN", &c.bin)
        .env("CLUSTER_DRAIN_SECS", "20")
        .envs(c.ports.env.iter().map(|(k, v)| (k, v)));
    std::thread::spawn(move || cmd.output().expect("runs sh"))
}

/// Whatever happens, the cluster's processes do not outlive the test.
pub struct StopOnDrop<'a>(pub &'a Cluster);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        if !self.0.processes().is_empty() {
            self.0.script(&["stop"]);
        }
        for (pid, _) in self.0.processes() {
            let _ = Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    }
}

/// The newest installed PostgreSQL's programs (as the script finds them).
pub fn pg_bin() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("/usr/lib/postgresql")
        .flatten()
        .map(|e| e.path().join("bin"))
        .collect();
    versions.sort();
    versions.pop().expect("a PostgreSQL")
}

/// `/health`'s body of instance `name`, once it is no longer starting.
pub async fn health_of(c: &Cluster, name: &str) -> String {
    http_get(c.metrics(name), "/health")
        .await
        .unwrap_or_else(|e| format!("no answer: {e}"))
}
