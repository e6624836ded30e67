//! The config file (`--config PATH`, `MINOTTY_CONFIG`): TOML whose keys are the long flags of
//! `minotty serve` without their dashes (`max-per-ip = 8`, `proxy-protocol-from =
//! ["10.0.0.2"]`). Precedence: flags, then `MINOTTY_*` variables, then the file, then the
//! defaults. A key that names no flag, or a value the flag would refuse, is an error naming
//! the file, the line and the key; the server does not start.
//!
//! How: clap parses the command line and the environment once; every key of the file whose
//! flag came from neither is checked alone (a parse of just that flag, so a bad value is
//! reported with its line) and then appended to the arguments as `--key=value`, and clap
//! parses the whole again. The file never adds a way of setting something that a flag does
//! not have, and every flag, including ones added later, is a key.

use std::ffi::OsString;
use std::path::Path;

use clap::parser::ValueSource;
use clap::{ArgAction, ArgMatches, CommandFactory, FromArgMatches};
use toml::de::{DeTable, DeValue};

/// The largest config file read.
pub const MAX_FILE_BYTES: u64 = 1 << 20;

/// Flags that are not settings: they are never keys of the file.
const NOT_KEYS: &[&str] = &["config", "print-config", "help", "version"];

/// Why the command line, the environment or the config file was refused.
#[derive(Debug)]
pub enum ConfigError {
    /// From clap (also `--help` and `--version`): `exit()` prints it as clap does.
    Cli(clap::Error),
    /// The config file: one line naming the file, the line and the key.
    File(String),
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ConfigError::Cli(e) => write!(f, "{e}"),
            ConfigError::File(e) => f.write_str(e),
        }
    }
}

/// The parsed command line with its config file.
#[derive(Debug)]
pub struct Loaded<C> {
    pub cli: C,
    /// The serve settings in effect as a config file, each with where it came from (what
    /// `--print-config` prints); empty for the other subcommands.
    pub effective: String,
}

/// Parses `args` (the program name first) as the command line `C` (the server's
/// [`super::ServeCli`], or the binary's, with the serve flags at its top level and under a
/// `serve` subcommand) with the config file the serve flags name, if any.
pub fn parse_with_config<C, I, T>(args: I) -> Result<Loaded<C>, ConfigError>
where
    C: CommandFactory + FromArgMatches,
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let mut args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let first = C::command()
        .try_get_matches_from(&args)
        .map_err(ConfigError::Cli)?;
    let serve = match first.subcommand() {
        None => &first,
        Some(("serve", sub)) => sub,
        Some(_) => {
            let cli = C::from_arg_matches(&first).map_err(ConfigError::Cli)?;
            return Ok(Loaded {
                cli,
                effective: String::new(),
            });
        }
    };
    let mut from_file = Vec::new();
    if let Some(path) = serve.get_one::<std::path::PathBuf>("config") {
        let text = read(path)?;
        for (id, flag_args) in file_args::<C>(&path.display().to_string(), &text, serve)? {
            from_file.push(id);
            args.extend(flag_args);
        }
    }
    let matches = C::command()
        .try_get_matches_from(&args)
        .map_err(ConfigError::Cli)?;
    let cli = C::from_arg_matches(&matches).map_err(ConfigError::Cli)?;
    let serve = match matches.subcommand() {
        Some((_, sub)) => sub,
        None => &matches,
    };
    let effective = effective::<C>(serve, serve_given(&first), &from_file);
    Ok(Loaded { cli, effective })
}

/// The matches of the serve flags (top level, or the `serve` subcommand's).
fn serve_given(matches: &ArgMatches) -> &ArgMatches {
    match matches.subcommand() {
        Some((_, sub)) => sub,
        None => matches,
    }
}

