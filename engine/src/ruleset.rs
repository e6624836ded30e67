//! Named, versioned rulesets as data, per-game tuning, and per-player handling settings.
//!
//! A ruleset fixes every timing and table of a game. Three are built in, each following one
//! seed text (see the README's "Rulesets" section for the full list of differences):
//!
//! - [`RulesetId::Standard`]: guideline-style, the rules seed's tables with the deliberate
//!   choices documented on [`Ruleset::STANDARD`]. Versus and the main leaderboards use it.
//! - [`RulesetId::TuiTetris`]: the rules seed to the letter, including its 16 ms fixed step.
//! - [`RulesetId::Tetrs`]: the tetrs seed's game: its scoring formula, level gravity up to 20G,
//!   timer lock down with a ground-time cap, every spin rewarded, its default handling.
//!
//! A custom game may override some values of its ruleset with a [`Tuning`]; the replay records
//! the ruleset, its version and the tuning, so it verifies under exactly the rules it was
//! played by.

use crate::generator::{Dealing, Generator};
use crate::kicks::{Kick, RotationSystem};
use crate::piece::{Piece, Rotation, Turn};

mod versions;

pub use versions::{FIRST_VERSION, Legacy};

/// Game time in milliseconds since the game started. The engine never reads a clock: the
/// caller passes the time in.
pub type Time = u64;

/// The name of a ruleset. Versus and the main leaderboards use [`RulesetId::Standard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RulesetId {
    /// Guideline-style, from the rules seed's tables (documented differences).
    #[default]
    Standard,
    /// The rules seed, to the letter.
    TuiTetris,
    /// The tetrs seed's game.
    Tetrs,
}

impl RulesetId {
    pub const ALL: [RulesetId; 3] = [RulesetId::Standard, RulesetId::TuiTetris, RulesetId::Tetrs];

    /// The identifier used in commands, storage and replays' text forms.
    pub fn id(self) -> &'static str {
        match self {
            RulesetId::Standard => "standard",
            RulesetId::TuiTetris => "tui-tetris",
            RulesetId::Tetrs => "tetrs",
        }
    }

    pub fn parse(s: &str) -> Option<RulesetId> {
        let s = s.trim().to_ascii_lowercase();
        RulesetId::ALL
            .into_iter()
            .find(|r| r.id() == s || (s == "tuitetris" && *r == RulesetId::TuiTetris))
    }

    /// The byte that names the ruleset in binary replays.
    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u8) -> Option<RulesetId> {
        RulesetId::ALL.get(usize::from(code)).copied()
    }

    /// A one-line description for menus.
    pub fn description(self) -> &'static str {
        match self {
            RulesetId::Standard => "Guideline-style: SRS+, 7-bag, T-spins, combos, back-to-back.",
            RulesetId::TuiTetris => "The rules seed to the letter: SRS, 16 ms steps, no 180.",
            RulesetId::Tetrs => "tetrs: Ocular rotation, recency pieces, every spin scores.",
        }
    }
}

/// How fast pieces fall by level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GravityCurve {
    /// ms per row by level; the last entry holds for every higher level.
    Table([u32; 10]),
    /// The tetrs seed's guideline curve `(0.8 - (level-1) * 0.007)^(level-1)` s per row, as
    /// whole ms (the engine's time unit) for levels 1-18, and 20G (instant) from level 19 on.
    /// Level 0 falls like level 1.
    Tetrs,
}

/// The tetrs curve in whole ms per row for levels 1..=18 (index 0 is level 1): the seed's
/// engine table rounded to the nearest ms, except that nothing falls faster than 1 ms per
/// row before 20G.
pub const TETRS_GRAVITY_MS: [u32; 18] = [
    1000, 793, 618, 473, 355, 262, 190, 135, 94, 64, 43, 28, 18, 11, 7, 4, 3, 1,
];

