//! A process's descendants, read from `/proc` (every process's parent in `/proc/PID/stat`).

use std::collections::{HashMap, HashSet};

use nix::unistd::Pid;

/// One process of `/proc`: its parent and when it started (clock ticks after boot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    pid: i32,
    parent: i32,
    started: u64,
}

/// Parses `/proc/PID/stat`: the parent is field 4 and the start time field 22 (the command,
/// field 2, is in parentheses and may hold spaces or parentheses itself: fields are counted
/// after its last `)`).
fn parse_stat(pid: i32, stat: &str) -> Option<Entry> {
    let (_, rest) = stat.rsplit_once(") ")?;
    let fields: Vec<&str> = rest.split(' ').collect();
    Some(Entry {
        pid,
        parent: fields.get(1)?.parse().ok()?,
        started: fields.get(19)?.parse().ok()?,
    })
}

/// Every process now (a process that ends while it is read is left out).
fn processes() -> Vec<Entry> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            parse_stat(pid, &stat)
        })
        .collect()
}

/// The descendants of `root` in `entries`, oldest first.
fn descendants_in(root: i32, entries: &[Entry]) -> Vec<Entry> {
    let mut children: HashMap<i32, Vec<Entry>> = HashMap::new();
    for e in entries {
        children.entry(e.parent).or_default().push(*e);
    }
    let mut found = Vec::new();
    let mut seen = HashSet::from([root]);
    let mut next = vec![root];
    while let Some(parent) = next.pop() {
        for child in children.get(&parent).into_iter().flatten() {
            // A pid is found once (the map is a tree; this guards against a torn read).
            if seen.insert(child.pid) {
                found.push(*child);
                next.push(child.pid);
            }
        }
    }
    found.sort_by_key(|e| (e.started, e.pid));
    found
}

/// Every descendant of `root` now, zombies included, oldest first.
pub fn descendants(root: Pid) -> Vec<Pid> {
    descendants_in(root.as_raw(), &processes())
        .into_iter()
        .map(|e| Pid::from_raw(e.pid))
        .collect()
}

/// The process ids of every descendant of process `root` now, zombies included, oldest first
/// (for logs and tests).
pub fn descendants_of(root: u32) -> Vec<u32> {
    let Ok(root) = i32::try_from(root) else {
        return Vec::new();
    };
    descendants(Pid::from_raw(root))
        .into_iter()
        .filter_map(|p| u32::try_from(p.as_raw()).ok())
        .collect()
}

/// The oldest child of `root` (a keeper's first child is its bot).
pub fn oldest_child(root: Pid) -> Option<Pid> {
    processes()
        .into_iter()
        .filter(|e| e.parent == root.as_raw())
        .min_by_key(|e| (e.started, e.pid))
        .map(|e| Pid::from_raw(e.pid))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stat_line_with_a_strange_command_parses() {
        let line = "42 (a) b (c) S 7 42 42 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 9876 0 0";
        assert_eq!(
            parse_stat(42, line),
            Some(Entry {
                pid: 42,
                parent: 7,
                started: 9876
            })
        );
        assert_eq!(parse_stat(1, "1 (x"), None);
    }

    #[test]
    fn descendants_are_the_whole_subtree_and_nothing_else() {
        let e = |pid, parent, started| Entry {
            pid,
            parent,
            started,
        };
        // 10 -> 11 -> 13, 10 -> 12; 20 is elsewhere; 14 is 13's.
        let all = [
            e(12, 10, 5),
            e(11, 10, 3),
            e(13, 11, 7),
            e(20, 1, 1),
            e(14, 13, 9),
            e(10, 1, 2),
        ];
        let pids: Vec<i32> = descendants_in(10, &all).iter().map(|e| e.pid).collect();
        assert_eq!(pids, [11, 12, 13, 14]);
        assert!(descendants_in(14, &all).is_empty());
    }
}
