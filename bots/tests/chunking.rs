//! Determinism: any chunking of the same inputs gives the same events and the same final state
//! as one update per millisecond.

use minotty_engine::{
    Board, Button, Event, Game, GameConfig, Handling, Input, Mode, RotationSystem, RulesetId, Time,
    Tuning,
};
use proptest::prelude::*;

fn input_strategy() -> impl Strategy<Value = Input> {
    let button = proptest::sample::select(Button::ALL.to_vec());
    prop_oneof![
        6 => button.clone().prop_map(Input::Press),
        6 => button.prop_map(Input::Release),
        1 => Just(Input::ReleaseAll),
        1 => (1u8..7).prop_map(Input::Garbage),
        1 => Just(Input::Pause),
        1 => Just(Input::Bot),
    ]
}

fn mode_strategy() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::sprint()),
        Just(Mode::master()),
        Just(Mode::cheese(5)),
        Just(Mode::combo()),
        (1u8..=24).prop_map(Mode::puzzle),
        Just(Mode::ultra()),
        Just(Mode::descent()),
        (0u32..20).prop_map(|l| Mode::custom(l, true, None)),
    ]
}

fn ruleset_strategy() -> impl Strategy<Value = RulesetId> {
    proptest::sample::select(RulesetId::ALL.to_vec())
}

/// Custom tunings, including delays that are not multiples of anything.
fn tuning_strategy() -> impl Strategy<Value = Tuning> {
    let rotation = proptest::option::of(proptest::sample::select(vec![
        RotationSystem::Super,
        RotationSystem::Classic,
        RotationSystem::Ocular,
    ]));
    let delay = || proptest::option::of(0u32..700);
    prop_oneof![
        2 => Just(Tuning::default()),
        1 => (rotation, delay(), delay(), delay(), delay(), delay(), any::<bool>()).prop_map(
            |(rotation, lock_delay, ground_cap, line_clear_delay, appearance_delay, hard_drop_delay, no_soft_drop_lock)| Tuning {
                rotation,
                lock_delay,
                ground_cap,
                line_clear_delay,
                appearance_delay,
                hard_drop_delay,
                no_soft_drop_lock,
                ..Tuning::default()
            }
        ),
    ]
}

fn handling_strategy() -> impl Strategy<Value = Handling> {
    (0u32..250, 0u32..80, 0u32..30).prop_map(|(das, arr, sdf)| Handling { das, arr, sdf })
}

