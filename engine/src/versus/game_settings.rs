//! A room's rules of every player's game besides attack and garbage ([`GarbageSettings`]):
//! the ruleset, gravity's start level and whether it rises, the entry delay, the preview, the
//! handling the room fixes (or each player's own) and KO badges. One clamped type, made only
//! by [`GameSettings::new`] (serde reads too), carried whole in `RoomSettings` and in a
//! match's start, so every player's engine (and a server bot's) runs the same rules, and each
//! player's replay records them (ruleset, tuning, handling, mode): a match's replays verify.
//!
//! The defaults are a room as it always was: `standard`, level 0 rising every 10 lines, the
//! ruleset's own entry delay, each player's preview and handling, no badges.
//!
//! [`GarbageSettings`]: crate::garbage_settings::GarbageSettings

use std::ops::RangeInclusive;

use crate::ruleset::{Handling, RulesetId, Tuning};

/// The rules of every player's game a room chooses (see the module's doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "Unchecked"))]
pub struct GameSettings {
    ruleset: RulesetId,
    start_level: u8,
    level_increase: bool,
    entry_ms: Option<u16>,
    preview: Option<u8>,
    handling: Option<Handling>,
    ko_badges: bool,
}

/// The settings as they arrive (every field optional: an older instance sends none of them).
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct Unchecked {
    #[serde(default)]
    ruleset: RulesetId,
    #[serde(default)]
    start_level: u8,
    #[serde(default = "yes")]
    level_increase: bool,
    #[serde(default)]
    entry_ms: Option<u16>,
    #[serde(default)]
    preview: Option<u8>,
    #[serde(default)]
    handling: Option<Handling>,
    #[serde(default)]
    ko_badges: bool,
}

#[cfg(feature = "serde")]
fn yes() -> bool {
    true
}

#[cfg(feature = "serde")]
impl From<Unchecked> for GameSettings {
    fn from(u: Unchecked) -> GameSettings {
        GameSettings::new(GameDraft {
            ruleset: u.ruleset,
            start_level: u.start_level,
            level_increase: u.level_increase,
            entry_ms: u.entry_ms,
            preview: u.preview,
            handling: u.handling,
            ko_badges: u.ko_badges,
        })
    }
}

/// Every value of a [`GameSettings`], as asked for (public: the settings screen and the
/// presets build one; [`GameSettings::new`] clamps it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameDraft {
    pub ruleset: RulesetId,
    /// Gravity's start level.
    pub start_level: u8,
    /// Whether the level (and gravity) rises with the lines cleared.
    pub level_increase: bool,
    /// The delay before each piece appears, in ms (`None`: the ruleset's own; `Some(0)`:
    /// instant).
    pub entry_ms: Option<u16>,
    /// Pieces of preview everyone sees (`None`: each player's own setting).
    pub preview: Option<u8>,
    /// DAS, ARR and SDF the room fixes for everyone (`None`: each player's own).
    pub handling: Option<Handling>,
    /// Knock-outs earn badges that raise the attack sent (three players or more).
    pub ko_badges: bool,
}

impl GameDraft {
    /// A room as it always was.
    pub const DEFAULT: GameDraft = GameDraft {
        ruleset: RulesetId::Standard,
        start_level: 0,
        level_increase: true,
        entry_ms: None,
        preview: None,
        handling: None,
        ko_badges: false,
    };
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings::new(GameDraft::DEFAULT)
    }
}

impl GameSettings {
    /// Gravity's start level.
    pub const START_LEVEL: RangeInclusive<u8> = 0..=20;
    /// The entry delay, in ms.
    pub const ENTRY_MS: RangeInclusive<u16> = 0..=1000;
    /// The preview everyone sees (the engine's `game::MAX_PREVIEW` at most: a test holds
    /// them equal).
    pub const PREVIEW: RangeInclusive<u8> = 0..=6;
    /// A fixed handling's DAS and ARR, in ms.
    pub const DAS: RangeInclusive<u32> = 0..=500;
    pub const ARR: RangeInclusive<u32> = 0..=200;
    /// A fixed handling's soft drop factor (0: to the floor at once).
    pub const SDF: RangeInclusive<u32> = 0..=100;

    /// The settings asked for, each clamped to its bounds. A fixed handling is DAS, ARR and
    /// SDF only (the hard-drop guard, the DAS cut, the double tap and the move cap stay off:
    /// they are a player's comfort, not the room's rule).
    pub fn new(d: GameDraft) -> GameSettings {
        let clamp = |v: u32, r: RangeInclusive<u32>| v.clamp(*r.start(), *r.end());
        GameSettings {
            ruleset: d.ruleset,
            start_level: d.start_level.min(*Self::START_LEVEL.end()),
            level_increase: d.level_increase,
            entry_ms: d.entry_ms.map(|ms| ms.min(*Self::ENTRY_MS.end())),
            preview: d.preview.map(|p| p.min(*Self::PREVIEW.end())),
            handling: d.handling.map(|h| Handling {
                das: clamp(h.das, Self::DAS),
                arr: clamp(h.arr, Self::ARR),
                sdf: clamp(h.sdf, Self::SDF),
                hard_drop_guard: 0,
                das_cut: 0,
                double_tap: 0,
                move_under_lock: false,
            }),
            ko_badges: d.ko_badges,
        }
    }

