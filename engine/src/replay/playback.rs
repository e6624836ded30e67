//! Watching a replay: [`Playback`] feeds its inputs up to a time, and seeks to any time by way
//! of state anchors.
//!
//! Anchors: as playback first passes each multiple of its anchor gap (game time), it keeps a
//! fork of the game there with the index of the next input. A seek goes to the last anchor at
//! or before its target (or the start) and plays on from there, so a seek anywhere costs at
//! most one gap of inputs once playback has passed that far (the first seek forward plays up
//! to its target, leaving anchors on the way). The gap is [`MIN_ANCHOR_GAP`] or the replay's
//! length over [`MAX_ANCHORS`], whichever is longer, so a playback keeps at most
//! [`MAX_ANCHORS`] games. [`Playback::fed`] counts the inputs fed, for tests that bound a
//! seek's work.

use super::{Replay, ReplayError};
use crate::event::Event;
use crate::game::Game;
use crate::input::Input;
use crate::ruleset::Time;

/// The most state anchors a playback keeps.
pub const MAX_ANCHORS: usize = 64;
/// The least game time between two anchors (ms).
pub const MIN_ANCHOR_GAP: Time = 2_000;

/// Plays a replay back over time, for watching it: [`Playback::advance_to`] feeds the recorded
/// inputs up to a time, so a viewer can run at any speed or step; [`Playback::seek`] goes to
/// any time, back or forth.
#[derive(Clone, Debug)]
pub struct Playback {
    replay: Replay,
    game: Game,
    next: usize,
    /// `anchors[k]` is the game at game time `(k + 1) * gap` and its next input's index.
    anchors: Vec<(Game, usize)>,
    gap: Time,
    /// Inputs fed so far (counted for tests).
    fed: u64,
}

impl Playback {
    /// Refuses a replay this engine cannot play, or one with more than [`MAX_INPUTS`](crate::MAX_INPUTS) inputs.
    pub fn new(replay: Replay) -> Result<Playback, ReplayError> {
        let game = replay.new_game()?;
        let gap = replay.end.div_ceil(MAX_ANCHORS as Time).max(MIN_ANCHOR_GAP);
        Ok(Playback {
            replay,
            game,
            next: 0,
            anchors: Vec::new(),
            gap,
            fed: 0,
        })
    }

    /// Plays up to game time `t` (capped at the replay's end) and returns the events. A `t`
    /// before the game's time plays nothing (see [`Playback::seek`]).
    pub fn advance_to(&mut self, t: Time) -> Vec<Event> {
        let t = t.min(self.replay.end);
        let mut events = Vec::new();
        loop {
            // The next anchor not yet kept, if this advance passes it.
            let anchor = (self.anchors.len() as Time + 1) * self.gap;
            let stop = if anchor <= t && anchor > self.game.now() {
                anchor
            } else {
                t
            };
            self.feed_to(stop, &mut events);
            if stop == t {
                break;
            }
            self.anchors.push((self.game.fork_counting(), self.next));
        }
        events
    }

    /// Feeds the inputs up to `t` and advances to it.
    fn feed_to(&mut self, t: Time, events: &mut Vec<Event>) {
        while let Some(&(time, input)) = self.replay.inputs.get(self.next) {
            if time > t {
                break;
            }
            events.extend_from_slice(self.game.update(time, Some(input)));
            self.next += 1;
            self.fed += 1;
        }
        events.extend_from_slice(self.game.update(t, None));
    }

    /// Goes to game time `t` (capped at the end), back or forth: from the last anchor at or
    /// before it (or the start) unless the game is already between that anchor and `t`,
    /// played on to `t`. The events of the way are not returned:
    /// what shows is the game at `t`.
    pub fn seek(&mut self, t: Time) {
        let t = t.min(self.replay.end);
        // The last anchor kept at or before `t` (0: the start).
        let k = ((t / self.gap) as usize).min(self.anchors.len());
        let anchor_time = k as Time * self.gap;
        if t < self.game.now() || anchor_time > self.game.now() {
            match k.checked_sub(1).map(|i| &self.anchors[i]) {
                Some((game, next)) => {
                    self.game = game.fork_counting();
                    self.next = *next;
                }
                None => match self.replay.new_game() {
                    Ok(game) => {
                        self.game = game;
                        self.next = 0;
                    }
                    // It was built once from the same replay.
                    Err(_) => return,
                },
            }
        }
        self.advance_to(t);
    }

    /// The time of the next recorded input after the game's time, if any.
    pub fn next_input_time(&self) -> Option<Time> {
        self.replay.inputs.get(self.next).map(|&(t, _)| t)
    }

    /// A live game from here: the game as it is now, its recorded inputs the replay's up to
    /// now, then an [`Input::Rewind`] (the game did not go on as recorded: it does not rank)
    /// and every button released. `None` once the game is over.
    pub fn take_over(&self) -> Option<Game> {
        if self.game.is_over() {
            return None;
        }
        let mut game = self
            .game
            .fork_with_inputs(self.replay.inputs[..self.next].to_vec());
        let now = game.now();
        game.update(now, Some(Input::Rewind));
        game.update(now, Some(Input::ReleaseAll));
        Some(game)
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// Whether playback reached the end of the recording.
    pub fn finished(&self) -> bool {
        self.game.now() >= self.replay.end
    }

    /// How many inputs playback has fed its game so far (seeks included).
    pub fn fed(&self) -> u64 {
        self.fed
    }

    /// How many state anchors it keeps.
    pub fn anchors(&self) -> usize {
        self.anchors.len()
    }
}
