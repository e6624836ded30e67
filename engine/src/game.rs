//! The game state machine over abstract time.
//!
//! [`Game::update`] advances exactly to the time it is given, firing every deadline on the way
//! in a fixed order, then applies the input. Because every timed rule is a deadline computed
//! from the state (never an accumulator of elapsed time: the rules seed's gravity accumulator
//! counts whole steps as of a step, `fall.rs`), the result does not depend on how the caller
//! chunks time: see `tests/chunking.rs`.

mod actions;
mod build;
mod combo_start;
mod descent;
mod early;
mod fall;
mod lock;
mod lockdown;
mod position;
mod respawn;
mod rewind;
mod setup;
mod snapshot;
mod survival;

pub use crate::active::Active;
pub use descent::{CAMERA_MARGIN, Descent, GEM_COLOURS, Gem, SCROLL_INTERVAL, WALL_X};
pub use lock::spin_at;
pub use position::Position;
pub use rewind::Checkpoint;

use std::collections::VecDeque;

use crate::board::{BUFFER_HEIGHT, Board};
use crate::event::{EndReason, Event, EventKind, Stats};
use crate::garbage::GarbageQueue;
use crate::generator::PieceSource;
use crate::input::{Button, Input, MAX_INPUTS};
use crate::mode::{Gravity, Mode};
use crate::piece::{Piece, Placed};
use crate::rng::SplitMix;
use crate::ruleset::{Handling, LockDown, Ruleset, RulesetId, SoftDrop, Time, Tuning};

/// Where new pieces appear: the top-left of their box at column 3 of the top visible row.
pub const SPAWN_X: i8 = 3;
pub const SPAWN_Y: i8 = BUFFER_HEIGHT as i8;
/// The most pieces a front end may show in the preview.
pub const MAX_PREVIEW: usize = 6;
pub use respawn::RESPAWN_DELAY;
pub use survival::{SURVIVAL_FIRST, SURVIVAL_MIN, SURVIVAL_SPEED_UP, survival_rise_at};

/// Everything that fixes a game besides its seed and inputs.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GameConfig {
    pub ruleset: RulesetId,
    pub mode: Mode,
    pub handling: Handling,
    /// A custom game's overrides of its ruleset (default: none).
    #[cfg_attr(feature = "serde", serde(default))]
    pub tuning: Tuning,
}

impl Default for Mode {
    fn default() -> Self {
        Mode::sprint()
    }
}

/// The phases of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Created; the board is set up and the first piece spawns at time 0.
    Ready,
    /// A piece is in play.
    Falling,
    /// Rows are being cleared (`rows`), or with no rows an appearance delay (or a respawn)
    /// runs; the next piece spawns at `until`. Under [`ClearPause::LivePiece`] the rows go at
    /// the lock and the next piece is in play ([`Phase::Falling`]) through the pause.
    ///
    /// [`ClearPause::LivePiece`]: crate::ruleset::ClearPause::LivePiece
    Clearing {
        until: Time,
        rows: u64,
    },
    Over {
        reason: EndReason,
        won: bool,
    },
}

/// Timer lock down's bookkeeping for the piece in play: whether it touches the ground, since
/// when its current ground time counts, when it last lifted off, and the ground time it has
/// left. Kept out of [`Active`] so that extended lock down does not copy it around.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Ground {
    pub on_ground: bool,
    pub touchdown: Option<Time>,
    pub liftoff: Option<Time>,
    pub left: u32,
}

/// An auto-shift in progress: the direction and when it next moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Shift {
    dx: i8,
    next: Time,
    /// DAS has elapsed (with ARR 0 the piece then slides to the wall after every change).
    charged: bool,
}

