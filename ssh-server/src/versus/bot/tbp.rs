//! A Tetris Bot Protocol bot in a bot seat: the operator's external bot (`--tbp-bot
//! NAME=COMMAND`) behind the [`BotDriver`] seam, through [`TbpPoller`] (`minotty_tbp::frontend`), which
//! owns the process and its conversation. The process starts with the seat's first match (its
//! countdown), never in the lobby where the host seats it; then it lives as long as the seat:
//! told `stop` at the end of each game and `start` at the next, and killed and reaped when the
//! seat goes (removed, the room closed, the server stopped).

use std::future::Future;
use std::pin::Pin;

use minotty_engine::{Game, Time};

use super::{BotDriver, BotStep};
use minotty_tbp::frontend::{Step, TbpPoller};

/// A TBP bot's seat driver.
#[derive(Debug)]
pub struct Tbp {
    /// The operator's name for the bot.
    name: String,
    poller: TbpPoller,
}

impl Tbp {
    pub fn new(name: &str, poller: TbpPoller) -> Tbp {
        Tbp {
            name: name.to_owned(),
            poller,
        }
    }
}

impl BotDriver for Tbp {
    /// "Bot NAME": a space, so never an account's name (as the built-in "Bot level N").
    fn name(&self) -> String {
        format!("Bot {}", self.name)
    }

    fn kind(&self) -> String {
        format!("tbp {}", self.name)
    }

    fn level(&self) -> Option<u8> {
        None
    }

    fn prepare(&mut self) {
        self.poller.launch();
    }

    fn start(&mut self, _game: &Game, _seed: u32) {
        self.poller.new_game();
    }

    fn poll(&mut self, game: &Game, now: Time) -> BotStep {
        match self.poller.poll(game, now) {
            Step::Input(input) => BotStep::Input(input),
            Step::At(t) => BotStep::At(t),
            Step::Idle => BotStep::Idle,
        }
    }

    fn ready(&mut self) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(self.poller.ready())
    }

    fn end(&mut self) {
        self.poller.end_game();
    }

    fn retired(&self) -> Option<String> {
        self.poller.forfeited().map(ToString::to_string)
    }
}
