//! The binary's help, byte for byte: `minotty --help` and `minotty play --help` (and their
//! short `-h` forms) against the texts in `tests/help/`. The flags of `minotty play` are
//! declared in the `minotty-local` crate and flattened into the server's command line; this
//! pins that moving them (or anything else) changes nothing a user reads.

use std::process::Command;

/// What `minotty <args>` prints on stdout, with no MINOTTY_* variable set (clap shows a set
/// variable's value in the help).
fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_minotty"))
        .args(args)
        .env_clear()
        .output()
        .expect("runs minotty");
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Compares line by line first, so a failure names the first line that differs.
fn assert_pinned(args: &[&str], expected: &str) {
    let actual = help(args);
    for (i, (a, e)) in actual.lines().zip(expected.lines()).enumerate() {
        assert_eq!(a, e, "`minotty {}` line {}", args.join(" "), i + 1);
    }
    assert_eq!(actual, expected, "`minotty {}`", args.join(" "));
}

#[test]
fn top_level_help_is_unchanged() {
    assert_pinned(&["--help"], include_str!("help/minotty.txt"));
    assert_pinned(&["-h"], include_str!("help/minotty-short.txt"));
}

#[test]
fn play_help_is_unchanged() {
    assert_pinned(&["play", "--help"], include_str!("help/play.txt"));
    assert_pinned(&["play", "-h"], include_str!("help/play-short.txt"));
}
