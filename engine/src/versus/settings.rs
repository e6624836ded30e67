//! A room's settings, chosen by its host: one validated type, clamped once where it is made
//! ([`RoomSettings::new`], and every serde read: a peer instance's message is clamped like a
//! host's choice). The create-room form, the room task and the wire all hold this type.

use std::ops::RangeInclusive;

use super::MatchKind;
use super::game_settings::GameSettings;
use super::series::SeriesSettings;
use crate::garbage_settings::GarbageSettings;
use crate::{Mode, Stat};

/// A race's lines ([`Mode::sprint`]'s).
pub const RACE_LINES: u32 = 40;

/// An optional limit on a battle (a race is always 40 lines).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RoomLimit {
    #[default]
    None,
    /// The first to clear this many lines wins.
    Lines(u32),
    /// After this many seconds the player who sent the most attack wins.
    Seconds(u32),
}

/// A room's settings. Its fields are private: every value went through [`RoomSettings::new`]
/// (serde reads too), so a room never sees one outside the bounds below.
///
/// Its serde form is the one of `RoomOptions`, the type it replaced (`{"kind":..,
/// "max_players":..,"limit":..}`), so instances of older versions read it unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(from = "Unchecked"))]
pub struct RoomSettings {
    kind: MatchKind,
    max_players: u8,
    limit: RoomLimit,
    /// Every player's attack and garbage rules (left out of the serde form at the defaults,
    /// which older instances' forms read as).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "GarbageSettings::is_default")
    )]
    garbage: GarbageSettings,
    /// First to N games and stock (left out of the serde form at the defaults, which older
    /// instances' forms read as).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "SeriesSettings::is_default")
    )]
    series: SeriesSettings,
    /// Every player's ruleset, gravity, entry, preview, handling and KO badges (left out of
    /// the serde form at the defaults, which older instances' forms read as).
    #[cfg_attr(
        feature = "serde",
        serde(default, skip_serializing_if = "GameSettings::is_default")
    )]
    game: GameSettings,
    /// Free-for-all (0) or the number of teams (2-4, at most the seats; `super::teams`).
    /// Left out of the serde form when free-for-all, which older instances' forms read as.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    teams: u8,
}

#[cfg(feature = "serde")]
fn is_zero(v: &u8) -> bool {
    *v == 0
}

/// The settings as they arrive, before [`RoomSettings::new`] clamps them.
#[cfg(feature = "serde")]
#[derive(serde::Deserialize)]
struct Unchecked {
    kind: MatchKind,
    max_players: u8,
    limit: RoomLimit,
    /// Clamped by its own serde read.
    #[serde(default)]
    garbage: GarbageSettings,
    #[serde(default)]
    series: SeriesSettings,
    #[serde(default)]
    teams: u8,
    /// Clamped by its own serde read.
    #[serde(default)]
    game: GameSettings,
}

#[cfg(feature = "serde")]
impl From<Unchecked> for RoomSettings {
    fn from(u: Unchecked) -> RoomSettings {
        RoomSettings::new(u.kind, u.max_players, u.limit)
            .with_garbage(u.garbage)
            .with_series(u.series)
            .with_teams(u.teams)
            .with_game(u.game)
    }
}

impl RoomSettings {
    /// How many seats a room may have.
    pub const PLAYERS: RangeInclusive<u8> = 2..=8;
    /// A battle's lines goal.
    pub const LINES: RangeInclusive<u32> = 1..=1000;
    /// A battle's time limit, in seconds.
    pub const SECONDS: RangeInclusive<u32> = 10..=3600;

    /// The settings a host asked for, limited to what rooms support: seats clamped to
    /// [`Self::PLAYERS`], a battle's limit to [`Self::LINES`] or [`Self::SECONDS`]; a race has
    /// no limit (it is always 40 lines).
    pub fn new(kind: MatchKind, max_players: u8, limit: RoomLimit) -> RoomSettings {
        let clamp = |v: u32, r: &RangeInclusive<u32>| v.clamp(*r.start(), *r.end());
        let limit = match (kind, limit) {
            (MatchKind::Race, _) | (_, RoomLimit::None) => RoomLimit::None,
            (_, RoomLimit::Lines(n)) => RoomLimit::Lines(clamp(n, &Self::LINES)),
            (_, RoomLimit::Seconds(s)) => RoomLimit::Seconds(clamp(s, &Self::SECONDS)),
        };
        RoomSettings {
            kind,
            max_players: max_players.clamp(*Self::PLAYERS.start(), *Self::PLAYERS.end()),
            limit,
            garbage: GarbageSettings::default(),
            series: SeriesSettings::default(),
            teams: 0,
            game: GameSettings::default(),
        }
    }

