//! Replays: everything that determines a game (ruleset and version, mode, seed, handling) plus
//! its timestamped inputs. Re-simulating a replay reproduces every event of the original game.
//!
//! Besides serde (feature `serde`), a replay has a compact versioned binary form:
//! `b"MTRP"`, a format byte, then the fields as LEB128 varints, with input times stored as
//! deltas: about two bytes per press or release, so a 40-lines game of about 100 pieces (1,000
//! inputs) takes about 2 KB; it is written and read in `codec/replay.rs`.
//!
//! No replay holds more than [`MAX_INPUTS`] inputs (the engine ends a game there): the binary
//! reader, the serde form, [`Replay::play`] / [`Replay::verify`] and [`Playback::new`] all
//! refuse one that claims more with [`ReplayError::TooManyInputs`], the reader before it
//! allocates anything for them. Format 1 gained the pause marker (code 80), the bot marker
//! (code 81) and the ghost-race marker (code 82) without a new format number: every replay written before reads as it did, and an
//! older reader refuses a replay with a marker it does not know as malformed instead of
//! misreading it.

use crate::event::{EndReason, Event, Stats};
use crate::game::{Game, GameConfig};
use crate::input::{Input, MAX_INPUTS};
use crate::mode::Mode;
use crate::ruleset::{Handling, Ruleset, RulesetId, Time, Tuning};

mod ghost;
mod playback;

pub use ghost::{GHOST_STEP_INPUTS, Ghost, GhostSplit, GhostStep};
pub use playback::{MAX_ANCHORS, MIN_ANCHOR_GAP, Playback};

/// A recorded game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Replay {
    pub ruleset: RulesetId,
    pub version: u16,
    pub mode: Mode,
    pub seed: u32,
    pub handling: Handling,
    /// A custom game's overrides of its ruleset.
    #[cfg_attr(feature = "serde", serde(default))]
    pub tuning: Tuning,
    /// At most [`MAX_INPUTS`] (the serde form refuses more while it reads them).
    #[cfg_attr(feature = "serde", serde(deserialize_with = "bounded::inputs"))]
    pub inputs: Vec<(Time, Input)>,
    /// The game time the recording stopped at.
    pub end: Time,
}

/// Why a replay could not be read or re-simulated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// The bytes are not a replay, or are cut short, or hold an invalid value.
    Malformed(&'static str),
    /// The replay was recorded under a version of its ruleset this engine does not play (one
    /// newer than its own, `current`). Every earlier version still plays.
    RulesetVersion { recorded: u16, current: u16 },
    /// Input times go backwards.
    UnorderedInputs,
    /// The replay has (or claims) more inputs than a game can record.
    TooManyInputs { count: u64 },
}

impl std::fmt::Display for ReplayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReplayError::Malformed(what) => write!(f, "malformed replay: {what}"),
            ReplayError::RulesetVersion { recorded, current } => write!(
                f,
                "replay recorded under ruleset version {recorded}, this engine plays 1 to {current}"
            ),
            ReplayError::UnorderedInputs => write!(f, "replay inputs are not in time order"),
            ReplayError::TooManyInputs { count } => write!(
                f,
                "replay has {count} inputs, more than the limit of {MAX_INPUTS}"
            ),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The result of re-simulating a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub stats: Stats,
    pub outcome: Option<(EndReason, bool)>,
}

impl Game {
    /// The inputs so far, as a replay of this game up to now.
    pub fn replay(&self) -> Replay {
        let config = self.config();
        Replay {
            ruleset: config.ruleset,
            version: self.ruleset().version,
            mode: config.mode.clone(),
            seed: self.seed(),
            handling: config.handling,
            tuning: config.tuning,
            inputs: self.inputs().to_vec(),
            end: self.now(),
        }
    }
}

impl Replay {
    /// Re-simulates the replay with this engine and returns the final game.
    pub fn play(&self) -> Result<Game, ReplayError> {
        self.play_with(|_| {})
    }

    /// Re-simulates, handing every event to `on_event`.
    pub fn play_with(&self, mut on_event: impl FnMut(&Event)) -> Result<Game, ReplayError> {
        let mut game = self.new_game()?;
        for &(time, input) in &self.inputs {
            game.update(time, Some(input))
                .iter()
                .for_each(&mut on_event);
        }
        game.update(self.end, None).iter().for_each(&mut on_event);
        Ok(game)
    }

    /// The game this replay starts, under the ruleset version it was recorded with, once the
    /// replay is known to be playable by this engine: a version it does not know (a later one)
    /// is refused. Public for whoever steps a replay's inputs themselves (the bots crate's
    /// finesse judge, between them).
    pub fn new_game(&self) -> Result<Game, ReplayError> {
        let version_error = || ReplayError::RulesetVersion {
            recorded: self.version,
            current: Ruleset::get(self.ruleset).version,
        };
        // Checked before anything is built for it.
        Ruleset::of_version(self.ruleset, self.version).ok_or_else(version_error)?;
        let config = self.checked_config()?;
        Game::of_version(config, self.seed, self.version).ok_or_else(version_error)
    }

    /// The game configuration, once the replay's inputs are known to be playable.
    fn checked_config(&self) -> Result<GameConfig, ReplayError> {
        if self.inputs.len() > MAX_INPUTS {
            return Err(ReplayError::TooManyInputs {
                count: self.inputs.len() as u64,
            });
        }
        if self.inputs.windows(2).any(|w| w[0].0 > w[1].0) {
            return Err(ReplayError::UnorderedInputs);
        }
        Ok(GameConfig {
            ruleset: self.ruleset,
            mode: self.mode.clone(),
            handling: self.handling,
            tuning: self.tuning,
        })
    }

    /// Re-simulates the replay and returns its final stats and outcome.
    pub fn verify(&self) -> Result<Verified, ReplayError> {
        let game = self.play()?;
        Ok(Verified {
            stats: *game.stats(),
            outcome: game.outcome(),
        })
    }
}

/// The serde form's bound on inputs: a sequence longer than [`MAX_INPUTS`] is refused as soon
/// as the element after the limit arrives, and capacity is reserved only up to the limit
/// whatever length the input claims.
#[cfg(feature = "serde")]
mod bounded {
    use super::{Input, MAX_INPUTS, Time};
    use serde::de::{Deserializer, Error, SeqAccess, Visitor};

    struct Inputs;

    impl<'de> Visitor<'de> for Inputs {
        type Value = Vec<(Time, Input)>;

        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "at most {MAX_INPUTS} timestamped inputs")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let hint = seq.size_hint().unwrap_or(0);
            if hint > MAX_INPUTS {
                return Err(A::Error::custom(format_args!(
                    "replay has {hint} inputs, more than the limit of {MAX_INPUTS}"
                )));
            }
            let mut inputs = Vec::with_capacity(hint.min(4096));
            while let Some(item) = seq.next_element()? {
                if inputs.len() == MAX_INPUTS {
                    return Err(A::Error::custom(format_args!(
                        "replay has more inputs than the limit of {MAX_INPUTS}"
                    )));
                }
                inputs.push(item);
            }
            Ok(inputs)
        }
    }

    pub(super) fn inputs<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<(Time, Input)>, D::Error> {
        d.deserialize_seq(Inputs)
    }
}
