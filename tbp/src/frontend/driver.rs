//! The TBP conversation with one bot process: `info`, `rules`, `ready`, then per piece the
//! position (`start` when the bot's view and the game differ, `new_piece` for pieces it has not
//! been told of), `suggest`, the `suggestion` checked move by move against the real game, and
//! `play`; at the end `stop` and `quit`, then the process is killed and reaped.
//!
//! Anything out of the ordinary is a [`Forfeit`]: no answer in time, a line that is not a TBP
//! message, a message of the wrong type, an `error`, a suggestion without a playable move, a bot
//! that exits or writes an endless line. The caller ends the bot's game as a forfeit and the
//! match goes on.

use std::time::Duration;

use crate::msg::FEATURE_GARBAGE;
use crate::path::{path_among, placements};
use crate::{BotMessage, FrontendMessage, Move, TbpState};
use minotty_engine::{Button, Game};
use tokio::time::Instant;

use super::TbpSettings;
use super::process::{BotProcess, IoFailure};

/// The most messages of unknown types a bot may send while an answer is due (the specification
/// says to ignore them; this bounds what ignoring them costs).
pub const MAX_IGNORED: usize = 64;
/// The most moves of one suggestion that are checked against the game.
pub const MAX_MOVES_CHECKED: usize = 16;
/// How long a bot has to exit after `quit` before it is killed.
const QUIT_GRACE: Duration = Duration::from_millis(200);
/// How long after an empty suggestion the bot is asked again (while the move time lasts).
pub const ASK_AGAIN: Duration = Duration::from_millis(20);
/// Characters kept of a bot's name, version, author or error reason.
const MAX_TEXT: usize = 40;

/// Why a bot lost its game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Forfeit {
    #[error("the bot could not be started: {0}")]
    Spawn(String),
    #[error("every bot slot of the server is in use")]
    Busy,
    #[error("no {0} within {1:?}")]
    Timeout(&'static str, Duration),
    #[error("the bot exited")]
    Exited,
    #[error("the bot stopped reading its input")]
    Blocked,
    #[error("the bot wrote a line longer than {0} bytes")]
    LineTooLong(usize),
    #[error("the bot wrote something that is not a TBP message")]
    Garbage,
    #[error("the bot sent {got} where {want} was due")]
    Unexpected {
        got: &'static str,
        want: &'static str,
    },
    #[error("the bot reported an error: {0}")]
    BotError(String),
    #[error("the bot sent more than {MAX_IGNORED} messages of unknown types")]
    Flood,
    #[error("no move of the bot's suggestion can be played")]
    NoValidMove,
    #[error("the pipe to the bot failed: {0:?}")]
    Pipe(std::io::ErrorKind),
}

/// What a bot says of itself in `info` (cut to a few printable characters: players see it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BotInfo {
    pub name: String,
    pub version: String,
    pub author: String,
}

/// One bot, after the handshake.
#[derive(Debug)]
pub struct TbpBot {
    process: BotProcess,
    info: BotInfo,
    settings: TbpSettings,
    /// What the bot believes, as of the last message it was sent (`None`: unknown, the next
    /// turn starts it afresh).
    told: Option<TbpState>,
    /// The bot was sent `start` and not `stop` since.
    calculating: bool,
    /// `suggest` messages sent.
    asked: u64,
    /// The process is stopped (SIGSTOP) until the next message to it.
    paused: bool,
    /// The bot takes `garbage` messages (it listed the feature): rising garbage needs no
    /// fresh `start`.
    garbage: bool,
}

impl TbpBot {
    /// Starts the bot: waits for its `info`, sends `rules` and waits for `ready`.
    pub async fn handshake(process: BotProcess, settings: TbpSettings) -> Result<TbpBot, Forfeit> {
        let mut bot = TbpBot {
            process,
            info: BotInfo {
                name: String::new(),
                version: String::new(),
                author: String::new(),
            },
            settings,
            told: None,
            calculating: false,
            asked: 0,
            paused: false,
            garbage: false,
        };
        let startup = bot.settings.startup_time;
        let deadline = Instant::now() + startup;
        let (info, garbage) = bot
            .expect("info", deadline, startup, |m| match m {
                BotMessage::Info {
                    name,
                    version,
                    author,
                    features,
                } => Some((
                    BotInfo {
                        name: printable(&name),
                        version: printable(&version),
                        author: printable(&author),
                    },
                    features.iter().any(|f| f == FEATURE_GARBAGE),
                )),
                _ => None,
            })
            .await?;
        bot.info = info;
        bot.garbage = garbage;
        bot.send_line(&FrontendMessage::rules_line(garbage)).await?;
        let deadline = Instant::now() + startup;
        bot.expect("ready", deadline, startup, |m| {
            matches!(m, BotMessage::Ready).then_some(())
        })
        .await?;
        bot.rest();
        Ok(bot)
    }

    pub fn info(&self) -> &BotInfo {
        &self.info
    }

    /// The bot's process id.
    pub fn pid(&self) -> Option<u32> {
        self.process.pid()
    }

