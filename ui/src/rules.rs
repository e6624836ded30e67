//! Names of rulesets and of their parts, as the screens show them. Written here with a
//! `match` each, so the UI does not depend on the engine's own (changing) helpers.

use minotty_engine::{Game, Generator, ModeKind, RotationSystem, RulesetId};

use crate::text::{StackStr, sfmt};

/// The ruleset's name as shown beside a mode ("40 Lines · tetrs").
pub fn ruleset_name(id: RulesetId) -> &'static str {
    match id {
        RulesetId::Standard => "standard",
        RulesetId::TuiTetris => "tui-tetris",
        RulesetId::Tetrs => "tetrs",
    }
}

// Which ruleset each mode plays is the one table of `minotty_domain::modes`.
pub use minotty_domain::modes::{fixed_ruleset, preset_ruleset, takes_ruleset};

/// What a ruleset plays like, in words a player understands (no jargon beyond the names
/// [`rotation_label`] uses too, so every screen calls the same thing the same).
pub fn ruleset_description(id: RulesetId) -> &'static str {
    match id {
        RulesetId::Standard => {
            "The rules most players know: SRS and 180 turns, each piece once in every 7, \
             T-spins, combos and back-to-back. Versus and leaderboards use it."
        }
        RulesetId::TuiTetris => {
            "The tui-tetris rules as written: SRS without 180 turns, time in 16 ms steps, \
             soft drop one row a press, no room above the field."
        }
        RulesetId::Tetrs => {
            "The tetrs game: its own rotation, Ocular and 180 turns, pieces seen lately come \
             less often, falling up to instant, every spin scores."
        }
    }
}

pub fn rotation_name(r: RotationSystem) -> &'static str {
    match r {
        RotationSystem::Super => "SRS",
        RotationSystem::Classic => "classic (no kicks)",
        RotationSystem::ClassicL => "classic left-handed",
        RotationSystem::Ocular => "Ocular",
    }
}

/// The rotation as a ruleset plays it: [`rotation_name`], and whether 180° turns exist
/// ("SRS and 180 turns" in `standard`, plain "SRS" in `tui-tetris`).
pub fn rotation_label(r: RotationSystem, turns_180: bool) -> StackStr<32> {
    if turns_180 {
        sfmt!(32; "{} and 180 turns", rotation_name(r))
    } else {
        sfmt!(32; "{}", rotation_name(r))
    }
}

/// The kinds of generator, as the custom options cycle through them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GeneratorKind {
    Bag,
    Stock,
    Recency,
    Uniform,
    BalanceRelative,
}

impl GeneratorKind {
    pub const ALL: [GeneratorKind; 5] = [
        GeneratorKind::Bag,
        GeneratorKind::Stock,
        GeneratorKind::Recency,
        GeneratorKind::Uniform,
        GeneratorKind::BalanceRelative,
    ];

    pub fn of(g: Generator) -> GeneratorKind {
        match g {
            Generator::Bag => GeneratorKind::Bag,
            Generator::Stock { .. } => GeneratorKind::Stock,
            Generator::Recency { .. } => GeneratorKind::Recency,
            Generator::Uniform => GeneratorKind::Uniform,
            Generator::BalanceRelative => GeneratorKind::BalanceRelative,
        }
    }

    /// A generator of this kind with its usual parameters.
    pub fn default_generator(self) -> Generator {
        match self {
            GeneratorKind::Bag => Generator::Bag,
            GeneratorKind::Stock => Generator::Stock {
                multiplicity: 2,
                restock: 7,
            },
            GeneratorKind::Recency => Generator::Recency { snap_centi: 250 },
            GeneratorKind::Uniform => Generator::Uniform,
            GeneratorKind::BalanceRelative => Generator::BalanceRelative,
        }
    }
}

/// A generator's short name: "7-bag", "stock 2x, restock 7", "recency 2.5", "uniform".
pub fn generator_name(g: Generator) -> StackStr<32> {
    match g {
        Generator::Bag => sfmt!(32; "7-bag"),
        Generator::Stock {
            multiplicity,
            restock,
        } => sfmt!(32; "stock {}x, restock {}", multiplicity, restock),
        Generator::Recency { snap_centi } => {
            sfmt!(32; "recency {}.{:02}", snap_centi / 100, snap_centi % 100)
        }
        Generator::Uniform => sfmt!(32; "uniform"),
        Generator::BalanceRelative => sfmt!(32; "balance-relative"),
    }
}

/// The title of a mode with its ruleset: "40 Lines · tetrs". `dot` is the theme's separator.
pub fn mode_with_ruleset(kind: ModeKind, ruleset: RulesetId, dot: &str) -> StackStr<48> {
    sfmt!(48; "{} {} {}", kind.title(), dot, ruleset_name(ruleset))
}

/// A game's mode and ruleset as every screen titles it: "40 Lines · tetrs", and "(tuned)"
/// when a custom game overrode some of the ruleset's values.
pub fn game_title(game: &Game, dot: &str) -> StackStr<48> {
    let config = game.config();
    let title = mode_with_ruleset(config.mode.kind, config.ruleset, dot);
    if config.tuning.is_default() {
        title
    } else {
        sfmt!(48; "{} (tuned)", title.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(ruleset_name(RulesetId::TuiTetris), "tui-tetris");
        for id in RulesetId::ALL {
            assert_eq!(
                ruleset_name(id),
                id.id(),
                "the stored ids and the names agree"
            );
        }
        let stock = Generator::Stock {
            multiplicity: 2,
            restock: 7,
        };
        assert_eq!(generator_name(stock).as_str(), "stock 2x, restock 7");
        let recency = Generator::Recency { snap_centi: 250 };
        assert_eq!(generator_name(recency).as_str(), "recency 2.50");
        for k in GeneratorKind::ALL {
            assert_eq!(GeneratorKind::of(k.default_generator()), k);
        }
        for id in RulesetId::ALL {
            // Each description names the rotation as the custom options show it, from what
            // the engine plays.
            let r = minotty_engine::Ruleset::get(id);
            let label = rotation_label(r.rotation, r.turns_180);
            let text = ruleset_description(id);
            assert!(
                text.contains(label.as_str()),
                "{id:?}: {text} / {}",
                label.as_str()
            );
            assert!(!text.contains("SRS+") && !text.contains("seed"), "{text}");
        }
        assert_eq!(
            rotation_label(RotationSystem::Super, false).as_str(),
            "SRS",
            "tui-tetris has no 180"
        );
        let title = mode_with_ruleset(ModeKind::Sprint, RulesetId::Tetrs, "·");
        assert_eq!(title.as_str(), "40 Lines · tetrs");
        assert!(takes_ruleset(ModeKind::Ultra) && !takes_ruleset(ModeKind::Master));
    }
}
