//! Exec requests are commands, never a shell: `help` for now (`leaderboard` comes with the
//! accounts). Output goes to the client, then the exit status, EOF and close.

use russh::ChannelId;
use russh::server::Handle;

/// What a command prints and how it ends.
#[derive(Debug, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub status: u32,
}

/// Runs the command line `command` (the exec request's bytes).
pub fn dispatch(command: &[u8]) -> Outcome {
    let line = String::from_utf8_lossy(command);
    let mut words = line.split_whitespace();
    match words.next() {
        Some("help" | "--help" | "-h") => Outcome {
            stdout: HELP.to_owned(),
            stderr: String::new(),
            status: 0,
        },
        Some(other) => Outcome {
            stdout: String::new(),
            stderr: format!(
                "minotty: unknown command \"{}\"; the commands are listed by \"help\"\n",
                printable(other)
            ),
            status: 1,
        },
        None => Outcome {
            stdout: String::new(),
            stderr: "minotty: empty command; the commands are listed by \"help\"\n".to_owned(),
            status: 1,
        },
    }
}

const HELP: &str = "\
minotty: a falling-block puzzle game over SSH

  ssh -p PORT HOST          play (needs a terminal)
  ssh -p PORT HOST help     this list of commands
";

/// At most 64 printable characters of an untrusted word, for echoing back.
fn printable(word: &str) -> String {
    word.chars().filter(|c| !c.is_control()).take(64).collect()
}

/// Sends `outcome` on `channel` and ends the channel. With a PTY the client's terminal is in
/// raw mode, so line ends are CR LF.
pub async fn send(handle: &Handle, channel: ChannelId, outcome: Outcome, pty: bool) {
    let fix = |s: String| if pty { s.replace('\n', "\r\n") } else { s };
    if !outcome.stdout.is_empty() {
        let _ = handle.data(channel, fix(outcome.stdout).into_bytes()).await;
    }
    if !outcome.stderr.is_empty() {
        let _ = handle
            .extended_data(channel, 1, fix(outcome.stderr).into_bytes())
            .await;
    }
    let _ = handle.exit_status_request(channel, outcome.status).await;
    let _ = handle.eof(channel).await;
    let _ = handle.close(channel).await;
}

/// The answer to a shell request without a PTY.
pub fn no_pty() -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: "minotty needs a terminal: connect without -T (or add -t) to play; \
                 \"help\" lists the commands\n"
            .to_owned(),
        status: 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands() {
        let help = dispatch(b"help");
        assert_eq!(help.status, 0);
        assert!(help.stdout.contains("help"));
        assert!(help.stderr.is_empty());
        assert_eq!(dispatch(b"  help  extra").status, 0);

        let unknown = dispatch(b"rm -rf /");
        assert_eq!(unknown.status, 1);
        assert!(unknown.stdout.is_empty());
        assert!(unknown.stderr.contains("unknown command \"rm\""));
        assert_eq!(unknown.stderr.lines().count(), 1);

        let evil = dispatch(b"\x1b]0;pwned\x07");
        assert!(!evil.stderr.contains('\x1b'));
        assert_eq!(dispatch(b"").status, 1);
        assert_eq!(dispatch(&[0xff, 0xfe]).status, 1);
    }
}
