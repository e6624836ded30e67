//! The confinement of bot processes, read back from `/proc` of real children.

use super::*;

#[test]
fn the_script_sets_every_limit_then_becomes_the_bot() {
    let c = Confinement {
        memory_mib: 300,
        cpu_secs: 90,
        nice: 10,
        env: Vec::new(),
        keeper: None,
        max_procs: 32,
    };
    assert_eq!(
        c.script("/usr/bin/bot --x"),
        "ulimit -v 307200 && ulimit -t 90 && ulimit -c 0 && exec nice -n 10 /usr/bin/bot --x"
    );
    let c = Confinement {
        nice: 0,
        cpu_secs: 0,
        ..c
    };
    assert_eq!(
        c.script("bot"),
        "ulimit -v 307200 && ulimit -t 1 && ulimit -c 0 && exec bot"
    );
}

#[test]
fn environment_names_are_plain() {
    for ok in ["PATH", "_X", "BOT_HOME2"] {
        assert!(is_env_name(ok), "{ok}");
    }
    for bad in ["", "2X", "A=B", "A B", "É", &"A".repeat(65)] {
        assert!(!is_env_name(bad), "{bad}");
    }
}

/// What the bots' tests read of real children.
mod proc {
    use std::collections::HashMap;
    use std::sync::Arc;
    use std::time::Duration;

    use tokio::sync::Semaphore;

    use super::*;
    use crate::frontend::BotProcess;

    /// The server's database URL with its password: what must never reach a bot.
    const CANARY: &str = "postgres://u:secret@h/d";
    /// A variable the operator lists for bots, and one listed but unset.
    const LISTED: &str = "MINOTTY_TEST_BOT_LISTED";
    const UNSET: &str = "MINOTTY_TEST_BOT_UNSET";

    fn confinement() -> Confinement {
        Confinement {
            memory_mib: 64,
            cpu_secs: 60,
            nice: 0,
            env: Vec::new(),
            keeper: None,
            max_procs: 32,
        }
    }

    fn spawn(command: &str, confinement: &Confinement) -> BotProcess {
        let slot = Arc::new(Semaphore::new(1))
            .try_acquire_owned()
            .expect("a slot");
        BotProcess::spawn(command, confinement, 1024, slot).expect("spawns")
    }

    /// Waits until process `pid` runs `comm` (the shell and `nice` have become it).
    async fn running(pid: u32, comm: &str) {
        for _ in 0..500 {
            let now = std::fs::read_to_string(format!("/proc/{pid}/comm"));
            if now.is_ok_and(|c| c.trim() == comm) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        panic!("process {pid} never became {comm}");
    }

    /// The environment a process was started with.
    fn environ(pid: u32) -> HashMap<String, String> {
        let raw = std::fs::read(format!("/proc/{pid}/environ")).expect("its environment");
        raw.split(|&b| b == 0)
            .filter(|v| !v.is_empty())
            .map(|v| {
                let v = String::from_utf8_lossy(v);
                let (name, value) = v.split_once('=').unwrap_or((&v, ""));
                (name.to_owned(), value.to_owned())
            })
            .collect()
    }

    /// A process's niceness (`/proc/PID/stat`, field 19).
    fn nice_of(pid: u32) -> i64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).expect("its stat");
        let fields = stat.rsplit_once(") ").expect("a stat line").1;
        // Field 3 (the state) comes first after the command's name.
        fields
            .split_whitespace()
            .nth(19 - 3)
            .and_then(|n| n.parse().ok())
            .expect("a niceness")
    }

    /// A process's RLIMIT_CPU, soft and hard, as `/proc/PID/limits` shows them.
    fn cpu_limit(pid: u32) -> (String, String) {
        let limits = std::fs::read_to_string(format!("/proc/{pid}/limits")).expect("its limits");
        let line = limits
            .lines()
            .find_map(|l| l.strip_prefix("Max cpu time"))
            .expect("a CPU time line");
        let mut values = line.split_whitespace();
        let soft = values.next().unwrap_or_default().to_owned();
        let hard = values.next().unwrap_or_default().to_owned();
        (soft, hard)
    }

    #[tokio::test]
    async fn a_bot_runs_niced_under_a_cpu_time_limit() {
        let c = Confinement {
            cpu_secs: 37,
            nice: 7,
            ..confinement()
        };
        let bot = spawn("sleep 100", &c);
        let pid = bot.pid().expect("a pid");
        running(pid, "sleep").await;
        let server = nice_of(std::process::id());
        assert_eq!(nice_of(pid), (server + 7).min(19), "niced below the server");
        assert_eq!(cpu_limit(pid), ("37".to_owned(), "37".to_owned()));
        assert!(bot.shutdown(Duration::from_millis(50)).await.is_some());
    }

    #[tokio::test]
    async fn a_bot_past_its_cpu_time_is_ended_by_the_kernel() {
        use std::os::unix::process::ExitStatusExt;

        let c = Confinement {
            cpu_secs: 1,
            nice: 19,
            ..confinement()
        };
        // A bot that never answers and spins: one CPU second, then SIGXCPU.
        let mut bot = spawn("sh -c 'while :; do :; done'", &c);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
        assert_eq!(
            bot.recv(deadline).await,
            Err(crate::frontend::process::IoFailure::Closed),
            "it ended"
        );
        let status = bot.shutdown(Duration::from_secs(5)).await.expect("reaped");
        let signal = status.signal();
        assert!(
            signal == Some(nix::sys::signal::Signal::SIGXCPU as i32)
                || signal == Some(nix::sys::signal::Signal::SIGKILL as i32),
            "{status:?}"
        );
    }

    /// Runs in a process whose environment holds the canary (as a server's holds its database
    /// URL) and a variable the operator lists: the test runs itself again that way.
    #[tokio::test]
    async fn the_servers_environment_never_reaches_a_bot() {
        if std::env::var("MINOTTY_DB").as_deref() != Ok(CANARY) {
            let exe = std::env::current_exe().expect("the test binary");
            let out = std::process::Command::new(exe)
                .args([
                    "--exact",
                    "frontend::confine::tests::proc::the_servers_environment_never_reaches_a_bot",
                    "--test-threads=1",
                ])
                .env("MINOTTY_DB", CANARY)
                .env(LISTED, "kept")
                .env_remove(UNSET)
                .output()
                .expect("the test runs again");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success() && stdout.contains("1 passed"),
                "{stdout}{}",
                String::from_utf8_lossy(&out.stderr)
            );
            return;
        }
        let c = Confinement {
            env: vec![LISTED.to_owned(), UNSET.to_owned()],
            ..confinement()
        };
        let bot = spawn("sleep 100", &c);
        let pid = bot.pid().expect("a pid");
        running(pid, "sleep").await;
        let raw = std::fs::read(format!("/proc/{pid}/environ")).expect("its environment");
        assert!(
            !String::from_utf8_lossy(&raw).contains("secret"),
            "the password reached the bot"
        );
        let env = environ(pid);
        assert_eq!(env.get(LISTED).map(String::as_str), Some("kept"));
        assert!(!env.contains_key(UNSET));
        let server: Vec<String> = std::env::vars_os()
            .map(|(n, _)| n.to_string_lossy().into_owned())
            .collect();
        assert!(
            server.len() > 2,
            "the server has an environment: {server:?}"
        );
        for name in server {
            // PWD is the shell's own, set where it starts.
            if name != LISTED && name != "PWD" {
                assert!(!env.contains_key(&name), "{name} reached the bot: {env:?}");
            }
        }
        assert!(bot.shutdown(Duration::from_millis(50)).await.is_some());
    }
}
