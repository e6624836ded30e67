//! `minotty play` end to end: the real binary in a tmux server of the test's own (a real
//! terminal, 80x24) starts 40 lines from `--mode`, takes a hard drop, asks before quitting on
//! Ctrl+C, exits 0 on `y` and gives the terminal back (the alternate screen left). The
//! binary's `play` is `minotty_local::run`; this is the one test that runs it whole.

use std::time::Duration;

use minotty_tests::cluster::server_binary;
use minotty_tests::tmux::{Tmux, have};

/// The number on the stats column's PIECES row, if it shows.
fn pieces(screen: &str) -> Option<u32> {
    let line = screen.lines().find(|l| l.contains("PIECES"))?;
    line.split("PIECES")
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[test]
fn minotty_play_starts_a_mode_plays_and_quits_cleanly_in_a_real_terminal() -> anyhow::Result<()> {
    if !have("tmux", "-V") {
        eprintln!("skipped: needs tmux");
        return Ok(());
    }
    let bin = server_binary()?;
    let dir = tempfile::tempdir()?;
    let save = dir.path().join("save.json");
    let shell = format!(
        "env -i TERM=xterm-256color HOME={home} USER=ada {bin} play --mode 40l --save-file {save}; \
         echo \"EXITED $?\"; sleep 60",
        home = dir.path().display(),
        bin = bin.display(),
        save = save.display(),
    );
    let tmux = Tmux::start(
        &format!("minotty-local-play-{}", std::process::id()),
        80,
        24,
        &shell,
    )?;
    let within = Duration::from_secs(30);
    let screen = tmux.wait_until("the 40 lines game", within, |s| pieces(s) == Some(0))?;
    // The whole title line: the mode and ruleset centred, the player's name ($USER) right.
    let title = screen.lines().next().unwrap_or_default();
    assert_eq!(
        title.trim_end(),
        format!(
            "{}MINOTTY · 40 Lines · standard{}ada",
            " ".repeat(13),
            " ".repeat(22)
        ),
        "{screen}"
    );
    tmux.send(&["Space"])?;
    tmux.wait_until("a piece locked", within, |s| pieces(s) == Some(1))?;
    tmux.send(&["C-c"])?;
    tmux.wait_until("the quit question", within, |s| s.contains("Quit minotty?"))?;
    tmux.send(&["y"])?;
    let screen = tmux.wait_until("the exit", within, |s| s.contains("EXITED"))?;
    assert!(screen.contains("EXITED 0"), "{screen}");
    // Back on the normal screen: nothing of the game is left on it.
    assert!(
        !screen.contains("PIECES") && !screen.contains("MINOTTY"),
        "{screen}"
    );
    // A game that cleared no line is not kept and no setting changed: nothing was written.
    assert!(!save.exists(), "{}", save.display());
    Ok(())
}
