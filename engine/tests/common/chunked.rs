//! Running a game with one update per millisecond or with updates cut at given times, and
//! everything observable about it, for the chunking tests (`engine/tests/chunking.rs` and the
//! bots' `bots/tests/chunking.rs`, which include this file).

use minotty_engine::{Event, Game, Input, Time};

/// Everything observable about a game, for comparison.
pub fn snapshot(game: &Game) -> String {
    format!(
        "{:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?} {:?}",
        game.board(),
        game.active(),
        game.phase(),
        game.stats(),
        game.hold_piece(),
        game.can_hold(),
        game.preview().collect::<Vec<_>>(),
        game.garbage().entries().collect::<Vec<_>>(),
        game.next_deadline(),
        game.combo(),
        game.back_to_back(),
        game.descent(),
    )
}

/// Plays `inputs` on `game` with one update per millisecond up to `end`.
pub fn per_ms(mut game: Game, inputs: &[(Time, Input)], end: Time) -> (Vec<Event>, String) {
    let mut events = Vec::new();
    let mut next = 0;
    for t in 0..=end {
        events.extend_from_slice(game.update(t, None));
        while next < inputs.len() && inputs[next].0 == t {
            events.extend_from_slice(game.update(t, Some(inputs[next].1)));
            next += 1;
        }
    }
    (events, snapshot(&game))
}

/// Plays `inputs` on `game` with updates only at the inputs, at `cuts` and at `end`.
pub fn chunked(
    mut game: Game,
    inputs: &[(Time, Input)],
    end: Time,
    cuts: &[Time],
) -> (Vec<Event>, String) {
    let mut events = Vec::new();
    let mut cuts: Vec<Time> = cuts.iter().map(|c| c % (end + 1)).collect();
    cuts.sort_unstable();
    let (mut i, mut c) = (0, 0);
    // Merge the input times and the arbitrary cut points; inputs at a time come after a cut there.
    while i < inputs.len() || c < cuts.len() {
        if c < cuts.len() && (i == inputs.len() || cuts[c] <= inputs[i].0) {
            events.extend_from_slice(game.update(cuts[c], None));
            c += 1;
        } else {
            events.extend_from_slice(game.update(inputs[i].0, Some(inputs[i].1)));
            i += 1;
        }
    }
    events.extend_from_slice(game.update(end, None));
    (events, snapshot(&game))
}