    /// Tells the bot the position `view` (a fresh `start` when its view differs in anything but
    /// pieces it has not been told of yet, else those pieces), asks for a suggestion and waits
    /// for it (at most the move time).
    ///
    /// An empty suggestion is asked again every [`ASK_AGAIN`] until the move time is up (the
    /// last empty one is the answer): a bot that answers at once with the best move found so
    /// far, which right after a `start` is none (Cold Clear 2), gets time to think. Asking is
    /// paced, so one turn sends at most the move time over [`ASK_AGAIN`] `suggest` messages.
    pub async fn suggest(&mut self, view: &TbpState) -> Result<Vec<Move>, Forfeit> {
        self.sync(view).await?;
        let limit = self.settings.move_time;
        let deadline = Instant::now() + limit;
        loop {
            self.send(&FrontendMessage::Suggest).await?;
            self.asked = self.asked.saturating_add(1);
            let moves = self
                .expect("suggestion", deadline, limit, |m| match m {
                    BotMessage::Suggestion { moves } => Some(moves),
                    _ => None,
                })
                .await?;
            let again = Instant::now() + ASK_AGAIN;
            if !moves.is_empty() || again >= deadline {
                // Nothing to think about until it is told what happened.
                self.rest();
                return Ok(moves);
            }
            tokio::time::sleep_until(again).await;
        }
    }

    /// Tells the bot the position `view` (as [`TbpBot::suggest`] does first), to think on it
    /// before it is asked.
    pub async fn tell(&mut self, view: &TbpState) -> Result<(), Forfeit> {
        self.sync(view).await
    }

    /// Next pieces the bot is told of besides the piece in play.
    pub fn preview(&self) -> usize {
        self.settings.preview
    }

    /// `suggest` messages sent so far.
    pub fn asked(&self) -> u64 {
        self.asked
    }

    /// Plays the first of `moves` that can be played on `game` as it is now: sends `play` and
    /// returns the buttons that play it. The game must have a piece in play.
    pub async fn play(&mut self, game: &Game, moves: &[Move]) -> Result<Vec<Button>, Forfeit> {
        let (mv, buttons) = choose(game, moves)?;
        self.played(&mv).await?;
        Ok(buttons)
    }

    /// Tells the bot that `mv` was played (`play`).
    pub async fn played(&mut self, mv: &Move) -> Result<(), Forfeit> {
        self.send(&FrontendMessage::Play { mv: *mv }).await?;
        if let Some(told) = self.told.as_mut()
            && told.play(mv).is_err()
        {
            // Its view no longer matches anything: the next turn starts it afresh.
            self.told = None;
        }
        Ok(())
    }

    /// Tells the bot to stop calculating (`stop`), when it is: its game ended.
    pub async fn stop(&mut self) -> Result<(), Forfeit> {
        self.told = None;
        if self.calculating {
            self.calculating = false;
            self.send(&FrontendMessage::Stop).await?;
        }
        Ok(())
    }

    /// Forgets what the bot was told, so the next [`TbpBot::suggest`] starts it afresh (the game
    /// moved on while the bot was thinking).
    pub fn resync(&mut self) {
        self.told = None;
    }

    /// Ends the bot: `stop` and `quit` (each given a moment), then the process is killed and
    /// reaped. Returns whether it was reaped.
    pub async fn finish(self) -> bool {
        self.end().await.is_some()
    }

    /// [`TbpBot::finish`], returning the exit status of the server's child (the keeper's: the
    /// bot's own, or [`super::keeper::EXIT_TOO_MANY`] when it was ended for starting too many
    /// processes, which is logged).
    pub async fn end(mut self) -> Option<std::process::ExitStatus> {
        self.wake();
        let moment = QUIT_GRACE;
        if self.calculating {
            let _ = self
                .process
                .send(&FrontendMessage::Stop.to_line(), moment)
                .await;
        }
        let _ = self
            .process
            .send(&FrontendMessage::Quit.to_line(), moment)
            .await;
        let pid = self.process.pid();
        let status = self.process.shutdown(QUIT_GRACE).await;
        if status.and_then(|s| s.code()) == Some(i32::from(super::keeper::EXIT_TOO_MANY)) {
            tracing::warn!(
                pid,
                max = self.settings.max_procs,
                "a TBP bot was ended for starting more processes than allowed"
            );
        }
        status
    }

