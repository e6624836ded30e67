//! One-key retry over real SSH: the OpenSSH client in a tmux server of the test's own plays
//! 40 lines, locks pieces, presses R, and is at once in a fresh game that takes a hard drop
//! (a countdown would swallow it: a hard drop during the countdown does nothing).

use minotty_tests::tmux::{ClientKey, Tmux, ssh_in_tmux_available};
use minotty_tests::{TestServer, WAIT, WELCOME};

type Result = anyhow::Result<()>;

/// The number on the stats column's PIECES row, if it shows.
fn pieces(screen: &str) -> Option<u32> {
    let line = screen.lines().find(|l| l.contains("PIECES"))?;
    let after = line.split("PIECES").nth(1)?;
    after.split_whitespace().next()?.parse().ok()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn r_retries_40_lines_at_once_over_real_ssh_in_tmux() -> Result {
    if !ssh_in_tmux_available() {
        return Ok(());
    }
    let server = TestServer::start().await?;
    let key = ClientKey::new()?;
    let ssh = key.ssh_as_ada(server.addr.port(), "; sleep 60");
    let name = format!("minotty-retry-{}", std::process::id());
    tokio::task::spawn_blocking(move || -> Result {
        let t = Tmux::start(&name, 100, 40, &ssh)?;
        let first = t.wait_until("the welcome screen or the menu", WAIT, |s| {
            s.contains(WELCOME) || s.contains("Leaderboards")
        })?;
        if first.contains(WELCOME) {
            t.send(&["Escape"])?;
        }
        t.wait_until("the menu", WAIT, |s| s.contains("Leaderboards"))?;
        t.send(&["Enter"])?;
        t.wait_until("the modes", WAIT, |s| s.contains("40 Lines"))?;
        t.send(&["Enter"])?;
        // The countdown ends and the clock runs.
        t.wait_until("a running 40 lines", WAIT, |s| {
            s.contains("R retry") && !s.contains("0:00.0") && pieces(s) == Some(0)
        })?;
        for want in 1..=3 {
            t.send(&["Space"])?;
            t.wait_until("a piece locked", WAIT, |s| pieces(s) == Some(want))?;
        }
        // R: a fresh game, no menus walked...
        t.send(&["r"])?;
        t.wait_until("a fresh game", WAIT, |s| pieces(s) == Some(0))?;
        // ...and no countdown: the first key of the new game plays.
        t.send(&["Space"])?;
        let screen = t.wait_until("a piece locked in the new game", WAIT, |s| {
            pieces(s) == Some(1)
        })?;
        assert!(screen.contains("LINES"), "{screen}");
        assert!(!screen.contains("RESULTS"), "{screen}");
        Ok(())
    })
    .await??;
    Ok(())
}
