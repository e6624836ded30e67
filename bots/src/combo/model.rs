//! The compact model of combo mode: every well the combo can pass through, and for each well and
//! piece the wells a placement that clears a line leads to, with the buttons that place it.
//!
//! The transitions come from the engine's own rules: the ruleset's kicks and its turns, the
//! board's collision test, the spawn position, and the moves a player has (shift, rotate, a soft
//! drop of one row, a sonic drop where the ruleset has one, hard drop). A breadth-first search
//! over the piece's positions from its spawn finds every reachable resting place; the wells are
//! the closure of combo mode's start under those placements. `tests/combo_model.rs` checks the
//! result against placements made through [`Game`](minotty_engine::Game) itself.

// The search tries move generation's moves, in its order (shorter routes first, then that
// order).
use crate::movegen::MOVES;
use std::collections::HashMap;

use super::well::Well;
use minotty_engine::board::Board;
use minotty_engine::game::{SPAWN_X, SPAWN_Y, fits_under};
use minotty_engine::input::Button;
use minotty_engine::piece::{Piece, Placed, Rotation, Turn};
use minotty_engine::ruleset::Ruleset;

/// A well's index in a [`ComboModel`].
pub type WellId = u16;

/// One placement that keeps the combo: where it leaves the well and how to get there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transition {
    pub to: WellId,
    /// Where the piece locks.
    pub at: Placed,
    route: (u32, u8),
}

/// What a tap costs a route: a one-row soft drop depends on the player's soft-drop speed, so a
/// route uses one only where nothing else reaches the same place.
fn cost(button: Button) -> u32 {
    if button == Button::SoftDrop { 16 } else { 1 }
}

/// The wells of combo mode and their transitions under one ruleset.
#[derive(Clone, Debug)]
pub struct ComboModel {
    wells: Vec<Well>,
    index: HashMap<Well, WellId>,
    /// Transitions of well `w` and piece `p` at `starts[7 * w + p]..starts[7 * w + p + 1]`.
    starts: Vec<u32>,
    transitions: Vec<Transition>,
    routes: Vec<Button>,
}

impl ComboModel {
    /// The model of combo mode (4-wide well, 3 residual cells) under `rules`, for gravity that
    /// lets the player move the piece (not 20G).
    pub fn new(rules: &Ruleset) -> ComboModel {
        let mut model = ComboModel {
            wells: vec![Well::START],
            index: HashMap::from([(Well::START, 0)]),
            starts: vec![0],
            transitions: Vec::new(),
            routes: Vec::new(),
        };
        let mut next = 0;
        while next < model.wells.len() {
            let well = model.wells[next];
            let board = well.board();
            for piece in Piece::ALL {
                for (landed, route) in placements(rules, &board, piece) {
                    let Some(to) = model.intern(landed) else {
                        continue;
                    };
                    let start = model.routes.len() as u32;
                    model.routes.extend_from_slice(&route.buttons);
                    model.transitions.push(Transition {
                        to,
                        at: route.at,
                        route: (start, route.buttons.len() as u8),
                    });
                }
                model.starts.push(model.transitions.len() as u32);
            }
            next += 1;
        }
        model
    }

    /// The id of `well`, adding it when new; `None` for a well the model cannot describe.
    fn intern(&mut self, well: Well) -> Option<WellId> {
        if let Some(&id) = self.index.get(&well) {
            return Some(id);
        }
        let id = WellId::try_from(self.wells.len()).ok()?;
        self.wells.push(well);
        self.index.insert(well, id);
        Some(id)
    }

    /// How many wells the combo can pass through.
    pub fn len(&self) -> usize {
        self.wells.len()
    }

    /// Always false: the start well is a well.
    pub fn is_empty(&self) -> bool {
        self.wells.is_empty()
    }

    pub fn well(&self, id: WellId) -> Well {
        self.wells[usize::from(id)]
    }

    /// The id of a well the combo can reach.
    pub fn id(&self, well: Well) -> Option<WellId> {
        self.index.get(&well).copied()
    }

