//! The shipped deployment files, read as an operator's checklist (issue 35, items 1, 5 and 10):
//! no container runtime can run `deploy/compose.yaml` here (no image registry is reachable), so
//! its properties are checked in the files themselves, each of which failed on the files as they
//! were:
//!
//! - compose stops the instances before HAProxy (they depend on it, not it on them), each within
//!   a grace period that covers the drain, every long-running service restarts, the NATS
//!   password is on no command line, and each instance has a spool of its own;
//! - HAProxy looks the instances up again through Docker's DNS (a recreated container is found);
//! - the systemd unit's stop timeout covers the drain;
//! - the image starts with an init that reaps what TBP bots leave behind.
//!
//! `haproxy -c` checks haproxy.cfg where HAProxy is installed.

use std::collections::BTreeMap;
use std::process::Command;

fn deploy(file: &str) -> String {
    let path = format!("{}/../deploy/{file}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The lines of YAML `text` without comments and blank lines, each with its indentation.
fn yaml_lines(text: &str) -> Vec<(usize, String)> {
    text.lines()
        .map(|l| match l.find(" #") {
            Some(i) if !l[..i].contains('"') => &l[..i],
            _ => l,
        })
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| (l.len() - l.trim_start().len(), l.trim().to_owned()))
        .collect()
}

/// The block under the key path `path` (e.g. `["services", "haproxy"]`): its lines, each with
/// its indentation (a key with an inline value: that one line).
fn block(text: &str, path: &[&str]) -> Vec<(usize, String)> {
    let lines = yaml_lines(text);
    let (mut from, mut to) = (0, lines.len());
    for key in path {
        let Some(level) = lines[from..to].iter().map(|(i, _)| *i).min() else {
            return Vec::new();
        };
        let want = format!("{key}:");
        let Some(at) = (from..to).find(|&i| {
            lines[i].0 == level
                && (lines[i].1 == want || lines[i].1.starts_with(&format!("{want} ")))
        }) else {
            return Vec::new();
        };
        // `key: &anchor` opens a block too.
        let rest = lines[at].1[want.len()..].trim();
        if !rest.is_empty() && !rest.starts_with('&') {
            return vec![lines[at].clone()];
        }
        from = at + 1;
        to = (from..to).find(|&j| lines[j].0 <= level).unwrap_or(to);
    }
    lines[from..to].to_vec()
}

/// The value of `key` directly in `block` (one level below its first line's parent).
fn value(block: &[(usize, String)], key: &str) -> Option<String> {
    let top = block.iter().map(|(i, _)| *i).min()?;
    block
        .iter()
        .filter(|(i, _)| *i == top)
        .find_map(|(_, l)| l.strip_prefix(&format!("{key}:")))
        .map(|v| v.trim().trim_matches('"').to_owned())
}

/// The services of compose.yaml, each with its own block and, where it merges the `x-minotty`
/// anchor (`<<: *minotty`), the anchor's lines after its own (its own win).
fn services(text: &str) -> BTreeMap<String, Vec<(usize, String)>> {
    let anchor = block(text, &["x-minotty"]);
    let all = block(text, &["services"]);
    let top = all.iter().map(|(i, _)| *i).min().expect("services");
    let names: Vec<String> = all
        .iter()
        .filter(|(i, _)| *i == top)
        .map(|(_, l)| l.trim_end_matches(':').to_owned())
        .collect();
    names
        .into_iter()
        .map(|name| {
            let mut own = block(text, &["services", &name]);
            if own.iter().any(|(_, l)| l == "<<: *minotty") {
                let shift = own.iter().map(|(i, _)| *i).min().unwrap_or(0);
                let base = anchor.iter().map(|(i, _)| *i).min().unwrap_or(0);
                own.extend(anchor.iter().map(|(i, l)| (i - base + shift, l.clone())));
            }
            (name, own)
        })
        .collect()
}

/// The lines under `key` of a service's block (its first occurrence: its own before the
/// anchor's).
fn under(service: &[(usize, String)], key: &str) -> Vec<String> {
    let top = service.iter().map(|(i, _)| *i).min().unwrap_or(0);
    let Some(start) = service
        .iter()
        .position(|(i, l)| *i == top && l.starts_with(&format!("{key}:")))
    else {
        return Vec::new();
    };
    let mut out = vec![service[start].1.clone()];
    out.extend(
        service[start + 1..]
            .iter()
            .take_while(|(i, _)| *i > top)
            .map(|(_, l)| l.clone()),
    );
    out
}

/// Seconds in a duration as compose (`675s`, `11m`, `1m30s`) or systemd (`675`, `12min`,
/// `11min 15s`) writes it.
fn seconds(text: &str) -> u64 {
    let text = text.trim().trim_matches('"');
    if let Ok(n) = text.parse::<u64>() {
        return n;
    }
    let mut total = 0;
    let mut number = String::new();
    let mut unit = String::new();
    let flush = |number: &mut String, unit: &mut String, total: &mut u64| {
        if number.is_empty() {
            return;
        }
        let n: u64 = number.parse().expect("a number");
        *total += n * match unit.as_str() {
            "h" => 3600,
            "m" | "min" => 60,
            "s" | "" => 1,
            other => panic!("unit {other:?} in {text:?}"),
        };
        number.clear();
        unit.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            if !unit.is_empty() {
                flush(&mut number, &mut unit, &mut total);
            }
            number.push(c);
        } else if c.is_ascii_alphabetic() {
            unit.push(c);
        }
    }
    flush(&mut number, &mut unit, &mut total);
    total
}

