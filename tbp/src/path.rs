//! From placements to buttons, under the engine's own rules: every placement reachable from a
//! game's current state (with the buttons that get there), and the buttons for one TBP move.
//!
//! A path is tried on a fork of the game with exactly the timing [`execute`] uses (a press and
//! its release per millisecond from the game's current time), so a path found here does on the
//! real game what it did on the fork.

use minotty_engine::{Button, EventKind, Game, Input, Placed, Spin, Time};

use crate::frame::location_to_placed;
use crate::msg::Move;

/// A placement the piece in play (or the one hold gives) can reach and lock at.
#[derive(Clone, Debug)]
pub struct Reached {
    pub buttons: Vec<Button>,
    /// Where the piece locked.
    pub placed: Placed,
    pub spin: Spin,
    /// Rows the lock cleared.
    pub lines: u32,
    /// The game after the lock.
    pub after: Game,
}

/// Applies `buttons` to `game` from its current time, one tap (press then release) per
/// millisecond, then lets a hard drop delay run out. Returns the game time after the last tap.
pub fn execute(game: &mut Game, buttons: &[Button]) -> Time {
    let mut time = game.now();
    for &b in buttons {
        game.update(time, Some(Input::Press(b)));
        game.update(time, Some(Input::Release(b)));
        time += 1;
    }
    time
}

/// What `buttons` do on a fork of `game`: where the piece locks, with which spin, and how many
/// rows clear. `None` when the piece does not lock (or the game ends without a lock).
pub fn try_path(game: &Game, buttons: &[Button]) -> Option<Reached> {
    let mut sim = game.fork();
    let mut locked = None;
    let mut lines = 0u32;
    let mut note = |events: &[minotty_engine::Event]| {
        for e in events {
            match e.kind {
                EventKind::Lock { at, spin } => locked = Some((at, spin)),
                EventKind::LineClear(c) => lines += u32::from(c.lines),
                _ => {}
            }
        }
    };
    for (time, &b) in (sim.now()..).zip(buttons) {
        note(sim.update(time, Some(Input::Press(b))));
        note(sim.update(time, Some(Input::Release(b))));
    }
    // A hard drop delay locks a little later: run the fork's own deadlines up to the lock.
    for _ in 0..4 {
        if sim.active().is_none_or(|a| !a.dropped) {
            break;
        }
        let Some(t) = sim.next_deadline() else { break };
        note(sim.update(t, None));
    }
    let (placed, spin) = locked?;
    Some(Reached {
        buttons: buttons.to_vec(),
        placed,
        spin,
        lines,
        after: sim,
    })
}

/// Every placement the game's piece can reach with a few common finesse patterns, with and
/// without hold: a rotation, taps to one side, then a hard drop, or a sonic drop followed by one
/// tuck or spin. Each placement (and spin) once, by its shortest path.
pub fn reachable(game: &Game) -> Vec<Reached> {
    let mut out: Vec<Reached> = Vec::new();
    if game.active().is_none() {
        return out;
    }
    let rules = game.ruleset();
    let mut turns = vec![vec![], vec![Button::RotateCw], vec![Button::RotateCcw]];
    if rules.turns_180 {
        turns.push(vec![Button::Rotate180]);
    } else {
        turns.push(vec![Button::RotateCw, Button::RotateCw]);
    }
    let mut finishes = vec![vec![Button::HardDrop]];
    if rules.sonic_drop {
        for tuck in [
            vec![Button::Left],
            vec![Button::Right],
            vec![Button::Left, Button::Left],
            vec![Button::Right, Button::Right],
            vec![Button::RotateCw],
            vec![Button::RotateCcw],
        ] {
            let mut f = vec![Button::SonicDrop];
            f.extend(tuck);
            f.push(Button::HardDrop);
            finishes.push(f);
        }
    }
    let holds: &[&[Button]] = if game.can_hold() {
        &[&[], &[Button::Hold]]
    } else {
        &[&[]]
    };
    for hold in holds {
        for turn in &turns {
            for dx in -5i8..=5 {
                for finish in &finishes {
                    let mut buttons = hold.to_vec();
                    buttons.extend(turn);
                    let dir = if dx < 0 { Button::Left } else { Button::Right };
                    buttons.extend(std::iter::repeat_n(dir, dx.unsigned_abs() as usize));
                    buttons.extend(finish);
                    let Some(r) = try_path(game, &buttons) else {
                        continue;
                    };
                    match out
                        .iter_mut()
                        .find(|o| o.placed == r.placed && o.spin == r.spin)
                    {
                        Some(o) if o.buttons.len() <= r.buttons.len() => {}
                        Some(o) => *o = r,
                        None => out.push(r),
                    }
                }
            }
        }
    }
    out
}

/// Whether two placements cover the same cells (an O, I, S or Z can in two orientations).
pub fn same_cells(a: &Placed, b: &Placed) -> bool {
    let mut ca = a.cells();
    let mut cb = b.cells();
    ca.sort_unstable();
    cb.sort_unstable();
    a.piece == b.piece && ca == cb
}

/// The buttons that play `mv` on `game`: the piece in play, or through hold the piece the move
/// names, brought to the move's location (or to a placement of the same cells) and locked.
/// `None` when the move cannot be played.
pub fn path_to(game: &Game, mv: &Move) -> Option<Vec<Button>> {
    path_among(&reachable(game), mv)
}

/// The buttons for `mv` among placements already found: one covering the cells of the move's
/// location, preferring its exact orientation, then its spin, then the shortest path.
pub fn path_among(reached: &[Reached], mv: &Move) -> Option<Vec<Button>> {
    let target = location_to_placed(&mv.location)?;
    let spin = Spin::from(mv.spin);
    reached
        .iter()
        .filter(|r| same_cells(&r.placed, &target))
        .min_by_key(|r| (r.placed != target, r.spin != spin, r.buttons.len()))
        .map(|r| r.buttons.clone())
}