    /// Every value, as a draft to change and clamp again.
    pub fn values(&self) -> GameDraft {
        GameDraft {
            ruleset: self.ruleset,
            start_level: self.start_level,
            level_increase: self.level_increase,
            entry_ms: self.entry_ms,
            preview: self.preview,
            handling: self.handling,
            ko_badges: self.ko_badges,
        }
    }

    pub fn is_default(&self) -> bool {
        *self == GameSettings::default()
    }

    pub fn ruleset(&self) -> RulesetId {
        self.ruleset
    }

    pub fn start_level(&self) -> u32 {
        u32::from(self.start_level)
    }

    pub fn level_increase(&self) -> bool {
        self.level_increase
    }

    /// The ruleset's overrides every player's game runs with: the entry delay, if the room
    /// sets one (else none: [`Tuning::default`]).
    pub fn tuning(&self) -> Tuning {
        Tuning {
            appearance_delay: self.entry_ms.map(u32::from),
            ..Tuning::default()
        }
    }

    pub fn entry_ms(&self) -> Option<u16> {
        self.entry_ms
    }

    /// The preview the room shows everyone (`None`: each player's own).
    pub fn preview(&self) -> Option<u8> {
        self.preview
    }

    /// The handling the room fixes (`None`: each player's own).
    pub fn handling(&self) -> Option<Handling> {
        self.handling
    }

    pub fn ko_badges(&self) -> bool {
        self.ko_badges
    }

    /// Every setting as a (name, value) row, in the settings screen's words.
    pub fn describe(&self) -> Vec<(&'static str, String)> {
        let on = |b: bool| if b { "on" } else { "off" }.to_string();
        vec![
            ("Ruleset", self.ruleset.id().to_string()),
            ("Start level", self.start_level.to_string()),
            ("Level increase", on(self.level_increase)),
            ("Entry", entry_text(self.entry_ms)),
            (
                "Preview",
                self.preview
                    .map_or("each player's".into(), |p| p.to_string()),
            ),
            ("Handling", handling_text(self.handling)),
            ("KO badges", on(self.ko_badges)),
        ]
    }

    /// [`GameSettings::describe`]'s rows whose value is not the default's.
    pub fn describe_changed(&self) -> Vec<(&'static str, String)> {
        let defaults = GameSettings::default().describe();
        self.describe()
            .into_iter()
            .zip(defaults)
            .filter(|(a, b)| a.1 != b.1)
            .map(|(a, _)| a)
            .collect()
    }
}

/// An entry delay as the settings screen says it.
pub fn entry_text(entry_ms: Option<u16>) -> String {
    match entry_ms {
        None => "ruleset's".into(),
        Some(0) => "instant".into(),
        Some(ms) => format!("{ms} ms"),
    }
}

/// A fixed handling as the settings screen says it.
pub fn handling_text(handling: Option<Handling>) -> String {
    match handling {
        None => "free".into(),
        Some(h) => format!("DAS {} ARR {} SDF {}", h.das, h.arr, h.sdf),
    }
}

/// The most KO badges that count ([`badge_attack`]).
pub const MAX_BADGES: u32 = 4;
/// What each badge adds to the attack, in percent.
pub const BADGE_PERCENT: u32 = 25;

/// KO badges: an attack of `lines` sent by a player holding `badges` knock-outs, as the room
/// routes it: +[`BADGE_PERCENT`]% a badge, counted up to [`MAX_BADGES`] (+100%), rounded down
/// (one line with one badge is still one line), at most `u8::MAX`. Only in a match of three
/// or more (`players`): in a duel the first knock-out ends it.
pub fn badge_attack(lines: u8, badges: u32, players: usize) -> u8 {
    if players < 3 {
        return lines;
    }
    let percent = 100 + BADGE_PERCENT * badges.min(MAX_BADGES);
    let boosted = u32::from(lines) * percent / 100;
    u8::try_from(boosted).unwrap_or(u8::MAX)
}

#[cfg(test)]
mod tests;

#[cfg(test)]
#[test]
fn the_preview_bound_is_the_engines() {
    assert_eq!(
        usize::from(*GameSettings::PREVIEW.end()),
        crate::game::MAX_PREVIEW
    );
}