    /// Brings the bot's view to `view`: rows of garbage risen under its board as a `garbage`
    /// message when it takes them, pieces it has not been told of as `new_piece`; anything
    /// else different as `stop` and a fresh `start`.
    async fn sync(&mut self, view: &TbpState) -> Result<(), Forfeit> {
        let mut told = match self.told.take() {
            Some(told)
                if self.calculating
                    && told.hold == view.hold
                    && !told.queue.is_empty()
                    && view.queue.len() >= told.queue.len()
                    && view.queue.iter().zip(&told.queue).all(|(a, b)| a == b) =>
            {
                told
            }
            _ => return self.restart(view).await,
        };
        if told.board != view.board {
            let rows = if self.garbage {
                told.garbage_to(&view.board)
            } else {
                None
            };
            let Some(rows) = rows else {
                return self.restart(view).await;
            };
            told.add_garbage(&rows);
            self.send(&FrontendMessage::Garbage { rows }).await?;
            if told.board != view.board {
                return self.restart(view).await;
            }
        }
        for &piece in view.queue.iter().skip(told.queue.len()) {
            self.send(&FrontendMessage::NewPiece {
                piece: piece.into(),
            })
            .await?;
            if told.new_piece(piece).is_err() {
                break;
            }
        }
        self.told = Some(told);
        Ok(())
    }

    /// `stop` (when calculating) and a fresh `start` at `view`.
    async fn restart(&mut self, view: &TbpState) -> Result<(), Forfeit> {
        if self.calculating {
            self.send(&FrontendMessage::Stop).await?;
            self.calculating = false;
        }
        self.start(view).await
    }

    async fn start(&mut self, view: &TbpState) -> Result<(), Forfeit> {
        self.send(&FrontendMessage::Start(view.to_start())).await?;
        self.calculating = true;
        self.told = Some(view.clone());
        Ok(())
    }

    /// Stops the process until the next message to it (its CPU between moves is bounded to
    /// nothing: a bot that searches while it waits, as Cold Clear 2, cannot take a core).
    fn rest(&mut self) {
        if !self.paused {
            self.process.pause();
            self.paused = true;
        }
    }

    /// Lets the process run again (before any message to it).
    fn wake(&mut self) {
        if self.paused {
            self.process.resume();
            self.paused = false;
        }
    }

    async fn send(&mut self, message: &FrontendMessage) -> Result<(), Forfeit> {
        self.send_line(&message.to_line()).await
    }

    async fn send_line(&mut self, line: &str) -> Result<(), Forfeit> {
        self.wake();
        self.process
            .send(line, self.settings.move_time)
            .await
            .map_err(|e| match e {
                IoFailure::Timeout => Forfeit::Blocked,
                IoFailure::Closed => Forfeit::Exited,
                IoFailure::TooLong => Forfeit::LineTooLong(self.settings.max_line),
                IoFailure::Other(kind) => Forfeit::Pipe(kind),
            })
    }

    /// Reads messages until `pick` accepts one, skipping at most [`MAX_IGNORED`] of unknown
    /// types; anything else is a forfeit.
    async fn expect<T>(
        &mut self,
        want: &'static str,
        deadline: Instant,
        limit: Duration,
        pick: impl Fn(BotMessage) -> Option<T>,
    ) -> Result<T, Forfeit> {
        let mut ignored = 0;
        loop {
            let line = self.process.recv(deadline).await.map_err(|e| match e {
                IoFailure::Timeout => Forfeit::Timeout(want, limit),
                IoFailure::Closed => Forfeit::Exited,
                IoFailure::TooLong => Forfeit::LineTooLong(self.settings.max_line),
                IoFailure::Other(kind) => Forfeit::Pipe(kind),
            })?;
            let message: BotMessage = match serde_json::from_slice(&line) {
                Ok(m) => m,
                Err(e) => {
                    let start = String::from_utf8_lossy(&line[..line.len().min(60)]);
                    tracing::debug!(pid = self.process.pid(), error = %e,
                        line = %printable(&start), "a TBP bot wrote garbage");
                    return Err(Forfeit::Garbage);
                }
            };
            let got = kind(&message);
            match message {
                BotMessage::Unknown => {
                    ignored += 1;
                    if ignored > MAX_IGNORED {
                        return Err(Forfeit::Flood);
                    }
                }
                BotMessage::Error { reason } => return Err(Forfeit::BotError(printable(&reason))),
                other => return pick(other).ok_or(Forfeit::Unexpected { got, want }),
            }
        }
    }
}

/// The first of `moves` (at most [`MAX_MOVES_CHECKED`]) that can be played on `game` as it is
/// now, with the buttons that play it; [`Forfeit::NoValidMove`] when none can.
pub fn choose(game: &Game, moves: &[Move]) -> Result<(Move, Vec<Button>), Forfeit> {
    let reached = placements(game);
    moves
        .iter()
        .take(MAX_MOVES_CHECKED)
        .find_map(|mv| path_among(&reached, mv).map(|b| (*mv, b)))
        .ok_or(Forfeit::NoValidMove)
}

/// The name of a message's type, for logs and errors.
fn kind(message: &BotMessage) -> &'static str {
    match message {
        BotMessage::Error { .. } => "error",
        BotMessage::Ready => "ready",
        BotMessage::Info { .. } => "info",
        BotMessage::Suggestion { .. } => "suggestion",
        BotMessage::Unknown => "an unknown message",
    }
}

/// At most [`MAX_TEXT`] characters of `s` that are safe to draw to a player.
fn printable(s: &str) -> String {
    minotty_domain::text::sanitize_display(s, MAX_TEXT)
}
