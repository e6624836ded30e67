//! Exec requests are commands, never a shell: `help` and `leaderboard` (and `replay ID
//! --cast`, which `command_run.rs` hands to `cast_export.rs`), each admitted first by the
//! budgets of `command_budget.rs`. Output goes to the client, then the exit status, EOF and
//! close. Output is plain text (no colours, with or
//! without a PTY).

use minotty_domain::text::echo;
use minotty_domain::{Period, ranked_modes};
use minotty_engine::{ModeKind, RulesetId};
use minotty_ui::online::BoardId;
use russh::ChannelId;
use russh::server::Handle;

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

/// Runs the command line `command` (the exec request's bytes); `store` answers `leaderboard`.
pub async fn dispatch(
    command: &[u8],
    store: Option<&Store>,
    local: Option<std::net::SocketAddr>,
) -> Outcome {
    let line = String::from_utf8_lossy(command);
    let mut words = line.split_whitespace();
    match words.next() {
        Some("help" | "--help" | "-h") => {
            Outcome::ok(crate::address::fill(HELP, local).into_owned())
        }
        Some("leaderboard" | "leaderboards" | "lb") => {
            let args: Vec<&str> = words.collect();
            match parse_leaderboard(&args) {
                Ok((board, period, ruleset)) => leaderboard(store, board, period, ruleset).await,
                Err(message) => Outcome::fail(message),
            }
        }
        Some(other) => Outcome {
            stdout: String::new(),
            stderr: format!(
                "minotty: unknown command \"{}\"; the commands are listed by \"help\"\n",
                echo(other)
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

  ssh -p PORT HOST                      play (needs a terminal)
  ssh -p PORT HOST help                 this list of commands
  ssh -p PORT HOST leaderboard [MODE] [--period all|month|today]
                                        the top of a leaderboard (MODE: 40l, marathon,
                                        ultra, master, cheese, combo, descent, versus;
                                        default 40l)
      [--ruleset standard|tui-tetris|tetrs]  40l, marathon and ultra per ruleset
                                        (descent's one board is tetrs)
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
  ssh -t -p PORT HOST doctor            the terminal doctor: what your terminal does
                                        (keyboard, colours, glyphs, tmux, round trip)
                                        and what to change; without -t it only prints
                                        what the server knows
";

/// The names of the boards, for error messages.
fn board_names() -> String {
    let mut names: Vec<&str> = ranked_modes().iter().map(|m| m.id()).collect();
    names.push("versus");
    names.join(", ")
}

/// `[MODE] [--period P | --period=P] [--ruleset R | --ruleset=R]` in any order.
fn parse_leaderboard(args: &[&str]) -> Result<(BoardId, Period, RulesetId), String> {
    let mut board = None;
    let mut period = None;
    let mut ruleset = RulesetId::Standard;
    let mut rest = args.iter();
    while let Some(&arg) = rest.next() {
        let rules = if arg == "--ruleset" || arg == "-r" {
            Some(
                *rest
                    .next()
                    .ok_or("--ruleset needs a value: standard, tui-tetris or tetrs")?,
            )
        } else {
            arg.strip_prefix("--ruleset=")
        };
        if let Some(value) = rules {
            ruleset = RulesetId::parse(value).ok_or_else(|| {
                format!(
                    "unknown ruleset \"{}\"; rulesets: standard, tui-tetris, tetrs",
                    echo(value)
                )
            })?;
            continue;
        }
        let value = if arg == "--period" || arg == "-p" {
            Some(
                *rest
                    .next()
                    .ok_or("--period needs a value: all, month or today")?,
            )
        } else {
            arg.strip_prefix("--period=")
        };
        if let Some(value) = value {
            let p = Period::parse(value).ok_or_else(|| {
                format!(
                    "unknown period \"{}\"; periods: all, month, today",
                    echo(value)
                )
            })?;
            period = Some(p);
            continue;
        }
        if board.is_some() {
            return Err(format!(
                "unexpected \"{}\"; usage: leaderboard [MODE] [--period all|month|today]",
                echo(arg)
            ));
        }
        let found = if arg.eq_ignore_ascii_case("versus") || arg.eq_ignore_ascii_case("1v1") {
            Some(BoardId::Versus)
        } else {
            ModeKind::parse(arg)
                .filter(|m| ranked_modes().contains(m))
                .map(BoardId::Solo)
        };
        board =
            Some(found.ok_or_else(|| {
                format!("unknown mode \"{}\"; modes: {}", echo(arg), board_names())
            })?);
    }
    Ok((
        board.unwrap_or(BoardId::Solo(ModeKind::Sprint)),
        period.unwrap_or(Period::AllTime),
        ruleset,
    ))
}

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
        boards::board_period(period),
        0,
        COMMAND_ROWS,
        None,
        unix_now(),
    )
    .await;
    match page {
        Ok(page) => Outcome::ok(boards::table(&page)),
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
        rt.block_on(dispatch(command, None, None))
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

    #[test]
    fn leaderboard_arguments() {
        let sprint = BoardId::Solo(ModeKind::Sprint);
        let std = RulesetId::Standard;
        assert_eq!(parse_leaderboard(&[]), Ok((sprint, Period::AllTime, std)));
        assert_eq!(
            parse_leaderboard(&["marathon", "--period", "today"]),
            Ok((BoardId::Solo(ModeKind::Marathon), Period::Today, std))
        );
        assert_eq!(
            parse_leaderboard(&["--period=month", "versus"]),
            Ok((BoardId::Versus, Period::Month, std))
        );
        assert_eq!(
            parse_leaderboard(&["--ruleset", "tetrs", "ultra"]),
            Ok((
                BoardId::Solo(ModeKind::Ultra),
                Period::AllTime,
                RulesetId::Tetrs
            ))
        );
        assert_eq!(
            parse_leaderboard(&["--ruleset=tui-tetris"]),
            Ok((sprint, Period::AllTime, RulesetId::TuiTetris))
        );
        assert!(parse_leaderboard(&["--ruleset", "nes"]).is_err());
        assert!(parse_leaderboard(&["--ruleset"]).is_err());
        let bad = parse_leaderboard(&["tetris"]).unwrap_err();
        assert_eq!(
            bad,
            "unknown mode \"tetris\"; modes: 40l, marathon, ultra, master, cheese, combo, descent, \
             versus"
        );
        assert_eq!(
            parse_leaderboard(&["descent"]),
            Ok((BoardId::Solo(ModeKind::Descent), Period::AllTime, std))
        );
        assert!(parse_leaderboard(&["custom"]).is_err());
        assert!(
            parse_leaderboard(&["--period", "week"])
                .unwrap_err()
                .contains("all, month, today")
        );
        assert!(parse_leaderboard(&["--period"]).is_err());
        assert!(parse_leaderboard(&["40l", "ultra"]).is_err());
        let out = run(b"leaderboard bogus");
        assert_eq!(out.status, 1);
        assert_eq!(out.stderr.lines().count(), 1);
        assert!(out.stdout.is_empty());
        let no_db = run(b"leaderboard");
        assert_eq!(no_db.status, 1);
        assert!(no_db.stderr.contains("no database"));
    }
}
