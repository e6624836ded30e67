use std::io::Write as _;
use std::time::Duration;

use super::*;
use crate::config::{Limits, LogFormat, ServeArgs, ServeCli as Cli};

/// A config file with `text`, kept while the test runs.
fn file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

fn serve(args: &[&str]) -> Result<ServeArgs, String> {
    let loaded = parse_with_config::<Cli, _, _>(args.iter().copied()).map_err(|e| e.to_string())?;
    Ok(loaded.cli.into_serve())
}

fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().expect("utf-8 path")
}

#[test]
fn the_file_sets_what_flags_leave_at_their_defaults() {
    let f = file(
        "# a comment\n\
         listen = \"0.0.0.0:2200\"\n\
         max-per-ip = 8\n\
         max-fps = 30\n\
         proxy-protocol-from = [\"10.0.0.0/8\", \"192.0.2.1\"]\n\
         metrics-listen = \"127.0.0.1:9100\"\n\
         log-format = \"json\"\n\
         keepalive-secs = 1_0\n",
    );
    for args in [
        &["minotty", "--config", path(&f)][..],
        &["minotty", "serve", "--config", path(&f)],
    ] {
        let s = serve(args).expect("parses");
        assert_eq!(s.listen.to_string(), "0.0.0.0:2200");
        assert_eq!(s.limits.max_per_ip, 8);
        assert_eq!(s.limits.max_fps, 30);
        assert_eq!(s.limits.keepalive_secs, 10);
        assert_eq!(s.limits.proxy_protocol_from.len(), 2);
        assert_eq!(
            s.metrics_listen.map(|a| a.to_string()).as_deref(),
            Some("127.0.0.1:9100")
        );
        assert_eq!(s.log_format, LogFormat::Json);
        // Not in the file: the default.
        assert_eq!(s.limits.max_per_subnet, 64);
        assert_eq!(s.db, "sqlite://minotty.db");
    }
}

#[test]
fn flags_win_over_the_file_and_the_file_over_defaults() {
    let f = file("max-per-ip = 8\nmax-fps = 30\nproxy-protocol-from = [\"10.0.0.0/8\"]\n");
    let s = serve(&[
        "minotty",
        "--max-fps",
        "50",
        "--config",
        path(&f),
        "--proxy-protocol-from",
        "192.0.2.7",
    ])
    .expect("parses");
    assert_eq!(s.limits.max_fps, 50, "the flag wins");
    assert_eq!(s.limits.max_per_ip, 8, "the file wins over the default");
    // A list from the file is replaced by the flag's, not merged with it.
    let trusted: Vec<String> = s
        .limits
        .proxy_protocol_from
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(trusted, ["192.0.2.7/32"]);
    let limits = Limits::from(&s.limits);
    assert_eq!(limits.min_frame_interval, Duration::from_millis(20));
    // The printed settings say where each came from.
    let loaded =
        parse_with_config::<Cli, _, _>(["minotty", "--max-fps", "50", "--config", path(&f)])
            .expect("parses");
    let lines: Vec<&str> = loaded.effective.lines().collect();
    assert!(lines.contains(&"max-fps = \"50\"  # flag"), "{lines:?}");
    assert!(
        lines.contains(&"max-per-ip = \"8\"  # config file"),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"proxy-protocol-from = [\"10.0.0.0/8\"]  # config file"),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"max-connections = \"4096\"  # default"),
        "{lines:?}"
    );
    assert!(lines.contains(&"# metrics-listen = (not set)"), "{lines:?}");
    assert!(
        !loaded.effective.contains("config ="),
        "config is not a key"
    );
}

#[test]
fn unknown_keys_and_bad_values_name_the_file_line_and_key() {
    let cases = [
        (
            "listen = \"127.0.0.1:1\"\nmax-per-ipp = 3\n",
            ":2: unknown key `max-per-ipp`",
        ),
        ("\n\nmax-fps = 0\n", ":3: `max-fps`: invalid value '0'"),
        (
            "max-per-ip = \"many\"\n",
            ":1: `max-per-ip`: invalid value 'many'",
        ),
        ("listen = 2222\n", ":1: `listen`: invalid value '2222'"),
        (
            "log-format = \"xml\"\n",
            ":1: `log-format`: invalid value 'xml'",
        ),
        ("[limits]\nmax-per-ip = 3\n", ":1: unknown key `limits`"),
        (
            "max-per-ip = { a = 1 }\n",
            ":1: `max-per-ip`: a string, number",
        ),
        ("config = \"/etc/other.toml\"\n", ":1: unknown key `config`"),
        ("help = true\n", ":1: unknown key `help`"),
        ("max-per-ip = 3\nmax-per-ip = 4\n", ":2:"),
        ("max-per-ip = \n", ":1:"),
    ];
    for (text, expected) in cases {
        let f = file(text);
        let err = serve(&["minotty", "--config", path(&f)]).expect_err(text);
        assert!(
            err.starts_with(path(&f)) && err.contains(expected),
            "{text:?}: {err}"
        );
    }
    // A bad value is an error even where a flag overrides it: the file is wrong.
    let f = file("max-fps = 0\n");
    assert!(serve(&["minotty", "--max-fps", "30", "--config", path(&f)]).is_err());
    let err = serve(&["minotty", "--config", "/nonexistent/minotty.toml"]).expect_err("missing");
    assert!(err.starts_with("/nonexistent/minotty.toml: "), "{err}");
}

