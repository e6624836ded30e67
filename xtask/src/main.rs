//! `cargo run -p xtask -- layout`: the module-cycle and file-length check of `.ci/run`.
//! `cargo run -p xtask -- edges <crate>`: the edges between a crate's sibling modules, one
//! written path each, to see where a cycle comes from.

use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::process::{Command, ExitCode};
use xtask::{Target, check, exceptions, modules};

/// Where the exceptions are listed, from the workspace root.
const EXCEPTIONS: &str = ".ci/layout-exceptions.txt";

fn main() -> Result<ExitCode> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (workspace, targets) = workspace_targets()?;
    match args
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["layout"] => layout(&workspace, &targets),
        ["edges", name] => {
            let target = targets
                .iter()
                .find(|t| t.name == *name)
                .with_context(|| format!("no crate {name} in the workspace"))?;
            let mut shown = std::collections::BTreeSet::new();
            for e in modules::Crate::load(&target.root)?.edges() {
                if shown.insert((e.from.clone(), e.to.clone())) {
                    println!(
                        "{} -> {}: `{}`",
                        e.from.join("::"),
                        e.to.join("::"),
                        e.written
                    );
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        _ => bail!("usage: cargo run -p xtask -- layout | edges <crate>"),
    }
}

fn layout(workspace: &std::path::Path, targets: &[Target]) -> Result<ExitCode> {
    let listed = std::fs::read_to_string(workspace.join(EXCEPTIONS))
        .with_context(|| format!("reading {EXCEPTIONS}"))?;
    let exceptions = exceptions::parse(&listed)?;
    let problems = check(workspace, targets, &exceptions)?;
    for p in &problems {
        eprintln!("{p}");
    }
    if problems.is_empty() {
        println!(
            "layout: {} crates: no module cycle and no file over {} non-blank lines besides the {} listed exceptions",
            targets.len(),
            xtask::MAX_LINES,
            exceptions.len()
        );
        Ok(ExitCode::SUCCESS)
    } else {
        eprintln!(
            "layout: {} problems (exceptions: {EXCEPTIONS})",
            problems.len()
        );
        Ok(ExitCode::FAILURE)
    }
}

/// The workspace root and the library and binary targets of its members, from `cargo metadata`.
fn workspace_targets() -> Result<(PathBuf, Vec<Target>)> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--no-deps", "--format-version", "1"])
        .output()
        .context("running cargo metadata")?;
    if !output.status.success() {
        bail!(
            "cargo metadata: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let meta: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let workspace = PathBuf::from(meta["workspace_root"].as_str().context("workspace_root")?);
    let mut targets = Vec::new();
    for package in meta["packages"].as_array().context("packages")? {
        let package_name = package["name"].as_str().context("package name")?;
        for target in package["targets"].as_array().context("targets")? {
            let kinds: Vec<&str> = target["kind"]
                .as_array()
                .context("target kind")?
                .iter()
                .filter_map(|k| k.as_str())
                .collect();
            let name = if kinds.iter().any(|k| *k == "lib" || *k == "proc-macro") {
                package_name
            } else if kinds.contains(&"bin") {
                target["name"].as_str().context("target name")?
            } else {
                continue; // tests, benches, examples, build scripts
            };
            targets.push(Target {
                name: name.to_string(),
                root: PathBuf::from(target["src_path"].as_str().context("src_path")?),
            });
        }
    }
    Ok((workspace, targets))
}
