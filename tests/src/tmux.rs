//! The real OpenSSH client inside a tmux server of the test's own (`tmux -L NAME`), read with
//! `capture-pane` and typed at with `send-keys`, as a player's terminal.

use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::bail;

/// A tmux server of the test's own (its socket name) with one session `t`, killed when dropped.
#[derive(Debug)]
pub struct Tmux(String);

impl Tmux {
    /// Starts a tmux server named `name` whose session `t` (`cols` x `rows`) runs `shell`.
    pub fn start(name: &str, cols: u16, rows: u16, shell: &str) -> anyhow::Result<Tmux> {
        let tmux = Tmux(name.to_owned());
        let started = tmux
            .cmd()
            .args(["new-session", "-d", "-s", "t", "-x"])
            .arg(cols.to_string())
            .arg("-y")
            .arg(rows.to_string())
            .arg(shell)
            .status()?;
        anyhow::ensure!(started.success(), "tmux did not start");
        Ok(tmux)
    }

    pub fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        // A test run from inside tmux starts a server of its own all the same.
        c.env_remove("TMUX").args(["-L", &self.0]);
        c
    }

    /// Types `keys` (tmux key names: `Enter`, `Space`, `r`).
    pub fn send(&self, keys: &[&str]) -> anyhow::Result<()> {
        let ok = self
            .cmd()
            .args(["send-keys", "-t", "t"])
            .args(keys)
            .status()?;
        anyhow::ensure!(ok.success(), "tmux send-keys failed");
        Ok(())
    }

    pub fn screen(&self) -> anyhow::Result<String> {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-t", "t"])
            .output()?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Waits (blocking) until `ok` holds for the screen; returns that screen.
    pub fn wait_until(
        &self,
        what: &str,
        within: Duration,
        ok: impl Fn(&str) -> bool,
    ) -> anyhow::Result<String> {
        let deadline = Instant::now() + within;
        loop {
            let screen = self.screen()?;
            if ok(&screen) {
                return Ok(screen);
            }
            if Instant::now() >= deadline {
                bail!("{what} did not show; screen:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").output();
    }
}

/// Whether `program` runs (`arg` being `-V` or `--help`).
pub fn have(program: &str, arg: &str) -> bool {
    Command::new(program)
        .arg(arg)
        .output()
        .is_ok_and(|o| o.status.success() || !o.stderr.is_empty())
}