/// One game of one player.
#[derive(Clone, Debug)]
pub struct Game {
    config: GameConfig,
    /// The ruleset as the game's mode plays it (`Ruleset::with_mode`), its tuning applied.
    rules: Ruleset,
    seed: u32,
    now: Time,
    phase: Phase,
    board: Board,
    active: Option<Active>,
    bag: PieceSource,
    queue: VecDeque<Piece>,
    hold: Option<Piece>,
    hold_used: bool,
    buttons: [bool; Button::ALL.len()],
    shift: Option<Shift>,
    /// The last press of a direction (-1 left, 1 right) and when, for the handling's double
    /// tap ([`crate::Handling::double_tap`]); `None` once a double tap used it.
    last_tap: Option<(i8, Time)>,
    /// What was pressed during the current line clear or spawn delay (`early.rs`).
    early: early::Early,
    /// When the last lock that cleared lines happened (for the hard-drop guard).
    cleared_at: Option<Time>,
    /// The next soft-drop repeat of a ruleset whose soft drop moves in steps.
    soft_next: Option<Time>,
    ground: Ground,
    /// Derived once: the mode's time limit, and gravity at the current level (ms per row,
    /// `None` at 20G), updated with the level. They are read on every update.
    time_limit: Option<Time>,
    gravity: Option<u32>,
    /// When gravity last moved the piece (or the piece spawned); under the accumulator, the
    /// last step it counted, with its count in `fall_acc` (`fall.rs`).
    last_fall: Time,
    fall_acc: Time,
    /// During a line clear pause with the piece in play, the pause's last step: gravity and
    /// the lock delay started before it count from it (`fall.rs`; 0 otherwise).
    timers_from: Time,
    sliding: bool,
    /// Combo index of the running chain, -1 when there is none.
    combo: i32,
    /// The last line clear qualified for back-to-back.
    b2b: bool,
    b2b_chain: u32,
    /// Thousandths of a line the garbage multiplier left over from earlier attacks.
    attack_carry: u32,
    stats: Stats,
    garbage: GarbageQueue,
    rng: SplitMix,
    cheese_left: u32,
    /// Puzzle mode's stage and attempt (`None` in every other mode, and before the start).
    puzzle: Option<crate::puzzle::PuzzleState>,
    /// Descent's lattice state (`None` in every other mode).
    descent: Option<Box<Descent>>,
    /// Survival's garbage rows risen so far (its next one is due by `survival_rise_at`).
    risen: u32,
    events: Vec<Event>,
    inputs: Vec<(Time, Input)>,
    /// An [`Input::Pause`] was applied.
    paused: bool,
    /// An [`Input::Bot`] was applied.
    bot: bool,
    /// An [`Input::Rewind`] was applied (see `game/rewind.rs`).
    rewound: bool,
    /// Extra lives spent ([`Mode::lives`]).
    lives_used: u8,
    /// [`Game::next_deadline`] as of the end of the last [`Game::advance_to`], while nothing
    /// has changed the state since (`None`: not known).
    due: Option<Option<Time>>,
    /// Where each [`Game::rewind`] cut the recorded inputs, in order (see `game/rewind.rs`).
    cuts: Vec<usize>,
    /// Inputs applied before a fork that left them out but that still count towards
    /// [`MAX_INPUTS`] (a replay's playback resumed from a state anchor: `replay/playback.rs`).
    uncounted: usize,
}

impl Game {
    /// A new game under the current version of its ruleset. Nothing happens until the first
    /// [`Game::update`], which sets up the board and spawns the first piece at time 0.
    pub fn new(config: GameConfig, seed: u32) -> Game {
        let rules = *Ruleset::get(config.ruleset);
        Game::with_rules(config, seed, rules)
    }

    /// Advances the game to `now` (earlier times count as the current time), then applies
    /// `input` at `now`. Returns the events of this call, in order.
    ///
    /// The [`MAX_INPUTS`]th input ends the game ([`EndReason::InputLimit`]) right after it is
    /// applied; inputs after it are neither applied nor recorded. The count is of inputs, not
    /// of time, so the end is the same however time is chunked.
    pub fn update(&mut self, now: Time, input: Option<Input>) -> &[Event] {
        self.events.clear();
        let now = now.max(self.now);
        self.advance_to(now);
        if let Some(input) = input.filter(|_| self.uncounted + self.inputs.len() < MAX_INPUTS) {
            self.inputs.push((self.now, input));
            self.due = None;
            self.apply(input);
            if self.uncounted + self.inputs.len() >= MAX_INPUTS && !self.is_over() {
                self.end(EndReason::InputLimit, false);
            }
            // An input can leave a deadline at or before `now` (e.g. releasing soft drop when a
            // gravity step is already due): settle it here so the state after every update is
            // the same however time was chunked.
            self.advance_to(now);
        }
        if !self.is_over() {
            self.stats.time = self.now;
        }
        &self.events
    }

