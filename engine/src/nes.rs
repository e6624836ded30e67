//! The NES game's tables, which Classic mode plays by ([`Gravity::Nes`]): its gravity, its
//! level progression and its scoring, and the rules a ruleset takes from them
//! ([`Ruleset::with_mode`]).
//!
//! Gravity is the NES table of frames per row at the NTSC console's 60.0988 frames a second,
//! converted to whole ms per row (the engine's time unit), rounded to the nearest ms (a half
//! rounds up; none of the table's values is one): level 0's 48 frames are 798.68 ms, so 799.

use crate::mode::{Gravity, Mode};
use crate::preset::CLASSIC_LOCK_DELAY;
use crate::ruleset::{LockDown, Ruleset, Scoring};

/// The NES game's frames per row by level, 0 to 29 (29 and every level above: 1 frame).
pub const NES_FRAMES: [u32; 30] = [
    48, 43, 38, 33, 28, 23, 18, 13, 8, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    1,
];

/// The NES's frame rate in ten-thousandths of a frame a second (60.0988 frames a second).
pub const NES_FRAME_RATE_E4: u64 = 600_988;

/// `frames` at [`NES_FRAME_RATE_E4`] as whole ms, to the nearest (a half up):
/// `frames * 1000 / 60.0988`.
pub const fn frames_to_ms(frames: u32) -> u32 {
    let num = frames as u64 * 1000 * 10_000;
    ((2 * num + NES_FRAME_RATE_E4) / (2 * NES_FRAME_RATE_E4)) as u32
}

/// [`NES_FRAMES`] in whole ms per row: 799, 715, 632, 549, 466, 383, 300, 216, 133, 100, 83
/// (levels 10-12), 67 (13-15), 50 (16-18), 33 (19-28), 17 (29 and up).
pub const NES_GRAVITY_MS: [u32; 30] = {
    let mut ms = [0; 30];
    let mut level = 0;
    while level < ms.len() {
        ms[level] = frames_to_ms(NES_FRAMES[level]);
        level += 1;
    }
    ms
};

/// Gravity at `level` in ms per row.
pub fn gravity_ms(level: u32) -> u32 {
    NES_GRAVITY_MS[(level as usize).min(NES_GRAVITY_MS.len() - 1)]
}

/// The lines after which a game started at level `start` first levels up, the NES game's
/// `min(start * 10 + 10, max(100, start * 10 - 50))`: 10 lines from level 0, 100 from levels
/// 9 to 15, 140 from level 19. Every 10 lines after that it levels up again.
pub fn first_level_up(start: u32) -> u32 {
    let tens = start.saturating_mul(10);
    tens.saturating_add(10)
        .min(100u32.max(tens.saturating_sub(50)))
}

/// The level of a game started at `start` after `lines` lines.
pub fn level(start: u32, lines: u32) -> u32 {
    let first = first_level_up(start);
    if lines < first {
        start
    } else {
        start + 1 + (lines - first) / 10
    }
}

/// The points of a clear of `lines` rows at `level` (the level before the clear): 40, 100,
/// 300 or 1200 times `level + 1`.
pub fn clear_score(lines: u32, level: u32) -> u64 {
    u64::from(crate::scoring::line_base(lines)) * (u64::from(level) + 1)
}

impl Ruleset {
    /// The rules `mode` plays under this ruleset: the ruleset itself, but for Classic
    /// ([`Gravity::Nes`]) the NES game's scoring ([`Scoring::Nes`]) and its lock down: without
    /// the lock delay [`LockDown::Gravity`] (a piece locks at the first gravity step at which it
    /// cannot fall, no resets), with it the ruleset's own lock down with a
    /// [`CLASSIC_LOCK_DELAY`] delay. Its gravity is the mode's (`Game`'s `gravity_at`); the
    /// rest (rotation, generator, hold, preview, delays, handling) stays the ruleset's.
    pub fn with_mode(&self, mode: &Mode) -> Ruleset {
        let Gravity::Nes { lock_delay } = mode.gravity else {
            return *self;
        };
        let mut r = *self;
        r.scoring = Scoring::Nes;
        if lock_delay {
            r.lock_delay = CLASSIC_LOCK_DELAY;
        } else {
            r.lock = LockDown::Gravity;
        }
        r
    }
}