/// What an instance does after its drain before it exits (restore terminals, at most 6 s;
/// store or spool what is queued): the margin `local-cluster.sh` gives it too.
const AFTER_DRAIN: u64 = 75;

/// The drain's default, as deploy/README.md's settings table says it (tied to `--help` by
/// `minotty/tests/settings_table.rs`).
fn default_drain() -> u64 {
    let readme = deploy("README.md");
    readme
        .lines()
        .find_map(|l| l.strip_prefix("| `--drain-secs` | `MINOTTY_DRAIN_SECS` | "))
        .and_then(|rest| rest.split(' ').next())
        .map(|v| v.parse().expect("a number"))
        .expect("deploy/README.md gives --drain-secs' default")
}

#[test]
fn compose_stops_the_instances_before_haproxy() {
    let compose = deploy("compose.yaml");
    let services = services(&compose);
    let haproxy = services.get("haproxy").expect("an haproxy service");
    assert!(
        under(haproxy, "depends_on").is_empty(),
        "HAProxy depends on nothing, so `stop` does not stop it first: {:?}",
        under(haproxy, "depends_on")
    );
    for name in ["minotty-a", "minotty-b"] {
        let s = &services[name];
        let deps = under(s, "depends_on");
        // minotty-b reuses a's list through its anchor.
        let deps = if deps.iter().any(|l| l.contains("*minotty-deps")) {
            under(&services["minotty-a"], "depends_on")
        } else {
            deps
        };
        assert!(
            deps.iter().any(|l| l.starts_with("haproxy:")),
            "{name} depends on HAProxy (stopped before it): {deps:?}"
        );
    }
}

#[test]
fn compose_gives_the_drain_its_time_and_restarts_what_stops() {
    let compose = deploy("compose.yaml");
    let services = services(&compose);
    for (name, s) in &services {
        let restart = value(s, "restart");
        if name == "hostkey" {
            assert_eq!(restart.as_deref(), Some("no"), "the one-shot hostkey");
            continue;
        }
        assert!(
            restart
                .as_deref()
                .is_some_and(|r| r == "unless-stopped" || r == "always"),
            "{name} restarts (restart: {restart:?})"
        );
    }
    for name in ["minotty-a", "minotty-b"] {
        let s = &services[name];
        let drain = value(
            &block(&compose, &["x-minotty", "environment"]),
            "MINOTTY_DRAIN_SECS",
        )
        .map_or_else(default_drain, |d| d.parse().expect("a number"));
        let grace = value(s, "stop_grace_period").expect("a stop grace period");
        assert!(
            seconds(&grace) >= drain + AFTER_DRAIN,
            "{name}: stop_grace_period {grace} is under the drain ({drain} s) + {AFTER_DRAIN} s"
        );
        assert_eq!(
            value(s, "init").as_deref(),
            Some("true"),
            "{name} has an init"
        );
    }
}

#[test]
fn compose_puts_no_secret_on_a_command_line() {
    let compose = deploy("compose.yaml");
    for (name, s) in services(&compose) {
        let command = under(&s, "command").join(" ");
        for secret in ["PASSWORD", "--pass", "CLUSTER_KEY", "TOKEN"] {
            assert!(
                !command.contains(secret),
                "{name}'s command line carries a secret: {command}"
            );
        }
    }
    // NATS reads its password from a config file that names it, not holds it.
    let nats = deploy("nats.conf");
    assert!(nats.contains("password: $NATS_PASSWORD"), "{nats}");
}