/// How a piece on the ground locks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LockDown {
    /// Extended placement: a lock delay that moves and rotations reset a limited number of
    /// times.
    Extended {
        /// Resets per piece.
        resets: u8,
        /// The step that first grounds a piece uses a reset (the rules seed: "the gravity step
        /// that moves a piece into its first grounded position may consume the first lock
        /// reset"); `standard` starts the timer without using one.
        landing_uses_reset: bool,
        /// When the resets come back: `standard` on reaching a new lowest row only; the rules
        /// seed whenever the piece is in the air ("while the active piece can still move down,
        /// lock_ms and lock_reset_count stay at 0").
        refill: ResetRefill,
    },
    /// The tetrs seed's "timer" extended placement lock down: every move or rotation on the
    /// ground restarts a lock timer (500 ms up to level 19, falling to 150 ms at level 30), and
    /// a piece may touch the ground for at most `ground_cap` ms in total (reset on a new lowest
    /// row). A touch down within two drop intervals of the last lift-off continues the previous
    /// ground time (the seed's ground-continuity fix).
    Timer { ground_cap: u32 },
    /// No lock delay, as on the NES: a piece locks at the first gravity step at which it
    /// cannot fall (moves and rotations on the ground reset nothing). Only Classic without its
    /// lock delay plays it ([`Ruleset::with_mode`]).
    Gravity,
}

/// When spent lock resets come back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResetRefill {
    /// Only on reaching a new lowest row; a piece with no resets left locks as soon as it
    /// touches down again.
    NewLowestRow,
    /// Whenever the piece is in the air; the timer simply restarts on the next touch down.
    Airborne,
}

/// What a soft drop does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SoftDrop {
    /// Gravity `sdf` times faster (never slower than `max_interval` ms per row), one point for
    /// every row it falls (`standard`).
    Factor { max_interval: u32 },
    /// The rules seed: a press moves one row (+1), repeats every `repeat` ms while held (DAS 0,
    /// +1 each), and gravity runs `factor` times faster without points meanwhile.
    Steps { repeat: u32, factor: u32 },
    /// tetrs: gravity `sdf` times faster, no points; a press (or a fall) on the ground locks
    /// at once unless the tuning turns on "no soft drop lock".
    TetrsFactor,
}

/// How gravity counts the time to the piece's next row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GravityClock {
    /// A row is due one interval after the piece's last gravity row or its spawn (on a step
    /// grid the interval rounds up to whole steps, [`Ruleset::after`], and the next row counts
    /// from the step the last one fell on). `standard`, `tetrs`, and `tui-tetris` before
    /// version 5.
    FromLastRow,
    /// The rules seed's accumulator ("Gravity uses an accumulator (while-loop): if
    /// `elapsed_ms` spans multiple drop intervals, multiple row drops may occur in one
    /// tick"): every step adds its ms to a count; while the count holds the interval (a
    /// tenth of it while a stepped soft drop is held), a row falls and the interval is taken
    /// off, so what a step leaves over carries to the next row (at level 0 on the 16 ms step:
    /// rows at 1008, 2000, 3008, 4000 ms) and a step spanning several intervals drops several
    /// rows. Where the seed's text is silent: the count starts at 0 with every new piece (a
    /// spawn, a hold) at the step it appears in; it counts on the ground too, where its rows
    /// move nothing (as the seed's loop tries them and they fail), so a piece moved off a
    /// ledge falls on the beat it would have; soft drop's own rows leave it alone. `tui-tetris`
    /// from version 5.
    Accumulator,
}

/// What the line clear delay does with the next piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClearPause {
    /// No piece in play during the delay: the cleared rows stay on the board (the front ends
    /// flash them) and the next piece spawns when it ends. `standard`, `tetrs`, and
    /// `tui-tetris` before version 5.
    BeforeSpawn,
    /// The rules seed's pause (`step_in_piece` "increments once per fixed step while an active
    /// piece exists, including while `LINE_CLEAR_PAUSE_MS` is counting down"; "When
    /// `line_clear_ms` reaches `0` during a tick, gameplay resumes in the **same** `tick()`
    /// call (gravity/lock may advance immediately)"): the cleared rows go at the lock and the
    /// next piece spawns at once (after an appearance delay, if a tuning sets one); the
    /// player's actions (shifts and auto-shift, rotations, soft drop and its repeats, hard
    /// drop, hold) act on it through the delay, while gravity and the lock delay count none
    /// of its steps but the last, in which the delay reaches 0 and they count as usual.
    /// `tui-tetris` from version 5.
    LivePiece,
}

/// Which locks count as spins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpinRule {
    /// The rules seed's three-corner rule for a T whose last action was a rotation.
    /// `last_kick_full`: a rotation that used the last kick of its table makes a full T-spin
    /// even with one front corner (`standard`, not in the seed).
    TCorners { last_kick_full: bool },
    /// tetrs: any piece that cannot move up when it locks.
    Immobile,
}

