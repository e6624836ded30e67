//! What a solo game is made from: [`GameSetup`], kept to restart it.

use minotty_engine::{Handling, Mode, ModeKind, RulesetId, Tuning};

use super::GhostSource;

/// What a game is made from, kept to restart it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    pub mode: Mode,
    /// A fixed seed (custom games); otherwise each game gets a fresh one.
    pub seed: Option<u32>,
    pub ruleset: RulesetId,
    /// A custom game's overrides of its ruleset (none for presets).
    pub tuning: Tuning,
    /// A custom game's handling; `None` plays with the player's settings.
    pub handling: Option<Handling>,
    /// A custom game's preview count; `None` shows the player's setting.
    pub preview: Option<u8>,
    /// The ghost raced (its seed is `seed`; see `session/ghost.rs`).
    pub ghost: Option<GhostSource>,
}

impl GameSetup {
    /// A preset of `kind` under `ruleset`, with a fresh seed and nothing tuned.
    pub fn preset(kind: ModeKind, ruleset: RulesetId) -> GameSetup {
        GameSetup::of_mode(kind.mode(), ruleset)
    }

    /// `mode` under `ruleset`, with a fresh seed and nothing tuned.
    pub fn of_mode(mode: Mode, ruleset: RulesetId) -> GameSetup {
        GameSetup {
            mode,
            seed: None,
            ruleset,
            tuning: Tuning::default(),
            handling: None,
            preview: None,
            ghost: None,
        }
    }
}
