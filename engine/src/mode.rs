//! Game modes: every mode is one [`Mode`] value (start level, level increase, limits, start
//! board, special rules). The engine never looks at a mode's [`ModeKind`]: the kind only names
//! the preset for menus and leaderboards.

use crate::garbage_settings::GarbageSettings;
use crate::ruleset::Time;
use crate::snapshot::Snapshot;

pub use crate::limit::{Limit, Stat};
pub use crate::preset::{
    ASCENT_TIME, CHEESE_DEFAULT, CHEESE_MAX, CHEESE_MIN, CLASSIC_LOCK_DELAY, CLASSIC_MAX_START,
    DESCENT_TIME, ModeKind,
};

impl ModeKind {
    /// The preset mode of this kind (custom: level 0, level increase, no limit).
    pub fn mode(self) -> Mode {
        match self {
            ModeKind::Sprint => Mode::sprint(),
            ModeKind::Marathon => Mode::marathon(),
            ModeKind::Ultra => Mode::ultra(),
            ModeKind::Master => Mode::master(),
            ModeKind::Cheese => Mode::cheese(CHEESE_DEFAULT),
            ModeKind::Combo => Mode::combo(),
            ModeKind::Custom => Mode::custom(0, true, None),
            ModeKind::Endless => Mode::endless(),
            ModeKind::Puzzle => Mode::puzzle(1),
            ModeKind::Descent => Mode::descent(),
            ModeKind::Classic => Mode::classic(0, false),
            ModeKind::Survival => Mode::survival(),
            ModeKind::Ascent => Mode::ascent(),
        }
    }
}

/// The ruleset version from which 40 lines keeps its start level (before it, the level rose
/// every 10 lines as in marathon).
pub const SPRINT_FIXED_LEVEL_FROM: u16 = 3;

impl ModeKind {
    /// The preset mode of this kind as it was when ruleset version `version` was current: a
    /// replay recorded then plays (and ranks) as the preset it was. Only 40 lines changed:
    /// under versions 1 and 2 its level rose with the lines.
    pub fn preset_at(self, version: u16) -> Mode {
        let mut mode = self.mode();
        if self == ModeKind::Sprint && version < SPRINT_FIXED_LEVEL_FROM {
            mode.level_increase = true;
        }
        mode
    }
}

/// How fast pieces fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Gravity {
    /// The ruleset's drop-interval table at the current level.
    Levels,
    /// Pieces drop to the floor at once (20G).
    Instant,
    /// The NES game's (Classic, `crate::nes`): its frames-per-row table as whole ms by level,
    /// its level progression (the first level-up after `min(start * 10 + 10, max(100, start *
    /// 10 - 50))` lines, then every 10) and scoring, and with `lock_delay` off no lock delay:
    /// a piece locks at the first gravity step at which it cannot fall
    /// ([`crate::Ruleset::with_mode`]). Replay gravity codes 2 (off) and 3 (on).
    Nes { lock_delay: bool },
}

/// What the board holds at the start.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum StartBoard {
    Empty,
    /// Rows of garbage with one random hole each; `total` rows are dealt over the game, at most
    /// `visible` at a time (new rows rise from below as rows are cleared).
    Cheese {
        total: u32,
        visible: u32,
    },
    /// Walls on both sides of a centred well `width` columns wide, from floor to top, with
    /// `residual` cells at its bottom. Cleared rows are replaced by new walls from above.
    Well {
        width: u8,
        residual: u8,
    },
    /// Everything a [`Snapshot`] holds (board, piece in play, hold, queue, generator, chains,
    /// stats, clock): the game resumes where the snapshot was taken. Custom games use it.
    Snapshot(Box<Snapshot>),
    /// Puzzle mode from stage `stage` (1-based, see [`crate::puzzle::STAGES`]): each stage's
    /// board and pieces, retried up to [`crate::puzzle::MAX_ATTEMPTS`] times until the board is
    /// cleared; no hold, gravity of level 1, the level shown is the stage.
    Puzzle {
        stage: u8,
    },
    /// Descent: an endless lattice of pegs and gems that scrolls up as the one piece, which
    /// never locks, nears the bottom (see `game/descent.rs`). Replay start-board code 4.
    Descent,
    /// Survival: an empty board under garbage rows that rise on a clock speeding up with
    /// every row (`game/survival.rs`), each with one random hole. Replay start-board code 6.
    Survival,
    /// Ascent: Descent upside down (see `game/descent/ascent.rs`): the lattice fills the
    /// board, the piece starts at the bottom and the view scrolls down as it nears the top.
    /// Replay start-board code 7.
    Ascent,
}