/// Which actions clear the "last action was a rotation" flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RotationFlag {
    /// Cleared by any movement of the piece, gravity included; a hard drop over zero rows keeps
    /// it (`standard`).
    AnyMovement,
    /// Cleared by the player's actions only: a shift, a soft drop, a hard drop (even over zero
    /// rows); a gravity fall keeps it (the rules seed's implementation).
    PlayerActions,
}

/// How a lock is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The rules seed's tables: classic lines times `level + 1`, the T-spin table, 1.5x
    /// back-to-back, `50 * combo`, +1 per soft-dropped row and +2 per hard-dropped row.
    Guideline {
        /// A lock that clears nothing ends a back-to-back chain (the rules seed) instead of
        /// keeping it (`standard`).
        no_clear_breaks_b2b: bool,
    },
    /// The tetrs seed's formula: `10 * (lines + combo - 1)^2 * max(1, b2b) * (spin ? 4 : 1) *
    /// (perfect ? 100 : 1)`, no points for drops.
    Tetrs,
    /// The NES game's (Classic, [`Ruleset::with_mode`]): 40, 100, 300, 1200 points for 1-4
    /// lines times `level + 1`, no spin, back-to-back or combo points, the soft drop's rows as
    /// the ruleset scores them (`standard`: one point each), nothing for hard or sonic drops.
    Nes,
}

/// Every timing and table that a ruleset fixes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ruleset {
    pub id: RulesetId,
    /// Bumped whenever a rule changes, so that old replays are not judged by new rules.
    pub version: u16,
    /// The default rotation system (a tuning may choose another).
    pub rotation: RotationSystem,
    /// The default piece generator (a tuning may choose another).
    pub generator: Generator,
    pub gravity: GravityCurve,
    /// How the time to the next row is counted.
    pub gravity_clock: GravityClock,
    /// Lines per level.
    pub lines_per_level: u32,
    /// The lowest level a game plays at (tetrs counts levels from 1).
    pub min_level: u32,
    pub lock: LockDown,
    /// The lock delay of extended lock down (timer lock down takes it from its level table).
    pub lock_delay: u32,
    pub line_clear_delay: u32,
    /// Whether the next piece is in play during the line clear delay.
    pub clear_pause: ClearPause,
    /// Time between a lock (or the end of a line clear) and the next piece (ARE).
    pub appearance_delay: u32,
    /// Time between a hard drop and its lock.
    pub hard_drop_delay: u32,
    /// Every timer of the game fires on this grid of ms (1: exact; the rules seed's fixed step
    /// is 16, so its 450 ms lock delay takes 464 ms and its 180 ms clear 192 ms).
    pub step: u32,
    pub soft_drop: SoftDrop,
    pub spin: SpinRule,
    pub rotation_flag: RotationFlag,
    pub scoring: Scoring,
    /// The O piece "rotates" (its rotation succeeds in place and counts as a move).
    pub o_rotates: bool,
    /// 20 rows above the visible field that pieces can kick into (and whose cells count as
    /// empty for T-spin corners). Without them the field's top is a wall, as in the rules seed.
    pub hidden_rows: bool,
    /// 180° rotation exists.
    pub turns_180: bool,
    /// Sonic drop and the teleports left and right exist (and a handling's double tap may
    /// teleport, [`Handling::double_tap`]).
    pub sonic_drop: bool,
    /// Handling a new player starts with under this ruleset.
    pub handling: Handling,
    /// Time between an attack reaching a player's queue and it being able to rise.
    pub garbage_delay: u32,
    /// The most garbage lines that rise on a single lock.
    pub garbage_cap: u32,
    /// How the generator deals: the bag's shuffle, whether recency may repeat a piece.
    pub dealing: Dealing,
    /// Behaviours of an earlier version, kept so that its replays play as recorded (none in
    /// the current versions; see [`Ruleset::of_version`]).
    pub legacy: Legacy,
}