    /// These settings with `teams` teams: 0 or 1 is free-for-all; otherwise 2 to
    /// [`MAX_TEAMS`](super::teams::MAX_TEAMS), and never more teams than seats.
    pub fn with_teams(self, teams: u8) -> RoomSettings {
        let teams = match teams {
            0 | 1 => 0,
            n => n.min(super::teams::MAX_TEAMS).min(self.max_players),
        };
        RoomSettings { teams, ..self }
    }

    /// The number of teams; 0 is free-for-all.
    pub fn teams(&self) -> u8 {
        self.teams
    }

    /// These settings with `game` as every player's game rules (a [`GameSettings`] is within
    /// its bounds by construction).
    pub fn with_game(self, game: GameSettings) -> RoomSettings {
        RoomSettings { game, ..self }
    }

    /// Every player's ruleset, gravity, entry, preview, handling and KO badges.
    pub fn game(&self) -> &GameSettings {
        &self.game
    }

    /// These settings with `garbage` as every player's attack and garbage rules (a
    /// [`GarbageSettings`] is within its bounds by construction).
    pub fn with_garbage(self, garbage: GarbageSettings) -> RoomSettings {
        RoomSettings { garbage, ..self }
    }

    /// Every player's attack and garbage rules.
    pub fn garbage(&self) -> &GarbageSettings {
        &self.garbage
    }

    /// These settings with another kind, seat count and limit (clamped as by
    /// [`RoomSettings::new`]), every other setting kept.
    pub fn with_shape(self, kind: MatchKind, max_players: u8, limit: RoomLimit) -> RoomSettings {
        RoomSettings::new(kind, max_players, limit)
            .with_garbage(self.garbage)
            .with_series(self.series)
            .with_teams(self.teams)
            .with_game(self.game)
    }

    /// These settings with `series` as the match's series and stock (a [`SeriesSettings`] is
    /// within its bounds by construction).
    pub fn with_series(self, series: SeriesSettings) -> RoomSettings {
        RoomSettings { series, ..self }
    }

    /// First to N games, the win-by margin and stock.
    pub fn series(&self) -> &SeriesSettings {
        &self.series
    }

    pub fn kind(&self) -> MatchKind {
        self.kind
    }

    /// The room's seats (in [`Self::PLAYERS`]).
    pub fn max_players(&self) -> u8 {
        self.max_players
    }

    /// A battle's limit ([`RoomLimit::None`] for a race).
    pub fn limit(&self) -> RoomLimit {
        self.limit
    }

    /// The lines that win: a race's 40, a battle's lines goal; `None` for a battle without one.
    pub fn goal(&self) -> Option<u32> {
        match (self.kind, self.limit) {
            (MatchKind::Race, _) => Some(RACE_LINES),
            (MatchKind::Battle, RoomLimit::Lines(n)) => Some(n),
            (MatchKind::Battle, _) => None,
        }
    }

    /// The mode every player's engine runs: races are 40 lines; battles are endless or end at
    /// a lines goal (a time limit is kept by the room); a battle's under the room's
    /// garbage settings. Both start at the room's level; a battle's rises with the lines if
    /// the room says so (a race's never does, as 40 lines'). The room's stock is every
    /// game's extra lives ([`Mode::lives`]).
    pub fn mode(&self) -> Mode {
        let mut mode = match (self.kind, self.limit) {
            (MatchKind::Race, _) => Mode::sprint(),
            (MatchKind::Battle, RoomLimit::Lines(n)) => {
                Mode::custom(0, true, Some((Stat::Lines, u64::from(n))))
            }
            (MatchKind::Battle, _) => Mode::custom(0, true, None),
        };
        // A race sends no attack: its games are plain 40 lines.
        if self.kind == MatchKind::Battle {
            mode.garbage = self.garbage;
        }
        mode.start_level = self.game.start_level();
        mode.lives = self.series.stock();
        if self.kind == MatchKind::Battle {
            mode.level_increase = self.game.level_increase();
        }
        mode
    }
}

#[cfg(test)]
mod tests;
