//! `deploy/local-cluster.sh` as an operator runs it (issue 24, item 5), with real processes:
//! the script itself, PostgreSQL (its initdb and pg_ctl, as the `postgres` user), nats-server,
//! HAProxy and two `minotty serve`, on free ports (the script's `CLUSTER_*_PORT` variables) in
//! a state directory of the test's own.
//!
//! - `start` twice leaves one HAProxy, the same pid files (alive) and the logs whole, and says
//!   the cluster was already running;
//! - `start` on a half-running cluster (an instance killed) starts only the missing one and
//!   appends to its log; a port held by a stranger makes it refuse, starting nothing;
//! - `restart NAME` drains the instance a player behind the balancer is on (the player reads
//!   "the server is restarting"; a player on the other instance plays on), starts it again and
//!   returns once its `/health` is 200;
//! - `stop` drains the instances while HAProxy still carries their players: a match behind the
//!   balancer plays on while its instance drains, and its players, like those in the menus,
//!   read the drain's message instead of a cut connection; nothing is left running.
//!
//! Needs root (initdb runs as `postgres` through runuser), haproxy, nats-server and PostgreSQL's
//! programs; skipped with the reason otherwise, a failure where `MINOTTY_TEST_PG_REQUIRED=1`.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

use minotty_tests::cluster::{http_get, server_binary};
use minotty_tests::versus::{self, fields};
use minotty_tests::{Connection, Login, PtySession};

/// Generous: the script waits for health checks, PostgreSQL's start and the drains.
const SLOW: Duration = Duration::from_secs(60);

/// The ports the test gives the script (all free when chosen).
struct Ports {
    lb: u16,
    a_metrics: u16,
    b_metrics: u16,
    env: Vec<(String, String)>,
}

