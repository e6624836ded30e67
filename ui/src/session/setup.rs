//! What a solo game is made from: [`GameSetup`], kept to restart it.

use minotty_engine::{Game, Handling, Mode, ModeKind, RulesetId, Tuning};

use super::GhostSource;
use super::ghost::refusal;

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
    /// A replay taken over: the game plays on from the moment it was taken (a retry too).
    pub from: Option<TakenOver>,
}

/// A live game taken over from a stored game's replay at one moment.
#[derive(Clone, Debug)]
pub struct TakenOver {
    /// The game at that moment, its recorded inputs those that led there and its rewind
    /// marker (`minotty_engine::Playback::take_over`).
    pub game: Box<Game>,
    /// The stored game it came from.
    pub source: i64,
}

impl PartialEq for TakenOver {
    /// The same stored game taken over at the same moment of the same recording.
    fn eq(&self, other: &TakenOver) -> bool {
        self.source == other.source
            && self.game.now() == other.game.now()
            && self.game.inputs() == other.game.inputs()
    }
}

impl Eq for TakenOver {}

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
            from: None,
        }
    }

    /// The game `game` (taken over from stored game `source`'s replay), played on from
    /// where it is, with its own rules, handling and seed.
    pub fn taken_over(game: Game, source: i64) -> GameSetup {
        let config = game.config().clone();
        GameSetup {
            seed: Some(game.seed()),
            tuning: config.tuning,
            handling: Some(config.handling),
            from: Some(TakenOver {
                game: Box::new(game),
                source,
            }),
            ..GameSetup::of_mode(config.mode, config.ruleset)
        }
    }
}

impl GameSetup {
    /// A race against `source`: its mode and ruleset, dealt its seed; `Err` says why not.
    pub fn ghost_race(source: GhostSource) -> Result<GameSetup, String> {
        if let Some(why) = refusal(&source.replay) {
            return Err(why);
        }
        let source = GhostSource {
            player: crate::text::sanitize(&source.player),
            ..source
        };
        Ok(GameSetup {
            seed: Some(source.replay.seed),
            ghost: Some(source.clone()),
            ..GameSetup::of_mode(source.replay.mode.clone(), source.replay.ruleset)
        })
    }
}
