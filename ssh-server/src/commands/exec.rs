//! Exec requests are commands, never a shell: the replies of `help` and `leaderboard` (`replay
//! ID --cast` is `cast_export.rs`'s), each parsed by `parse.rs` and admitted first by the
//! budgets of `command_budget.rs`. Output goes to the client, then the exit status, EOF and
//! close. Output is plain text (no colours, with or
//! without a PTY).

use minotty_domain::Period;
use minotty_engine::RulesetId;
use minotty_protocol::BoardId;
use russh::ChannelId;
use russh::server::Handle;

use super::parse::{BoardQuery, Command};
use crate::boards;
use minotty_store::{Store, unix_now};

/// Rows the `leaderboard` command prints.
pub const COMMAND_ROWS: u32 = 20;

/// What a command prints and how it ends.
#[derive(Debug, PartialEq, Eq)]
pub struct Outcome {
    pub stdout: String,
    pub stderr: String,
    pub status: u32,
}

impl Outcome {
    pub(crate) fn ok(stdout: String) -> Outcome {
        Outcome {
            stdout,
            stderr: String::new(),
            status: 0,
        }
    }

    pub(crate) fn fail(message: String) -> Outcome {
        Outcome {
            stdout: String::new(),
            stderr: format!("minotty: {message}\n"),
            status: 1,
        }
    }
}

/// The reply of `command`, one that prints text (`help`, `leaderboard`, an unknown or empty
/// command); `store` answers `leaderboard`. The commands that open a game or stream a cast
/// never come here (`commands::route`, `run.rs`): they are unknown to it.
pub async fn dispatch(
    command: &Command,
    store: Option<&Store>,
    local: Option<std::net::SocketAddr>,
) -> Outcome {
    match command {
        Command::Help => Outcome::ok(crate::address::fill(HELP, local).into_owned()),
        Command::Leaderboard(Ok(BoardQuery {
            board,
            period,
            ruleset,
        })) => leaderboard(store, *board, *period, *ruleset).await,
        Command::Leaderboard(Err(message)) => Outcome::fail(message.clone()),
        Command::Unknown(word) => unknown(word),
        Command::Empty => Outcome {
            stdout: String::new(),
            stderr: "minotty: empty command; the commands are listed by \"help\"\n".to_owned(),
            status: 1,
        },
        Command::Replay(_) => unknown("replay"),
        Command::Join { spectate, .. } => unknown(if *spectate { "watch" } else { "join" }),
        Command::JoinUsage | Command::NotACode(_) => unknown("join"),
        Command::Tv => unknown("tv"),
        Command::Doctor => unknown("doctor"),
        Command::WatchMatch(_) => unknown("replay"),
        // Run by `run.rs` with the caller's account (`web_link.rs`).
        Command::Web(Ok(_)) => unknown("web"),
        Command::Web(Err(message)) => Outcome::fail(message.clone()),
    }
}

fn unknown(word: &str) -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: format!(
            "minotty: unknown command \"{word}\"; the commands are listed by \"help\"\n"
        ),
        status: 1,
    }
}

const HELP: &str = "\
minotty: a falling-block puzzle game over SSH

  ssh -p PORT HOST                      play (needs a terminal; OpenSSH 9.5+ holds
                                        keys up to 20 ms: -o ObscureKeystrokeTiming=no)
  ssh -p PORT HOST help                 this list of commands
  ssh -p PORT HOST leaderboard [MODE] [--period all|month|today]
                                        the top of a leaderboard (MODE: 40l, marathon,
                                        ultra, master, cheese, combo, descent, classic,
                                        survival, ascent, versus, climb; default 40l)
      [--ruleset standard|tui-tetris|tetrs]  40l, marathon and ultra per ruleset
                                        (descent's and ascent's are tetrs)
  ssh -p PORT HOST leaderboard versus   the ratings of ranked versus matches
  ssh -p PORT HOST replay ID --cast [--size COLSxROWS] > game.cast
                                        a stored game as an asciicast file
                                        (asciinema play game.cast); ID is the
                                        game # in the replay viewer and profile;
                                        leaderboard games by anyone, others only
                                        by their player's key; size 80x24 default
  ssh -t -p PORT HOST join CODE         play in the versus room CODE
  ssh -t -p PORT HOST watch CODE        watch the room CODE as a spectator
                                        (join and watch CODE need a terminal: -t)
  ssh -t -p PORT HOST watch             the live TV: the best game being played now
  ssh -p PORT HOST watch                the same TV streamed without a terminal
                                        (80x24 frames, at most an hour; Ctrl+C ends it)
  ssh -p PORT HOST web                  a one-time code that links a browser to your
                                        account (play on the web page as yourself);
                                        web --end unlinks every browser
  ssh -t -p PORT HOST doctor            the terminal doctor: what your terminal does
                                        (keyboard, colours, glyphs, tmux, round trip)
                                        and what to change; without -t it only prints
                                        what the server knows
