//! Replays: everything that determines a game (ruleset and version, mode, seed, handling) plus
//! its timestamped inputs. Re-simulating a replay reproduces every event of the original game.
//!
//! Besides serde (feature `serde`), a replay has a compact versioned binary form:
//! `b"MTRP"`, a format byte, then the fields as LEB128 varints, with input times stored as
//! deltas: about two bytes per press or release, so a 40-lines game of about 100 pieces (1,000
//! inputs) takes about 2 KB.
//!
//! No replay holds more than [`MAX_INPUTS`] inputs (the engine ends a game there): the binary
//! reader, the serde form, [`Replay::play`] / [`Replay::verify`] and [`Playback::new`] all
//! refuse one that claims more with [`ReplayError::TooManyInputs`], the reader before it
//! allocates anything for them. Format 1 gained the pause marker (code 80) and the bot marker
//! (code 81) without a new format number: every replay written before reads as it did, and an
//! older reader refuses a replay with a marker it does not know as malformed instead of
//! misreading it.

use crate::event::{EndReason, Event, Stats};
use crate::game::{Game, GameConfig};
use crate::generator::Generator;
use crate::input::{Button, Input, MAX_INPUTS};
use crate::kicks::RotationSystem;
use crate::mode::{Gravity, Limit, Mode, ModeKind, StartBoard, Stat};
use crate::ruleset::{Handling, Ruleset, RulesetId, Time, Tuning};

mod playback;

pub use playback::Playback;

const MAGIC: &[u8; 4] = b"MTRP";
/// Format 1: no tuning. Format 2 (written only for a game with a tuning): format 1 with the
/// tuning after the handling.
const FORMAT: u8 = 1;
const FORMAT_TUNED: u8 = 2;
/// The code of [`Input::Pause`] (added to format 1; older replays never hold it).
const PAUSE: u8 = 80;
/// The code of [`Input::Bot`] (added to format 1 after the pause; older replays never hold it).
const BOT: u8 = 81;
/// The start-board code of [`StartBoard::Snapshot`] (codes 3 and 4 are other start boards').
const SNAPSHOT_BOARD: u8 = 5;

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
    /// is refused.
    pub(crate) fn new_game(&self) -> Result<Game, ReplayError> {
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

    /// The compact binary form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Vec::with_capacity(32 + self.inputs.len() * 3);
        w.extend_from_slice(MAGIC);
        let tuned = !self.tuning.is_default();
        w.push(if tuned { FORMAT_TUNED } else { FORMAT });
        w.push(self.ruleset.code());
        put(&mut w, u64::from(self.version));
        put(&mut w, u64::from(self.seed));
        put(&mut w, u64::from(self.handling.das));
        put(&mut w, u64::from(self.handling.arr));
        put(&mut w, u64::from(self.handling.sdf));
        if tuned {
            write_tuning(&mut w, &self.tuning);
        }
        write_mode(&mut w, &self.mode);
        put(&mut w, self.end);
        put(&mut w, self.inputs.len() as u64);
        let mut last = 0;
        for &(time, input) in &self.inputs {
            put(&mut w, time.saturating_sub(last));
            last = time;
            match input {
                Input::Press(b) => w.push(b as u8),
                Input::Release(b) => w.push(16 + b as u8),
                Input::ReleaseAll => w.push(32),
                Input::Garbage(n) => {
                    w.push(48);
                    w.push(n);
                }
                Input::Forfeit => w.push(64),
                Input::Pause => w.push(PAUSE),
                Input::Bot => w.push(BOT),
            }
        }
        w
    }

    /// Reads the binary form.
    pub fn from_bytes(bytes: &[u8]) -> Result<Replay, ReplayError> {
        let mut r = Reader { bytes, pos: 0 };
        if r.take(4)? != MAGIC {
            return Err(ReplayError::Malformed("not a minotty replay"));
        }
        let format = r.byte()?;
        if format != FORMAT && format != FORMAT_TUNED {
            return Err(ReplayError::Malformed("unknown replay format"));
        }
        let ruleset =
            RulesetId::from_code(r.byte()?).ok_or(ReplayError::Malformed("unknown ruleset"))?;
        let version = r.small("ruleset version")?;
        let seed = r.small("seed")?;
        let handling = Handling {
            das: r.small("das")?,
            arr: r.small("arr")?,
            sdf: r.small("sdf")?,
        };
        let tuning = if format == FORMAT_TUNED {
            read_tuning(&mut r)?
        } else {
            Tuning::default()
        };
        let mode = read_mode(&mut r)?;
        let end = r.var()?;
        let count = r.var()?;
        // Refused before anything is allocated for the inputs.
        if count > MAX_INPUTS as u64 {
            return Err(ReplayError::TooManyInputs { count });
        }
        if count > bytes.len() as u64 {
            return Err(ReplayError::Malformed("input count"));
        }
        let mut inputs = Vec::with_capacity(count as usize);
        let mut time: Time = 0;
        for _ in 0..count {
            time = time
                .checked_add(r.var()?)
                .ok_or(ReplayError::Malformed("time"))?;
            let code = r.byte()?;
            let input = match code {
                0..=8 => Input::Press(Button::ALL[code as usize]),
                16..=24 => Input::Release(Button::ALL[code as usize - 16]),
                32 => Input::ReleaseAll,
                48 => Input::Garbage(r.byte()?),
                64 => Input::Forfeit,
                PAUSE => Input::Pause,
                BOT => Input::Bot,
                _ => return Err(ReplayError::Malformed("input")),
            };
            inputs.push((time, input));
        }
        if r.pos != bytes.len() {
            return Err(ReplayError::Malformed("trailing bytes"));
        }
        Ok(Replay {
            ruleset,
            version,
            mode,
            seed,
            handling,
            tuning,
            inputs,
            end,
        })
    }
}

