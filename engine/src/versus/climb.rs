//! The climb: a versus without rounds that anyone joins and leaves at any time. Each climber
//! plays runs (a game from the climb's countdown to a top-out); a run's height grows by one
//! metre per line cleared and one per line of attack sent, and the height is cut in floors.
//! Attacks go to another climber drawn at random, weighted by their *targeting factor*
//! ([`weight`]): the higher a climber is, the likelier they are to be hit, and a newcomer is
//! never hit during its first [`GRACE_MS`]. After [`FATIGUE_AFTER_MS`] of a run, fatigue
//! sends it garbage of its own ([`fatigue_lines`]), so that no run lasts for ever.
//!
//! Everything here is pure: the server's climb task keeps the clock and the climbers, this
//! module says what their reports are worth and where attacks go. [`Climb::target`] draws
//! from a generator seeded once per climb, so the same attacks in the same order go to the
//! same climbers.

use crate::rng::SplitMix;

/// Where each floor starts, in metres, and its name (floor 1 is the ground).
pub const FLOORS: [(u32, &str); 10] = [
    (0, "Ground"),
    (50, "Mezzanine"),
    (150, "Offices"),
    (300, "Gallery"),
    (450, "Archive"),
    (650, "Garden"),
    (850, "Observatory"),
    (1100, "Antenna"),
    (1350, "Stratosphere"),
    (1650, "Summit"),
];

/// How long a climber who just started a run is never targeted.
pub const GRACE_MS: u64 = 10_000;
/// When fatigue starts, in a run's own time.
pub const FATIGUE_AFTER_MS: u64 = 8 * 60 * 1000;
/// How often fatigue sends garbage once it started.
pub const FATIGUE_EVERY_MS: u64 = 30_000;
/// A targeting factor's base: every climber out of grace has at least this weight.
pub const TARGET_BASE: u32 = 2;

/// A run's height in metres: one per line cleared, one per line of attack sent.
pub fn height(lines: u32, attack_sent: u32) -> u32 {
    lines.saturating_add(attack_sent)
}

/// The floor (1 to 10) a height is on.
pub fn floor_of(height: u32) -> u8 {
    let above = FLOORS.iter().filter(|&&(at, _)| at <= height).count();
    u8::try_from(above.max(1)).unwrap_or(u8::MAX)
}

/// The name of floor `floor` (1 to 10; anything else is clamped).
pub fn floor_name(floor: u8) -> &'static str {
    let i = usize::from(floor.clamp(1, 10)) - 1;
    FLOORS[i].1
}

/// Where the next floor starts, above `height` (`None` at the top floor).
pub fn next_floor_at(height: u32) -> Option<u32> {
    FLOORS.iter().map(|&(at, _)| at).find(|&at| at > height)
}

/// The garbage lines fatigue has sent a run by its own time `run_ms`: none before
/// [`FATIGUE_AFTER_MS`], then a batch every [`FATIGUE_EVERY_MS`] (the first at once), of one
/// line for the first four batches, two for the next four, and so on up to eight a batch.
pub fn fatigue_lines(run_ms: u64) -> u32 {
    if run_ms < FATIGUE_AFTER_MS {
        return 0;
    }
    let batches = (run_ms - FATIGUE_AFTER_MS) / FATIGUE_EVERY_MS + 1;
    (0..batches.min(10_000))
        .map(|b| fatigue_batch(b as u32))
        .fold(0u32, u32::saturating_add)
}

/// Lines of fatigue's batch `b` (counted from 0).
pub fn fatigue_batch(b: u32) -> u32 {
    (1 + b / 4).min(8)
}

/// One climber as targeting sees them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Climber {
    /// Still playing a run (not topped out, not between runs).
    pub alive: bool,
    /// The run's height so far.
    pub height: u32,
    /// Milliseconds since the run started (its countdown's end).
    pub run_ms: u64,
}

/// A climber's targeting factor: how likely an attack is to go to them. Zero for a climber
/// not playing or still in their grace period; otherwise [`TARGET_BASE`] plus their floor.
pub fn weight(c: &Climber) -> u32 {
    if !c.alive || c.run_ms < GRACE_MS {
        return 0;
    }
    TARGET_BASE + u32::from(floor_of(c.height))
}

/// The climb's attack routing: a generator seeded once per climb.
#[derive(Clone, Debug)]
pub struct Climb {
    rng: SplitMix,
}

impl Climb {
    pub fn new(seed: u32) -> Climb {
        Climb {
            rng: SplitMix::new(seed, 7),
        }
    }

    /// Whom an attack of climber `from` goes to, among `climbers`: one drawn with the odds of
    /// their [`weight`]s, never `from`; `None` when nobody may be hit (the attack is lost).
    pub fn target(&mut self, from: usize, climbers: &[Climber]) -> Option<usize> {
        let weights = |i: usize, c: &Climber| if i == from { 0 } else { weight(c) };
        let total: u32 = climbers
            .iter()
            .enumerate()
            .map(|(i, c)| weights(i, c))
            .fold(0, u32::saturating_add);
        if total == 0 {
            return None;
        }
        let mut pick = self.rng.below(total);
        for (i, c) in climbers.iter().enumerate() {
            let w = weights(i, c);
            if pick < w {
                return Some(i);
            }
            pick -= w;
        }
        None
    }
}

#[cfg(test)]
#[path = "climb/tests.rs"]
mod tests;
