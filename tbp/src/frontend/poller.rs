//! A TBP bot behind calls that never wait, for whoever runs the bot's game (a room's bot seat,
//! [`super::play_live`]): [`TbpPoller::poll`] looks at the game and says what to press now,
//! when to ask again, or that it waits for the bot; [`TbpPoller::ready`] completes when the bot
//! has answered. The conversation itself runs in a task of its own that owns the [`TbpBot`].
//!
//! One turn: when the pace allows and a piece is in play, `poll` sends the bot the position and
//! `suggest` (through the task) and answers `Idle`; once the `suggestion` is in, the next `poll`
//! checks it against the game as it is then. When the piece locked or changed meanwhile, the
//! bot is started afresh and asked again; else the first playable move is told to the bot
//! (`play`) and its buttons come out of `poll` one input at a time, to be applied at the game
//! time `poll` was given (a path is meant for one instant). A forfeit comes out as
//! [`Input::Forfeit`], once.
//!
//! The process starts at the poller's first command: [`TbpPoller::launch`] (a room's bot seat
//! says it when its match starts) or the first question; a poller that is never used never
//! starts one. Dropping the poller ends the bot (in its task: `stop`, `quit`, then killed and
//! reaped); [`TbpPoller::finish`] does the same and waits for it.

use std::collections::VecDeque;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use crate::{Move, TbpState};
use minotty_engine::{Game, Input, Piece, Time};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_util::sync::{CancellationToken, DropGuard};

use super::driver::choose;
use super::{Forfeit, TbpBot};

/// What to do next, as the poller sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Apply this input at the game time `poll` was given, then ask again at once.
    Input(Input),
    /// Nothing before this game time.
    At(Time),
    /// Nothing until the game changes or [`TbpPoller::ready`] completes.
    Idle,
}

enum Command {
    /// Start the process now (nothing when it runs).
    Launch,
    /// A question, tagged with the game it is about.
    Suggest(Box<TbpState>, u64),
    Played(Move),
    Resync,
    /// The game ended: `stop`.
    Stop,
}

/// An answer, tagged with the game its question was about.
type Answer = (u64, Result<Vec<Move>, Forfeit>);

/// Which piece a question was about: pieces placed, the hold and the piece in play.
type Turn = (u32, Option<Piece>, Option<Piece>);

fn turn_of(game: &Game) -> Turn {
    (
        game.stats().pieces,
        game.hold_piece(),
        game.active().map(|a| a.placed.piece),
    )
}

/// A TBP bot, polled.
#[derive(Debug)]
pub struct TbpPoller {
    commands: mpsc::Sender<Command>,
    answers: mpsc::Receiver<Answer>,
    /// Which game this is (answers about an earlier one are dropped).
    game: u64,
    /// The question out, if any.
    asked: Option<Turn>,
    /// Its answer, once in.
    answer: Option<(Turn, Result<Vec<Move>, Forfeit>)>,
    /// The rest of the move being pressed, the move and the game time it is pressed at.
    pending: VecDeque<Input>,
    pressing: Option<(Move, Time)>,
    next_turn: Time,
    min_piece: Time,
    preview: usize,
    forfeit: Option<Forfeit>,
    task: Option<JoinHandle<bool>>,
    /// The operator's name for the bot and the room it plays in, for the log.
    bot: String,
    room: String,
    /// The bot's process id once it runs (0 before), for the log.
    pid: Arc<AtomicU32>,
    /// Ends the bot's task (and with it the process): cancelled by a forfeit.
    end: CancellationToken,
    /// Cancels the task's wait for the bot (a launch or an answer) when the poller goes.
    _gone: DropGuard,
}

impl std::fmt::Debug for Command {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Command::Launch => "Launch",
            Command::Suggest(..) => "Suggest",
            Command::Played(_) => "Played",
            Command::Resync => "Resync",
            Command::Stop => "Stop",
        })
    }
}

