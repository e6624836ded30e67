//! The versus bot: plays battles and races with the same engine and rules as a player. Its
//! moves are inputs at times, fed to a [`Game`] like a player's, so its games replay and
//! verify like anyone's.
//!
//! - [`Level`]: 1 (gentle) to 7 (relentless), each a [`Spec`]: pieces per second, the pace of
//!   its taps, the search depth over the preview (and beam width), hold, whether it plays for
//!   T-spins, and a mistake rate.
//! - [`Brain`] (`versus/brain.rs`): chooses a placement by a beam search over the piece in
//!   play, hold and the preview, with a board evaluation suited to versus (`versus/eval.rs`).
//! - [`VersusBot`]: the brain plus its hands: when to press what. It waits out its thinking
//!   time, taps the buttons of the path move generation finds (checking before each tap that
//!   the piece is where the path expects, and finding a new path when gravity moved it), and
//!   hard drops at its level's pace. A caller that runs the brain elsewhere (a server's worker
//!   threads) takes a [`DecisionJob`] out and hands the [`DecisionDone`] back.
//! - [`duel`] (`versus/duel.rs`): a whole bot-vs-bot match through the engine's
//!   [`Match`](minotty_engine::versus::Match).
//!
//! Everything is deterministic: the same game, level and seed give the same inputs at the same
//! times.

mod brain;
mod duel;
mod eval;

pub use brain::{Brain, Decision};
pub use duel::{Duel, DuelVerdict, battle, duel, duel_verdict};
pub use eval::Weights;

use crate::movegen;
use minotty_engine::game::Game;
use minotty_engine::input::{Button, Input};
use minotty_engine::piece::Placed;
use minotty_engine::ruleset::Time;

/// A versus bot's level, 1 (gentle) to 7 (relentless).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Level(u8);

/// What a level does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spec {
    /// Time per piece it aims at (thinking, moving, dropping): 1000 / pieces per second.
    pub piece_ms: u32,
    /// Time between two taps of a move.
    pub tap_ms: u32,
    /// Pieces searched: the piece in play and `depth - 1` of the preview.
    pub depth: u8,
    /// Search nodes kept per depth.
    pub beam: u8,
    pub hold: bool,
    /// Sets up and values T-spins (else keeps the stack low and clears).
    pub spins: bool,
    /// Chance per piece (in 1/1000) of taking one of the next few placements instead of the
    /// best.
    pub mistakes_per_mille: u16,
}

impl Spec {
    /// The pieces per second it aims at.
    pub fn pps(&self) -> f64 {
        1000.0 / f64::from(self.piece_ms.max(1))
    }
}

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(7);
    pub const ALL: [Level; 7] = [
        Level(1),
        Level(2),
        Level(3),
        Level(4),
        Level(5),
        Level(6),
        Level(7),
    ];

    /// Level `n` (1-7).
    pub fn new(n: u8) -> Option<Level> {
        (1..=7).contains(&n).then_some(Level(n))
    }

    pub fn number(self) -> u8 {
        self.0
    }

    pub fn name(self) -> &'static str {
        match self.0 {
            1 => "gentle",
            2 => "easy",
            3 => "steady",
            4 => "keen",
            5 => "sharp",
            6 => "fast",
            _ => "relentless",
        }
    }

    pub fn spec(self) -> Spec {
        let (piece_ms, tap_ms, depth, beam, hold, spins, mistakes) = match self.0 {
            1 => (1600, 90, 1, 1, false, false, 150),
            2 => (1100, 70, 1, 1, false, false, 80),
            3 => (800, 50, 1, 1, true, false, 40),
            4 => (550, 35, 2, 6, true, true, 20),
            5 => (400, 25, 2, 8, true, true, 10),
            6 => (300, 18, 3, 8, true, true, 4),
            _ => (220, 12, 3, 12, true, true, 0),
        };
        Spec {
            piece_ms,
            tap_ms,
            depth,
            beam,
            hold,
            spins,
            mistakes_per_mille: mistakes,
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "level {} ({})", self.0, self.name())
    }
}

/// The brain out on a decision elsewhere, with a copy of the game to decide on.
#[derive(Debug)]
pub struct DecisionJob {
    brain: Brain,
    game: Game,
    piece: u32,
    seen: Time,
}

impl DecisionJob {
    /// Whether the job is still for the piece in play in `game`.
    pub fn is_for(&self, game: &Game) -> bool {
        self.piece == game.stats().pieces && game.active().is_some()
    }

    /// Gives the brain back without deciding (the piece is gone, or there is no time).
    pub fn skip(self) -> DecisionDone {
        DecisionDone {
            brain: self.brain,
            decision: None,
            piece: self.piece,
            seen: self.seen,
        }
    }

    /// Runs the search (the expensive part: a few milliseconds at the highest level).
    pub fn run(mut self) -> DecisionDone {
        let decision = self.brain.decide(&self.game);
        DecisionDone {
            brain: self.brain,
            decision,
            piece: self.piece,
            seen: self.seen,
        }
    }
}

/// A finished decision, to hand back with [`VersusBot::accept`].
#[derive(Debug)]
pub struct DecisionDone {
    brain: Brain,
    decision: Option<Decision>,
    piece: u32,
    seen: Time,
}

/// The moves for one piece.
#[derive(Clone, Debug)]
struct Execution {
    /// `stats().pieces` while this piece is in play.
    piece: u32,
    /// When the bot first saw the piece.
    seen: Time,
    decision: Option<Decision>,
    buttons: Vec<Button>,
    /// Where the piece should be before each tap (checked; a new path when it is not).
    expected: Vec<Option<Placed>>,
    next: usize,
    /// When the first tap is due.
    start: Time,
    last: Option<Time>,
}

