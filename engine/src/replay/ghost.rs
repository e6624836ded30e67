//! Racing a ghost: a recording of the same seed played back on the racer's game clock.
//!
//! A [`Ghost`] re-simulates its [`Replay`] as the racer's game time goes on: the racer's game
//! is dealt the replay's seed (so both see the same pieces), and after each update of it the
//! front end calls [`Ghost::advance_to`] with the racer's game time. What the ghost shows at a
//! game time depends on nothing but that time: updates may be chunked in any way (the engine's
//! deadlines are computed from state), and the ghost ends exactly where its recording ends.
//!
//! Its cost is bounded twice: a ghost is built from a replay the engine accepts (at most
//! [`MAX_INPUTS`](crate::MAX_INPUTS) inputs, refused otherwise), played through once at
//! creation to learn when each of its lines was cleared (the split needs the ghost's future:
//! "-1.2 s at 20 lines" when the racer is ahead); and one [`Ghost::advance_to`] feeds at most
//! [`GHOST_STEP_INPUTS`] inputs, so a frame's share of the ghost is counted, however dense the
//! recording. A ghost held back by that bound catches up on the next calls: what it reaches
//! is the same.

use super::{Replay, ReplayError};
use crate::event::{EndReason, EventKind, Stats};
use crate::game::Game;
use crate::ruleset::Time;

/// The most recorded inputs one [`Ghost::advance_to`] feeds the ghost's game. A person makes
/// about ten a second, so a frame needs a handful; a recording denser than this (inputs
/// stacked at one time) is played over several calls instead of in one.
pub const GHOST_STEP_INPUTS: usize = 256;

/// A recorded game played back beside the racer's own.
#[derive(Clone, Debug)]
pub struct Ghost {
    replay: Replay,
    game: Game,
    /// The next recorded input to feed.
    next: usize,
    /// `line_times[n]`: the game time the ghost's line `n + 1` was cleared (a clear of four
    /// lines adds four entries of its time).
    line_times: Vec<Time>,
    /// The recording's final figures and outcome (from the pass at creation).
    last: Stats,
    outcome: Option<(EndReason, bool)>,
}

/// What one [`Ghost::advance_to`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GhostStep {
    /// Recorded inputs fed (at most [`GHOST_STEP_INPUTS`]).
    pub inputs: usize,
    /// The ghost's game reported something (its board may look different).
    pub changed: bool,
    /// The ghost reached the time asked for (or its recording's end); `false` when the bound
    /// on inputs held it back.
    pub caught_up: bool,
}

/// The racer against the ghost at one game time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GhostSplit {
    /// The racer's lines minus the ghost's at the same game time ("+3 lines").
    pub lines: i64,
    /// At the racer's latest line count `n` (when it is above 0 and the ghost reached it):
    /// `(n, racer's time at n minus the ghost's)`, negative when the racer is ahead ("-1.2 s
    /// at 20 lines").
    pub time: Option<(u32, i64)>,
}

impl Ghost {
    /// A ghost of `replay`; refused as [`Replay::play`] refuses (a later ruleset version, more
    /// inputs than a game records, inputs out of order).
    pub fn new(replay: Replay) -> Result<Ghost, ReplayError> {
        let mut line_times = Vec::new();
        let end = replay.play_with(|e| {
            if let EventKind::LineClear(c) = e.kind {
                line_times.extend(std::iter::repeat_n(e.time, usize::from(c.lines)));
            }
        })?;
        let game = replay.new_game()?;
        Ok(Ghost {
            last: *end.stats(),
            outcome: end.outcome(),
            replay,
            game,
            next: 0,
            line_times,
        })
    }

    /// Plays the recording up to game time `t` (never past its end), feeding at most
    /// [`GHOST_STEP_INPUTS`] inputs.
    pub fn advance_to(&mut self, t: Time) -> GhostStep {
        let t = t.min(self.replay.end);
        let mut step = GhostStep::default();
        while let Some(&(time, input)) = self.replay.inputs.get(self.next) {
            if time > t {
                break;
            }
            if step.inputs == GHOST_STEP_INPUTS {
                return step;
            }
            step.changed |= !self.game.update(time, Some(input)).is_empty();
            self.next += 1;
            step.inputs += 1;
        }
        step.changed |= !self.game.update(t, None).is_empty();
        step.caught_up = true;
        step
    }

    /// The ghost's game as it stands.
    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// The recording's final figures (where the ghost ends).
    pub fn final_stats(&self) -> &Stats {
        &self.last
    }

    /// How the recording ended (`None`: it stopped before the game ended).
    pub fn final_outcome(&self) -> Option<(EndReason, bool)> {
        self.outcome
    }

    /// Whether the ghost played its whole recording: every input fed and its end reached (or
    /// its game over: a game's clock stops there, the recording's may have gone on).
    pub fn finished(&self) -> bool {
        self.next == self.replay.inputs.len()
            && (self.game.is_over() || self.game.now() >= self.replay.end)
    }

    /// The earliest game time the ghost's game may change (its next recorded input or its own
    /// next deadline, never past the recording's end); `None` once it has finished.
    pub fn next_change(&self) -> Option<Time> {
        if self.finished() {
            return None;
        }
        let input = self.replay.inputs.get(self.next).map(|&(t, _)| t);
        let due = [input, self.game.next_deadline(), Some(self.replay.end)]
            .into_iter()
            .flatten()
            .min()?;
        Some(due.max(self.game.now()))
    }

    /// The lines the ghost had cleared by game time `t` (from the whole recording: it does not
    /// depend on how far the playback got).
    pub fn lines_at(&self, t: Time) -> u32 {
        let n = self.line_times.partition_point(|&at| at <= t);
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// When the ghost cleared its line `n` (1-based), if it did.
    pub fn time_of_line(&self, n: u32) -> Option<Time> {
        let i = usize::try_from(n).ok()?.checked_sub(1)?;
        self.line_times.get(i).copied()
    }

    /// The racer at game time `now` with `lines` cleared, the last of them at game time
    /// `reached`, against the ghost.
    pub fn split(&self, now: Time, lines: u32, reached: Time) -> GhostSplit {
        let ahead = i64::from(lines) - i64::from(self.lines_at(now));
        let time = (lines > 0)
            .then(|| self.time_of_line(lines))
            .flatten()
            .map(|ghost| (lines, signed(reached) - signed(ghost)));
        GhostSplit { lines: ahead, time }
    }
}

fn signed(t: Time) -> i64 {
    i64::try_from(t).unwrap_or(i64::MAX)
}