    /// When the next thing can happen on its own (a gravity step, a lock, an auto-shift
    /// repeat, the end of a line clear, garbage becoming ready, a time limit). `None` when the
    /// game is over or only an input can change anything.
    pub fn next_deadline(&self) -> Option<Time> {
        // `Time::MAX` stands for "nothing due" while the candidates are gathered.
        let mut next = self.time_limit.unwrap_or(Time::MAX);
        if let Some(t) = self.garbage.next_ready() {
            next = next.min(t);
        }
        if let Some(t) = self.survival_due() {
            next = next.min(t);
        }
        match self.phase {
            Phase::Over { .. } => return None,
            Phase::Ready => next = 0,
            Phase::Clearing { until, .. } => next = next.min(until),
            Phase::Falling => {
                if let Some(a) = &self.active {
                    match a.lock_at {
                        Some(t) => next = next.min(t),
                        None => {
                            if let Some(i) = self.fall_interval() {
                                next = next.min(self.gravity_due(i));
                            }
                        }
                    }
                }
                if let Some(t) = self.soft_next {
                    next = next.min(t);
                }
                if self.descent.is_some()
                    && let Some(t) = self.descent_deadline()
                {
                    next = next.min(t);
                }
                if let Some(s) = self.shift
                    && !(s.charged && self.config.handling.arr == 0)
                {
                    next = next.min(s.next);
                }
            }
        }
        if next == Time::MAX {
            return self.nothing_due();
        }
        Some(next.max(self.now))
    }

    /// [`Game::next_deadline`] when no candidate came before the end of time: nothing is due,
    /// or a time limit at the very end of time is (a mode may set one).
    #[cold]
    #[inline(never)]
    fn nothing_due(&self) -> Option<Time> {
        self.time_limit.map(|t| t.max(self.now))
    }

    fn advance_to(&mut self, target: Time) {
        loop {
            let next = match self.due.take() {
                Some(known) => known,
                None => self.next_deadline(),
            };
            match next {
                Some(t) if t <= target => {
                    self.now = t;
                    self.fire();
                }
                // Nothing changes the state until the next input or deadline, so the next
                // call starts from this answer.
                _ => {
                    self.due = Some(next);
                    break;
                }
            }
        }
        self.now = self.now.max(target);
    }

    /// Fires the first deadline that is due at `self.now`, in a fixed order.
    fn fire(&mut self) {
        let now = self.now;
        if self.time_limit.is_some_and(|t| t <= now) {
            let win = self
                .config
                .mode
                .limits
                .iter()
                .any(|l| l.stat == crate::mode::Stat::Time && l.win);
            self.end(EndReason::Limit(crate::mode::Stat::Time), win);
            return;
        }
        if self.garbage.next_ready().is_some_and(|t| t <= now) {
            let lines = self.garbage.mark_ready(now);
            self.emit(EventKind::GarbageReady {
                lines: lines.min(255) as u8,
            });
            return;
        }
        if self.survival_due().is_some_and(|t| t <= now) && self.phase != Phase::Ready {
            self.rise_survival_row();
            return;
        }
        match self.phase {
            Phase::Ready => self.start(),
            Phase::Clearing { until, rows } if until <= now => self.finish_clear(rows),
            Phase::Falling => self.fire_falling(now),
            _ => {}
        }
    }

    fn fire_falling(&mut self, now: Time) {
        if self.descent.is_some() && self.descent_deadline().is_some_and(|t| t <= now) {
            self.scroll();
            return;
        }
        if let Some(s) = self.shift
            && s.next <= now
            && !(s.charged && self.config.handling.arr == 0)
        {
            self.auto_shift(s);
            return;
        }
        if let Some(t) = self.soft_next
            && t <= now
        {
            self.soft_repeat();
            return;
        }
        let Some(a) = self.active else { return };
        if let Some(lock_at) = a.lock_at {
            if lock_at <= now {
                self.lock_piece();
            }
            return;
        }
        if let Some(i) = self.fall_interval()
            && self.gravity_due(i) <= now
        {
            // Descent's piece never locks, so resting it has no lock timer to wait for: a
            // step onto the ground restarts the gravity timer (the next step is due an
            // interval later, not at once again), whatever the soft drop.
            let resting = !self.board.fits(&a.placed.shifted(0, 1));
            if self.descent.is_some() && resting {
                self.rest_fall();
                return;
            }
            // No lock delay (Classic's NES lock down): a gravity step it cannot fall locks it.
            if resting && self.rules.lock == LockDown::Gravity {
                self.lock_piece();
                return;
            }
            self.gravity_rows(i);
        }
    }

