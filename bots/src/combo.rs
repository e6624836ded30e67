//! The combo bot: keeps a combo going in the 4-wide well of combo mode.
//!
//! It plays on a compact model of the well instead of forking games. In combo mode every lock
//! must clear a line, and with 3 residual cells a lock always clears exactly one (3 + 4 cells
//! fill one 4-wide row and leave 3), so the state of the game that matters is just the few
//! cells in the well: a [`Well`], a 64-bit mask. [`ComboModel`] finds, with the engine's own
//! rules, every well the combo can pass through (40 under the built-in rulesets) and for each
//! well and piece the wells a clearing placement leads to, with the taps that make it.
//! [`ComboBot`] searches that graph over the pieces it can see, with and without hold, and
//! values where the known pieces run out by the expected number of pieces still to place
//! (computed once per model, by value iteration, knowing which pieces are left in a 7-bag).
//!
//! `tests/combo_model.rs` checks the model against [`Game`]: for every well and piece,
//! the wells that placing the piece through the game's own moves can give are exactly the
//! model's, and every route the model gives makes its placement in a real game.

mod model;
mod play;
mod run;
mod search;
mod value;
mod well;

pub use model::{ComboModel, Route, Transition, WellId, placements, placements_from, spawn};
pub use play::{ComboPlan, SeenPieces};
pub use run::{Position, Run};
pub use search::{Choice, ComboBot};
pub use value::Knowledge;
pub use well::{WELL_LEFT, WELL_ROWS, WELL_WIDTH, Well};

use super::Plan;
use minotty_engine::game::Game;

/// The combo bot's plan for `game`'s piece in play, looking `lookahead` pieces into the preview,
/// from what the game shows now (no memory of earlier pieces: a caller that follows the game
/// should keep a [`SeenPieces`] and call [`ComboBot::plan`]). `None` when there is no piece in
/// play, the game is not a combo-mode well under a built-in ruleset's moves, or nothing keeps
/// the combo.
pub fn combo_plan(game: &Game, lookahead: usize) -> Option<Plan> {
    let bot = ComboBot::for_game(game)?;
    let mut seen = SeenPieces::new();
    seen.observe(game, lookahead);
    let plan = bot.plan(game, lookahead, &seen)?;
    Some(Plan {
        buttons: plan.buttons,
        score: (plan.choice.value * 1000.0) as i64,
    })
}
