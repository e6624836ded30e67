//! Creating a game under a ruleset version, and forking one.

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

    /// A new game under `base` (a version of the config's ruleset) as its mode plays it
    /// ([`Ruleset::with_mode`]), with the config's tuning.
    pub(super) fn with_rules(config: GameConfig, seed: u32, base: Ruleset) -> Game {
        let rules = base.with_mode(&config.mode).tuned(&config.tuning);
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
            last_tap: None,
            early: super::early::Early::default(),
            cleared_at: None,
            soft_next: None,
            ground: Ground::default(),
            time_limit: config.mode.time_limit(),
            gravity: gravity_at(&config.mode, &rules, level),
            last_fall: 0,
            fall_acc: 0,
            timers_from: 0,
            sliding: false,
            combo: -1,
            b2b: false,
            b2b_chain: 0,
            attack_carry: 0,
            stats: Stats {
                level,
                ..Stats::default()
            },
            garbage: GarbageQueue::default(),
            rng: SplitMix::new(seed, 1),
            cheese_left: 0,
            puzzle: None,
            descent: None,
            risen: 0,
            events: Vec::with_capacity(32),
            inputs: Vec::with_capacity(256),
            paused: false,
            bot: false,
            rewound: false,
            lives_used: 0,
            due: None,
            cuts: Vec::new(),
            uncounted: 0,
            config: GameConfig {
                handling: config.handling.clamped(),
                ..config
            },
        }
    }

    /// A copy of the game for look-ahead (bots, previews) without its recorded inputs, so that
    /// forking is cheap however long the game has run. Its own replay starts empty, and so
    /// does its count towards [`MAX_INPUTS`](crate::MAX_INPUTS).
    pub fn fork(&self) -> Game {
        Game {
            config: self.config.clone(),
            rules: self.rules,
            seed: self.seed,
            now: self.now,
            phase: self.phase,
            board: self.board.clone(),
            active: self.active,
            bag: self.bag.clone(),
            queue: self.queue.clone(),
            hold: self.hold,
            hold_used: self.hold_used,
            buttons: self.buttons,
            shift: self.shift,
            early: self.early,
            cleared_at: self.cleared_at,
            soft_next: self.soft_next,
            ground: self.ground,
            time_limit: self.time_limit,
            gravity: self.gravity,
            last_fall: self.last_fall,
            fall_acc: self.fall_acc,
            timers_from: self.timers_from,
            sliding: self.sliding,
            last_tap: self.last_tap,
            combo: self.combo,
            b2b: self.b2b,
            b2b_chain: self.b2b_chain,
            attack_carry: self.attack_carry,
            stats: self.stats,
            garbage: self.garbage.clone(),
            rng: self.rng,
            cheese_left: self.cheese_left,
            puzzle: self.puzzle,
            descent: self.descent.clone(),
            risen: self.risen,
            events: Vec::with_capacity(16),
            inputs: Vec::new(),
            paused: self.paused,
            bot: self.bot,
            rewound: self.rewound,
            lives_used: self.lives_used,
            due: self.due,
            cuts: Vec::new(),
            uncounted: 0,
        }
    }

    /// A fork that still counts the inputs applied so far towards
    /// [`MAX_INPUTS`](crate::MAX_INPUTS), so that it ends at the same input as the game it
    /// was forked from would (a playback's state anchors).
    pub(crate) fn fork_counting(&self) -> Game {
        Game {
            uncounted: self.uncounted + self.inputs.len(),
            ..self.fork()
        }
    }

    /// The game as it is, recording `inputs` as the ones that led here (a playback taken
    /// over: those are the replay's inputs up to its position).
    pub(crate) fn fork_with_inputs(
        &self,
        inputs: Vec<(crate::ruleset::Time, crate::Input)>,
    ) -> Game {
        Game {
            inputs,
            ..self.fork()
        }
    }
}
