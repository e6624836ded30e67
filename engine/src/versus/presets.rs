//! The room presets, as data: one table the settings screen offers and tests read. A preset
//! sets every setting it names; the others keep their defaults.

use super::{
    BackToBack, Blocking, GameDraft, GameSettings, GarbageDraft, GarbageSettings, MatchKind,
    RoomLimit, RoomSettings, SeriesSettings, SpinBonus,
};

/// A named set of room settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub name: &'static str,
    /// One line on what it is for.
    pub about: &'static str,
    pub kind: MatchKind,
    pub max_players: u8,
    pub limit: RoomLimit,
    pub first_to: u8,
    pub win_by: u8,
    pub stock: u8,
    /// Every player's attack and garbage rules.
    pub garbage: GarbageDraft,
    /// Every player's ruleset, gravity, entry, preview, handling and KO badges.
    pub game: GameDraft,
}

/// Every preset, in the order the settings screen cycles through them.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "Default",
        about: "one battle, up to 8 players",
        kind: MatchKind::Battle,
        max_players: 8,
        limit: RoomLimit::None,
        first_to: 1,
        win_by: 1,
        stock: 0,
        garbage: GarbageDraft::DEFAULT,
        game: GameDraft::DEFAULT,
    },
    Preset {
        name: "League",
        about: "1v1, first to 7, win by 1",
        kind: MatchKind::Battle,
        max_players: 2,
        limit: RoomLimit::None,
        first_to: 7,
        win_by: 1,
        stock: 0,
        garbage: GarbageDraft::DEFAULT,
        game: GameDraft::DEFAULT,
    },
    Preset {
        name: "Classic 1v1",
        about: "1v1, first to 3, win by 2",
        kind: MatchKind::Battle,
        max_players: 2,
        limit: RoomLimit::None,
        first_to: 3,
        win_by: 2,
        stock: 0,
        garbage: GarbageDraft::DEFAULT,
        game: GameDraft::DEFAULT,
    },
    Preset {
        name: "Party (3-8)",
        about: "up to 8, first to 3, one extra life, KO badges",
        kind: MatchKind::Battle,
        max_players: 8,
        limit: RoomLimit::None,
        first_to: 3,
        win_by: 1,
        stock: 1,
        garbage: GarbageDraft::DEFAULT,
        game: GameDraft {
            ko_badges: true,
            ..GameDraft::DEFAULT
        },
    },
    Preset {
        name: "Chaos",
        about: "8, 3 min, 3 lives, messy, all spins, surge, level 5, badges",
        kind: MatchKind::Battle,
        max_players: 8,
        limit: RoomLimit::Seconds(180),
        first_to: 1,
        win_by: 1,
        stock: 3,
        // Messy garbage that passes through, every spin and surge, the multiplier and the
        // cap growing after the first minute.
        garbage: GarbageDraft {
            multiplier_increase: 20,
            multiplier_margin: 60,
            cap_increase: 2,
            cap_margin: 60,
            messiness: 40,
            blocking: Blocking::Passthrough,
            b2b: BackToBack::Surge,
            spins: SpinBonus::AllSpins,
            ..GarbageDraft::DEFAULT
        },
        // Fast from the start, KO badges.
        game: GameDraft {
            start_level: 5,
            ko_badges: true,
            ..GameDraft::DEFAULT
        },
    },
];

impl Preset {
    /// The room's settings under this preset.
    pub fn settings(&self) -> RoomSettings {
        RoomSettings::new(self.kind, self.max_players, self.limit)
            .with_series(SeriesSettings::new(self.first_to, self.win_by, self.stock))
            .with_garbage(GarbageSettings::new(self.garbage))
            .with_game(GameSettings::new(self.game))
    }
}

/// The preset `settings` are exactly, if any.
pub fn matching(settings: &RoomSettings) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.settings() == *settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each preset's settings survive the clamp unchanged (no preset asks for what a room
    /// cannot have), and the names are unique.
    #[test]
    fn the_classic_garbage_is_the_default() {
        assert_eq!(GarbageDraft::DEFAULT, GarbageDraft::default());
        let chaos = PRESETS.iter().find(|p| p.name == "Chaos").expect("Chaos");
        assert!(!chaos.settings().garbage().is_default());
    }

    #[test]
    fn presets_are_within_bounds_and_distinct() {
        let rows: &[(&str, MatchKind, u8, u8, u8, u8)] = &[
            ("Default", MatchKind::Battle, 8, 1, 1, 0),
            ("League", MatchKind::Battle, 2, 7, 1, 0),
            ("Classic 1v1", MatchKind::Battle, 2, 3, 2, 0),
            ("Party (3-8)", MatchKind::Battle, 8, 3, 1, 1),
            ("Chaos", MatchKind::Battle, 8, 1, 1, 3),
        ];
        assert_eq!(PRESETS.len(), rows.len());
        for (p, &(name, kind, seats, first_to, win_by, stock)) in PRESETS.iter().zip(rows) {
            let s = p.settings();
            assert_eq!(p.name, name);
            let series = s.series();
            assert_eq!(
                (
                    s.kind(),
                    s.max_players(),
                    series.first_to(),
                    series.win_by(),
                    series.stock()
                ),
                (kind, seats, first_to, win_by, stock),
                "{name}"
            );
            assert_eq!(s.limit(), p.limit, "{name}");
            assert_eq!(matching(&s).map(|m| m.name), Some(name));
            assert_eq!(
                *s.garbage().values(),
                p.garbage,
                "{name}: garbage within bounds"
            );
            assert_eq!(s.game().values(), p.game, "{name}: game within bounds");
        }
    }
}