fn read(path: &Path) -> Result<String, ConfigError> {
    let err = |e: &dyn std::fmt::Display| ConfigError::File(format!("{}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(|e| err(&e))?;
    let mut text = String::new();
    std::io::Read::read_to_string(
        &mut std::io::Read::take(file, MAX_FILE_BYTES + 1),
        &mut text,
    )
    .map_err(|e| err(&e))?;
    if text.len() as u64 > MAX_FILE_BYTES {
        return Err(err(&format!("larger than {MAX_FILE_BYTES} bytes")));
    }
    Ok(text)
}

/// The 1-based line of byte `at` in `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.get(..at).map_or(0, |t| t.matches('\n').count()) + 1
}

/// The arguments the file adds (`--key=value`, in the file's order; with each flag's id) for
/// the flags `given` (the command line and environment already parsed) left at their defaults.
fn file_args<C: CommandFactory>(
    name: &str,
    text: &str,
    given: &ArgMatches,
) -> Result<Vec<(String, Vec<OsString>)>, ConfigError> {
    let table = DeTable::parse(text).map_err(|e| {
        let line = e.span().map_or(1, |s| line_of(text, s.start));
        ConfigError::File(format!("{name}:{line}: {}", e.message().trim_end()))
    })?;
    let cmd = C::command();
    let mut out = Vec::new();
    for (key, value) in table.get_ref() {
        let line = line_of(text, key.span().start);
        let key = key.get_ref().as_ref();
        let at = |what: String| ConfigError::File(format!("{name}:{line}: {what}"));
        let arg = cmd
            .get_arguments()
            .find(|a| a.get_long() == Some(key) && !NOT_KEYS.contains(&key))
            .ok_or_else(|| {
                at(format!(
                    "unknown key `{key}` (the keys are the flags of `minotty serve --help`, \
                     without the dashes)"
                ))
            })?;
        let values = scalars(value.get_ref()).ok_or_else(|| {
            at(format!(
                "`{key}`: a string, number, boolean or list of them"
            ))
        })?;
        let mut flag_args = Vec::new();
        for v in values {
            if matches!(arg.get_action(), ArgAction::SetTrue) {
                match v.as_str() {
                    "true" => flag_args.push(format!("--{key}")),
                    "false" => {}
                    _ => return Err(at(format!("`{key}`: true or false"))),
                }
            } else {
                flag_args.push(format!("--{key}={v}"));
            }
        }
        // Checked alone, so that a bad value is reported with its key and line.
        if let Err(e) = C::command().try_get_matches_from(
            ["minotty".to_owned(), "serve".to_owned()]
                .into_iter()
                .chain(flag_args.iter().cloned()),
        ) {
            let rendered = e.render().to_string();
            let first = rendered.lines().next().unwrap_or_default();
            let why = first.strip_prefix("error: ").unwrap_or(first);
            return Err(at(format!("`{key}`: {why}")));
        }
        let from_user = matches!(
            given.value_source(arg.get_id().as_str()),
            Some(ValueSource::CommandLine | ValueSource::EnvVariable)
        );
        if !from_user {
            let flag_args = flag_args.into_iter().map(OsString::from).collect();
            out.push((arg.get_id().to_string(), flag_args));
        }
    }
    Ok(out)
}

/// A value as the strings a flag takes: a list gives one per element; tables and dates none.
fn scalars(value: &DeValue<'_>) -> Option<Vec<String>> {
    Some(match value {
        DeValue::String(s) => vec![s.to_string()],
        DeValue::Integer(i) => {
            let digits = i.as_str().replace('_', "");
            let n = i128::from_str_radix(&digits, i.radix()).ok()?;
            vec![n.to_string()]
        }
        DeValue::Float(f) => vec![f.as_str().replace('_', "")],
        DeValue::Boolean(b) => vec![b.to_string()],
        DeValue::Array(items) => {
            let mut out = Vec::new();
            for item in items.iter() {
                match item.get_ref() {
                    DeValue::Array(_) | DeValue::Table(_) => return None,
                    v => out.extend(scalars(v)?),
                }
            }
            out
        }
        DeValue::Datetime(_) | DeValue::Table(_) => return None,
    })
}

/// The settings in effect for `minotty serve` as a config file: every key with its value and,
/// in a comment, where it came from (`--print-config`); secrets redacted
/// ([`super::secrets`]). `given` is the parse without the
/// file, `from_file` the ids the file set.
fn effective<C: CommandFactory>(
    matches: &ArgMatches,
    given: &ArgMatches,
    from_file: &[String],
) -> String {
    let mut out = String::new();
    for arg in C::command().get_arguments() {
        let Some(key) = arg.get_long().filter(|k| !NOT_KEYS.contains(k)) else {
            continue;
        };
        let id = arg.get_id().as_str();
        let source = match given.value_source(id) {
            _ if from_file.iter().any(|f| f == id) => "config file",
            Some(ValueSource::CommandLine) => "flag",
            Some(ValueSource::EnvVariable) => "environment",
            Some(ValueSource::DefaultValue) => "default",
            _ => "not set",
        };
        let values: Vec<String> = matches
            .get_raw(id)
            .map(|v| {
                v.map(|s| quote(&super::secrets::shown_value(key, &s.to_string_lossy())))
                    .collect()
            })
            .unwrap_or_default();
        match values.as_slice() {
            [] => out.push_str(&format!("# {key} = (not set)\n")),
            [one] if !matches!(arg.get_action(), ArgAction::Append) => {
                out.push_str(&format!("{key} = {one}  # {source}\n"));
            }
            many => out.push_str(&format!("{key} = [{}]  # {source}\n", many.join(", "))),
        }
    }
    out
}

/// A TOML basic string.
fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", u32::from(c))),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests;