/// Every flag of `minotty serve` is a key of the example file (set or commented out), and
/// every key set there is one the server accepts.
#[test]
fn the_example_file_names_every_key_and_parses() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/minotty.toml");
    let text = std::fs::read_to_string(example).expect("deploy/minotty.toml");
    for arg in Cli::command().get_arguments() {
        let Some(key) = arg.get_long().filter(|k| !NOT_KEYS.contains(k)) else {
            continue;
        };
        if arg.is_hide_set() {
            continue;
        }
        let mentioned = text.lines().any(|l| {
            let l = l.trim_start_matches(['#', ' ']);
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        });
        assert!(mentioned, "deploy/minotty.toml does not mention `{key}`");
    }
    serve(&["minotty", "--config", example]).expect("the example parses");
    // With every commented key uncommented, it still parses.
    let all: String = text
        .lines()
        .map(|l| match l.strip_prefix("#") {
            Some(rest)
                if rest.trim_start().split_once(" = ").is_some_and(|(k, _)| {
                    Cli::command()
                        .get_arguments()
                        .any(|a| a.get_long() == Some(k))
                }) =>
            {
                rest.trim_start().to_owned() + "\n"
            }
            _ => l.to_owned() + "\n",
        })
        .collect();
    let f = file(&all);
    serve(&["minotty", "--config", path(&f)]).expect("every key of the example parses");
}

/// The example lists only what `minotty serve --help` shows: no hidden flag (`versus-seed`,
/// for load tests, is no setting of an operator's).
#[test]
fn the_example_file_names_no_hidden_flag() {
    let example = concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/minotty.toml");
    let text = std::fs::read_to_string(example).expect("deploy/minotty.toml");
    for arg in Cli::command().get_arguments() {
        let (Some(key), true) = (arg.get_long(), arg.is_hide_set()) else {
            continue;
        };
        let mentioned = text.lines().any(|l| {
            let l = l.trim_start_matches(['#', ' ']);
            l.strip_prefix(key)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        });
        assert!(
            !mentioned,
            "deploy/minotty.toml lists the hidden flag `{key}`"
        );
    }
}

/// `--print-config` never shows a secret: not the database's or NATS' password in their URLs,
/// nor the cluster key or NATS credentials, whether from a flag, the environment or the file.
#[test]
fn printed_settings_redact_secrets() {
    let key = "k".repeat(40);
    let f = file(&format!(
        "nats = \"nats://u:natspw@h:4222\"\ncluster-key = \"{key}\"\nnats-token = \"t0ken-secret\"\n"
    ));
    let loaded = parse_with_config::<Cli, _, _>([
        "minotty",
        "--db",
        "postgres://minotty:dbpw@db/minotty",
        "--nats-nkey-seed",
        "SUSEEDSECRET",
        "--config",
        path(&f),
    ])
    .expect("parses");
    let text = &loaded.effective;
    for secret in [
        "natspw",
        "dbpw",
        key.as_str(),
        "t0ken-secret",
        "SUSEEDSECRET",
    ] {
        assert!(!text.contains(secret), "{secret} shown:\n{text}");
    }
    let lines: Vec<&str> = text.lines().collect();
    for line in [
        "db = \"postgres://minotty:<redacted>@db/minotty\"  # flag",
        "nats = \"nats://u:<redacted>@h:4222\"  # config file",
        "cluster-key = \"<redacted>\"  # config file",
        "nats-token = \"<redacted>\"  # config file",
        "nats-nkey-seed = \"<redacted>\"  # flag",
    ] {
        assert!(lines.contains(&line), "{line} missing: {lines:?}");
    }
}
