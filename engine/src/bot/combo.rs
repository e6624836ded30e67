//! The combo bot: keeps a combo going in the 4-wide well of combo mode.
//!
//! Every lock must clear a line, so the bot searches the tree of placements (with and without
//! hold) over the next pieces it can see and picks the branch that survives longest; among
//! equally long branches it prefers the placement that leaves the most ways to continue. Each
//! node is a forked [`Game`], so the search follows the real rules (kicks, walls, refills).

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::{Plan, simulate, taps};
use crate::game::Game;
use crate::input::Button;

/// Every distinct plan for the current piece: (buttons, resulting game, cleared a line).
fn children(game: &Game) -> Vec<(Vec<Button>, Game, bool)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let holds: &[bool] = if game.can_hold() {
        &[false, true]
    } else {
        &[false]
    };
    for &hold in holds {
        for turns in 0..4u8 {
            for dx in -3i8..=3 {
                let mut buttons = taps(turns, dx);
                if hold {
                    buttons.insert(0, Button::Hold);
                }
                let (sim, tried) = simulate(game, &buttons);
                let cleared = tried.lines > 0;
                let mut h = DefaultHasher::new();
                (sim.board(), sim.hold_piece(), sim.is_over()).hash(&mut h);
                if seen.insert(h.finish()) {
                    let alive = cleared && !sim.is_over();
                    out.push((buttons, sim, alive));
                }
            }
        }
    }
    out
}

/// Lets a line-clear pause run out so the next piece is in play.
fn settle(game: &mut Game) {
    while game.active().is_none() && !game.is_over() {
        match game.next_deadline() {
            Some(t) => {
                game.update(t, None);
            }
            None => break,
        }
    }
}

/// How many more pieces can keep the combo, up to `depth`.
fn survival(game: &Game, depth: u8) -> u8 {
    if depth == 0 {
        return 0;
    }
    let mut best = 0;
    for (_, mut sim, cleared) in children(game) {
        if !cleared {
            continue;
        }
        settle(&mut sim);
        best = best.max(1 + survival(&sim, depth - 1));
        if best == depth {
            break;
        }
    }
    best
}

/// The plan that keeps the combo alive longest, looking `depth` pieces ahead (2-4 is quick).
pub fn combo_plan(game: &Game, depth: u8) -> Option<Plan> {
    game.active()?;
    let mut best: Option<Plan> = None;
    for (buttons, mut sim, cleared) in children(game) {
        let score = if cleared {
            settle(&mut sim);
            let further = survival(&sim, depth.saturating_sub(1));
            let options = children(&sim).iter().filter(|c| c.2).count();
            i64::from(further) * 1000 + options as i64 + 1000
        } else {
            0
        };
        if best.as_ref().is_none_or(|b| score > b.score) {
            best = Some(Plan { buttons, score });
        }
    }
    best
}