/// A versus bot playing one game: its brain and its hands.
#[derive(Debug)]
pub struct VersusBot {
    level: Level,
    spec: Spec,
    /// `None` while out on a [`DecisionJob`].
    brain: Option<Brain>,
    exec: Option<Execution>,
    /// The piece a decision is being made for.
    deciding: Option<u32>,
    /// Pressed, to release at once (also after the press locked the piece).
    release: Option<Button>,
}

impl VersusBot {
    pub fn new(level: Level, seed: u32) -> VersusBot {
        VersusBot {
            level,
            spec: level.spec(),
            brain: Some(Brain::new(level.spec(), seed)),
            exec: None,
            deciding: None,
            release: None,
        }
    }

    pub fn level(&self) -> Level {
        self.level
    }

    fn current(&self, game: &Game) -> Option<&Execution> {
        self.exec
            .as_ref()
            .filter(|e| e.piece == game.stats().pieces && game.active().is_some())
    }

    /// A new piece is in play and has no decision yet (nor one being made).
    pub fn needs_decision(&self, game: &Game) -> bool {
        let piece = game.stats().pieces;
        !game.is_over()
            && game.active().is_some_and(|a| !a.dropped)
            && self.current(game).is_none()
            && self.deciding != Some(piece)
    }

    /// Hands the brain out to decide on a copy of `game` (when [`Self::needs_decision`]).
    pub fn decision_job(&mut self, game: &Game) -> Option<DecisionJob> {
        if !self.needs_decision(game) {
            return None;
        }
        let brain = self.brain.take()?;
        let piece = game.stats().pieces;
        self.deciding = Some(piece);
        Some(DecisionJob {
            brain,
            game: game.fork(),
            piece,
            seen: game.now(),
        })
    }

    /// Takes the brain back with its decision; the moves start if the piece is still in play.
    pub fn accept(&mut self, done: DecisionDone, game: &Game) {
        self.brain = Some(done.brain);
        self.deciding = None;
        if done.piece != game.stats().pieces || game.active().is_none() {
            return;
        }
        let buttons = done
            .decision
            .and_then(|d| movegen::path_via(game, d.target, d.hold))
            .unwrap_or_else(|| vec![Button::HardDrop]);
        let taps = buttons.len().saturating_sub(1) as u32;
        let think = self.spec.piece_ms.saturating_sub(taps * self.spec.tap_ms);
        // Under fast gravity a slow thinker must still move before its piece lands.
        let fall_cap = game.gravity_interval().map_or(0, |g| 3 * g);
        let start = done.seen.max(game.now()) + Time::from(think.min(fall_cap));
        self.exec = Some(Execution {
            piece: done.piece,
            seen: done.seen,
            decision: done.decision,
            expected: expect(game, &buttons),
            buttons,
            next: 0,
            start,
            last: None,
        });
    }

    /// Decides now, on this thread, if a decision is needed; then [`Self::next_at`].
    pub fn poll(&mut self, game: &Game) -> Option<Time> {
        if let Some(job) = self.decision_job(game) {
            let done = job.run();
            self.accept(done, game);
        }
        self.next_at(game)
    }

    /// When the bot acts next: `None` while it has no piece, is deciding, or the game is over.
    pub fn next_at(&self, game: &Game) -> Option<Time> {
        if self.release.is_some() && !game.is_over() {
            return Some(game.now());
        }
        let e = self.current(game)?;
        let mut at = e.last.map_or(e.start, |l| l + Time::from(self.spec.tap_ms));
        if e.buttons.get(e.next).is_none_or(|&b| b == Button::HardDrop) {
            at = at.max(e.seen + Time::from(self.spec.piece_ms));
            // Never let the lock delay take the piece while the bot dawdles.
            if let Some(lock) = game.active().and_then(|a| a.lock_at) {
                at = at.min(lock.saturating_sub(1));
            }
        }
        Some(at.max(game.now()))
    }

    /// The input at `now` (at or after [`Self::next_at`]).
    pub fn act(&mut self, game: &Game, now: Time) -> Option<Input> {
        if let Some(b) = self.release.take() {
            return Some(Input::Release(b));
        }
        let piece = game.stats().pieces;
        let e = self
            .exec
            .as_mut()
            .filter(|e| e.piece == piece && game.active().is_some())?;
        let here = game.active().map(|a| a.placed);
        // Gravity (or garbage) moved the piece, or the taps ran out with the piece still in
        // play: a new path from where it is.
        let off = e.expected.get(e.next).is_none_or(|&x| x != here);
        if off {
            let hold = e.decision.is_some_and(|d| d.hold) && game.can_hold();
            e.buttons = e
                .decision
                .and_then(|d| movegen::path_via(game, d.target, hold))
                .unwrap_or_else(|| vec![Button::HardDrop]);
            e.expected = expect(game, &e.buttons);
            e.next = 0;
        }
        let b = *e.buttons.get(e.next)?;
        e.next += 1;
        e.last = Some(now);
        self.release = Some(b);
        Some(Input::Press(b))
    }
}

/// Where the piece in play is before each tap of `buttons`, pressed at one instant on a copy.
fn expect(game: &Game, buttons: &[Button]) -> Vec<Option<Placed>> {
    let mut g = game.fork();
    let t = g.now();
    let mut out = Vec::with_capacity(buttons.len());
    for &b in buttons {
        out.push(g.active().map(|a| a.placed));
        g.update(t, Some(Input::Press(b)));
        g.update(t, Some(Input::Release(b)));
    }
    out
}
