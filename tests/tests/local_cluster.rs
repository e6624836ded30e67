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

mod cluster_script;

use std::time::Duration;

use cluster_script::*;
use minotty_tests::cluster::http_get;
use minotty_tests::versus;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_script_starts_once_restarts_one_and_stops_drained() {
    let Some(c) = Cluster::prepared() else {
        return;
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
