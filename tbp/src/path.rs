//! From placements to buttons, under the engine's own rules, with the engine's move generation
//! (`minotty_bots::movegen`): every placement the piece in play (or the one hold brings
//! in) can reach with the taps that get it there, and the taps for one TBP move.
//!
//! Paths are pressed the way movegen means them: every tap pressed and released at one
//! instant, the game's current time ([`execute`]), so gravity and the lock delay cannot act
//! between taps and a path does on the real game what the search said.

use minotty_bots::movegen::{self, Reach};
use minotty_engine::{Button, EventKind, Game, Input, Placed, Spin, Time};

use crate::frame::location_to_placed;
use crate::msg::Move;

/// What a placement does: where the piece locked, its spin, the rows it cleared, and the game
/// after it.
#[derive(Clone, Debug)]
pub struct Reached {
    pub buttons: Vec<Button>,
    pub placed: Placed,
    pub spin: Spin,
    pub lines: u32,
    pub after: Game,
}

/// Every placement of the piece in play, then every one of the piece hold brings in (their
/// paths start with [`Button::Hold`]).
pub fn placements(game: &Game) -> Vec<Reach> {
    let mut all = movegen::reachable(game);
    all.extend(movegen::reachable_after_hold(game));
    all
}

/// Presses and releases `buttons` at the game's current time, in order. Returns that time.
pub fn execute(game: &mut Game, buttons: &[Button]) -> Time {
    execute_with(game, buttons, |_| {})
}

/// [`execute`], handing the events of every update to `on_events`.
pub fn execute_with(
    game: &mut Game,
    buttons: &[Button],
    mut on_events: impl FnMut(&[minotty_engine::Event]),
) -> Time {
    let time = game.now();
    for &b in buttons {
        on_events(game.update(time, Some(Input::Press(b))));
        on_events(game.update(time, Some(Input::Release(b))));
    }
    time
}

/// What `buttons` do on a fork of `game` (pressed as [`execute`] presses them, then any hard
/// drop delay run out). `None` when the piece does not lock.
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
    let time = sim.now();
    for &b in buttons {
        note(sim.update(time, Some(Input::Press(b))));
        note(sim.update(time, Some(Input::Release(b))));
    }
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

/// Every placement of [`placements`], played on a fork.
pub fn outcomes(game: &Game) -> Vec<Reached> {
    placements(game)
        .iter()
        .filter_map(|r| try_path(game, &r.buttons))
        .collect()
}

/// Whether two placements cover the same cells (an O, I, S or Z can in two orientations).
pub fn same_cells(a: &Placed, b: &Placed) -> bool {
    a.canonical() == b.canonical()
}

/// The buttons that play `mv` on `game`: the piece in play, or through hold the piece the move
/// names, brought to the move's location (or to a placement of the same cells) and locked.
/// `None` when the move cannot be played.
pub fn path_to(game: &Game, mv: &Move) -> Option<Vec<Button>> {
    path_among(&placements(game), mv)
}

/// The buttons for `mv` among placements already found: one covering the cells of the move's
/// location, without hold when the piece in play can get there (TBP infers hold from the
/// piece: a move of the piece in play is played without it), then preferring the move's spin,
/// its exact orientation, and the fewest taps.
pub fn path_among(placements: &[Reach], mv: &Move) -> Option<Vec<Button>> {
    let target = location_to_placed(&mv.location)?;
    let spin = Spin::from(mv.spin);
    placements
        .iter()
        .filter(|r| same_cells(&r.placed, &target))
        .min_by_key(|r| (r.hold, r.spin != spin, r.placed != target, r.buttons.len()))
        .map(|r| r.buttons.clone())
}
