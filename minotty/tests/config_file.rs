//! The `minotty` binary's settings: flags over MINOTTY_* variables over the config file over
//! the defaults (`--print-config` says which won), and a bad file stops it with the line.

use std::io::Write as _;
use std::process::{Command, Output};

fn minotty(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_minotty"));
    // Only the variables given: none of the caller's MINOTTY_* leak in.
    cmd.env_clear().args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("runs minotty")
}

fn config(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

#[test]
fn flags_beat_variables_beat_the_file_beat_defaults() {
    let f = config("max-per-ip = 7\nmax-per-subnet = 9\nmax-fps = 50\nlog-format = \"json\"\n");
    let path = f.path().to_str().expect("utf-8");
    let out = minotty(
        &[
            "serve",
            "--config",
            path,
            "--max-fps",
            "30",
            "--print-config",
        ],
        &[("MINOTTY_MAX_PER_IP", "5")],
    );
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("utf-8");
    for line in [
        "max-fps = \"30\"  # flag",
        "max-per-ip = \"5\"  # environment",
        "max-per-subnet = \"9\"  # config file",
        "log-format = \"json\"  # config file",
        "max-connections = \"4096\"  # default",
    ] {
        assert!(text.lines().any(|l| l == line), "{line:?} not in:\n{text}");
    }
    // The file named by a variable instead of the flag.
    let out = minotty(&["--print-config"], &[("MINOTTY_CONFIG", path)]);
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("max-per-ip = \"7\"  # config file"), "{text}");
}

#[test]
fn a_bad_file_stops_the_server_naming_the_line_and_key() {
    let f = config("listen = \"127.0.0.1:0\"\nmax-per-ipp = 3\n");
    let path = f.path().to_str().expect("utf-8");
    let out = minotty(&["serve", "--config", path], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).expect("utf-8");
    assert_eq!(
        err.trim_end(),
        format!(
            "minotty: {path}:2: unknown key `max-per-ipp` (the keys are the flags of \
             `minotty serve --help`, without the dashes)"
        )
    );
    let f = config("\nkeepalive-secs = 0\n");
    let path = f.path().to_str().expect("utf-8");
    let out = minotty(&["--config", path], &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).expect("utf-8");
    assert!(
        err.starts_with(&format!(
            "minotty: {path}:2: `keepalive-secs`: invalid value '0'"
        )),
        "{err}"
    );
}
