//! `deploy/local-cluster.sh` through a PostgreSQL outage (issue 35, items 1, 3 and 11), with
//! real processes as in `local_cluster.rs`: each instance has a spool of its own and says so,
//! the files the script writes are private, and `restart` refuses while the database does not
//! answer, leaving the instance serving.
//!
//! Needs root, haproxy, nats-server and PostgreSQL's programs; skipped with the reason
//! otherwise, a failure where `MINOTTY_TEST_PG_REQUIRED=1`.

mod cluster_script;

use std::process::Command;

use cluster_script::*;
use minotty_tests::cluster::http_get;

/// Issue 35, items 1, 3 and 11: each instance has its own spool and says it has one; the
/// files the script writes are private; and `restart` during a PostgreSQL outage refuses,
/// leaving the instance serving, instead of draining it and starting one that exits after
/// 30 s (which took the instance out).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_instance_has_its_own_spool_and_a_restart_waits_for_the_database() {
    let Some(c) = Cluster::prepared() else {
        return;
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
    assert!(
        !why.contains(":minotty@"),
        "no password in the message: {why}"
    );
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
    assert!(
        restart.status.success(),
        "restart once the database answers"
    );
    assert!(String::from_utf8_lossy(&restart.stdout).contains("database    answers"));
    let new = c.pid("a/pid");
    assert_ne!(new, old);
    assert!(alive(new) && !alive(old));
    drop(guard);
}
