//! The one parser of exec requests: the bytes a client sent (`ssh host leaderboard ...`) as a
//! typed [`Command`], arguments included. Nothing else reads a command line.

use minotty_domain::text::echo;
use minotty_domain::{Period, RoomCode, ranked_modes};
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::BoardId;

use crate::cast::{self, CastArgs};

/// An exec request, parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `help` (or `--help`, `-h`), whatever follows.
    Help,
    /// `leaderboard` (or `leaderboards`, `lb`): its board, period and ruleset, or why the
    /// arguments are wrong.
    Leaderboard(Result<BoardQuery, String>),
    /// `replay ID --cast [--size COLSxROWS]`: a stored game as an asciicast file, or why the
    /// arguments are wrong.
    Replay(Result<CastArgs, String>),
    /// `replay mN` without `--cast`: watch stored versus match N in the game (a terminal
    /// needed).
    WatchMatch(i64),
    /// `join CODE` (play in the room) or `watch CODE` / `spectate CODE` (watch it).
    Join { code: RoomCode, spectate: bool },
    /// `join`, `watch` or `spectate` with a word that is not a room code: the word as it may be
    /// shown back.
    NotACode(String),
    /// `join` or `watch` with the wrong number of words.
    JoinUsage,
    /// `watch` (or `tv`) alone: the live TV.
    Tv,
    /// `doctor` alone: the terminal doctor.
    Doctor,
    /// `web`: a one-time code that links a browser to the caller's account; `web --end`:
    /// unlink every browser (`Ok(true)`); or why the arguments are wrong.
    Web(Result<bool, String>),
    /// Any other first word, made printable for echoing back.
    Unknown(String),
    /// Nothing but white space.
    Empty,
}

/// What `leaderboard` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardQuery {
    pub board: BoardId,
    pub period: Period,
    pub ruleset: RulesetId,
}

/// The usage line of a `join` or `watch` with the wrong number of words.
pub(crate) const JOIN_USAGE: &str =
    "minotty: usage: join CODE (or watch CODE), e.g. \"ssh -t -p PORT HOST join K7PQ3M\"\n";

impl Command {
    /// Parses the exec request's bytes (invalid UTF-8 is read lossily, except that `replay`
    /// needs its line whole: a `replay` with invalid bytes is an unknown command).
    pub fn parse(bytes: &[u8]) -> Command {
        let line = String::from_utf8_lossy(bytes);
        let mut words = line.split_whitespace();
        let Some(first) = words.next() else {
            return Command::Empty;
        };
        let rest: Vec<&str> = words.collect();
        match first {
            "join" => match rest.as_slice() {
                [code] => join(code, false),
                _ => Command::JoinUsage,
            },
            "watch" | "spectate" => match rest.as_slice() {
                [code] => join(code, true),
                [] if first == "watch" => Command::Tv,
                [] => Command::Unknown(echo(first)),
                _ => Command::JoinUsage,
            },
            "tv" if rest.is_empty() => Command::Tv,
            "doctor" if rest.is_empty() => Command::Doctor,
            "web" => Command::Web(match rest.as_slice() {
                [] => Ok(false),
                ["--end"] => Ok(true),
                _ => Err("usage: web (a code that links a browser), or web --end".into()),
            }),
            "help" | "--help" | "-h" => Command::Help,
            "leaderboard" | "leaderboards" | "lb" => Command::Leaderboard(parse_leaderboard(&rest)),
            "replay" if std::str::from_utf8(bytes).is_ok() => match cast::parse(&rest) {
                Ok(a) if a.of_match && !a.cast => Command::WatchMatch(a.game),
                parsed => Command::Replay(parsed),
            },
            other => Command::Unknown(echo(other)),
        }
    }

    /// Whether the command opens a game screen rather than printing a reply (with a terminal:
    /// one game per connection).
    pub fn is_game(&self) -> bool {
        matches!(
            self,
            Command::Join { .. }
                | Command::WatchMatch(_)
                | Command::NotACode(_)
                | Command::JoinUsage
                | Command::Tv
                | Command::Doctor
        )
    }
}

/// `join`/`watch` of the typed `code`: parsed here, once, into a [`RoomCode`].
fn join(code: &str, spectate: bool) -> Command {
    match RoomCode::parse(code) {
        Some(code) => Command::Join { code, spectate },
        // As much as the services show of a code typed in the App.
        None => Command::NotACode(minotty_ui::sanitize(code).chars().take(16).collect()),
    }
}

/// The names of the boards, for error messages.
fn board_names() -> String {
    let mut names: Vec<&str> = ranked_modes().iter().map(|m| m.id()).collect();
    names.extend(["versus", "climb"]);
    names.join(", ")
}

/// `[MODE] [--period P | --period=P] [--ruleset R | --ruleset=R]` in any order.
fn parse_leaderboard(args: &[&str]) -> Result<BoardQuery, String> {
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
        } else if arg.eq_ignore_ascii_case("climb") {
            Some(BoardId::Climb)
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
    Ok(BoardQuery {
        board: board.unwrap_or(BoardId::Solo(ModeKind::Sprint)),
        period: period.unwrap_or(Period::AllTime),
        ruleset,
    })
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