/// Each instance's spool is a directory on a volume no other instance mounts (before, both
/// took the default beside the shared host key, and the second ran without a spool).
#[test]
fn compose_gives_each_instance_a_spool_of_its_own() {
    let compose = deploy("compose.yaml");
    let services = services(&compose);
    let mut volumes_of_spools = Vec::new();
    for name in ["minotty-a", "minotty-b"] {
        let s = &services[name];
        let env: Vec<String> = under(s, "environment");
        let spool = env
            .iter()
            .find_map(|l| l.strip_prefix("MINOTTY_SPOOL_DIR:"))
            .map(|v| v.trim().trim_matches('"').to_owned())
            .unwrap_or_else(|| {
                let key = env
                    .iter()
                    .find_map(|l| l.strip_prefix("MINOTTY_HOST_KEY:"))
                    .unwrap_or("/data/minotty_host_ed25519");
                format!("{}.spool", key.trim().trim_matches('"'))
            });
        // The volume mounted at the longest prefix of the spool's path.
        let mounts = under(s, "volumes");
        let volume = mounts
            .iter()
            .filter_map(|l| l.strip_prefix("- "))
            .filter_map(|m| {
                let (volume, at) = m.split_once(':')?;
                let at = at.split(':').next()?;
                spool
                    .starts_with(&format!("{at}/"))
                    .then(|| (at.len(), volume.to_owned()))
            })
            .max()
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("{name}'s spool {spool} is on no volume: {mounts:?}"));
        volumes_of_spools.push((name, volume, spool));
    }
    let (a, b) = (&volumes_of_spools[0], &volumes_of_spools[1]);
    assert_ne!(
        a.1, b.1,
        "one volume holds both spools: {volumes_of_spools:?}"
    );
    for (name, volume, _) in &volumes_of_spools {
        assert_ne!(
            volume, "hostkey",
            "{name}'s spool is on the shared host key volume"
        );
    }
}

#[test]
fn haproxy_finds_recreated_instances_again() {
    let cfg = deploy("haproxy.cfg");
    let lines: Vec<&str> = cfg
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim_end())
        .collect();
    let section = lines
        .iter()
        .position(|l| l.starts_with("resolvers "))
        .expect("a resolvers section");
    let name = lines[section]["resolvers ".len()..].trim();
    let body: Vec<&str> = lines[section + 1..]
        .iter()
        .take_while(|l| l.starts_with(' '))
        .map(|l| l.trim())
        .collect();
    assert!(
        body.iter()
            .any(|l| l.starts_with("nameserver ") && l.ends_with("127.0.0.11:53")),
        "Docker's DNS: {body:?}"
    );
    let servers: Vec<&&str> = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("server "))
        .collect();
    assert_eq!(servers.len(), 2, "{servers:?}");
    for s in servers {
        let words: Vec<&str> = s.split_whitespace().collect();
        let after = |key: &str| {
            words
                .iter()
                .position(|w| *w == key)
                .and_then(|i| words.get(i + 1))
                .copied()
        };
        assert_eq!(after("resolvers"), Some(name), "{s}");
        assert!(
            after("init-addr").is_some_and(|a| a.split(',').any(|m| m == "none")),
            "starts without the address, finds it later: {s}"
        );
    }
    let haproxy = Command::new("sh")
        .args(["-c", "command -v haproxy"])
        .output()
        .is_ok_and(|o| o.status.success());
    if haproxy {
        let path = format!("{}/../deploy/haproxy.cfg", env!("CARGO_MANIFEST_DIR"));
        let check = Command::new("haproxy")
            .args(["-c", "-q", "-f", &path])
            .output()
            .expect("haproxy -c");
        assert!(
            check.status.success(),
            "haproxy -c: {}",
            String::from_utf8_lossy(&check.stderr)
        );
    } else {
        eprintln!("haproxy -c skipped: no haproxy");
    }
}

#[test]
fn the_systemd_unit_waits_out_the_drain() {
    let unit = deploy("minotty.service");
    let timeout = unit
        .lines()
        .find_map(|l| l.strip_prefix("TimeoutStopSec="))
        .expect("TimeoutStopSec");
    let drain = default_drain();
    assert!(
        seconds(timeout) >= drain + AFTER_DRAIN,
        "TimeoutStopSec={timeout} kills an instance mid-drain ({drain} s + {AFTER_DRAIN} s)"
    );
}

#[test]
fn the_image_starts_with_an_init() {
    let dockerfile = deploy("Dockerfile");
    let entrypoint = dockerfile
        .lines()
        .find_map(|l| l.strip_prefix("ENTRYPOINT "))
        .expect("an ENTRYPOINT");
    assert!(
        entrypoint.starts_with("[\"/usr/bin/tini\""),
        "PID 1 is an init: {entrypoint}"
    );
    // A subreaper (-s): with Docker's own init in front (compose's `init: true`), orphans still
    // come to tini.
    assert!(entrypoint.contains("\"-s\""), "{entrypoint}");
    assert!(
        dockerfile.contains("apt-get install -y --no-install-recommends tini"),
        "tini from Debian's packages"
    );
}

#[test]
fn durations_read_as_compose_and_systemd_write_them() {
    assert_eq!(seconds("675s"), 675);
    assert_eq!(seconds("11m"), 660);
    assert_eq!(seconds("675"), 675);
    assert_eq!(seconds("12min"), 720);
    assert_eq!(seconds("11min 15s"), 675);
    assert_eq!(seconds("1m30s"), 90);
}