impl Ruleset {
    /// The offsets this ruleset's version tries for a turn: its rotation system's lists
    /// ([`RotationSystem::kicks`]), or for a version 1 ruleset playing Ocular, the tetrs
    /// engine's L/J data with its repeated kick (see `kicks/ocular.rs`).
    #[inline]
    pub fn kicks(&self, piece: Piece, from: Rotation, turn: Turn) -> &'static [Kick] {
        self.rotation
            .kicks_of_version(self.legacy.ocular_repeated_kick, piece, from, turn)
    }

    /// The `standard` ruleset: the rules seed's tables and timings, with these deliberate
    /// differences from its text (each kept because versus and every leaderboard since the
    /// first version depend on it; `tui-tetris` has the seed's behaviour instead):
    /// a non-clearing lock keeps back-to-back; a rotation using the last kick upgrades a mini
    /// to a full T-spin; the landing step uses no lock reset and resets come back only on a
    /// new lowest row (a piece without resets locks on touching down); the O piece "rotates";
    /// 20 hidden rows above the field; soft drop scores every row; gravity clears the
    /// rotation flag and a zero-row hard drop keeps it; SRS+ 180° kicks and sonic drop; the
    /// line clear delay comes before the next piece (`ClearPause::BeforeSpawn`).
    pub const STANDARD: Ruleset = Ruleset {
        id: RulesetId::Standard,
        version: 5,
        rotation: RotationSystem::Super,
        generator: Generator::Bag,
        gravity: GravityCurve::Table([1000, 800, 650, 500, 400, 320, 250, 200, 160, 120]),
        gravity_clock: GravityClock::FromLastRow,
        lines_per_level: 10,
        min_level: 0,
        lock: LockDown::Extended {
            resets: 15,
            landing_uses_reset: false,
            refill: ResetRefill::NewLowestRow,
        },
        lock_delay: 450,
        line_clear_delay: 180,
        clear_pause: ClearPause::BeforeSpawn,
        appearance_delay: 0,
        hard_drop_delay: 0,
        step: 1,
        soft_drop: SoftDrop::Factor { max_interval: 50 },
        spin: SpinRule::TCorners {
            last_kick_full: true,
        },
        rotation_flag: RotationFlag::AnyMovement,
        scoring: Scoring::Guideline {
            no_clear_breaks_b2b: false,
        },
        o_rotates: true,
        hidden_rows: true,
        turns_180: true,
        sonic_drop: true,
        handling: Handling {
            das: 150,
            arr: 50,
            sdf: 10,
            hard_drop_guard: 0,
            das_cut: 0,
            double_tap: 0,
            move_under_lock: false,
        },
        garbage_delay: 500,
        garbage_cap: 8,
        dealing: Dealing::CURRENT,
        legacy: Legacy::NONE,
    };

    /// `tui-tetris`: the rules seed to the letter, timings on its 16 ms fixed step, gravity by
    /// its accumulator, the next piece in play through its line clear pause.
    pub const TUI_TETRIS: Ruleset = Ruleset {
        id: RulesetId::TuiTetris,
        version: 5,
        rotation: RotationSystem::Super,
        gravity_clock: GravityClock::Accumulator,
        clear_pause: ClearPause::LivePiece,
        lock: LockDown::Extended {
            resets: 15,
            landing_uses_reset: true,
            refill: ResetRefill::Airborne,
        },
        step: 16,
        soft_drop: SoftDrop::Steps {
            repeat: 50,
            factor: 10,
        },
        spin: SpinRule::TCorners {
            last_kick_full: false,
        },
        rotation_flag: RotationFlag::PlayerActions,
        scoring: Scoring::Guideline {
            no_clear_breaks_b2b: true,
        },
        o_rotates: false,
        hidden_rows: false,
        turns_180: false,
        sonic_drop: false,
        // The rules seed's exact queue: its LCG, as its implementation shuffles.
        dealing: Dealing {
            bag: crate::generator::BagShuffle::SeedLcg,
            ..Dealing::CURRENT
        },
        ..Ruleset::STANDARD
    };

    /// `tetrs`: the tetrs seed's game.
    pub const TETRS: Ruleset = Ruleset {
        id: RulesetId::Tetrs,
        version: 5,
        rotation: RotationSystem::Ocular,
        generator: Generator::Recency { snap_centi: 250 },
        gravity: GravityCurve::Tetrs,
        gravity_clock: GravityClock::FromLastRow,
        lines_per_level: 10,
        min_level: 1,
        lock: LockDown::Timer { ground_cap: 3000 },
        lock_delay: 500,
        line_clear_delay: 200,
        clear_pause: ClearPause::BeforeSpawn,
        appearance_delay: 50,
        hard_drop_delay: 0,
        step: 1,
        soft_drop: SoftDrop::TetrsFactor,
        spin: SpinRule::Immobile,
        rotation_flag: RotationFlag::AnyMovement,
        scoring: Scoring::Tetrs,
        o_rotates: true,
        hidden_rows: true,
        turns_180: true,
        sonic_drop: true,
        handling: Handling {
            das: 167,
            arr: 33,
            sdf: 15,
            hard_drop_guard: 0,
            das_cut: 0,
            double_tap: 0,
            move_under_lock: false,
        },
        ..Ruleset::STANDARD
    };

    pub fn get(id: RulesetId) -> &'static Ruleset {
        match id {
            RulesetId::Standard => &Ruleset::STANDARD,
            RulesetId::TuiTetris => &Ruleset::TUI_TETRIS,
            RulesetId::Tetrs => &Ruleset::TETRS,
        }
    }

    /// This ruleset with a game's tuning applied.
    pub fn tuned(&self, tuning: &Tuning) -> Ruleset {
        let mut r = *self;
        if let Some(x) = tuning.rotation {
            r.rotation = x;
        }
        if let Some(g) = tuning.generator {
            r.generator = g.validated();
        }
        if let Some(ms) = tuning.lock_delay {
            r.lock_delay = ms.clamp(1, MAX_DELAY);
        }
        if let (Some(cap), LockDown::Timer { ground_cap }) = (tuning.ground_cap, &mut r.lock) {
            *ground_cap = cap.clamp(1, 60_000);
        }
        if let Some(ms) = tuning.line_clear_delay {
            r.line_clear_delay = ms.min(MAX_DELAY);
        }
        if let Some(ms) = tuning.appearance_delay {
            r.appearance_delay = ms.min(MAX_DELAY);
        }
        if let Some(ms) = tuning.hard_drop_delay {
            r.hard_drop_delay = ms.min(MAX_DELAY);
        }
        r
    }

    /// The ms per row at `level`; `None` at 20G (pieces drop to the floor at once).
    #[inline]
    pub fn drop_interval(&self, level: u32) -> Option<u32> {
        match self.gravity {
            GravityCurve::Table(t) => Some(t[(level as usize).min(t.len() - 1)]),
            GravityCurve::Tetrs => TETRS_GRAVITY_MS.get((level.max(1) - 1) as usize).copied(),
        }
    }

    /// The lock delay at `level`: fixed for extended lock down; for tetrs' timer lock down the
    /// base delay up to level 19, then falling evenly to 150 ms at level 30 (rounded to whole
    /// ms), never below 150 ms. A tuned lock delay replaces the base. None (0) without a lock
    /// delay ([`LockDown::Gravity`]).
    pub fn lock_delay_at(&self, level: u32) -> u32 {
        match self.lock {
            LockDown::Gravity => 0,
            LockDown::Extended { .. } => self.lock_delay,
            LockDown::Timer { .. } => {
                let over = level.saturating_sub(19).min(11);
                let base = self.lock_delay;
                let floor = 150u32.min(base);
                base - ((base - floor) * over + 5) / 11
            }
        }
    }

    /// The step `t` lies in: the last step at or before `t` (`t` itself without a grid).
    #[inline]
    pub fn step_of(&self, t: Time) -> Time {
        let step = Time::from(self.step.max(1));
        t / step * step
    }

    /// A time on this ruleset's step grid: the first step at or after `t`.
    #[inline]
    pub fn on_step(&self, t: Time) -> Time {
        if self.step <= 1 {
            return t;
        }
        let step = Time::from(self.step);
        t.div_ceil(step) * step
    }

    /// When a delay of `ms` started at `t` runs out. Without a step grid, `t + ms`. On the
    /// grid (the rules seed's fixed step), the delay counts whole steps: the seed applies an
    /// input between two ticks and counts from the next tick, so a delay started anywhere in
    /// the step `[k * step, (k + 1) * step)` ends `ceil(ms / step)` steps after `k * step`,
    /// the last counting tick: the 450 ms lock delay always takes 29 steps (464 ms) and the
    /// 180 ms clear 12 (192 ms), wherever in its step the input that starts them lands.
    /// (Version 1 took the first step at or after `t + ms`: one step later for an input late
    /// in its step, [`Legacy::delay_from_input`].)
    #[inline]
    pub fn after(&self, t: Time, ms: u32) -> Time {
        if self.step <= 1 {
            return t + Time::from(ms);
        }
        if self.legacy.delay_from_input {
            return self.on_step(t + Time::from(ms));
        }
        let step = Time::from(self.step);
        t / step * step + self.on_step(Time::from(ms))
    }
}