    /// The placements of `piece` in well `from` that clear a line, one per resulting well.
    pub fn transitions(&self, from: WellId, piece: Piece) -> &[Transition] {
        let i = 7 * usize::from(from) + piece as usize;
        &self.transitions[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The taps that place the piece for `t`, from its spawn, ending with a hard drop.
    pub fn route(&self, t: &Transition) -> &[Button] {
        let (start, len) = t.route;
        &self.routes[start as usize..start as usize + usize::from(len)]
    }
}

/// A way to a resting place: the taps from spawn (hard drop last) and where the piece locks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Route {
    pub buttons: Vec<Button>,
    pub at: Placed,
}

/// Whether a piece may be at `p`: the board, and without hidden rows the top of the field (the
/// game's own test).
fn fits(rules: &Ruleset, board: &Board, p: &Placed) -> bool {
    fits_under(board, rules, p)
}

/// Where `button` takes the piece at `p`, if it moves.
fn step(rules: &Ruleset, board: &Board, p: Placed, button: Button) -> Option<Placed> {
    let moved = |q: Placed| fits(rules, board, &q).then_some(q);
    match button {
        Button::Left => moved(p.shifted(-1, 0)),
        Button::Right => moved(p.shifted(1, 0)),
        Button::SoftDrop => moved(p.shifted(0, 1)),
        Button::SonicDrop if rules.sonic_drop => {
            let rows = board.drop_distance(&p);
            (rows > 0).then(|| p.shifted(0, rows))
        }
        Button::RotateCw | Button::RotateCcw | Button::Rotate180 => {
            let turn = match button {
                Button::RotateCw => Turn::Cw,
                Button::RotateCcw => Turn::Ccw,
                _ if rules.turns_180 => Turn::Half,
                _ => return None,
            };
            if p.piece == Piece::O && !rules.o_rotates {
                return None;
            }
            let to = p.rotation.turned(turn.quarter_turns());
            let kicks = rules.kicks(p.piece, p.rotation, turn);
            kicks.iter().find_map(|&(kx, ky)| {
                moved(Placed {
                    rotation: to,
                    x: p.x + kx,
                    y: p.y + ky,
                    ..p
                })
            })
        }
        _ => None,
    }
}

/// Index of a position in the search's visited table (positions off it are never reached:
/// the walls hold every piece within the board's columns).
fn slot(p: &Placed) -> Option<usize> {
    let x = usize::try_from(p.x + 3).ok().filter(|&x| x < 16)?;
    let y = usize::try_from(p.y + 4).ok().filter(|&y| y < 48)?;
    Some((p.rotation as usize * 16 + x) * 48 + y)
}

/// Every resting place of `piece` reachable from its spawn on `board`, by the cheapest route
/// (fewest taps, a one-row soft drop counting as many), and the well each leaves when its lock
/// clears a line. One route per resulting well; wells in the order their routes were found.
pub fn placements(rules: &Ruleset, board: &Board, piece: Piece) -> Vec<(Well, Route)> {
    placements_from(rules, board, spawn(piece))
}

/// Where `piece` appears when it spawns (without an initial rotation).
pub fn spawn(piece: Piece) -> Placed {
    Placed {
        piece,
        rotation: Rotation::North,
        x: SPAWN_X,
        y: SPAWN_Y,
    }
}

/// [`placements`] for a piece that is at `from` (it may have moved since it spawned).
pub fn placements_from(rules: &Ruleset, board: &Board, from: Placed) -> Vec<(Well, Route)> {
    let mut out: Vec<(Well, Route)> = Vec::new();
    if !fits(rules, board, &from) {
        return out;
    }
    // Dijkstra over positions with small integer costs, as a bucket queue.
    let mut parent: Vec<Option<(usize, Button)>> = vec![None; 4 * 16 * 48];
    let mut best = vec![u32::MAX; 4 * 16 * 48];
    let mut at: Vec<Option<Placed>> = vec![None; 4 * 16 * 48];
    let mut buckets: Vec<Vec<usize>> = vec![Vec::new(); 8];
    let Some(start) = slot(&from) else {
        return out;
    };
    best[start] = 0;
    at[start] = Some(from);
    buckets[0].push(start);
    let mut done = vec![false; 4 * 16 * 48];
    let mut order = Vec::new();
    let mut c = 0usize;
    while c < buckets.len() {
        let Some(s) = buckets[c].pop() else {
            c += 1;
            continue;
        };
        if done[s] {
            continue;
        }
        done[s] = true;
        order.push(s);
        let Some(p) = at[s] else { continue };
        for button in MOVES {
            let Some(q) = step(rules, board, p, button) else {
                continue;
            };
            let Some(t) = slot(&q) else { continue };
            let nc = best[s] + cost(button);
            if nc < best[t] {
                best[t] = nc;
                parent[t] = Some((s, button));
                at[t] = Some(q);
                let b = nc as usize;
                if buckets.len() <= b {
                    buckets.resize(b + 1, Vec::new());
                }
                buckets[b].push(t);
            }
        }
    }
    // Positions in the order they were settled (cheapest first): the first to reach a well
    // gives that well's route.
    for s in order {
        let Some(p) = at[s] else { continue };
        let landed = p.shifted(0, board.drop_distance(&p));
        let mut after = board.clone();
        after.lock(&landed);
        let rows = after.full_rows();
        if rows == 0 {
            continue;
        }
        after.clear_rows(rows);
        let Some(well) = Well::inside(&after) else {
            continue;
        };
        if out.iter().any(|(w, _)| *w == well) {
            continue;
        }
        let mut buttons = vec![Button::HardDrop];
        let mut cur = s;
        while let Some((prev, b)) = parent[cur] {
            buttons.push(b);
            cur = prev;
        }
        buttons.reverse();
        out.push((
            well,
            Route {
                buttons,
                at: landed,
            },
        ));
    }
    out
}