impl TbpPoller {
    /// A poller for the bot `launch` gives (a launch that fails is a forfeit at the first
    /// move), placing a piece at most every `min_piece` and telling the bot `preview` next
    /// pieces. Spawns the bot's task on the current runtime.
    pub fn new(
        launch: impl Future<Output = Result<TbpBot, Forfeit>> + Send + 'static,
        min_piece: Duration,
        preview: usize,
    ) -> TbpPoller {
        let (commands, command_rx) = mpsc::channel(4);
        let (answer_tx, answers) = mpsc::channel(1);
        let gone = CancellationToken::new();
        let pid = Arc::new(AtomicU32::new(0));
        let task = tokio::spawn(serve(
            launch,
            command_rx,
            answer_tx,
            gone.clone(),
            Arc::clone(&pid),
        ));
        TbpPoller {
            commands,
            answers,
            game: 0,
            asked: None,
            answer: None,
            pending: VecDeque::new(),
            pressing: None,
            next_turn: 0,
            min_piece: Time::try_from(min_piece.as_millis()).unwrap_or(Time::MAX),
            preview,
            forfeit: None,
            task: Some(task),
            bot: String::new(),
            room: String::new(),
            pid,
            end: gone.clone(),
            _gone: gone.drop_guard(),
        }
    }

    /// Names the bot (the operator's name) and the room it plays in, for the log.
    pub fn named(mut self, bot: &str, room: &str) -> TbpPoller {
        bot.clone_into(&mut self.bot);
        room.clone_into(&mut self.room);
        self
    }

    /// Why the bot forfeited, once it did.
    pub fn forfeited(&self) -> Option<&Forfeit> {
        self.forfeit.as_ref()
    }

    /// What to do with `game` at game time `now` (the time `game` was advanced to).
    pub fn poll(&mut self, game: &Game, now: Time) -> Step {
        if let Some((mv, at)) = self.pressing
            && at != now
            && !self.pending.is_empty()
        {
            // The caller let time pass in the middle of a move: find the way there again from
            // where the piece is now.
            self.pending.clear();
            if let Ok((_, buttons)) = choose(game, &[mv]) {
                self.press(mv, buttons, now);
            }
        }
        if let Some(input) = self.pending.pop_front() {
            return Step::Input(input);
        }
        self.pressing = None;
        if self.forfeit.is_some() || game.is_over() {
            return Step::Idle;
        }
        while self.answer.is_none()
            && let Some(asked) = self.asked
            && let Ok((game, answer)) = self.answers.try_recv()
        {
            if game == self.game {
                self.asked = None;
                self.answer = Some((asked, answer));
            }
        }
        if let Some((asked, answer)) = self.answer.take() {
            let moves = match answer {
                Ok(moves) => moves,
                Err(f) => return self.give_up(f),
            };
            if turn_of(game) != asked || game.active().is_none() {
                // The piece locked or changed while the bot thought: start it afresh below.
                if self.commands.try_send(Command::Resync).is_err() {
                    return self.give_up(Forfeit::Exited);
                }
            } else {
                let (mv, buttons) = match choose(game, &moves) {
                    Ok(chosen) => chosen,
                    Err(f) => return self.give_up(f),
                };
                if self.commands.try_send(Command::Played(mv)).is_err() {
                    return self.give_up(Forfeit::Exited);
                }
                self.press(mv, buttons, now);
                self.next_turn = now.saturating_add(self.min_piece);
                return self.pending.pop_front().map_or(Step::Idle, Step::Input);
            }
        }
        if self.asked.is_some() {
            return Step::Idle;
        }
        if now < self.next_turn {
            return Step::At(self.next_turn);
        }
        let Some(view) = TbpState::of_game(game, self.preview) else {
            // A line clear or an appearance delay: the game's own deadline wakes the caller.
            return Step::Idle;
        };
        let question = Command::Suggest(Box::new(view), self.game);
        if self.commands.try_send(question).is_err() {
            return self.give_up(Forfeit::Exited);
        }
        self.asked = Some(turn_of(game));
        Step::Idle
    }

    /// Completes when the bot has answered the question out (never, when none is).
    pub async fn ready(&mut self) {
        let Some(asked) = self.asked.filter(|_| self.answer.is_none()) else {
            return std::future::pending().await;
        };
        loop {
            let (game, answer) = self
                .answers
                .recv()
                .await
                .unwrap_or((self.game, Err(Forfeit::Exited)));
            if game == self.game {
                self.asked = None;
                self.answer = Some((asked, answer));
                return;
            }
        }
    }

    /// Starts the bot's process if it is not running yet (a match is about to start), so that
    /// its handshake is done before its first piece.
    pub fn launch(&mut self) {
        // A full queue holds commands already, the first of which starts the process.
        let _ = self.commands.try_send(Command::Launch);
    }

