//! A [`Replay`]'s binary form: `b"MTRP"`, a format byte, then the fields as LEB128 varints,
//! with input times stored as deltas.

use super::{Reader, put, read_garbage, read_tuning, write_garbage, write_tuning};
use crate::garbage_settings::GarbageSettings;
use crate::input::{Button, Input, MAX_INPUTS};
use crate::mode::{Gravity, Limit, Mode, ModeKind, StartBoard, Stat};
use crate::replay::{Replay, ReplayError};
use crate::ruleset::{Handling, RulesetId, Time, Tuning};
use crate::snapshot::{MAX_BYTES, Snapshot};

const MAGIC: &[u8; 4] = b"MTRP";
/// Format 1: no tuning. Format 2 (written only for a game with a tuning): format 1 with the
/// tuning after the handling. Format 3 (written only for a handling with a hard-drop guard or
/// a DAS cut on): format 2 with those two after the soft drop factor.
const FORMAT: u8 = 1;
const FORMAT_TUNED: u8 = 2;
const FORMAT_HANDLING: u8 = 3;
/// Format 4 (written only for a mode whose garbage settings are not the defaults, a versus
/// match game's): format 3 with the garbage settings after the mode (`codec/garbage.rs`).
const FORMAT_GARBAGE: u8 = 4;
/// Format 5 (written only for a mode with extra lives, a versus room's stock): format 4 with
/// the lives after the garbage settings.
const FORMAT_LIVES: u8 = 5;
/// Format 6 (written only for a handling with a double tap or the move cap on): format 5
/// with the double-tap window and the handling's flags (1: DAS and ARR under the lock delay)
/// after the lives.
const FORMAT_LATE: u8 = 6;
/// The handling flags format 6 knows.
const MOVE_UNDER_LOCK: u64 = 1;
/// The most lives a replay may hold (a room's stock is at most 5).
const MAX_LIVES: u64 = 5;
/// The code of [`Input::Pause`] (added to format 1; older replays never hold it).
const PAUSE: u8 = 80;
/// The code of [`Input::Bot`] (added to format 1 after the pause; older replays never hold it).
const BOT: u8 = 81;
/// The code of [`Input::Ghost`] (added to format 1 after the bot; older replays never hold it).
const GHOST: u8 = 82;
/// The code of [`Input::Rewind`] (added to format 1 after the ghost; older replays never hold
/// it).
const REWIND: u8 = 83;
/// The start-board code of [`StartBoard::Snapshot`] (codes 3 and 4 are other start boards').
const SNAPSHOT_BOARD: u8 = 5;
/// The start-board code of [`StartBoard::Survival`] (after the snapshot's).
const SURVIVAL_BOARD: u8 = 6;
/// The start-board code of [`StartBoard::Ascent`] (after Survival's).
const ASCENT_BOARD: u8 = 7;
/// The gravity codes of [`Gravity::Nes`] without and with its lock delay (0 and 1 are
/// [`Gravity::Levels`] and [`Gravity::Instant`]).
const NES_GRAVITY: u8 = 2;
const NES_GRAVITY_LOCK_DELAY: u8 = 3;

