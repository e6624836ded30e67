//! The project's own CI checks, run by `.ci/run` (`cargo run -p xtask -- layout`):
//!
//! - no module cycles in any crate of the workspace (see [`modules`] for how the module graph
//!   is read and its limits, [`cycles`] for what counts as a cycle);
//! - no non-test source file over [`MAX_LINES`] non-blank lines.
//!
//! Exceptions are listed, each with its reason, in `.ci/layout-exceptions.txt` (see
//! [`exceptions`]).

pub mod cycles;
pub mod exceptions;
pub mod modules;

use anyhow::Result;
use exceptions::Exception;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The most non-blank lines a non-test source file may have.
pub const MAX_LINES: usize = 600;

/// One crate to check: its name (the package's for a library, the binary's for a binary) and
/// its root file.
#[derive(Clone, Debug)]
pub struct Target {
    pub name: String,
    pub root: PathBuf,
}

/// Non-blank lines.
pub fn count_lines(text: &str) -> usize {
    text.lines().filter(|l| !l.trim().is_empty()).count()
}

/// Checks the targets of the workspace at `workspace` against the rules and the exceptions;
/// returns every problem found (none: the check passes).
pub fn check(
    workspace: &Path,
    targets: &[Target],
    exceptions: &[Exception],
) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let mut used = vec![false; exceptions.len()];
    let mut files = BTreeSet::new();
    for target in targets {
        let krate = modules::Crate::load(&target.root)?;
        files.extend(krate.files());
        for cycle in cycles::find(&krate.edges()) {
            let names: Vec<String> = cycle.modules.iter().map(|m| m.join("::")).collect();
            let excused = exceptions.iter().position(|e| match e {
                Exception::Cycle { krate, modules } => {
                    *krate == target.name && names.iter().all(|n| modules.contains(n))
                }
                Exception::Long { .. } => false,
            });
            match excused {
                Some(i) => used[i] = true,
                None => {
                    let mut text = format!(
                        "module cycle in crate {}: {}",
                        target.name,
                        names.join(", ")
                    );
                    for e in &cycle.edges {
                        text.push_str(&format!(
                            "\n    {} -> {}: `{}` in {}",
                            e.from.join("::"),
                            e.to.join("::"),
                            e.written,
                            relative(workspace, &e.file)
                        ));
                    }
                    problems.push(text);
                }
            }
        }
    }
    for file in &files {
        let lines = count_lines(&std::fs::read_to_string(file)?);
        let path = relative(workspace, file);
        let listed = exceptions
            .iter()
            .position(|e| matches!(e, Exception::Long { path: p, .. } if *p == path));
        match listed {
            Some(i) => {
                used[i] = true;
                if let Exception::Long { lines: max, .. } = &exceptions[i] {
                    if lines > *max {
                        problems.push(format!(
                            "{path}: {lines} non-blank lines, more than its listed {max} (a listed file may not grow)"
                        ));
                    } else if lines <= MAX_LINES {
                        problems.push(format!(
                            "{path}: {lines} non-blank lines, within {MAX_LINES}: remove its exception"
                        ));
                    }
                }
            }
            None if lines > MAX_LINES => problems.push(format!(
                "{path}: {lines} non-blank lines, more than {MAX_LINES}: split it by concept"
            )),
            None => {}
        }
    }
    for (exception, used) in exceptions.iter().zip(used) {
        if !used {
            problems.push(match exception {
                Exception::Long { path, .. } => {
                    format!("exception for {path}: no such non-test source file; remove it")
                }
                Exception::Cycle { krate, modules } => format!(
                    "exception for the cycle {} in crate {krate}: no such cycle any more; remove it",
                    modules.join(", ")
                ),
            });
        }
    }
    Ok(problems)
}

/// `file` relative to `workspace`, with `/` separators.
fn relative(workspace: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(workspace).unwrap_or(file);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
