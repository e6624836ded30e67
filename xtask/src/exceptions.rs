//! The listed exceptions: files allowed over the line limit and module cycles allowed to stay,
//! each with its reason. The list only shrinks: a listed file may not grow past its listed
//! count, a listed cycle excuses only cycles among its own modules, and an entry that no longer
//! excuses anything is itself an error (so it is removed once its file is split or its cycle
//! broken).

use anyhow::{Context, Result, bail};

/// One line of the exceptions file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exception {
    /// `long <path> <non-blank lines> -- <reason>`
    Long { path: String, lines: usize },
    /// `cycle <crate> <module> <module>... -- <reason>` (modules as `a::b` from the crate root)
    Cycle { krate: String, modules: Vec<String> },
}

/// Reads the exceptions file: `#` starts a comment line; every entry needs a reason.
pub fn parse(text: &str) -> Result<Vec<Exception>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = || format!("exceptions line {}", n + 1);
        let (entry, reason) = line
            .split_once(" -- ")
            .with_context(|| format!("{}: no reason (`... -- why`)", at()))?;
        if reason.trim().is_empty() {
            bail!("{}: empty reason", at());
        }
        let words: Vec<&str> = entry.split_whitespace().collect();
        let exception = match words.as_slice() {
            ["long", path, lines] => Exception::Long {
                path: (*path).to_string(),
                lines: lines.parse().with_context(at)?,
            },
            ["cycle", krate, modules @ ..] if modules.len() >= 2 => Exception::Cycle {
                krate: (*krate).to_string(),
                modules: modules.iter().map(|m| (*m).to_string()).collect(),
            },
            _ => bail!(
                "{}: expected `long <path> <lines>` or `cycle <crate> <modules>...`",
                at()
            ),
        };
        out.push(exception);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::{Exception, parse};

    #[test]
    fn entries_need_a_reason() {
        let text = "# comment\nlong a/b.rs 700 -- to be split\ncycle c x y::z -- later\n";
        assert_eq!(
            parse(text).unwrap(),
            vec![
                Exception::Long {
                    path: "a/b.rs".into(),
                    lines: 700
                },
                Exception::Cycle {
                    krate: "c".into(),
                    modules: vec!["x".into(), "y::z".into()]
                },
            ]
        );
        assert!(parse("long a/b.rs 700\n").is_err());
        assert!(parse("long a/b.rs 700 --  \n").is_err());
        assert!(parse("cycle c x -- one module is no cycle\n").is_err());
    }
}