    pub(crate) fn emit(&mut self, kind: EventKind) {
        self.events.push(Event {
            time: self.now,
            kind,
        });
    }

    pub(crate) fn end(&mut self, reason: EndReason, won: bool) {
        if self.respawned(reason) {
            return;
        }
        self.phase = Phase::Over { reason, won };
        self.active = None;
        self.shift = None;
        self.soft_next = None;
        self.early = early::Early::default();
        self.stats.time = self.now;
        self.emit(EventKind::GameOver { reason, won });
    }

    /// Whether the soft-drop button is held.
    fn soft_dropping(&self) -> bool {
        self.buttons[Button::SoftDrop as usize]
    }

    /// The current ms per row; `None` when pieces drop to the floor at once.
    #[inline]
    fn fall_interval(&self) -> Option<u32> {
        let gravity = self.gravity_interval()?;
        if !self.soft_dropping() {
            return Some(gravity);
        }
        match (self.rules.soft_drop, self.config.handling.sdf) {
            (SoftDrop::Steps { factor, .. }, _) => Some((gravity / factor.max(1)).max(1)),
            (_, 0) => None,
            (SoftDrop::Factor { max_interval }, sdf) => {
                Some((gravity / sdf).clamp(1, max_interval))
            }
            (SoftDrop::TetrsFactor, sdf) => Some((gravity / sdf).max(1)),
        }
    }

    /// Gravity alone (no soft drop): ms per row, `None` at 20G.
    ///
    /// Public for bots and front ends (`minotty-bots` times its soft drops by it).
    #[inline]
    pub fn gravity_interval(&self) -> Option<u32> {
        self.gravity
    }

    /// The level whose gravity and lock delay apply: the level, but in puzzle mode (whose level
    /// shows the stage) always [`crate::puzzle::PUZZLE_LEVEL`].
    #[inline]
    pub(crate) fn rules_level(&self) -> u32 {
        if self.puzzle.is_some() {
            crate::puzzle::PUZZLE_LEVEL
        } else {
            self.stats.level
        }
    }

    /// Sets the level and the gravity that follows from it.
    pub(crate) fn set_level(&mut self, level: u32) {
        self.stats.level = level;
        self.gravity = gravity_at(&self.config.mode, &self.rules, level);
    }

    // ---- Queries for front ends and servers ----

    pub fn now(&self) -> Time {
        self.now
    }

    pub fn seed(&self) -> u32 {
        self.seed
    }

    pub fn config(&self) -> &GameConfig {
        &self.config
    }

    pub fn mode(&self) -> &Mode {
        &self.config.mode
    }

