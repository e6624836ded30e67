//! Exec commands (`ssh HOST leaderboard ...`): one parser ([`Command::parse`], `parse.rs`),
//! one place that decides where a command goes ([`Command::route`]: a game session, a reply
//! known at once, or a run on its own task), and the runs themselves (`run.rs`: admitted by the
//! budgets of `command_budget.rs`, then `exec.rs`'s replies or `cast_export.rs`'s stream). The
//! SSH handler only hands the request's bytes here and carries out the route.

pub mod cast_export;
pub mod exec;
mod parse;
pub(crate) mod run;
mod web_link;

use std::net::SocketAddr;

use minotty_ui::Request;

pub use exec::Outcome;
pub use parse::{BoardQuery, Command};

use crate::doctor::ClientInfo;
use crate::session::SessionKind;

/// Where an exec request goes once its channel is accepted.
#[derive(Debug, PartialEq)]
pub enum Route {
    /// A session on the channel: the game opened as `kind` at `cols` x `rows`, starting with
    /// the request `initial` (`join CODE`).
    Session {
        kind: SessionKind,
        cols: u32,
        rows: u32,
        initial: Option<Request>,
    },
    /// A reply known at once (no budget spent).
    Reply(Outcome),
    /// A command run on its own task once the budgets admit it (`run.rs`).
    Run(Command),
}

impl Command {
    /// Whether the command would be a second game on a connection whose game is running: a
    /// `join`, `watch CODE` or `doctor` with a terminal, and the TV with or without one (a
    /// stream is a session too).
    pub fn second_game(&self, pty: bool, game_running: bool) -> bool {
        match self {
            Command::Tv => game_running,
            command => command.is_game() && pty && game_running,
        }
    }

    /// Where the command goes on a channel with a terminal of `pty` (columns, rows) or none;
    /// `client` is what the server knows of the client (for the doctor without a terminal),
    /// `local` the address the player connected to (filled into the commands shown).
    pub fn route(
        self,
        pty: Option<(u32, u32)>,
        client: impl FnOnce() -> ClientInfo,
        local: Option<SocketAddr>,
    ) -> Route {
        let session = |kind, (cols, rows): (u32, u32), initial| Route::Session {
            kind,
            cols,
            rows,
            initial,
        };
        let refuse = |stderr: &str| {
            Route::Reply(Outcome {
                stdout: String::new(),
                stderr: crate::address::fill(stderr, local).into_owned(),
                status: 1,
            })
        };
        match (self, pty) {
            (Command::Tv, Some(size)) => session(SessionKind::Tv, size, None),
            (Command::Tv, None) => {
                let (cols, rows) = crate::live::STREAM_SIZE;
                session(
                    SessionKind::TvStream,
                    (u32::from(cols), u32::from(rows)),
                    None,
                )
            }
            // With a terminal the doctor can ask it: the session opens on its screen.
            (Command::Doctor, Some(size)) => session(SessionKind::Doctor, size, None),
            (Command::Doctor, None) => Route::Reply(Outcome::ok(
                crate::address::fill(&crate::doctor::plain_report(&client()), local).into_owned(),
            )),
            (Command::Join { code, spectate }, Some(size)) => session(
                SessionKind::Play,
                size,
                Some(Request::JoinRoom {
                    code: code.into_string(),
                    spectate,
                }),
            ),
            // Refused before any session opens, with the message the services give a code
            // typed in the App.
            (Command::NotACode(shown), _) => refuse(&format!(
                "minotty: {}\n",
                minotty_domain::room_code::not_a_code(&shown)
            )),
            (Command::Join { .. }, None) => refuse(
                "minotty: joining a room needs a terminal: add -t \
                 (ssh -t -p PORT HOST join CODE)\n",
            ),
            (Command::JoinUsage, _) => refuse(parse::JOIN_USAGE),
            (Command::WatchMatch(id), Some(size)) => session(SessionKind::Match(id), size, None),
            (Command::WatchMatch(id), None) => refuse(&format!(
                "minotty: watching a match needs a terminal: add -t (ssh -t -p PORT HOST \
                 replay m{id}), or export it: replay m{id} --cast > match.cast\n"
            )),
            (command, _) => Route::Run(command),
        }
    }
}

#[cfg(test)]
#[path = "commands/route_tests.rs"]
mod tests;
