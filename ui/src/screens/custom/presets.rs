//! tetro-tui's gameplay slots as presets of a custom game (issue 40, item 5): each sets the
//! rotation system, the pieces, the preview, DAS, ARR, the soft drop factor, the line clear
//! delay and the spawn delay at once, over whichever ruleset the game plays. The values are
//! tetro-tui's (its `gameplay_settings.rs`: the NES and Game Boy ones from their frame counts),
//! its "Default" the tetrs seed's defaults, which are tetro-tui's engine's.
//!
//! What minotty cannot set stays as it is: tetro-tui's NES and Game Boy slots turn the initial
//! rotation and hold off, which minotty always allows.

use minotty_engine::{Generator, RotationSystem, Ruleset};

use super::CustomOptions;

/// One preset: the values it puts in the custom options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameplayPreset {
    pub name: &'static str,
    pub rotation: RotationSystem,
    pub generator: Generator,
    /// `None`: the player's own preview setting.
    pub preview: Option<u8>,
    pub das: u32,
    pub arr: u32,
    pub sdf: u32,
    pub line_clear: u32,
    pub appearance: u32,
}

/// The tetrs seed's defaults: the `tetrs` ruleset's own.
const TETRS_DEFAULT: GameplayPreset = {
    let r = Ruleset::TETRS;
    GameplayPreset {
        name: "Default",
        rotation: r.rotation,
        generator: r.generator,
        preview: None,
        das: r.handling.das,
        arr: r.handling.arr,
        sdf: r.handling.sdf,
        line_clear: r.line_clear_delay,
        appearance: r.appearance_delay,
    }
};

/// The presets, in tetro-tui's order.
pub const PRESETS: [GameplayPreset; 5] = [
    TETRS_DEFAULT,
    GameplayPreset {
        name: "Finesse+",
        preview: Some(6),
        das: 110,
        arr: 0,
        ..TETRS_DEFAULT
    },
    GameplayPreset {
        name: "Guideline",
        rotation: RotationSystem::Super,
        generator: Generator::Bag,
        preview: Some(3),
        das: 167,
        arr: 33,
        sdf: 20,
        line_clear: 200,
        appearance: 50,
    },
    GameplayPreset {
        name: "NES",
        rotation: RotationSystem::Classic,
        generator: Generator::Uniform,
        preview: Some(1),
        das: 266,
        arr: 100,
        sdf: 20,
        line_clear: 283,
        appearance: 166,
    },
    GameplayPreset {
        name: "Gameboy",
        rotation: RotationSystem::ClassicL,
        generator: Generator::Uniform,
        preview: Some(1),
        das: 400,
        arr: 150,
        sdf: 5,
        line_clear: 1500,
        appearance: 33,
    },
];

impl CustomOptions {
    /// Puts preset `p`'s values in the options.
    pub fn apply_preset(&mut self, p: &GameplayPreset) {
        self.choices.rotation = Some(p.rotation);
        self.choices.generator = Some(p.generator);
        self.preview = p.preview;
        self.das = Some(p.das);
        self.arr = Some(p.arr);
        self.sdf = Some(p.sdf);
        self.choices.line_clear_delay = Some(p.line_clear);
        self.choices.appearance_delay = Some(p.appearance);
    }

    /// The preset the options are now, if they are one.
    pub fn preset(&self) -> Option<usize> {
        PRESETS.iter().position(|p| {
            self.choices.rotation == Some(p.rotation)
                && self.choices.generator == Some(p.generator)
                && self.preview == p.preview
                && (self.das, self.arr, self.sdf) == (Some(p.das), Some(p.arr), Some(p.sdf))
                && self.choices.line_clear_delay == Some(p.line_clear)
                && self.choices.appearance_delay == Some(p.appearance)
        })
    }

    /// The preset one step from the options' in direction `dir` (from options of the player's
    /// own, the first or the last), put in place.
    pub(super) fn step_preset(&mut self, dir: i32) {
        let n = PRESETS.len();
        let next = match self.preset() {
            Some(i) if dir < 0 => (i + n - 1) % n,
            Some(i) => (i + 1) % n,
            None if dir < 0 => n - 1,
            None => 0,
        };
        self.apply_preset(&PRESETS[next]);
    }

    /// Back to the ruleset's and the player's own values for everything a preset sets.
    pub(super) fn clear_preset(&mut self) {
        self.choices.rotation = None;
        self.choices.generator = None;
        self.preview = None;
        self.das = None;
        self.arr = None;
        self.sdf = None;
        self.choices.line_clear_delay = None;
        self.choices.appearance_delay = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_engine::{Handling, RulesetId};

    /// The table the README shows, pinned: (name, rotation, pieces, preview, DAS, ARR, SDF,
    /// line clear, spawn delay).
    #[test]
    fn the_presets_are_tetro_tuis_slots() {
        #[rustfmt::skip]
        let table = [
            ("Default", RotationSystem::Ocular, "recency:2.5", None, 167, 33, 15, 200, 50),
            ("Finesse+", RotationSystem::Ocular, "recency:2.5", Some(6), 110, 0, 15, 200, 50),
            ("Guideline", RotationSystem::Super, "bag", Some(3), 167, 33, 20, 200, 50),
            ("NES", RotationSystem::Classic, "uniform", Some(1), 266, 100, 20, 283, 166),
            ("Gameboy", RotationSystem::ClassicL, "uniform", Some(1), 400, 150, 5, 1500, 33),
        ];
        for (p, want) in PRESETS.iter().zip(table) {
            let got = (
                p.name,
                p.rotation,
                p.generator.id(),
                p.preview,
                p.das,
                p.arr,
                p.sdf,
                p.line_clear,
                p.appearance,
            );
            assert_eq!(
                got,
                (
                    want.0,
                    want.1,
                    want.2.to_string(),
                    want.3,
                    want.4,
                    want.5,
                    want.6,
                    want.7,
                    want.8
                )
            );
        }
    }

    #[test]
    fn a_preset_sets_the_game_and_is_recognised_until_a_value_changes() {
        let mut c = CustomOptions::default();
        assert_eq!(c.preset(), None);
        c.step_preset(1);
        assert_eq!(c.preset(), Some(0));
        for i in 1..PRESETS.len() {
            c.step_preset(1);
            assert_eq!(c.preset(), Some(i));
        }
        c.step_preset(1);
        assert_eq!(c.preset(), Some(0), "round again");
        c.step_preset(-1);
        assert_eq!(c.preset(), Some(PRESETS.len() - 1));
        // The Game Boy under standard: its rotation, pieces and delays are the game's tuning,
        // its DAS, ARR and soft drop the game's handling.
        let t = c.tuning(RulesetId::Standard);
        assert_eq!(t.rotation, Some(RotationSystem::ClassicL));
        assert_eq!(t.generator, Some(Generator::Uniform));
        assert_eq!(
            (t.line_clear_delay, t.appearance_delay),
            (Some(1500), Some(33))
        );
        let h = c.handling(Handling::default()).expect("its own handling");
        assert_eq!((h.das, h.arr, h.sdf), (400, 150, 5));
        assert_eq!(c.preview, Some(1));
        c.das = Some(390);
        assert_eq!(c.preset(), None, "changed: the player's own");
        c.clear_preset();
        assert_eq!(c, CustomOptions::default());
    }
}