impl Replay {
    /// The compact binary form.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Vec::with_capacity(32 + self.inputs.len() * 3);
        w.extend_from_slice(MAGIC);
        let late = self.handling.has_late_extras();
        let lives = late || self.mode.lives > 0;
        let garbage = lives || !self.mode.garbage.is_default();
        let extras = garbage || self.handling.has_extras();
        let tuned = extras || !self.tuning.is_default();
        w.push(match (extras, tuned) {
            _ if late => FORMAT_LATE,
            _ if lives => FORMAT_LIVES,
            _ if garbage => FORMAT_GARBAGE,
            (true, _) => FORMAT_HANDLING,
            (false, true) => FORMAT_TUNED,
            (false, false) => FORMAT,
        });
        w.push(self.ruleset.code());
        put(&mut w, u64::from(self.version));
        put(&mut w, u64::from(self.seed));
        put(&mut w, u64::from(self.handling.das));
        put(&mut w, u64::from(self.handling.arr));
        put(&mut w, u64::from(self.handling.sdf));
        if extras {
            put(&mut w, u64::from(self.handling.hard_drop_guard));
            put(&mut w, u64::from(self.handling.das_cut));
        }
        if tuned {
            write_tuning(&mut w, &self.tuning);
        }
        write_mode(&mut w, &self.mode);
        if garbage {
            write_garbage(&mut w, &self.mode.garbage);
        }
        if lives {
            put(&mut w, u64::from(self.mode.lives));
        }
        if late {
            put(&mut w, u64::from(self.handling.double_tap));
            put(
                &mut w,
                u64::from(self.handling.move_under_lock) * MOVE_UNDER_LOCK,
            );
        }
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
                Input::Ghost => w.push(GHOST),
                Input::Rewind => w.push(REWIND),
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
        if !matches!(
            format,
            FORMAT | FORMAT_TUNED | FORMAT_HANDLING | FORMAT_GARBAGE | FORMAT_LIVES | FORMAT_LATE
        ) {
            return Err(ReplayError::Malformed("unknown replay format"));
        }
        let ruleset =
            RulesetId::from_code(r.byte()?).ok_or(ReplayError::Malformed("unknown ruleset"))?;
        let version = r.small("ruleset version")?;
        let seed = r.small("seed")?;
        let mut handling = Handling {
            das: r.small("das")?,
            arr: r.small("arr")?,
            sdf: r.small("sdf")?,
            hard_drop_guard: 0,
            das_cut: 0,
            double_tap: 0,
            move_under_lock: false,
        };
        if format >= FORMAT_HANDLING {
            handling.hard_drop_guard = r.small("hard drop guard")?;
            handling.das_cut = r.small("das cut")?;
        }
        let tuning = if format != FORMAT {
            read_tuning(&mut r)?
        } else {
            Tuning::default()
        };
        let mut mode = read_mode(&mut r)?;
        if format >= FORMAT_GARBAGE {
            mode.garbage = read_garbage(&mut r)?;
        }
        if format >= FORMAT_LIVES {
            let lives = r.var()?;
            if lives > MAX_LIVES {
                return Err(ReplayError::Malformed("lives"));
            }
            mode.lives = lives as u8;
        }
        if format == FORMAT_LATE {
            handling.double_tap = r.small("double tap")?;
            let flags = r.var()?;
            if flags & !MOVE_UNDER_LOCK != 0 {
                return Err(ReplayError::Malformed("handling flags"));
            }
            handling.move_under_lock = flags & MOVE_UNDER_LOCK != 0;
        }
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
                0..=10 => Input::Press(Button::ALL[code as usize]),
                16..=26 => Input::Release(Button::ALL[code as usize - 16]),
                32 => Input::ReleaseAll,
                48 => Input::Garbage(r.byte()?),
                64 => Input::Forfeit,
                PAUSE => Input::Pause,
                BOT => Input::Bot,
                GHOST => Input::Ghost,
                REWIND => Input::Rewind,
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
    // Codes 2 and 3 (Classic) are a new kind's: no older replay holds them, so every older
    // replay keeps its bytes (and its format), and an older reader refuses them as malformed.
    w.push(match mode.gravity {
        Gravity::Levels => 0,
        Gravity::Instant => 1,
        Gravity::Nes { lock_delay: false } => NES_GRAVITY,
        Gravity::Nes { lock_delay: true } => NES_GRAVITY_LOCK_DELAY,
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
        // Code 6, a new kind's too (Survival).
        StartBoard::Survival => w.push(SURVIVAL_BOARD),
        StartBoard::Ascent => w.push(ASCENT_BOARD),
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
        NES_GRAVITY => Gravity::Nes { lock_delay: false },
        NES_GRAVITY_LOCK_DELAY => Gravity::Nes { lock_delay: true },
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
        SURVIVAL_BOARD => StartBoard::Survival,
        ASCENT_BOARD => StartBoard::Ascent,
        SNAPSHOT_BOARD => {
            let len = r.var()?;
            // Refused before the bytes are looked at.
            if len > MAX_BYTES as u64 {
                return Err(ReplayError::Malformed("snapshot too large"));
            }
            let bytes = r.take(len as usize)?;
            let snapshot =
                Snapshot::from_bytes(bytes).map_err(|_| ReplayError::Malformed("snapshot"))?;
            StartBoard::Snapshot(Box::new(snapshot))
        }
        _ => return Err(ReplayError::Malformed("start board")),
    };
    let end_on_no_clear = r.flag()?;
    Ok(Mode {
        garbage: GarbageSettings::default(),
        lives: 0,
        kind,
        start_level,
        level_increase,
        gravity,
        limits,
        start_board,
        end_on_no_clear,
    })
}