/// Everything observable about a game, for comparison.
fn snapshot(game: &Game) -> String {
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

/// Turns (delay, input) pairs into absolute times.
fn timeline(script: &[(u16, Input)]) -> Vec<(Time, Input)> {
    let mut t = 0;
    script
        .iter()
        .map(|&(d, i)| {
            t += Time::from(d);
            (t, i)
        })
        .collect()
}

fn run_per_ms(
    config: &GameConfig,
    seed: u32,
    inputs: &[(Time, Input)],
    end: Time,
) -> (Vec<Event>, String) {
    per_ms(Game::new(config.clone(), seed), inputs, end)
}

fn per_ms(mut game: Game, inputs: &[(Time, Input)], end: Time) -> (Vec<Event>, String) {
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

fn run_chunked(
    config: &GameConfig,
    seed: u32,
    inputs: &[(Time, Input)],
    end: Time,
    cuts: &[Time],
) -> (Vec<Event>, String) {
    chunked(Game::new(config.clone(), seed), inputs, end, cuts)
}

fn chunked(
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

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn any_chunking_matches_one_update_per_millisecond(
        seed in any::<u32>(),
        mode in mode_strategy(),
        ruleset in ruleset_strategy(),
        tuning in tuning_strategy(),
        handling in handling_strategy(),
        script in proptest::collection::vec((0u16..300, input_strategy()), 1..150),
        cuts in proptest::collection::vec(any::<u64>(), 0..40),
        tail in 0u64..3000,
    ) {
        let config = GameConfig { mode, handling, ruleset, tuning };
        let inputs = timeline(&script);
        let end = inputs.last().map_or(0, |l| l.0) + tail;
        let reference = run_per_ms(&config, seed, &inputs, end);
        let chunked = run_chunked(&config, seed, &inputs, end, &cuts);
        prop_assert_eq!(&reference.0, &chunked.0);
        prop_assert_eq!(&reference.1, &chunked.1);
        // And the one-call-per-input extreme: no time steps between inputs at all.
        let sparse = run_chunked(&config, seed, &inputs, end, &[]);
        prop_assert_eq!(&reference.0, &sparse.0);
        prop_assert_eq!(reference.1, sparse.1);
    }
}

/// Descent's inputs: mostly rotations and soft drops, so the piece climbs down, collects gems
/// and scrolls the view.
fn descent_input() -> impl Strategy<Value = Input> {
    let button = proptest::sample::select(vec![
        Button::RotateCw,
        Button::RotateCcw,
        Button::Rotate180,
        Button::Left,
        Button::Right,
        Button::SoftDrop,
        Button::HardDrop,
    ]);
    prop_oneof![
        4 => button.clone().prop_map(Input::Press),
        4 => button.prop_map(Input::Release),
        1 => Just(Input::ReleaseAll),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Descent's scrolls are deadlines from state (the last scroll, the piece at the bottom):
    /// any chunking gives the same lattice, gems, depth and events. With `open`, the lattice of
    /// the first view is cleared away at time 0 so that the piece falls to the bottom and the
    /// view scrolls from the start.
    #[test]
    fn descent_is_the_same_however_time_is_chunked(
        seed in any::<u32>(),
        open in any::<bool>(),
        handling in handling_strategy(),
        script in proptest::collection::vec((0u16..200, descent_input()), 1..250),
        cuts in proptest::collection::vec(any::<u64>(), 0..60),
        tail in 0u64..5000,
    ) {
        let config = GameConfig {
            mode: Mode::descent(),
            handling,
            ruleset: RulesetId::Tetrs,
            tuning: Tuning::default(),
        };
        let start = || {
            let mut game = Game::new(config.clone(), seed);
            game.update(0, None);
            if open {
                game.set_board(Board::new());
            }
            game
        };
        let inputs = timeline(&script);
        let end = inputs.last().map_or(0, |l| l.0) + tail;
        let reference = per_ms(start(), &inputs, end);
        let cut = chunked(start(), &inputs, end, &cuts);
        prop_assert_eq!(&reference.0, &cut.0);
        prop_assert_eq!(&reference.1, &cut.1);
        let sparse = chunked(start(), &inputs, end, &[]);
        prop_assert_eq!(&reference.0, &sparse.0);
        prop_assert_eq!(reference.1, sparse.1);
    }
}

/// Inputs for `game` from the placement bot, each piece's taps starting at another offset of
/// its 16 ms step, half the pieces hard-dropped and half left to lock by lock delay.
fn bot_inputs_at_odd_times(mut game: Game, pieces: u32) -> Vec<(Time, Input)> {
    use minotty_bots::{Weights, best_plan};
    let weights = Weights::default();
    let mut t: Time = 0;
    game.update(0, None);
    let mut n = 0u64;
    while !game.is_over() && game.stats().pieces < pieces {
        if game.active().is_none() {
            let Some(due) = game.next_deadline() else {
                break;
            };
            t = t.max(due);
            game.update(t, None);
            continue;
        }
        n += 1;
        t += 16 * (n % 4) + n % 16 + 1;
        let Some(plan) = best_plan(&game, &weights) else {
            break;
        };
        let (moves, _) = plan.buttons.split_at(plan.buttons.len().saturating_sub(1));
        for &b in moves {
            game.update(t, Some(Input::Press(b)));
            t += 1 + n % 3;
            game.update(t, Some(Input::Release(b)));
        }
        if n.is_multiple_of(2) {
            game.update(t, Some(Input::Press(Button::HardDrop)));
            game.update(t + 3, Some(Input::Release(Button::HardDrop)));
            t += 3;
        } else {
            // Left to lock by lock delay (the next deadline is the lock, on the step grid).
            let due = game.next_deadline().unwrap_or(t);
            t = t.max(due) + n % 16;
            game.update(t, None);
        }
    }
    game.replay().inputs
}

/// `tui-tetris`'s fixed step: a bot's game with inputs at every offset inside a 16 ms step
/// (locks by lock delay, clears after hard drops at odd times), under the current version and
/// version 1, the same however the updates are cut: per millisecond, on every step boundary,
/// one millisecond before every boundary, in the middle of every step, at random points, and
/// only at the inputs.
#[test]
fn tui_tetris_fixed_steps_are_the_same_however_time_is_chunked() {
    let config = GameConfig {
        ruleset: RulesetId::TuiTetris,
        mode: Mode::sprint(),
        handling: Handling::default(),
        tuning: Tuning::default(),
    };
    for version in [2, 1] {
        for seed in [3u32, 26] {
            let game = || Game::of_version(config.clone(), seed, version).expect("a version");
            let inputs = bot_inputs_at_odd_times(game(), 40);
            let end = inputs.last().map_or(0, |l| l.0) + 2000;
            let mut rng = minotty_engine::rng::SplitMix::new(seed, 9);
            let random: Vec<Time> = (0..300).map(|_| rng.next_u64() % (end + 1)).collect();
            let cut_sets: [Vec<Time>; 5] = [
                (0..=end).step_by(16).collect(),
                (15..=end).step_by(16).collect(),
                (8..=end).step_by(16).collect(),
                random,
                Vec::new(),
            ];
            let reference = per_ms(game(), &inputs, end);
            let clears = reference
                .0
                .iter()
                .filter(|e| matches!(e.kind, minotty_engine::EventKind::LineClear(_)))
                .count();
            assert!(
                clears >= 5,
                "version {version} seed {seed}: {clears} clears"
            );
            for cuts in &cut_sets {
                let got = chunked(game(), &inputs, end, cuts);
                assert_eq!(reference.0, got.0, "version {version} seed {seed}");
                assert_eq!(reference.1, got.1, "version {version} seed {seed}");
            }
        }
    }
}
