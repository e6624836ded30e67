//! A polled TBP bot playing its engine game in real time, the way a room runs a bot seat: game
//! time is the time since the match started, the game runs on (gravity, lock delay, garbage
//! arriving) while the bot thinks, and the bot's inputs are applied at the game time it was
//! polled at.

use std::time::Duration;

use minotty_engine::{Event, Game, Input, Time};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};
use tokio_util::sync::CancellationToken;

use super::{Forfeit, Step, TbpPoller};

/// How a live game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LiveEnd {
    /// The game is over by its own rules (top out, goal, limit).
    GameOver,
    /// The bot forfeited; its game ended with [`Input::Forfeit`].
    Forfeit(Forfeit),
    /// `stop` was cancelled (the match ended, the room closed, the server stops).
    Stopped,
}

/// A game played live, and where its events go.
#[derive(Debug)]
pub struct Live<'a> {
    pub game: &'a mut Game,
    /// When game time 0 was.
    pub start: Instant,
    /// Attacks on the bot: lines of garbage, applied as they arrive.
    pub garbage: &'a mut mpsc::Receiver<u8>,
    pub stop: &'a CancellationToken,
}

/// Inputs applied between two waits at most (a bound on one turn of the loop).
const INPUTS_PER_TURN: usize = 64;

impl Live<'_> {
    fn now(&self) -> Time {
        Time::try_from(self.start.elapsed().as_millis()).unwrap_or(Time::MAX)
    }

    fn instant(&self, time: Time) -> Instant {
        self.start + Duration::from_millis(time)
    }
}

/// Plays `live.game` with the polled bot until the game ends, the bot forfeits or `live.stop`
/// is cancelled. Every event of the game goes to `on_events` as it happens. Ending the bot is
/// the caller's ([`TbpPoller::finish`], or dropping it).
pub async fn play_live(
    bot: &mut TbpPoller,
    live: Live<'_>,
    mut on_events: impl FnMut(&[Event]),
) -> LiveEnd {
    loop {
        if live.stop.is_cancelled() {
            return LiveEnd::Stopped;
        }
        let now = live.now();
        on_events(live.game.update(now, None));
        // The bot's inputs go in at the game's time, all of one move at one instant.
        let t = live.game.now();
        let mut at = None;
        for _ in 0..INPUTS_PER_TURN {
            if live.game.is_over() {
                break;
            }
            match bot.poll(live.game, t) {
                Step::Input(input) => on_events(live.game.update(t, Some(input))),
                Step::At(when) => {
                    at = Some(when);
                    break;
                }
                Step::Idle => break,
            }
        }
        if live.game.is_over() {
            return match bot.forfeited() {
                Some(f) => LiveEnd::Forfeit(f.clone()),
                None => LiveEnd::GameOver,
            };
        }
        let wake = [at, live.game.next_deadline()]
            .into_iter()
            .flatten()
            .min()
            .map_or_else(
                || Instant::now() + Duration::from_secs(1),
                |t| live.instant(t),
            );
        tokio::select! {
            () = live.stop.cancelled() => return LiveEnd::Stopped,
            () = sleep_until(wake) => {}
            () = bot.ready() => {}
            Some(lines) = live.garbage.recv() => {
                let now = live.now();
                on_events(live.game.update(now, Some(Input::Garbage(lines))));
            }
        }
    }
}
