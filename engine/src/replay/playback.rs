//! Watching a replay: [`Playback`] feeds its inputs up to a time.

use super::{Replay, ReplayError};
use crate::event::Event;
use crate::game::Game;
use crate::ruleset::Time;

/// Plays a replay back over time, for watching it: [`Playback::advance_to`] feeds the recorded
/// inputs up to a time, so a viewer can run at 1x, faster, or step.
#[derive(Clone, Debug)]
pub struct Playback {
    replay: Replay,
    game: Game,
    next: usize,
}

impl Playback {
    /// Refuses a replay this engine cannot play, or one with more than [`MAX_INPUTS`](crate::MAX_INPUTS) inputs.
    pub fn new(replay: Replay) -> Result<Playback, ReplayError> {
        let game = replay.new_game()?;
        Ok(Playback {
            replay,
            game,
            next: 0,
        })
    }

    /// Plays up to game time `t` (capped at the replay's end) and returns the events.
    pub fn advance_to(&mut self, t: Time) -> Vec<Event> {
        let t = t.min(self.replay.end);
        let mut events = Vec::new();
        while let Some(&(time, input)) = self.replay.inputs.get(self.next) {
            if time > t {
                break;
            }
            events.extend_from_slice(self.game.update(time, Some(input)));
            self.next += 1;
        }
        events.extend_from_slice(self.game.update(t, None));
        events
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
}