/// A game mode: one general description that every preset is an instance of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Mode {
    pub kind: ModeKind,
    pub start_level: u32,
    pub level_increase: bool,
    pub gravity: Gravity,
    pub limits: Vec<Limit>,
    pub start_board: StartBoard,
    /// A lock that clears nothing ends the game (combo mode).
    pub end_on_no_clear: bool,
    /// A versus room's attack and garbage settings (the defaults everywhere else). Left out
    /// of the serde form when they are the defaults, so every mode written before reads and
    /// writes the same bytes; a replay's binary form holds them only when they are not.
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "GarbageSettings::is_default")
    )]
    pub garbage: GarbageSettings,
    /// Extra lives (a versus room's stock, 0 everywhere else): a top-out with one left is a
    /// fresh board, not the end (`game/respawn.rs`). Left out of the serde form at 0; a
    /// replay's binary form holds it only when it is not (format 5).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub lives: u8,
}

#[cfg(feature = "serde")]
fn is_zero(v: &u8) -> bool {
    *v == 0
}

impl Mode {
    fn base(kind: ModeKind) -> Mode {
        Mode {
            kind,
            start_level: 0,
            level_increase: true,
            gravity: Gravity::Levels,
            limits: Vec::new(),
            start_board: StartBoard::Empty,
            end_on_no_clear: false,
            garbage: GarbageSettings::default(),
            lives: 0,
        }
    }

    fn with_goal(mut self, stat: Stat, value: u64) -> Mode {
        self.limits.push(Limit {
            stat,
            value,
            win: true,
        });
        self
    }

    /// 40 lines as fast as possible, at the start level throughout (the level does not rise
    /// with the lines, as in the guideline's and tetrs's sprint; see
    /// [`ModeKind::preset_at`] for the replays of before).
    pub fn sprint() -> Mode {
        Mode {
            level_increase: false,
            ..Mode::base(ModeKind::Sprint)
        }
        .with_goal(Stat::Lines, 40)
    }

    /// 150 lines from level 0 with rising speed.
    pub fn marathon() -> Mode {
        Mode::base(ModeKind::Marathon).with_goal(Stat::Lines, 150)
    }

    /// Marathon's speed-up from level 0 with no goal and no limit: only a top-out ends it.
    pub fn endless() -> Mode {
        Mode::base(ModeKind::Endless)
    }

    /// Three minutes for the highest score.
    pub fn ultra() -> Mode {
        Mode::base(ModeKind::Ultra).with_goal(Stat::Time, 180_000)
    }

    /// 100 lines at 20G from the start.
    pub fn master() -> Mode {
        Mode {
            gravity: Gravity::Instant,
            ..Mode::base(ModeKind::Master)
        }
        .with_goal(Stat::Lines, 100)
    }

    /// Dig through `lines` garbage rows (at most 10 on the board at once).
    pub fn cheese(lines: u32) -> Mode {
        let lines = lines.clamp(1, CHEESE_MAX);
        Mode {
            start_board: StartBoard::Cheese {
                total: lines,
                visible: 10,
            },
            level_increase: false,
            ..Mode::base(ModeKind::Cheese)
        }
        .with_goal(Stat::GarbageCleared, u64::from(lines))
    }

    /// An endless 4-wide well with 3 residual cells; the first lock that clears nothing ends it.
    pub fn combo() -> Mode {
        Mode {
            start_board: StartBoard::Well {
                width: 4,
                residual: 3,
            },
            level_increase: false,
            end_on_no_clear: true,
            ..Mode::base(ModeKind::Combo)
        }
    }

