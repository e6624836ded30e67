//! A TBP bot playing its engine game in real time, the way a room would run it: game time is
//! the time since the match started, the game runs on (gravity, lock delay, garbage arriving)
//! while the bot thinks, and each move is checked against the game as it is when the answer
//! comes in. A piece that locked or changed meanwhile is asked about again.

use std::time::Duration;

use minotty_engine::{Event, Game, Input, Time};
use minotty_tbp::TbpState;
use minotty_tbp::path::execute_with;
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep_until};
use tokio_util::sync::CancellationToken;

use super::{Forfeit, TbpBot};

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
    /// The shortest time per piece (the bot's pace; 0: as fast as it answers).
    pub min_piece: Duration,
    /// Next pieces the bot is told of.
    pub preview: usize,
}

impl Live<'_> {
    fn now(&self) -> Time {
        Time::try_from(self.start.elapsed().as_millis()).unwrap_or(Time::MAX)
    }

    fn instant(&self, time: Time) -> Instant {
        self.start + Duration::from_millis(time)
    }

    /// Advances the game to the clock, then applies `input`.
    fn update(&mut self, input: Option<Input>, on_events: &mut impl FnMut(&[Event])) {
        let now = self.now();
        on_events(self.game.update(now, input));
    }

    /// Waits until `until` (or the game's next deadline, if sooner), applying garbage as it
    /// arrives. `false` when stopped.
    async fn wait(&mut self, until: Option<Instant>, on_events: &mut impl FnMut(&[Event])) -> bool {
        let deadline = self.game.next_deadline().map(|t| self.instant(t));
        let until = match (until, deadline) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a
                .or(b)
                .unwrap_or_else(|| Instant::now() + Duration::from_secs(1)),
        };
        tokio::select! {
            () = self.stop.cancelled() => return false,
            () = sleep_until(until) => {}
            Some(lines) = self.garbage.recv() => {
                self.update(Some(Input::Garbage(lines)), on_events);
            }
        }
        self.update(None, on_events);
        true
    }
}

/// Plays `live.game` with `bot` until the game ends, the bot forfeits or `live.stop` is
/// cancelled. Every event of the game goes to `on_events` as it happens. The caller ends the
/// bot afterwards ([`TbpBot::finish`]).
pub async fn play_live(
    bot: &mut TbpBot,
    mut live: Live<'_>,
    mut on_events: impl FnMut(&[Event]),
) -> LiveEnd {
    loop {
        if live.stop.is_cancelled() {
            return LiveEnd::Stopped;
        }
        live.update(None, &mut on_events);
        if live.game.is_over() {
            return LiveEnd::GameOver;
        }
        let Some(view) = TbpState::of_game(live.game, live.preview) else {
            // A line clear or an appearance delay: wait for the next piece.
            if !live.wait(None, &mut on_events).await {
                return LiveEnd::Stopped;
            }
            continue;
        };
        let asked = (
            live.game.stats().pieces,
            live.game.hold_piece(),
            view.queue.front().copied(),
        );
        let turn_started = Instant::now();
        // The game goes on while the bot thinks: garbage is applied as it comes.
        let answer = {
            let suggestion = bot.suggest(&view);
            tokio::pin!(suggestion);
            loop {
                tokio::select! {
                    r = &mut suggestion => break r,
                    () = live.stop.cancelled() => return LiveEnd::Stopped,
                    Some(lines) = live.garbage.recv() => {
                        live.update(Some(Input::Garbage(lines)), &mut on_events);
                    }
                }
            }
        };
        let moves = match answer {
            Ok(moves) => moves,
            Err(f) => return forfeit(&mut live, f, &mut on_events),
        };
        live.update(None, &mut on_events);
        if live.game.is_over() {
            return LiveEnd::GameOver;
        }
        let now = (
            live.game.stats().pieces,
            live.game.hold_piece(),
            live.game.active().map(|a| a.placed.piece),
        );
        if now != asked {
            // The piece locked (or the game moved on) while the bot thought: ask again.
            bot.resync();
            continue;
        }
        let buttons = match bot.play(live.game, &moves).await {
            Ok(b) => b,
            Err(f) => return forfeit(&mut live, f, &mut on_events),
        };
        // Pressed at the game time the path was found for (not advanced in between: a gravity
        // step now would move the piece under the path).
        execute_with(live.game, &buttons, &mut on_events);
        // The bot's pace.
        let next_turn = turn_started + live.min_piece;
        while Instant::now() < next_turn && !live.game.is_over() {
            if !live.wait(Some(next_turn), &mut on_events).await {
                return LiveEnd::Stopped;
            }
        }
    }
}

fn forfeit(live: &mut Live<'_>, f: Forfeit, on_events: &mut impl FnMut(&[Event])) -> LiveEnd {
    live.update(Some(Input::Forfeit), on_events);
    LiveEnd::Forfeit(f)
}