    /// A new game starts (a match): what was out for the last one no longer counts, and the
    /// pace starts again from game time 0. A bot that forfeited stays out.
    pub fn new_game(&mut self) {
        self.game += 1;
        self.asked = None;
        self.answer = None;
        self.pending.clear();
        self.pressing = None;
        self.next_turn = 0;
    }

    /// The game ended: the bot is told to stop calculating (it keeps running for the next).
    pub fn end_game(&mut self) {
        self.asked = None;
        self.answer = None;
        self.pending.clear();
        self.pressing = None;
        // A full queue means the task is gone or stuck: nothing to tell then.
        let _ = self.commands.try_send(Command::Stop);
    }

    /// Ends the bot and waits until it was killed and reaped; `true` when it was.
    pub async fn finish(mut self) -> bool {
        let task = self.task.take();
        drop(self);
        match task {
            Some(task) => task.await.unwrap_or(false),
            None => false,
        }
    }

    fn press(&mut self, mv: Move, buttons: Vec<minotty_engine::Button>, now: Time) {
        for b in buttons {
            self.pending.push_back(Input::Press(b));
            self.pending.push_back(Input::Release(b));
        }
        self.pressing = Some((mv, now));
    }

    /// The bot forfeits: for good (a forfeited bot plays no more games), so its process is
    /// ended and reaped now, in its task.
    fn give_up(&mut self, f: Forfeit) -> Step {
        let pid = self.pid.load(Ordering::Acquire);
        tracing::warn!(bot = %self.bot, room = %self.room, pid, reason = %f,
            "a TBP bot forfeits: its process is ended");
        self.forfeit = Some(f);
        self.pending.clear();
        self.end.cancel();
        Step::Input(Input::Forfeit)
    }
}

/// The bot's task: at the poller's first command launches it, then carries out the poller's
/// commands until the poller is gone or the bot failed, then ends the bot. Waiting for the bot
/// (its launch, an answer) stops as soon as the poller is gone. Returns whether the process was
/// reaped.
async fn serve(
    launch: impl Future<Output = Result<TbpBot, Forfeit>>,
    mut commands: mpsc::Receiver<Command>,
    answers: mpsc::Sender<Answer>,
    gone: CancellationToken,
    pid: Arc<AtomicU32>,
) -> bool {
    // No process before it is needed: a seat in a lobby holds a slot, not a running bot.
    let first = tokio::select! {
        first = commands.recv() => first,
        () = gone.cancelled() => None,
    };
    let Some(first) = first else {
        return false;
    };
    let mut next = Some(first);
    let launched = tokio::select! {
        launched = launch => launched,
        // A bot half started is dropped here: killed and reaped by `BotProcess`'s drop.
        () = gone.cancelled() => return false,
    };
    let mut bot = match launched {
        Ok(bot) => {
            pid.store(bot.pid().unwrap_or(0), Ordering::Release);
            bot
        }
        Err(f) => {
            // Said at the first question.
            while let Some(command) = next_command(&mut next, &mut commands).await {
                if let Command::Suggest(_, game) = command {
                    let _ = answers.send((game, Err(f))).await;
                    break;
                }
            }
            return false;
        }
    };
    let mut broken: Option<Forfeit> = None;
    loop {
        let command = tokio::select! {
            biased;
            // Gone, or forfeited: the bot plays no more.
            () = gone.cancelled() => break,
            command = next_command(&mut next, &mut commands) => command,
        };
        let Some(command) = command else {
            break;
        };
        match command {
            Command::Launch => {}
            Command::Suggest(view, game) => {
                let answer = match broken.take() {
                    Some(f) => Err(f),
                    None => tokio::select! {
                        answer = bot.suggest(&view) => answer,
                        () = gone.cancelled() => break,
                    },
                };
                let failed = answer.is_err();
                if answers.send((game, answer)).await.is_err() || failed {
                    break;
                }
            }
            Command::Played(mv) => {
                if let Err(f) = bot.played(&mv).await {
                    broken = Some(f);
                }
            }
            Command::Resync => bot.resync(),
            Command::Stop => {
                if let Err(f) = bot.stop().await {
                    broken = Some(f);
                }
            }
        }
    }
    bot.finish().await
}

/// The command already taken (`next`), or else the next to arrive; `None` once the poller is
/// gone.
async fn next_command(
    next: &mut Option<Command>,
    commands: &mut mpsc::Receiver<Command>,
) -> Option<Command> {
    match next.take() {
        Some(command) => Some(command),
        None => commands.recv().await,
    }
}