    /// The rules this game plays by: its ruleset as its mode plays it
    /// ([`Ruleset::with_mode`]: Classic's NES scoring and lock down), its tuning applied.
    pub fn ruleset(&self) -> &Ruleset {
        &self.rules
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Extra lives left ([`Mode::lives`] less those spent).
    pub fn lives_left(&self) -> u8 {
        self.config.mode.lives.saturating_sub(self.lives_used)
    }

    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over { .. })
    }

    /// `(reason, won)` once the game is over.
    pub fn outcome(&self) -> Option<(EndReason, bool)> {
        match self.phase {
            Phase::Over { reason, won } => Some((reason, won)),
            _ => None,
        }
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn active(&self) -> Option<&Active> {
        self.active.as_ref()
    }

    /// Where the active piece would land.
    pub fn ghost(&self) -> Option<Placed> {
        self.active
            .map(|a| a.placed.shifted(0, self.drop_distance(&a.placed)))
    }

    pub fn hold_piece(&self) -> Option<Piece> {
        self.hold
    }

    /// Whether hold can be used for the current piece (never in puzzle mode nor Descent;
    /// always in Ascent, where it swaps the two pieces).
    pub fn can_hold(&self) -> bool {
        self.climbing()
            || (!self.hold_used && !self.config.mode.is_puzzle() && self.descent.is_none())
    }

    /// Puzzle mode's current stage, attempt and stage name (`None` in other modes and before
    /// the first update).
    pub fn puzzle_state(&self) -> Option<crate::puzzle::PuzzleState> {
        self.puzzle
    }

    /// The next pieces, soonest first (at least [`MAX_PREVIEW`] once the game has started).
    pub fn preview(&self) -> impl Iterator<Item = Piece> + '_ {
        self.queue.iter().copied()
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn level(&self) -> u32 {
        self.stats.level
    }

    /// The running combo index, or `None` without a chain.
    pub fn combo(&self) -> Option<u32> {
        u32::try_from(self.combo).ok()
    }

    /// Whether the next qualifying clear gets the back-to-back bonus.
    pub fn back_to_back(&self) -> bool {
        self.b2b
    }

    /// The rows being cleared while [`Phase::Clearing`] (bit `y` for row `y`); none under
    /// [`ClearPause::LivePiece`](crate::ruleset::ClearPause::LivePiece), whose rows go at the
    /// lock.
    pub fn clearing_rows(&self) -> u64 {
        match self.phase {
            Phase::Clearing { rows, .. } => rows,
            _ => 0,
        }
    }

    pub fn garbage(&self) -> &GarbageQueue {
        &self.garbage
    }

    /// Whether a button is held, as far as the game knows.
    pub fn is_held(&self, button: Button) -> bool {
        self.buttons[button as usize]
    }

    /// Whether the player paused this game ([`Input::Pause`]) before it ended.
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// Whether a bot took over this game ([`Input::Bot`]) before it ended.
    pub fn bot_played(&self) -> bool {
        self.bot
    }

    /// Whether this game was taken back to an earlier moment ([`Input::Rewind`]: undo, a
    /// savepoint) before it ended.
    pub fn taken_back(&self) -> bool {
        self.rewound
    }

    /// The inputs applied so far, with their times.
    pub fn inputs(&self) -> &[(Time, Input)] {
        &self.inputs
    }

    /// Rows the piece can fall from `placed` before it rests.
    pub(crate) fn drop_distance(&self, placed: &Placed) -> i8 {
        self.board.drop_distance(placed)
    }

    /// Whether a piece can be at `placed`: the board's cells, and for a ruleset without hidden
    /// rows the top of the visible field as a wall.
    #[inline(always)]
    pub(crate) fn fits(&self, placed: &Placed) -> bool {
        fits_under(&self.board, &self.rules, placed)
    }
}

/// Whether a piece can be at `placed` on `board` under `rules`: the board's cells, and for a
/// ruleset without hidden rows the top of the visible field as a wall. What rotations and
/// spawns test (shifts and drops test the board alone); move generation uses it too.
///
/// Public for bots and front ends (`minotty-bots`' move generation and combo model), so that
/// their idea of where a piece fits is the game's; one of the few rules the engine exposes
/// beyond [`Game`] itself, with [`spin_at`] and [`Game::gravity_interval`].
#[inline(always)]
pub fn fits_under(board: &Board, rules: &Ruleset, placed: &Placed) -> bool {
    board.fits(placed)
        && (rules.hidden_rows
            || placed.y + placed.piece.footprint(placed.rotation).top >= BUFFER_HEIGHT as i8)
}

/// Gravity of `mode` under `rules` at `level`: ms per row, `None` at 20G.
fn gravity_at(mode: &Mode, rules: &Ruleset, level: u32) -> Option<u32> {
    let level = if mode.is_puzzle() {
        crate::puzzle::PUZZLE_LEVEL
    } else {
        level
    };
    match mode.gravity {
        Gravity::Instant => None,
        Gravity::Levels => rules.drop_interval(level),
        Gravity::Nes { .. } => Some(crate::nes::gravity_ms(level)),
    }
}
