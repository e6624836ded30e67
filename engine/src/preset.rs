//! Which preset a mode was made from ([`ModeKind`]: its identifier, title and description) and
//! the presets' own numbers. Public as `crate::mode::ModeKind` and so on; kept apart from
//! [`Mode`](crate::Mode) because a snapshot names its mode kind while a mode may start from a
//! snapshot.

use crate::ruleset::Time;

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
    /// The NES game's speeds, level progression and scoring from a chosen start level
    /// (`Mode::classic`, `crate::nes`).
    Classic,
    /// Garbage rows rising on a clock that speeds up, until the player tops out
    /// (`Mode::survival`, `game/survival.rs`).
    Survival,
    /// Descent upside down (tetro-tui's Ascent): climb an endless lattice with an L and a J
    /// that swap by hold, for two minutes, collecting gems (`Mode::ascent`).
    Ascent,
}

impl ModeKind {
    /// Every kind in the order of its discriminant (a replay stores the index into this).
    pub const ALL: [ModeKind; 13] = [
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
        ModeKind::Classic,
        ModeKind::Survival,
        ModeKind::Ascent,
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
            ModeKind::Classic => "classic",
            ModeKind::Survival => "survival",
            ModeKind::Ascent => "ascent",
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
            "classic" | "nes" => ModeKind::Classic,
            "survival" => ModeKind::Survival,
            "ascent" => ModeKind::Ascent,
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
            ModeKind::Classic => "Classic",
            ModeKind::Survival => "Survival",
            ModeKind::Ascent => "Ascent",
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
            ModeKind::Classic => {
                "The NES game's speeds, level-ups and scoring, from the start level you choose."
            }
            ModeKind::Survival => {
                "Garbage rises from below, a row every 10 s at first and 0.5 s sooner each row \
                 (down to 1 s): survive as long as you can."
            }
            ModeKind::Ascent => {
                "Climb an endless grid of pegs by turning an L and a J (hold swaps them); \
                 gather gems for 2 minutes."
            }
        }
    }
}

/// The garbage rows of the cheese preset (tetrs' default) and the range a player may choose.
pub const CHEESE_DEFAULT: u32 = 20;
pub const CHEESE_MIN: u32 = 1;
pub const CHEESE_MAX: u32 = 1000;

/// Descent's time limit (ms).
pub const DESCENT_TIME: Time = 180_000;
/// Ascent's time limit (ms): tetro-tui's two minutes.
pub const ASCENT_TIME: Time = 120_000;

/// The highest start level Classic's menu offers (the NES game's, with A held: 19).
pub const CLASSIC_MAX_START: u32 = 19;
/// Classic's optional lock delay (ms), off by default.
pub const CLASSIC_LOCK_DELAY: u32 = 500;
