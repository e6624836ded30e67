//! # minotty-bots
//!
//! Bots that play minotty's [`Game`] through its inputs, built only on `minotty-engine`'s public
//! API and as deterministic as the engine: no IO, no clock, no threads.
//!
//! The crate root is a small placement bot: for the current piece it tries every rotation and
//! column reachable by "rotate, shift, hard drop", simulates each on a copy of the game and
//! keeps the placement whose board scores best. It plays real games for tests, benchmarks and
//! replays, and makes a serviceable practice opponent. It is deterministic: same game, same choice.
//!
//! [`combo`] is the combo bot of combo mode, which plays on a model of the well instead.

pub mod combo;
pub mod finesse;
pub mod movegen;
pub mod versus;

pub use combo::{ComboBot, SeenPieces, combo_plan};
pub use finesse::{Finesse, finesse};
pub use movegen::{Reach, path_to, reachable, reachable_after_hold};

use minotty_engine::board::{Board, HEIGHT, WIDTH};
use minotty_engine::event::EventKind;
use minotty_engine::game::Game;
use minotty_engine::input::{Button, Input};
use minotty_engine::ruleset::Time;

/// A plan for one piece: the buttons to tap, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub buttons: Vec<Button>,
    /// The evaluation of the board the plan leaves (higher is better).
    pub score: i64,
}

/// Weights of the board evaluation (per mille).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub height: i64,
    pub lines: i64,
    pub holes: i64,
    pub bumpiness: i64,
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            height: -510,
            lines: 760,
            holes: -360,
            bumpiness: -180,
        }
    }
}

/// Scores a board: lower stacks, fewer holes and a flatter surface are better.
pub fn evaluate(board: &Board, lines: u32, w: &Weights) -> i64 {
    let mut heights = [0i64; WIDTH];
    let mut holes = 0i64;
    for (x, h) in heights.iter_mut().enumerate() {
        let mut seen = false;
        for y in 0..HEIGHT {
            let filled = board.row_mask(y) & (1 << x) != 0;
            if filled && !seen {
                seen = true;
                *h = (HEIGHT - y) as i64;
            } else if !filled && seen {
                holes += 1;
            }
        }
    }
    let height: i64 = heights.iter().sum();
    let bumpiness: i64 = heights.windows(2).map(|p| (p[0] - p[1]).abs()).sum();
    w.height * height + w.lines * i64::from(lines) + w.holes * holes + w.bumpiness * bumpiness
}

/// The taps that rotate a freshly spawned piece `quarter_turns` clockwise and shift it `dx`.
pub(crate) fn taps(quarter_turns: u8, dx: i8) -> Vec<Button> {
    let mut buttons = match quarter_turns % 4 {
        0 => vec![],
        1 => vec![Button::RotateCw],
        2 => vec![Button::Rotate180],
        _ => vec![Button::RotateCcw],
    };
    let dir = if dx < 0 { Button::Left } else { Button::Right };
    buttons.extend(std::iter::repeat_n(dir, dx.unsigned_abs() as usize));
    buttons.push(Button::HardDrop);
    buttons
}

/// Applies a plan to `game` starting at `time`, one tap (press then release) per millisecond.
/// Returns the time after the last release.
pub fn execute(game: &mut Game, plan: &[Button], mut time: Time) -> Time {
    for &b in plan {
        game.update(time, Some(Input::Press(b)));
        game.update(time, Some(Input::Release(b)));
        time += 1;
    }
    time
}

/// What a plan did on a forked game.
pub(crate) struct Tried {
    pub locked: Option<minotty_engine::piece::Placed>,
    pub lines: u32,
}

