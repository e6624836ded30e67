//! Game modes: every mode is one [`Mode`] value (start level, level increase, limits, start
//! board, special rules). The engine never looks at a mode's [`ModeKind`]: the kind only names
//! the preset for menus and leaderboards.

use crate::ruleset::Time;
use crate::snapshot::Snapshot;

/// Which preset a mode was made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ModeKind {
    Sprint,
    Marathon,
    Ultra,
    Master,
    Cheese,
    Combo,
    Custom,
    /// Marathon's rising levels with no goal: the game ends only by topping out. After every
    /// older kind so that the replay byte of every older kind keeps its value.
    Endless,
    /// Stages of a garbage board and a fixed list of pieces, each to be cleared perfectly
    /// (`crate::puzzle`).
    Puzzle,
    /// Steer one L or J piece down an endless lattice of pegs for three minutes, collecting
    /// gems (`Mode::descent`). Its replay byte is its index in [`ModeKind::ALL`].
    Descent,
}

impl ModeKind {
    /// Every kind in the order of its discriminant (a replay stores the index into this).
    pub const ALL: [ModeKind; 10] = [
        ModeKind::Sprint,
        ModeKind::Marathon,
        ModeKind::Ultra,
        ModeKind::Master,
        ModeKind::Cheese,
        ModeKind::Combo,
        ModeKind::Custom,
        ModeKind::Endless,
        ModeKind::Puzzle,
        ModeKind::Descent,
    ];

    /// The identifier used in commands and storage (`40l`, `marathon`, ...).
    pub fn id(self) -> &'static str {
        match self {
            ModeKind::Sprint => "40l",
            ModeKind::Marathon => "marathon",
            ModeKind::Ultra => "ultra",
            ModeKind::Master => "master",
            ModeKind::Cheese => "cheese",
            ModeKind::Combo => "combo",
            ModeKind::Custom => "custom",
            ModeKind::Endless => "endless",
            ModeKind::Puzzle => "puzzle",
            ModeKind::Descent => "descent",
        }
    }

    /// Parses an identifier, accepting a few common aliases.
    pub fn parse(s: &str) -> Option<ModeKind> {
        let s = s.trim().to_ascii_lowercase();
        Some(match s.as_str() {
            "40l" | "40lines" | "40-lines" | "sprint" => ModeKind::Sprint,
            "marathon" => ModeKind::Marathon,
            "ultra" | "timetrial" | "time-trial" | "blitz" => ModeKind::Ultra,
            "master" => ModeKind::Master,
            "cheese" | "dig" => ModeKind::Cheese,
            "combo" => ModeKind::Combo,
            "custom" => ModeKind::Custom,
            "endless" | "zen" => ModeKind::Endless,
            "puzzle" => ModeKind::Puzzle,
            "descent" => ModeKind::Descent,
            _ => return None,
        })
    }

    pub fn title(self) -> &'static str {
        match self {
            ModeKind::Sprint => "40 Lines",
            ModeKind::Marathon => "Marathon",
            ModeKind::Ultra => "Ultra",
            ModeKind::Master => "Master",
            ModeKind::Cheese => "Cheese",
            ModeKind::Combo => "Combo",
            ModeKind::Custom => "Custom",
            ModeKind::Endless => "Endless",
            ModeKind::Puzzle => "Puzzle",
            ModeKind::Descent => "Descent",
        }
    }

    pub fn description(self) -> &'static str {
        match self {
            ModeKind::Sprint => "Clear 40 lines as fast as you can.",
            ModeKind::Marathon => "Clear 150 lines while the speed rises; score high.",
            ModeKind::Ultra => "Score as much as you can in 3 minutes.",
            ModeKind::Master => "Clear 100 lines with pieces dropping instantly (20G).",
            ModeKind::Cheese => {
                "Dig through garbage lines (20 unless you choose) in as few pieces as possible."
            }
            ModeKind::Combo => "Keep a combo going in an endless 4-wide well.",
            ModeKind::Custom => "Your own start level, speed-up and limit.",
            ModeKind::Endless => "Marathon without an end: play until you top out.",
            ModeKind::Puzzle => "24 stages: clear each board perfectly with the pieces given.",
            ModeKind::Descent => {
                "Climb down an endless grid of pegs with one L or J; gather gems for 3 minutes."
            }
        }
    }

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
        }
    }
}

/// The garbage rows of the cheese preset (tetrs' default) and the range a player may choose.
pub const CHEESE_DEFAULT: u32 = 20;
pub const CHEESE_MIN: u32 = 1;
pub const CHEESE_MAX: u32 = 1000;

/// Descent's time limit (ms).
pub const DESCENT_TIME: Time = 180_000;

/// A quantity that a limit watches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Stat {
    /// Game time in ms.
    Time,
    Lines,
    Pieces,
    Score,
    Level,
    /// Rows holding garbage that were cleared.
    GarbageCleared,
}

/// A condition that ends the game when `stat` reaches `value`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Limit {
    pub stat: Stat,
    pub value: u64,
    /// Whether reaching it is a win (a goal) or a loss.
    pub win: bool,
}

/// How fast pieces fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Gravity {
    /// The ruleset's drop-interval table at the current level.
    Levels,
    /// Pieces drop to the floor at once (20G).
    Instant,
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

    /// 40 lines as fast as possible.
    pub fn sprint() -> Mode {
        Mode::base(ModeKind::Sprint).with_goal(Stat::Lines, 40)
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
    /// measured in time (40 lines; master, whose lines tie on time). Pausing such a game gives
    /// the player time to think that the clock does not count, so a paused one does not rank.
    pub fn timed(&self) -> bool {
        matches!(self.kind, ModeKind::Sprint | ModeKind::Master) || self.time_limit().is_some()
    }

    /// The first goal of the mode, for display ("40 lines", "3:00").
    pub fn goal(&self) -> Option<Limit> {
        self.limits.iter().copied().find(|l| l.win)
    }
}