/// The longest delay a tuning may set (ms).
pub const MAX_DELAY: u32 = 10_000;

/// A custom game's overrides of its ruleset. `None` keeps the ruleset's value. Recorded in the
/// replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tuning {
    pub rotation: Option<RotationSystem>,
    pub generator: Option<Generator>,
    pub lock_delay: Option<u32>,
    /// The ground-time cap of timer lock down (ignored by extended lock down).
    pub ground_cap: Option<u32>,
    pub line_clear_delay: Option<u32>,
    pub appearance_delay: Option<u32>,
    pub hard_drop_delay: Option<u32>,
    /// tetrs' "no soft drop lock": a soft drop on the ground does not lock the piece.
    pub no_soft_drop_lock: bool,
}

impl Tuning {
    pub fn is_default(&self) -> bool {
        *self == Tuning::default()
    }
}

/// A player's handling settings. They run inside the engine, so a replay reproduces them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Handling {
    /// Delayed auto shift: how long a direction is held before it repeats (ms).
    pub das: u32,
    /// Auto repeat rate: ms between repeats; 0 moves to the wall at once.
    pub arr: u32,
    /// Soft drop factor: soft drop falls this many times faster than gravity (never slower than
    /// the ruleset's soft-drop interval); 0 drops to the floor at once.
    pub sdf: u32,
    /// "Prevent accidental hard drop": a hard drop pressed less than this many ms after a lock
    /// that cleared lines does nothing (0: off, the default; at most [`MAX_HARD_DROP_GUARD`]).
    /// Written only when on, so the serde form of every earlier handling keeps its bytes.
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub hard_drop_guard: u32,
    /// DAS cut delay: after a spawn or a rotation, auto-shift waits at least this many ms
    /// before its next move (0: off, the default; at most [`MAX_DAS_CUT`]).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub das_cut: u32,
    /// Double tap to teleport: a direction pressed again within this many ms of its last
    /// press teleports the piece to the wall (tetro-tui's "double-tap finesse"; 0: off, the
    /// default; at most [`MAX_DOUBLE_TAP`]; only under rulesets with teleports).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub double_tap: u32,
    /// Keep DAS and ARR below the lock delay under extended lock down too (as tetrs' timer
    /// lock down always does), so that a piece on the ground can always move before it locks
    /// (off by default).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_false"))]
    pub move_under_lock: bool,
}

