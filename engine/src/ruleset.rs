//! Named, versioned rulesets and per-player handling settings.

use crate::kicks::RotationSystem;

/// Game time in milliseconds since the game started. The engine never reads a clock: the
/// caller passes the time in.
pub type Time = u64;

/// The name of a ruleset. Versus and every leaderboard use [`RulesetId::Standard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RulesetId {
    /// The rules specification seed: SRS, 7-bag by its LCG, 450 ms lock delay with 15 resets,
    /// its drop-interval table, classic + T-spin scoring.
    #[default]
    Standard,
}

/// Every timing and table that a ruleset fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    pub id: RulesetId,
    /// Bumped whenever a rule changes, so that old replays are not judged by new rules.
    pub version: u16,
    pub rotation: RotationSystem,
    /// Drop interval (ms per row) by level; the last entry holds for every higher level.
    pub drop_intervals: [u32; 10],
    /// Lines per level.
    pub lines_per_level: u32,
    pub lock_delay: u32,
    pub lock_resets: u8,
    pub line_clear_delay: u32,
    /// The soft drop never falls slower than one row per this many ms (the seed's soft-drop ARR).
    pub soft_drop_max_interval: u32,
    /// Time between an attack reaching a player's queue and it being able to rise.
    pub garbage_delay: u32,
    /// The most garbage lines that rise on a single lock.
    pub garbage_cap: u32,
}

impl Ruleset {
    /// The `standard` ruleset, from the rules specification seed.
    pub const STANDARD: Ruleset = Ruleset {
        id: RulesetId::Standard,
        version: 1,
        rotation: RotationSystem::Super,
        drop_intervals: [1000, 800, 650, 500, 400, 320, 250, 200, 160, 120],
        lines_per_level: 10,
        lock_delay: 450,
        lock_resets: 15,
        line_clear_delay: 180,
        soft_drop_max_interval: 50,
        garbage_delay: 500,
        garbage_cap: 8,
    };

    pub fn get(id: RulesetId) -> &'static Ruleset {
        match id {
            RulesetId::Standard => &Ruleset::STANDARD,
        }
    }

    /// The drop interval at `level`.
    pub fn drop_interval(&self, level: u32) -> u32 {
        self.drop_intervals[(level as usize).min(self.drop_intervals.len() - 1)]
    }
}

/// A player's handling settings. They run inside the engine, so a replay reproduces them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Handling {
    /// Delayed auto shift: how long a direction is held before it repeats (ms).
    pub das: u32,
    /// Auto repeat rate: ms between repeats; 0 moves to the wall at once.
    pub arr: u32,
    /// Soft drop factor: soft drop falls this many times faster than gravity (never slower than
    /// the ruleset's soft-drop interval); 0 drops to the floor at once.
    pub sdf: u32,
}

impl Default for Handling {
    /// The rules seed's defaults: DAS 150 ms, ARR 50 ms, soft drop 10x.
    fn default() -> Self {
        Handling {
            das: 150,
            arr: 50,
            sdf: 10,
        }
    }
}

impl Handling {
    /// The same settings brought into playable bounds (DAS and ARR at most 1 s, SDF at most 100).
    pub fn clamped(self) -> Handling {
        Handling {
            das: self.das.min(1000),
            arr: self.arr.min(1000),
            sdf: self.sdf.min(100),
        }
    }
}