/// A port free now, below the kernel's ephemeral range (32768 and up on Linux), so that no
/// outgoing connection of the cluster's processes (to PostgreSQL, NATS, the instances) takes
/// it as its local port before the process meant to listen on it starts; and not one `taken`.
fn free_port(taken: &[u16]) -> u16 {
    loop {
        let port = rand::random_range(20_000..32_000);
        if !taken.contains(&port) && std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
}

fn ports() -> Ports {
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
fn missing() -> Option<String> {
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

struct Cluster {
    dir: tempfile::TempDir,
    ports: Ports,
    bin: PathBuf,
}

impl Cluster {
    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// Runs `local-cluster.sh ARGS` to its end.
    fn script(&self, args: &[&str]) -> Output {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/local-cluster.sh");
        let out = Command::new("sh")
            .arg(script)
            .args(args)
            .env("CLUSTER_DIR", self.dir.path())
            .env("MINOTTY_BIN", &self.bin)
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

    fn pid(&self, rel: &str) -> u32 {
        let text = std::fs::read_to_string(self.path(rel)).expect(rel);
        text.trim().parse().expect("a pid")
    }

    fn log(&self, rel: &str) -> String {
        String::from_utf8_lossy(&std::fs::read(self.path(rel)).expect(rel)).into_owned()
    }

    /// Every process whose command line names the state directory (the cluster's own).
    fn processes(&self) -> Vec<(u32, String)> {
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

    fn haproxies(&self) -> usize {
        self.processes()
            .iter()
            .filter(|(_, c)| c.starts_with("haproxy ") || c.contains("/haproxy "))
            .count()
    }

    /// Waits until the balancer accepts connections (the script may return before).
    async fn balancer_up(&self) {
        let deadline = tokio::time::Instant::now() + SLOW;
        while tokio::net::TcpStream::connect(self.lb()).await.is_err() {
            assert!(tokio::time::Instant::now() < deadline, "no balancer");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    fn lb(&self) -> SocketAddr {
        ([127, 0, 0, 1], self.ports.lb).into()
    }

    fn metrics(&self, name: &str) -> SocketAddr {
        let port = if name == "a" {
            self.ports.a_metrics
        } else {
            self.ports.b_metrics
        };
        ([127, 0, 0, 1], port).into()
    }

    /// Game sessions open on instance `name` now.
    async fn sessions(&self, name: &str) -> Option<u64> {
        let text = http_get(self.metrics(name), "/metrics").await.ok()?;
        text.lines()
            .find_map(|l| l.strip_prefix("minotty_sessions_open "))
            .and_then(|n| n.trim().parse().ok())
    }

    /// Waits until the instances hold `a` and `b` game sessions.
    async fn wait_sessions(&self, a: u64, b: u64) {
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
    async fn instance_of_the_player(&self) -> &'static str {
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
fn own_filled(screen: &vt100::Screen) -> usize {
    fields(screen).first().map_or(0, |f| f.filled())
}

/// Whether `pid` is a live process (a zombie's command line is empty).
fn alive(pid: u32) -> bool {
    std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|c| !c.is_empty())
}

/// SIGKILL to `pid`, and waits until it is gone.
async fn kill_and_wait(pid: u32) {
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
async fn player_behind_the_balancer(c: &Cluster, name: &str) -> (Connection, PtySession) {
    let conn = Connection::open(c.lb(), name, Login::Guest)
        .await
        .expect("a guest through HAProxy");
    let mut pty = conn.play(80, 24).await.expect("a game session");
    pty.skip_welcome().await.expect("the menu");
    (conn, pty)
}

/// Runs `local-cluster.sh ARGS` on a thread while the caller watches its players.
fn script_in_background(c: &Cluster, args: &[&str]) -> std::thread::JoinHandle<Output> {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_script_starts_once_restarts_one_and_stops_drained() {
    if let Some(why) = missing() {
        if minotty_tests::postgres::required() {
            panic!("local-cluster.sh test required (MINOTTY_TEST_PG_REQUIRED=1): {why}");
        }
        eprintln!("skipped: local-cluster.sh test ({why})");
        return;
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
    let c = Cluster {
        dir,
        ports: ports(),
        bin: server_binary().expect("the minotty binary"),
    };
    let guard = StopOnDrop(&c);

    // ---- start, then start again: harmless, and says so ----
    assert!(c.script(&["start"]).status.success(), "start");
    c.balancer_up().await;
    assert_eq!(c.haproxies(), 1);
    let (pid_a, pid_b, pid_lb) = (c.pid("a/pid"), c.pid("b/pid"), c.pid("haproxy.pid"));
    let log_a = c.log("a/minotty.log");
    assert!(log_a.contains("host key"), "{log_a}");
    let again = c.script(&["start"]);
    assert!(again.status.success(), "a second start succeeds");
    c.balancer_up().await;
    assert_eq!(c.haproxies(), 1, "one HAProxy: {:?}", c.processes());
    assert_eq!(
        (c.pid("a/pid"), c.pid("b/pid"), c.pid("haproxy.pid")),
        (pid_a, pid_b, pid_lb),
        "the pid files name the running processes"
    );
    assert!(alive(pid_a) && alive(pid_b) && alive(pid_lb));
    assert!(
        c.log("a/minotty.log").starts_with(&log_a),
        "a's log is intact"
    );
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(said.contains("already running: nothing started"), "{said}");

    // ---- half-running: b killed; start starts b alone, appending to its log ----
    let log_b = c.log("b/minotty.log");
    kill_and_wait(pid_b).await;
    let repair = c.script(&["start"]);
    assert!(repair.status.success(), "start repairs");
    let new_b = c.pid("b/pid");
    assert_ne!(new_b, pid_b);
    assert!(alive(new_b), "b's pid file names a live process");
    assert_eq!((c.pid("a/pid"), c.pid("haproxy.pid")), (pid_a, pid_lb));
    assert_eq!(c.haproxies(), 1);
    let log_b_now = c.log("b/minotty.log");
    assert!(log_b_now.starts_with(&log_b) && log_b_now.len() > log_b.len());

    // ---- HAProxy killed and its port taken by a stranger: start refuses, starts nothing ----
    kill_and_wait(pid_lb).await;
    // (Its threads may still be closing its sockets for a moment.)
    let deadline = tokio::time::Instant::now() + SLOW;
    let stranger = loop {
        match std::net::TcpListener::bind(c.lb()) {
            Ok(l) => break l,
            Err(e) if tokio::time::Instant::now() > deadline => panic!("the port stays taken: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
        }
    };
    let refused = c.script(&["start"]);
    assert!(!refused.status.success(), "start refuses");
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(why.contains(&format!("port {}", c.ports.lb)), "{why}");
    assert_eq!(c.haproxies(), 0, "no HAProxy beside the stranger");
    drop(stranger);
    assert!(
        c.script(&["start"]).status.success(),
        "start once it is free"
    );
    c.balancer_up().await;
    assert_eq!(c.haproxies(), 1);
    assert!(alive(c.pid("haproxy.pid")));

    // ---- restart the instance a player is on: drained, back, healthy ----
    let (_conn, mut p) = player_behind_the_balancer(&c, "pat").await;
    let on = c.instance_of_the_player().await;
    // A second player goes to the other instance (`balance leastconn`) and plays on through
    // the restart.
    let (conn_r, mut r) = player_behind_the_balancer(&c, "rio").await;
    c.wait_sessions(1, 1).await;
    let old = c.pid(&format!("{on}/pid"));
    let restart = script_in_background(&c, &["restart", on]);
    p.wait_for_text("restarting", SLOW)
        .await
        .expect("the player on the restarted instance is told");
    let restart = tokio::task::spawn_blocking(move || restart.join().expect("joins"))
        .await
        .expect("joins");
    assert!(restart.status.success(), "restart {on}: {restart:?}");
    let new = c.pid(&format!("{on}/pid"));
    assert_ne!(new, old);
    assert!(alive(new) && !alive(old));
    let health = http_get(c.metrics(on), "/health")
        .await
        .expect("/health answers");
    assert!(health.contains("ok"), "{health}");
    assert_eq!(c.haproxies(), 1);
    r.start_40_lines()
        .await
        .expect("the player on the other instance still plays");
    drop(r);
    drop(conn_r);

    // ---- stop during a match behind the balancer: the match plays on while the instances
    // drain, then its players read the drain's message; nobody is cut ----
    c.wait_sessions(0, 0).await;
    let (conn_ann, mut ann) = versus::guest(c.lb(), "ann").await.expect("ann");
    let x = c.instance_of_the_player().await;
    // More guests until one lands beside ann (`leastconn` sends each to the emptier instance):
    // that one plays her, the others wait in the menu of the other instance.
    let mut menu = Vec::new();
    let (conn_dan, mut dan) = loop {
        assert!(menu.len() < 3, "no guest lands on {x}");
        let (conn, s) = versus::guest(c.lb(), "dan").await.expect("a guest");
        let total = menu.len() as u64 + 2;
        let deadline = tokio::time::Instant::now() + SLOW;
        while c.sessions("a").await.unwrap_or(0) + c.sessions("b").await.unwrap_or(0) < total {
            assert!(
                tokio::time::Instant::now() < deadline,
                "the guest's session"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        if c.sessions(x).await == Some(2) {
            break (conn, s);
        }
        menu.push((conn, s));
    };
    let code = versus::create_room(&mut ann, false, 2)
        .await
        .expect("a room");
    versus::start_match(&mut ann, &mut dan, &code)
        .await
        .expect("ann and dan play");
    let stop = script_in_background(&c, &["stop"]);
    let deadline = tokio::time::Instant::now() + SLOW;
    while !http_get(c.metrics(x), "/health")
        .await
        .is_ok_and(|h| h.contains("draining"))
    {
        assert!(tokio::time::Instant::now() < deadline, "{x} drains");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Draining, and the match goes on through HAProxy: ann's next piece lands on her board.
    let filled = own_filled(ann.screen());
    versus::drop_piece(&mut ann).await;
    ann.wait_until("ann's piece on her board", SLOW, |s| own_filled(s) > filled)
        .await
        .expect("the match plays on while its instance drains");
    for (_, s) in &mut menu {
        s.wait_for_text("restarting", SLOW)
            .await
            .expect("a player in the menu reads the drain's message through HAProxy");
    }
    // dan leaves: the match is over, the drain with it, and ann is told.
    conn_dan.close().await;
    drop(dan);
    ann.wait_for_text("restarting", SLOW)
        .await
        .expect("ann reads the drain's message through HAProxy");
    let stop = tokio::task::spawn_blocking(move || stop.join().expect("joins"))
        .await
        .expect("joins");
    drop(conn_ann);
    assert!(stop.status.success(), "stop: {stop:?}");
    let said = String::from_utf8_lossy(&stop.stdout).into_owned();
    let order: Vec<usize> = [
        "stopped minotty a",
        "stopped minotty b",
        "stopped haproxy",
        "stopped nats-server",
        "stopped postgresql",
    ]
    .iter()
    .map(|s| said.find(s).unwrap_or_else(|| panic!("{s:?} in {said}")))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{said}");
    assert_eq!(c.processes(), Vec::new(), "nothing left running");
    for f in ["a/pid", "b/pid", "haproxy.pid", "nats.pid"] {
        assert!(!c.path(f).exists(), "{f} removed");
    }
    drop(guard);
}

/// Whatever happens, the cluster's processes do not outlive the test.
struct StopOnDrop<'a>(&'a Cluster);

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
fn pg_bin() -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("/usr/lib/postgresql")
        .flatten()
        .map(|e| e.path().join("bin"))
        .collect();
    versions.sort();
    versions.pop().expect("a PostgreSQL")
}

/// `/health`'s body of instance `name`, once it is no longer starting.
async fn health_of(c: &Cluster, name: &str) -> String {
    http_get(c.metrics(name), "/health")
        .await
        .unwrap_or_else(|e| format!("no answer: {e}"))
}

/// Issue 35, items 1, 3 and 11: each instance has its own spool and says it has one; the
/// files the script writes are private; and `restart` during a PostgreSQL outage refuses,
/// leaving the instance serving, instead of draining it and starting one that exits after
/// 30 s (which took the instance out).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_instance_has_its_own_spool_and_a_restart_waits_for_the_database() {
    if let Some(why) = missing() {
        if minotty_tests::postgres::required() {
            panic!("local-cluster.sh test required (MINOTTY_TEST_PG_REQUIRED=1): {why}");
        }
        eprintln!("skipped: local-cluster.sh test ({why})");
        return;
    }
    let dir = tempfile::Builder::new()
        .prefix("minotty-local-cluster-")
        .tempdir()
        .expect("a state directory");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
    }
    let c = Cluster {
        dir,
        ports: ports(),
        bin: server_binary().expect("the minotty binary"),
    };
    let guard = StopOnDrop(&c);
    assert!(c.script(&["start"]).status.success(), "start");
    c.balancer_up().await;

    // ---- one spool each, and each says so ----
    for name in ["a", "b"] {
        let log = c.log(&format!("{name}/minotty.log"));
        assert!(
            !log.contains("another process uses this spool"),
            "{name} runs without a spool:\n{log}"
        );
        assert_eq!(health_of(&c, name).await.trim(), "ok", "{name}");
        let metrics = http_get(c.metrics(name), "/metrics")
            .await
            .expect("/metrics");
        assert!(
            metrics.lines().any(|l| l == "minotty_spool_available 1"),
            "{name}: {metrics}"
        );
        assert!(c.path(&format!("{name}/spool")).is_dir(), "{name}'s spool");
    }

    // ---- the files the script writes are its user's only ----
    {
        use std::os::unix::fs::PermissionsExt;
        for f in [
            "a/minotty.log",
            "b/minotty.log",
            "a/stdout.log",
            "nats.log",
            "haproxy.log",
            "a/minotty.toml",
            "secrets",
        ] {
            let mode = std::fs::metadata(c.path(f))
                .unwrap_or_else(|e| panic!("{f}: {e}"))
                .permissions()
                .mode();
            assert_eq!(mode & 0o077, 0, "{f} is {mode:o}");
        }
    }

    // ---- PostgreSQL stops: `restart a` refuses and a keeps serving ----
    let pg_ctl = pg_bin().join("pg_ctl");
    let stopped = Command::new("runuser")
        .args(["-u", "postgres", "--"])
        .arg(&pg_ctl)
        .arg("-D")
        .arg(c.path("pg"))
        .args(["-m", "fast", "-w", "stop"])
        .output()
        .expect("pg_ctl stop");
    assert!(stopped.status.success(), "{stopped:?}");
    let old = c.pid("a/pid");
    let refused = c.script(&["restart", "a"]);
    assert!(!refused.status.success(), "restart refuses");
    let why = String::from_utf8_lossy(&refused.stderr);
    assert!(
        why.contains("not restarting minotty a") && why.contains("does not answer"),
        "{why}"
    );
    assert!(!why.contains(":minotty@"), "no password in the message: {why}");
    assert_eq!(c.pid("a/pid"), old, "a was not touched");
    assert!(alive(old));
    assert!(
        !health_of(&c, "a").await.contains("no answer"),
        "a still answers"
    );

    // ---- the database back (`start` starts what is missing): the restart goes through ----
    let again = c.script(&["start"]);
    assert!(again.status.success(), "start brings PostgreSQL back");
    assert!(
        String::from_utf8_lossy(&again.stdout).contains("postgresql  127.0.0.1"),
        "PostgreSQL started"
    );
    let restart = c.script(&["restart", "a"]);
    assert!(restart.status.success(), "restart once the database answers");
    assert!(String::from_utf8_lossy(&restart.stdout).contains("database    answers"));
    let new = c.pid("a/pid");
    assert_ne!(new, old);
    assert!(alive(new) && !alive(old));
    drop(guard);
}