fn write_mode(w: &mut Vec<u8>, mode: &Mode) {
    w.push(mode.kind as u8);
    put(w, u64::from(mode.start_level));
    w.push(u8::from(mode.level_increase));
    w.push(match mode.gravity {
        Gravity::Levels => 0,
        Gravity::Instant => 1,
    });
    put(w, mode.limits.len() as u64);
    for l in &mode.limits {
        w.push(l.stat as u8);
        put(w, l.value);
        w.push(u8::from(l.win));
    }
    match &mode.start_board {
        StartBoard::Empty => w.push(0),
        StartBoard::Cheese { total, visible } => {
            w.push(1);
            put(w, u64::from(*total));
            put(w, u64::from(*visible));
        }
        StartBoard::Well { width, residual } => {
            w.push(2);
            w.push(*width);
            w.push(*residual);
        }
        // Code 5 (3 and 4 belong to other start boards): the snapshot's own bytes, with their
        // length first. Still format 1: no replay written before holds it, and an older reader
        // refuses it as malformed.
        StartBoard::Snapshot(snapshot) => {
            let bytes = snapshot.to_bytes();
            w.push(SNAPSHOT_BOARD);
            put(w, bytes.len() as u64);
            w.extend_from_slice(&bytes);
        }
        StartBoard::Puzzle { stage } => {
            w.push(3);
            w.push(*stage);
        }
        // Codes 3 (puzzle, a parallel branch) and 4 (descent) are new kinds: no older
        // replay holds them, so older replays keep their bytes.
        StartBoard::Descent => w.push(4),
    }
    w.push(u8::from(mode.end_on_no_clear));
}

fn read_mode(r: &mut Reader<'_>) -> Result<Mode, ReplayError> {
    let kind = *ModeKind::ALL
        .get(usize::from(r.byte()?))
        .ok_or(ReplayError::Malformed("mode"))?;
    let start_level = r.small("start level")?;
    let level_increase = r.flag()?;
    let gravity = match r.byte()? {
        0 => Gravity::Levels,
        1 => Gravity::Instant,
        _ => return Err(ReplayError::Malformed("gravity")),
    };
    let n = r.var()?;
    if n > 16 {
        return Err(ReplayError::Malformed("limits"));
    }
    let mut limits = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let stat = match r.byte()? {
            0 => Stat::Time,
            1 => Stat::Lines,
            2 => Stat::Pieces,
            3 => Stat::Score,
            4 => Stat::Level,
            5 => Stat::GarbageCleared,
            _ => return Err(ReplayError::Malformed("limit")),
        };
        let value = r.var()?;
        let win = r.flag()?;
        limits.push(Limit { stat, value, win });
    }
    let start_board = match r.byte()? {
        0 => StartBoard::Empty,
        1 => StartBoard::Cheese {
            total: r.small("cheese")?,
            visible: r.small("cheese")?,
        },
        2 => StartBoard::Well {
            width: r.byte()?,
            residual: r.byte()?,
        },
        3 => StartBoard::Puzzle { stage: r.byte()? },
        4 => StartBoard::Descent,
        SNAPSHOT_BOARD => {
            let len = r.var()?;
            // Refused before the bytes are looked at.
            if len > crate::snapshot::MAX_BYTES as u64 {
                return Err(ReplayError::Malformed("snapshot too large"));
            }
            let bytes = r.take(len as usize)?;
            let snapshot = crate::snapshot::Snapshot::from_bytes(bytes)
                .map_err(|_| ReplayError::Malformed("snapshot"))?;
            StartBoard::Snapshot(Box::new(snapshot))
        }
        _ => return Err(ReplayError::Malformed("start board")),
    };
    let end_on_no_clear = r.flag()?;
    Ok(Mode {
        kind,
        start_level,
        level_increase,
        gravity,
        limits,
        start_board,
        end_on_no_clear,
    })
}