    /// Puzzle mode from stage `start_stage` (clamped to `1..=`[`crate::puzzle::STAGE_COUNT`]).
    pub fn puzzle(start_stage: u8) -> Mode {
        let stage = start_stage.clamp(1, crate::puzzle::STAGE_COUNT);
        Mode {
            start_level: u32::from(stage),
            level_increase: false,
            start_board: StartBoard::Puzzle { stage },
            ..Mode::base(ModeKind::Puzzle)
        }
    }

    /// Whether this is puzzle mode (no hold, stages instead of a generator).
    pub fn is_puzzle(&self) -> bool {
        matches!(self.start_board, StartBoard::Puzzle { .. })
    }

    /// The stage a puzzle game starts at (`None` for other modes).
    pub fn puzzle_start(&self) -> Option<u8> {
        match self.start_board {
            StartBoard::Puzzle { stage } => Some(stage),
            _ => None,
        }
    }

    /// Descent: three minutes on the endless lattice, one L or J chosen by the seed, no locks,
    /// no hold, no preview; a gem is one point. Played under the `tetrs` ruleset (its board).
    pub fn descent() -> Mode {
        Mode {
            start_board: StartBoard::Descent,
            level_increase: false,
            ..Mode::base(ModeKind::Descent)
        }
        .with_goal(Stat::Time, DESCENT_TIME)
    }

    /// Ascent: two minutes up the endless lattice with an L, a J held beside it (hold swaps
    /// them in place), no drops, no locks, no preview; a gem is one point. Played under the
    /// `tetrs` ruleset (Ocular's kicks, with its half turn, are what the piece climbs by).
    pub fn ascent() -> Mode {
        Mode {
            start_board: StartBoard::Ascent,
            level_increase: false,
            ..Mode::base(ModeKind::Ascent)
        }
        .with_goal(Stat::Time, ASCENT_TIME)
    }

    /// Classic: the NES game from `start_level` (clamped to `0..=`[`CLASSIC_MAX_START`]), its
    /// levels rising the NES way, with or without a [`CLASSIC_LOCK_DELAY`] lock delay; no
    /// goal, only a top-out ends it. Played under `standard` (its board).
    pub fn classic(start_level: u32, lock_delay: bool) -> Mode {
        Mode {
            start_level: start_level.min(CLASSIC_MAX_START),
            gravity: Gravity::Nes { lock_delay },
            ..Mode::base(ModeKind::Classic)
        }
    }

    /// Survival: garbage rows rise on the clock of `game/survival.rs` until the player tops
    /// out; gravity stays at level 0. Played under `standard` (its board).
    pub fn survival() -> Mode {
        Mode {
            start_board: StartBoard::Survival,
            level_increase: false,
            ..Mode::base(ModeKind::Survival)
        }
    }

    /// Whether a game of this mode can be snapshotted: not Descent (its lattice and gems) nor
    /// Survival (its rising clock), which no snapshot holds.
    pub fn can_snapshot(&self) -> bool {
        !matches!(
            self.start_board,
            StartBoard::Descent | StartBoard::Survival | StartBoard::Ascent
        )
    }

    /// Any start level, level increase on or off, and at most one limit (a goal).
    pub fn custom(start_level: u32, level_increase: bool, limit: Option<(Stat, u64)>) -> Mode {
        let mut mode = Mode {
            start_level: start_level.min(30),
            level_increase,
            ..Mode::base(ModeKind::Custom)
        };
        if let Some((stat, value)) = limit {
            mode = mode.with_goal(stat, value.max(1));
        }
        mode
    }

    /// The time limit, if the mode has one.
    pub fn time_limit(&self) -> Option<Time> {
        self.limits
            .iter()
            .filter(|l| l.stat == Stat::Time)
            .map(|l| l.value)
            .min()
    }

    /// Whether the clock is part of this mode's result: a time limit (ultra), or a result
    /// measured in time (40 lines; master, whose lines tie on time; survival, the time it
    /// lasted). Pausing such a game gives the player time to think that the clock does not
    /// count, so a paused one does not rank.
    pub fn timed(&self) -> bool {
        matches!(
            self.kind,
            ModeKind::Sprint | ModeKind::Master | ModeKind::Survival
        ) || self.time_limit().is_some()
    }

    /// The first goal of the mode, for display ("40 lines", "3:00").
    pub fn goal(&self) -> Option<Limit> {
        self.limits.iter().copied().find(|l| l.win)
    }
}