#[cfg(feature = "serde")]
fn is_false(v: &bool) -> bool {
    !*v
}

#[cfg(feature = "serde")]
fn is_zero(v: &u32) -> bool {
    *v == 0
}

/// The longest "prevent accidental hard drop" window a handling may set (ms).
pub const MAX_HARD_DROP_GUARD: u32 = 1000;
/// The longest DAS cut delay a handling may set (ms).
pub const MAX_DAS_CUT: u32 = 1000;
/// The longest double-tap window a handling may set (ms).
pub const MAX_DOUBLE_TAP: u32 = 500;

impl Default for Handling {
    /// The rules seed's defaults: DAS 150 ms, ARR 50 ms, soft drop 10x; no hard-drop guard,
    /// no DAS cut.
    fn default() -> Self {
        Ruleset::STANDARD.handling
    }
}

impl Handling {
    /// The same settings brought into playable bounds (DAS and ARR at most 1 s, SDF at most
    /// 100, the hard-drop guard and the DAS cut at most their caps).
    pub fn clamped(self) -> Handling {
        Handling {
            das: self.das.min(1000),
            arr: self.arr.min(1000),
            sdf: self.sdf.min(100),
            hard_drop_guard: self.hard_drop_guard.min(MAX_HARD_DROP_GUARD),
            das_cut: self.das_cut.min(MAX_DAS_CUT),
            double_tap: self.double_tap.min(MAX_DOUBLE_TAP),
            move_under_lock: self.move_under_lock,
        }
    }

    /// Whether a setting beyond DAS, ARR and SDF is on (a replay then needs the format that
    /// stores them).
    pub fn has_extras(&self) -> bool {
        self.hard_drop_guard != 0 || self.das_cut != 0 || self.has_late_extras()
    }

    /// Whether the double tap or the move cap is on (a replay then needs format 6).
    pub fn has_late_extras(&self) -> bool {
        self.double_tap != 0 || self.move_under_lock
    }
}
