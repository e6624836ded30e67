//! Creating a game under a ruleset version.

use std::collections::VecDeque;

use super::{Game, GameConfig, Ground, Phase, gravity_at};
use crate::board::Board;
use crate::event::Stats;
use crate::garbage::GarbageQueue;
use crate::generator::PieceSource;
use crate::input::Button;
use crate::rng::SplitMix;
use crate::ruleset::Ruleset;

impl Game {
    /// A new game under `version` of its ruleset (see [`Ruleset::of_version`]), as a replay
    /// recorded under that version plays; `None` for a version this engine does not know.
    pub fn of_version(config: GameConfig, seed: u32, version: u16) -> Option<Game> {
        let rules = Ruleset::of_version(config.ruleset, version)?;
        Some(Game::with_rules(config, seed, rules))
    }

    /// A new game under `base` (a version of the config's ruleset) with the config's tuning.
    pub(super) fn with_rules(config: GameConfig, seed: u32, base: Ruleset) -> Game {
        let rules = base.tuned(&config.tuning);
        let level = config.mode.start_level.max(rules.min_level);
        Game {
            rules,
            seed,
            now: 0,
            phase: Phase::Ready,
            board: Board::new(),
            active: None,
            bag: PieceSource::dealing(rules.generator, seed, rules.dealing),
            queue: VecDeque::with_capacity(16),
            hold: None,
            hold_used: false,
            buttons: [false; Button::ALL.len()],
            shift: None,
            soft_next: None,
            ground: Ground::default(),
            time_limit: config.mode.time_limit(),
            gravity: gravity_at(&config.mode, &rules, level),
            last_fall: 0,
            sliding: false,
            combo: -1,
            b2b: false,
            b2b_chain: 0,
            stats: Stats {
                level,
                ..Stats::default()
            },
            garbage: GarbageQueue::default(),
            rng: SplitMix::new(seed, 1),
            cheese_left: 0,
            puzzle: None,
            descent: None,
            events: Vec::with_capacity(32),
            inputs: Vec::with_capacity(256),
            paused: false,
            bot: false,
            due: None,
            config: GameConfig {
                handling: config.handling.clamped(),
                ..config
            },
        }
    }
}