/// `None` as 0, a value as itself + 1.
pub(crate) fn put_opt(w: &mut Vec<u8>, v: Option<u32>) {
    put(w, v.map_or(0, |v| u64::from(v) + 1));
}

pub(crate) fn write_tuning(w: &mut Vec<u8>, t: &Tuning) {
    w.push(match t.rotation {
        None => 0,
        Some(RotationSystem::Super) => 1,
        Some(RotationSystem::Classic) => 2,
        Some(RotationSystem::Ocular) => 3,
    });
    match t.generator {
        None => w.push(0),
        Some(Generator::Bag) => w.push(1),
        Some(Generator::Stock {
            multiplicity,
            restock,
        }) => {
            w.push(2);
            w.push(multiplicity);
            w.push(restock);
        }
        Some(Generator::Recency { snap_centi }) => {
            w.push(3);
            put(w, u64::from(snap_centi));
        }
        Some(Generator::Uniform) => w.push(4),
        Some(Generator::BalanceRelative) => w.push(5),
    }
    for v in [
        t.lock_delay,
        t.ground_cap,
        t.line_clear_delay,
        t.appearance_delay,
        t.hard_drop_delay,
    ] {
        put_opt(w, v);
    }
    w.push(u8::from(t.no_soft_drop_lock));
}

pub(crate) fn read_tuning(r: &mut Reader<'_>) -> Result<Tuning, ReplayError> {
    let rotation = match r.byte()? {
        0 => None,
        1 => Some(RotationSystem::Super),
        2 => Some(RotationSystem::Classic),
        3 => Some(RotationSystem::Ocular),
        _ => return Err(ReplayError::Malformed("rotation system")),
    };
    let generator = match r.byte()? {
        0 => None,
        1 => Some(Generator::Bag),
        2 => Some(Generator::Stock {
            multiplicity: r.byte()?,
            restock: r.byte()?,
        }),
        3 => Some(Generator::Recency {
            snap_centi: r.small("snap")?,
        }),
        4 => Some(Generator::Uniform),
        5 => Some(Generator::BalanceRelative),
        _ => return Err(ReplayError::Malformed("generator")),
    };
    let mut opt = || -> Result<Option<u32>, ReplayError> {
        match r.var()? {
            0 => Ok(None),
            v => u32::try_from(v - 1)
                .map(Some)
                .map_err(|_| ReplayError::Malformed("tuning")),
        }
    };
    let (lock_delay, ground_cap, line_clear_delay, appearance_delay, hard_drop_delay) =
        (opt()?, opt()?, opt()?, opt()?, opt()?);
    let no_soft_drop_lock = r.flag()?;
    Ok(Tuning {
        rotation,
        generator,
        lock_delay,
        ground_cap,
        line_clear_delay,
        appearance_delay,
        hard_drop_delay,
        no_soft_drop_lock,
    })
}

pub(crate) fn put(w: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        w.push((v as u8) | 0x80);
        v >>= 7;
    }
    w.push(v as u8);
}

pub(crate) struct Reader<'a> {
    pub(crate) bytes: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], ReplayError> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or(ReplayError::Malformed("cut short"))?;
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    pub(crate) fn byte(&mut self) -> Result<u8, ReplayError> {
        Ok(self.take(1)?[0])
    }

    pub(crate) fn flag(&mut self) -> Result<bool, ReplayError> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(ReplayError::Malformed("flag")),
        }
    }

    pub(crate) fn var(&mut self) -> Result<u64, ReplayError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(ReplayError::Malformed("varint"))
    }

    pub(crate) fn small<T: TryFrom<u64>>(&mut self, what: &'static str) -> Result<T, ReplayError> {
        T::try_from(self.var()?).map_err(|_| ReplayError::Malformed(what))
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
