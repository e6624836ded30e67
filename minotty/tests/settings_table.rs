//! The settings table of `deploy/README.md` ("Settings") against the real flags: every flag
//! that `minotty serve --help` prints is a row, every flag a row names exists, each row names
//! the flag's environment variable, and where the table states a default it is clap's. The
//! environment file `deploy/minotty.env.example` names only variables the server reads.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

/// One flag as `--help` prints it.
#[derive(Debug)]
struct Flag {
    env: Option<String>,
    default: Option<String>,
}

/// The text between `open` and the next `]` after it in `text`.
fn bracket(text: &str, open: &str) -> Option<String> {
    let start = text.find(open)? + open.len();
    let end = text[start..].find(']')? + start;
    Some(text[start..end].to_owned())
}

/// Every long flag of `minotty serve --help` (but `--help`), with its variable and default.
fn help_flags() -> BTreeMap<String, Flag> {
    let out = Command::new(env!("CARGO_BIN_EXE_minotty"))
        .args(["serve", "--help"])
        .env_clear()
        .output()
        .expect("runs minotty");
    assert!(out.status.success(), "{out:?}");
    let help = String::from_utf8(out.stdout).expect("utf-8");
    // A flag's block: its `--name` line and the description lines up to the next flag.
    let mut blocks: Vec<(String, String)> = Vec::new();
    for line in help.lines() {
        let trimmed = line.trim_start();
        let name = trimmed
            .strip_prefix("-h, ")
            .unwrap_or(trimmed)
            .strip_prefix("--")
            .filter(|_| line.starts_with(' '))
            .and_then(|rest| rest.split([' ', '=']).next());
        match (name, blocks.last_mut()) {
            (Some(name), _) if trimmed.starts_with("--") || trimmed.starts_with("-h,") => {
                blocks.push((name.to_owned(), String::new()));
            }
            (_, Some((_, text))) => {
                text.push_str(line);
                text.push('\n');
            }
            _ => {}
        }
    }
    blocks
        .into_iter()
        .filter(|(name, _)| name != "help")
        .map(|(name, text)| {
            let env = bracket(&text, "[env: ").map(|e| e.trim_end_matches('=').to_owned());
            let default = bracket(&text, "[default: ");
            (name, Flag { env, default })
        })
        .collect()
}

/// One row of the table: the flags and variables it names (in backticks) and its default
/// cell.
#[derive(Debug)]
struct Row {
    flags: Vec<String>,
    vars: Vec<String>,
    default: String,
}

/// The words in backticks in `cell` that start with `prefix`.
fn quoted(cell: &str, prefix: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter(|w| w.starts_with(prefix))
        .map(str::to_owned)
        .collect()
}

/// The rows of the table under `## Settings` in deploy/README.md.
fn table_rows() -> Vec<Row> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/README.md");
    let text = std::fs::read_to_string(path).expect("deploy/README.md");
    let section = text
        .split("\n## Settings\n")
        .nth(1)
        .expect("a Settings section");
    let section = section.split("\n## ").next().unwrap_or(section);
    let rows: Vec<Row> = section
        .lines()
        .skip_while(|l| !l.starts_with("| flag |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .map(|l| {
            let cells: Vec<&str> = l.split('|').skip(1).collect();
            assert!(cells.len() >= 4, "a row of four cells: {l}");
            Row {
                flags: quoted(cells[0], "--")
                    .iter()
                    .map(|f| f.trim_start_matches('-').to_owned())
                    .collect(),
                vars: quoted(cells[1], "MINOTTY_"),
                default: cells[2].trim().to_owned(),
            }
        })
        .collect();
    assert!(rows.len() > 20, "the table was found: {} rows", rows.len());
    rows
}

/// The default a table cell states, if any: its text before a `;`, without backticks; "none",
/// "off" and an empty cell state none.
fn stated_default(cell: &str) -> Option<String> {
    let value = cell.split(';').next().unwrap_or(cell).replace('`', "");
    let value = value.trim();
    (!["", "none", "off"].contains(&value)).then(|| value.to_owned())
}

#[test]
fn the_settings_table_matches_the_flags_of_serve_help() {
    let flags = help_flags();
    assert!(flags.contains_key("listen") && flags.contains_key("nats-client-key"));
    let rows = table_rows();
    let mut listed = BTreeSet::new();
    let mut problems = Vec::new();
    for row in &rows {
        for name in &row.flags {
            if !listed.insert(name.clone()) {
                problems.push(format!("--{name} has two rows"));
            }
            let Some(flag) = flags.get(name) else {
                problems.push(format!(
                    "the table names --{name}, which `minotty serve --help` does not have"
                ));
                continue;
            };
            if let Some(env) = &flag.env
                && !row.vars.contains(env)
            {
                problems.push(format!("--{name}: the row does not name {env}"));
            }
            if row.flags.len() == 1 {
                let stated = stated_default(&row.default);
                if stated != flag.default {
                    problems.push(format!(
                        "--{name}: the table's default is {stated:?}, the flag's {:?}",
                        flag.default
                    ));
                }
            } else if let Some(stated) = stated_default(&row.default) {
                problems.push(format!(
                    "--{name}: a default ({stated}) on a row of several"
                ));
            }
        }
        let envs: BTreeSet<&String> = row
            .flags
            .iter()
            .filter_map(|f| flags.get(f).and_then(|f| f.env.as_ref()))
            .collect();
        for var in &row.vars {
            if !envs.contains(var) {
                problems.push(format!("{var} is not the variable of {:?}", row.flags));
            }
        }
    }
    for name in flags.keys() {
        if !listed.contains(name) {
            problems.push(format!("--{name} is missing from the table"));
        }
    }
    assert!(
        problems.is_empty(),
        "deploy/README.md's settings table differs from `minotty serve --help`:\n{}",
        problems.join("\n")
    );
}

/// Every `MINOTTY_*` variable deploy/minotty.env.example sets (or shows commented out) is one
/// the server reads.
#[test]
fn the_environment_example_names_only_real_variables() {
    let vars: BTreeSet<String> = help_flags().into_values().filter_map(|f| f.env).collect();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/minotty.env.example");
    let text = std::fs::read_to_string(path).expect("deploy/minotty.env.example");
    let mut named = 0;
    for line in text.lines() {
        let line = line.trim_start_matches(['#', ' ']);
        let Some((var, _)) = line.split_once('=') else {
            continue;
        };
        if var.starts_with("MINOTTY_") && !var.contains(' ') {
            named += 1;
            assert!(
                vars.contains(var),
                "minotty.env.example sets {var}, which no flag reads"
            );
        }
    }
    assert!(named > 10, "the example's variables were found: {named}");
}

/// Every variable of `minotty serve --help` is in deploy/minotty.env.example (set, or shown
/// commented out): an operator copying it misses no setting (before, the spool directory,
/// the drain, the instance name and NATS' token, nkey and creds were missing).
#[test]
fn the_environment_example_names_every_variable() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/minotty.env.example");
    let text = std::fs::read_to_string(path).expect("deploy/minotty.env.example");
    let named: BTreeSet<&str> = text
        .lines()
        .filter_map(|l| l.trim_start_matches(['#', ' ']).split_once('='))
        .map(|(var, _)| var)
        .collect();
    let missing: Vec<String> = help_flags()
        .into_values()
        .filter_map(|f| f.env)
        .filter(|var| !named.contains(var.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "minotty.env.example lacks {}",
        missing.join(", ")
    );
}