/// Runs `buttons` (one tap per millisecond) on a fork of `game`.
pub(crate) fn simulate(game: &Game, buttons: &[Button]) -> (Game, Tried) {
    let mut sim = game.fork();
    let mut tried = Tried {
        locked: None,
        lines: 0,
    };
    for (time, &b) in (game.now()..).zip(buttons) {
        for input in [Input::Press(b), Input::Release(b)] {
            for e in sim.update(time, Some(input)) {
                match e.kind {
                    EventKind::Lock { at, .. } => tried.locked = Some(at),
                    EventKind::LineClear(c) => tried.lines += u32::from(c.lines),
                    _ => {}
                }
            }
        }
    }
    // A hard drop delay locks a little later: run the fork's own deadlines up to the lock.
    for _ in 0..4 {
        if tried.locked.is_some() || sim.active().is_none_or(|a| !a.dropped) {
            break;
        }
        let Some(t) = sim.next_deadline() else { break };
        for e in sim.update(t, None) {
            match e.kind {
                EventKind::Lock { at, .. } => tried.locked = Some(at),
                EventKind::LineClear(c) => tried.lines += u32::from(c.lines),
                _ => {}
            }
        }
    }
    (sim, tried)
}

/// The best plan for the game's current piece, or `None` when no piece is in play.
pub fn best_plan(game: &Game, weights: &Weights) -> Option<Plan> {
    game.active()?;
    let mut best: Option<Plan> = None;
    for turns in 0..4u8 {
        for dx in -5i8..=5 {
            let buttons = taps(turns, dx);
            let (sim, tried) = simulate(game, &buttons);
            let (locked, lines) = (tried.locked, tried.lines);
            let Some(at) = locked else { continue };
            // Skip plans whose shift was blocked: they duplicate a shorter plan.
            let expected_x = 3 + dx;
            if at.x != expected_x && dx != 0 {
                continue;
            }
            let score = if sim.is_over() && !sim.outcome().is_some_and(|o| o.1) {
                i64::MIN / 2
            } else {
                evaluate(sim.board(), lines, weights)
            };
            if best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(Plan { buttons, score });
            }
        }
    }
    best
}

/// Plays `game` with the placement bot until it ends or `max_pieces` pieces were placed, one
/// piece every `piece_ms` milliseconds. Returns the game time at the end.
pub fn autoplay(game: &mut Game, max_pieces: u32, piece_ms: Time) -> Time {
    let weights = Weights::default();
    play_with(game, max_pieces, piece_ms, |g| best_plan(g, &weights))
}

/// Plays combo mode with the combo bot looking `lookahead` pieces into the preview, remembering
/// every piece the preview showed (so it knows what is left of each 7-bag). When nothing keeps
/// the combo the piece is hard-dropped, which ends the game. A game the bot cannot play (not a
/// combo well under a built-in ruleset's moves) is left as it is.
pub fn autoplay_combo(game: &mut Game, max_pieces: u32, piece_ms: Time, lookahead: usize) -> Time {
    let Some(bot) = ComboBot::for_game(game) else {
        return game.now();
    };
    let mut seen = SeenPieces::new();
    play_with(game, max_pieces, piece_ms, |g| {
        seen.observe(g, lookahead);
        Some(match bot.plan(g, lookahead, &seen) {
            Some(plan) => Plan {
                buttons: plan.buttons,
                score: (plan.choice.value * 1000.0) as i64,
            },
            None => Plan {
                buttons: vec![Button::HardDrop],
                score: 0,
            },
        })
    })
}

fn play_with(
    game: &mut Game,
    max_pieces: u32,
    piece_ms: Time,
    mut plan: impl FnMut(&Game) -> Option<Plan>,
) -> Time {
    let mut time = game.now();
    game.update(time, None);
    while !game.is_over() && game.stats().pieces < max_pieces {
        // Wait out a line-clear pause so a piece is in play.
        if game.active().is_none() {
            match game.next_deadline() {
                Some(t) => {
                    time = time.max(t);
                    game.update(time, None);
                    continue;
                }
                None => break,
            }
        }
        let Some(plan) = plan(game) else {
            break;
        };
        time = execute(game, &plan.buttons, time);
        time += piece_ms;
        game.update(time, None);
    }
    time
}