";

async fn leaderboard(
    store: Option<&Store>,
    board: BoardId,
    period: Period,
    ruleset: RulesetId,
) -> Outcome {
    let Some(store) = store else {
        return Outcome::fail("this server has no database".into());
    };
    let page = boards::page(
        store,
        board,
        ruleset,
        minotty_ui::boards::board_period(period),
        0,
        COMMAND_ROWS,
        None,
        unix_now(),
    )
    .await;
    match page {
        Ok(page) => Outcome::ok(minotty_ui::boards::table(&page)),
        Err(e) => {
            tracing::warn!(error = %e, "leaderboard command");
            Outcome::fail("the leaderboard could not be read; try again".into())
        }
    }
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

    fn run(command: &[u8]) -> Outcome {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        rt.block_on(dispatch(&Command::parse(command), None, None))
    }

    #[test]
    fn commands() {
        let help = run(b"help");
        assert_eq!(help.status, 0);
        assert!(help.stdout.contains("help"));
        for usage in [
            "leaderboard [MODE] [--period all|month|today]",
            "leaderboard versus",
            "ssh -t -p PORT HOST join CODE",
            "ssh -t -p PORT HOST watch CODE",
            "ssh -t -p PORT HOST watch ",
            "ssh -p PORT HOST watch ",
            "replay ID --cast [--size COLSxROWS]",
            "ssh -t -p PORT HOST doctor",
        ] {
            assert!(help.stdout.contains(usage), "help lacks {usage:?}");
        }
        assert!(help.stderr.is_empty());
        assert_eq!(run(b"  help  extra").status, 0);

        let unknown = run(b"rm -rf /");
        assert_eq!(unknown.status, 1);
        assert!(unknown.stdout.is_empty());
        assert!(unknown.stderr.contains("unknown command \"rm\""));
        assert_eq!(unknown.stderr.lines().count(), 1);

        let evil = run(b"\x1b]0;pwned\x07");
        assert!(!evil.stderr.contains('\x1b'));
        assert_eq!(run(b"").status, 1);
        assert_eq!(run(&[0xff, 0xfe]).status, 1);
    }

    /// Every reply of the commands that need no database, pinned whole (issue 27 moved the
    /// parser: the bytes the client reads stay the same).
    #[test]
    fn replies_pinned_whole() {
        let help = run(b"help");
        assert_eq!(help.stdout, HELP);
        // 2196 bytes until the leaderboard's modes named classic, survival and the climb,
        // 2222 until ascent, 2234 until the keystroke timer.
        assert_eq!((help.stdout.len(), help.stdout.lines().count()), (2341, 31));
        assert_eq!(run(b"-h"), help);
        assert_eq!(run(b"--help x"), help);
        let fail = |stderr: &str| Outcome {
            stdout: String::new(),
            stderr: stderr.to_owned(),
            status: 1,
        };
        assert_eq!(
            run(b"web now please"),
            fail("minotty: usage: web (a code that links a browser), or web --end\n")
        );
        assert_eq!(
            run(b"rm -rf /"),
            fail("minotty: unknown command \"rm\"; the commands are listed by \"help\"\n")
        );
        assert_eq!(
            run(b"   "),
            fail("minotty: empty command; the commands are listed by \"help\"\n")
        );
        assert_eq!(
            run(b"lb --period"),
            fail("minotty: --period needs a value: all, month or today\n")
        );
        assert_eq!(
            run(b"leaderboards 40l ultra"),
            fail(
                "minotty: unexpected \"ultra\"; usage: leaderboard [MODE] [--period \
                 all|month|today]\n"
            )
        );
        assert_eq!(
            run(b"leaderboard"),
            fail("minotty: this server has no database\n")
        );
        assert_eq!(
            no_pty(),
            fail(
                "minotty needs a terminal: connect without -T (or add -t) to play; \"help\" \
                 lists the commands\n"
            )
        );
    }

    /// The replies of `leaderboard` (its arguments: `parse_tests.rs`).
    #[test]
    fn leaderboard_replies() {
        let out = run(b"leaderboard bogus");
        assert_eq!(out.status, 1);
        assert_eq!(out.stderr.lines().count(), 1);
        assert!(out.stdout.is_empty());
        let no_db = run(b"leaderboard");
        assert_eq!(no_db.status, 1);
        assert!(no_db.stderr.contains("no database"));
    }
}
