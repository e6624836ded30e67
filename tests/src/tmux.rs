//! The real OpenSSH client inside a tmux server of the test's own (`tmux -L NAME`), read with
//! `capture-pane` and typed at with `send-keys`, as a player's terminal.

use std::path::PathBuf;
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

    /// Waits (blocking) until the screen shows `text`; returns that screen.
    pub fn wait_for(&self, text: &str, within: Duration) -> anyhow::Result<String> {
        self.wait_until(&format!("{text:?}"), within, |s| s.contains(text))
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

/// Whether the OpenSSH client can be driven in tmux here (tmux, ssh and ssh-keygen run); if
/// not, says that the test is skipped.
pub fn ssh_in_tmux_available() -> bool {
    let ok = have("tmux", "-V") && have("ssh", "-V") && have("ssh-keygen", "--help");
    if !ok {
        eprintln!("skipped: needs tmux, ssh and ssh-keygen");
    }
    ok
}

/// A fresh ed25519 key (no passphrase) for the OpenSSH client, in a directory of its own that
/// is removed when dropped.
#[derive(Debug)]
pub struct ClientKey {
    dir: tempfile::TempDir,
}

impl ClientKey {
    /// Makes the key with `ssh-keygen`.
    pub fn new() -> anyhow::Result<ClientKey> {
        let dir = tempfile::tempdir()?;
        let made = Command::new("ssh-keygen")
            .args(["-q", "-t", "ed25519", "-N", "", "-f"])
            .arg(dir.path().join("id"))
            .status()?;
        anyhow::ensure!(made.success(), "ssh-keygen failed");
        Ok(ClientKey { dir })
    }

    /// The private key's file.
    pub fn path(&self) -> PathBuf {
        self.dir.path().join("id")
    }

    /// The shell line for a tmux session: OpenSSH (a PTY forced, no host key kept, errors
    /// only, never asking) logs in as ada to 127.0.0.1:`port` with this key; `then` follows
    /// the host as written (" doctor; sleep 60" runs `doctor`, "; sleep 60" the shell).
    pub fn ssh_as_ada(&self, port: u16, then: &str) -> String {
        format!(
            "ssh -tt -p {port} -i {} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \
             -o LogLevel=ERROR -o BatchMode=yes ada@127.0.0.1{then}",
            self.path().display()
        )
    }
}
