//! `minotty play` links no network and no database: nothing reachable from `minotty-local` in
//! the workspace's `Cargo.lock` is russh, sqlx, async-nats or the server (and its store). This
//! is what `cargo tree -p minotty-local` shows, checked without running cargo: the lock's
//! dependency lists are walked from `minotty-local`. The lock lists every dependency a package
//! may have (dev-dependencies and optional ones included), so the walk can only see more than
//! `cargo tree` does, never less.

use std::collections::{BTreeMap, BTreeSet};

/// One `[[package]]` of a lock file: its name, version and dependency entries
/// (`"name"` or `"name version"` or `"name version (source)"`).
#[derive(Debug)]
struct Package {
    name: String,
    version: String,
    dependencies: Vec<String>,
}

/// The packages of a `Cargo.lock` (version 3 or 4), read line by line.
fn packages(lock: &str) -> Vec<Package> {
    let mut out: Vec<Package> = Vec::new();
    let mut in_deps = false;
    for line in lock.lines() {
        let line = line.trim();
        if line == "[[package]]" {
            out.push(Package {
                name: String::new(),
                version: String::new(),
                dependencies: Vec::new(),
            });
            in_deps = false;
            continue;
        }
        let Some(package) = out.last_mut() else {
            continue;
        };
        if in_deps {
            if line == "]" {
                in_deps = false;
            } else {
                let entry = line.trim_end_matches(',').trim_matches('"');
                package.dependencies.push(entry.to_owned());
            }
        } else if let Some(v) = line.strip_prefix("name = ") {
            package.name = v.trim_matches('"').to_owned();
        } else if let Some(v) = line.strip_prefix("version = ") {
            package.version = v.trim_matches('"').to_owned();
        } else if line == "dependencies = [" {
            in_deps = true;
        } else if line.starts_with('[') {
            // `[metadata]` and the like end the packages.
            in_deps = false;
        }
    }
    out
}

/// Every package (name and version) reachable from `root`, `root` included.
fn reachable(lock: &str, root: &str) -> BTreeSet<(String, String)> {
    let all = packages(lock);
    let mut by_name: BTreeMap<&str, Vec<&Package>> = BTreeMap::new();
    for p in &all {
        by_name.entry(p.name.as_str()).or_default().push(p);
    }
    let mut seen = BTreeSet::new();
    let mut todo: Vec<&Package> = by_name.get(root).cloned().unwrap_or_default();
    while let Some(p) = todo.pop() {
        if !seen.insert((p.name.clone(), p.version.clone())) {
            continue;
        }
        for entry in &p.dependencies {
            let mut words = entry.split_whitespace();
            let name = words.next().unwrap_or_default();
            let version = words.next();
            for dep in by_name.get(name).into_iter().flatten() {
                if version.is_none_or(|v| v == dep.version) {
                    todo.push(dep);
                }
            }
        }
    }
    seen
}

/// The reachable packages that bring a network or a database.
fn forbidden(lock: &str, root: &str) -> Vec<String> {
    reachable(lock, root)
        .into_iter()
        .map(|(name, _)| name)
        .filter(|name| {
            name == "russh"
                || name.starts_with("russh-")
                || name == "sqlx"
                || name.starts_with("sqlx-")
                || name == "async-nats"
                || name == "minotty-server"
                || name == "minotty-store"
        })
        .collect()
}

#[test]
fn minotty_play_links_no_network_and_no_database() {
    let lock = include_str!("../../Cargo.lock");
    let tree: BTreeSet<String> = reachable(lock, "minotty-local")
        .into_iter()
        .map(|(name, _)| name)
        .collect();
    // The walk sees the tree (so an empty walk cannot pass for a clean one).
    for expected in [
        "minotty-engine",
        "minotty-ui",
        "ratatui",
        "crossterm",
        "serde_json",
    ] {
        assert!(tree.contains(expected), "{expected} missing from {tree:?}");
    }
    assert_eq!(forbidden(lock, "minotty-local"), Vec::<String>::new());
    // ... while the server's tree has all three.
    let server = forbidden(lock, "minotty-server");
    for name in ["russh", "sqlx", "async-nats"] {
        assert!(server.iter().any(|n| n == name), "{name} not in {server:?}");
    }
}

#[test]
fn a_dependency_on_the_network_is_found_however_deep() {
    let lock = r#"
version = 4

[[package]]
name = "app"
version = "0.1.0"
dependencies = [
 "middle",
 "tool 1.0.0",
]

[[package]]
name = "middle"
version = "0.1.0"
dependencies = [
 "sqlx-core",
]

[[package]]
name = "sqlx-core"
version = "0.8.6"

[[package]]
name = "tool"
version = "1.0.0"

[[package]]
name = "tool"
version = "2.0.0"
dependencies = [
 "russh",
]

[[package]]
name = "russh"
version = "0.65.1"
"#;
    assert_eq!(forbidden(lock, "app"), ["sqlx-core"]);
    // Only the version of `tool` that `app` names is followed.
    assert!(!reachable(lock, "app").contains(&("tool".into(), "2.0.0".into())));
    assert_eq!(forbidden(lock, "tool"), ["russh"]);
    assert_eq!(forbidden(lock, "sqlx-core"), ["sqlx-core"]);
}
