//! Determinism: any chunking of the same inputs gives the same events and the same final state
//! as one update per millisecond. (A tui-tetris game of the placement bot, cut at every offset
//! of its 16 ms step, is in `bots/tests/chunking.rs`.)

use minotty_engine::{
    Board, Button, Event, Game, GameConfig, Handling, Input, Mode, RotationSystem, RulesetId, Time,
    Tuning,
};
use proptest::prelude::*;

#[path = "common/chunked.rs"]
mod chunked;

use chunked::{chunked, per_ms};

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
        (0u32..=19, any::<bool>()).prop_map(|(l, d)| Mode::classic(l, d)),
        Just(Mode::survival()),
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

/// Handlings, the hard-drop guard, the DAS cut, the double tap and the move cap on now and
/// then.
fn handling_strategy() -> impl Strategy<Value = Handling> {
    let extra = || prop_oneof![2 => Just(0u32), 1 => 1u32..400];
    (
        (0u32..250, 0u32..80, 0u32..30),
        (extra(), extra(), extra(), any::<bool>()),
    )
        .prop_map(
            |((das, arr, sdf), (hard_drop_guard, das_cut, double_tap, move_under_lock))| Handling {
                das,
                arr,
                sdf,
                hard_drop_guard,
                das_cut,
                double_tap,
                move_under_lock,
            },
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

fn run_chunked(
    config: &GameConfig,
    seed: u32,
    inputs: &[(Time, Input)],
    end: Time,
    cuts: &[Time],
) -> (Vec<Event>, String) {
    chunked(Game::new(config.clone(), seed), inputs, end, cuts)
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

/// Inputs thick with hard drops, so that many of the others land in the delays after them.
fn delay_input() -> impl Strategy<Value = Input> {
    let button = proptest::sample::select(Button::ALL.to_vec());
    prop_oneof![
        3 => Just(Input::Press(Button::HardDrop)),
        3 => Just(Input::Release(Button::HardDrop)),
        4 => button.clone().prop_map(Input::Press),
        4 => button.prop_map(Input::Release),
        1 => (1u8..4).prop_map(Input::Garbage),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Presses during line clear and spawn delays (every lock has one here: an appearance
    /// delay, and a line clear delay that cheese's rows bring about) are kept for the next
    /// piece, state that only inputs change and the spawn deadline reads: any chunking gives
    /// the same game, the hard-drop guard's window and the DAS cut included.
    #[test]
    fn presses_in_the_delays_are_the_same_however_time_is_chunked(
        seed in any::<u32>(),
        ruleset in ruleset_strategy(),
        cheese in any::<bool>(),
        appearance in 1u32..300,
        clear in 0u32..400,
        handling in handling_strategy(),
        script in proptest::collection::vec((0u16..90, delay_input()), 1..200),
        cuts in proptest::collection::vec(any::<u64>(), 0..60),
        tail in 0u64..1500,
    ) {
        let config = GameConfig {
            mode: if cheese { Mode::cheese(10) } else { Mode::sprint() },
            handling,
            ruleset,
            tuning: Tuning {
                appearance_delay: Some(appearance),
                line_clear_delay: Some(clear),
                ..Tuning::default()
            },
        };
        let inputs = timeline(&script);
        let end = inputs.last().map_or(0, |l| l.0) + tail;
        let reference = run_per_ms(&config, seed, &inputs, end);
        let cut = run_chunked(&config, seed, &inputs, end, &cuts);
        prop_assert_eq!(&reference.0, &cut.0);
        prop_assert_eq!(&reference.1, &cut.1);
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

/// `tui-tetris`'s inputs: thick with soft drops (gravity's interval changes, so the
/// accumulator counts at the presses and releases) and hard drops (locks, clears and their
/// pauses), with shifts and turns to take pieces on and off the ground.
fn tui_input() -> impl Strategy<Value = Input> {
    let moves = proptest::sample::select(vec![
        Button::Left,
        Button::Right,
        Button::RotateCw,
        Button::RotateCcw,
        Button::Hold,
    ]);
    prop_oneof![
        4 => Just(Input::Press(Button::SoftDrop)),
        4 => Just(Input::Release(Button::SoftDrop)),
        3 => Just(Input::Press(Button::HardDrop)),
        3 => Just(Input::Release(Button::HardDrop)),
        4 => moves.clone().prop_map(Input::Press),
        4 => moves.prop_map(Input::Release),
        1 => Just(Input::ReleaseAll),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// `tui-tetris` from version 5: gravity's accumulator (several rows in a step at fast
    /// levels under soft drop, counted on through the ground) and the next piece in play
    /// through the line clear pause are state read at steps and inputs. In a 4-wide well
    /// pieces clear lines often, so many inputs land in the pauses: any chunking gives the
    /// same game.
    #[test]
    fn tui_tetris_gravity_and_live_pauses_are_the_same_however_time_is_chunked(
        seed in any::<u32>(),
        level in 0u32..20,
        well in any::<bool>(),
        clear in proptest::option::of(0u32..400),
        appearance in proptest::option::of(1u32..100),
        handling in handling_strategy(),
        script in proptest::collection::vec((0u16..120, tui_input()), 1..250),
        cuts in proptest::collection::vec(any::<u64>(), 0..60),
        tail in 0u64..2000,
    ) {
        let mut mode = Mode::custom(level, true, None);
        if well {
            mode.start_board = minotty_engine::StartBoard::Well { width: 4, residual: 3 };
        }
        let config = GameConfig {
            mode,
            handling,
            ruleset: RulesetId::TuiTetris,
            tuning: Tuning {
                line_clear_delay: clear,
                appearance_delay: appearance.filter(|_| seed % 3 == 0),
                ..Tuning::default()
            },
        };
        let inputs = timeline(&script);
        let end = inputs.last().map_or(0, |l| l.0) + tail;
        let reference = run_per_ms(&config, seed, &inputs, end);
        let cut = run_chunked(&config, seed, &inputs, end, &cuts);
        prop_assert_eq!(&reference.0, &cut.0);
        prop_assert_eq!(&reference.1, &cut.1);
        let sparse = run_chunked(&config, seed, &inputs, end, &[]);
        prop_assert_eq!(&reference.0, &sparse.0);
        prop_assert_eq!(reference.1, sparse.1);
    }
}

/// Classic's inputs: soft drops (a piece without lock delay locks at the first soft-drop or
/// gravity step it cannot fall) and moves on the ground, hard drops now and then.
fn classic_input() -> impl Strategy<Value = Input> {
    let moves = proptest::sample::select(vec![
        Button::Left,
        Button::Right,
        Button::RotateCw,
        Button::RotateCcw,
        Button::Hold,
    ]);
    prop_oneof![
        4 => Just(Input::Press(Button::SoftDrop)),
        4 => Just(Input::Release(Button::SoftDrop)),
        1 => Just(Input::Press(Button::HardDrop)),
        1 => Just(Input::Release(Button::HardDrop)),
        4 => moves.clone().prop_map(Input::Press),
        4 => moves.prop_map(Input::Release),
        1 => Just(Input::ReleaseAll),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Classic: the NES gravity table by level, the lock at the first step a piece cannot
    /// fall (or the 500 ms lock delay), the NES level-ups, under every ruleset: any chunking
    /// gives the same game.
    #[test]
    fn classic_is_the_same_however_time_is_chunked(
        seed in any::<u32>(),
        level in 0u32..=19,
        lock_delay in any::<bool>(),
        ruleset in ruleset_strategy(),
        handling in handling_strategy(),
        script in proptest::collection::vec((0u16..150, classic_input()), 1..250),
        cuts in proptest::collection::vec(any::<u64>(), 0..60),
        tail in 0u64..3000,
    ) {
        let config = GameConfig {
            mode: Mode::classic(level, lock_delay),
            handling,
            ruleset,
            tuning: Tuning::default(),
        };
        let inputs = timeline(&script);
        let end = inputs.last().map_or(0, |l| l.0) + tail;
        let reference = run_per_ms(&config, seed, &inputs, end);
        let cut = run_chunked(&config, seed, &inputs, end, &cuts);
        prop_assert_eq!(&reference.0, &cut.0);
        prop_assert_eq!(&reference.1, &cut.1);
        let sparse = run_chunked(&config, seed, &inputs, end, &[]);
        prop_assert_eq!(&reference.0, &sparse.0);
        prop_assert_eq!(reference.1, sparse.1);
    }
}

/// The board without the player's cells: the garbage rows stay where they are.
fn garbage_only(b: &Board) -> Board {
    use minotty_engine::Cell;
    let mut out = b.clone();
    for y in 0..minotty_engine::board::HEIGHT {
        for x in 0..minotty_engine::board::WIDTH {
            if matches!(b.cell(x, y), Cell::Block(_)) {
                out.set(x, y, Cell::Empty);
            }
        }
    }
    out
}

/// Plays `inputs` on a Survival game with updates at `points` (every ms, or a few cuts) and at
/// every multiple of `clean` ms, where the player's cells are taken off the board after the
/// update (the same game time in every run), so that only the garbage rows stack up and the
/// game lasts until they top it out.
fn survival_run(
    config: &GameConfig,
    seed: u32,
    inputs: &[(Time, Input)],
    end: Time,
    points: &[Time],
    clean: Time,
) -> (Vec<Event>, String) {
    let mut game = Game::new(config.clone(), seed);
    let mut times: Vec<Time> = points.iter().map(|p| p % (end + 1)).collect();
    times.extend((0..=end).step_by(clean as usize));
    times.extend(inputs.iter().map(|i| i.0));
    times.push(end);
    times.sort_unstable();
    times.dedup();
    let mut events = Vec::new();
    let mut next = 0;
    for t in times {
        events.extend_from_slice(game.update(t, None));
        if t % clean == 0 {
            let board = garbage_only(game.board());
            game.set_board(board);
        }
        while next < inputs.len() && inputs[next].0 == t {
            events.extend_from_slice(game.update(t, Some(inputs[next].1)));
            next += 1;
        }
    }
    (events, chunked::snapshot(&game))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Survival: its rows rise on a deadline from the count risen, through pieces in play
    /// (lifted with the stack), line clears and their pauses, for up to two minutes: the
    /// player's cells go every second, so that the garbage alone stacks up, past the 1 s floor of
    /// the schedule (its 18th row rises at 103.5 s), until it tops the game out. Under every
    /// ruleset any chunking gives the same game.
    #[test]
    fn survival_is_the_same_however_time_is_chunked(
        seed in any::<u32>(),
        ruleset in ruleset_strategy(),
        handling in handling_strategy(),
        script in proptest::collection::vec((0u16..2000, classic_input()), 1..150),
        cuts in proptest::collection::vec(any::<u64>(), 0..80),
        tail in 0u64..30_000,
    ) {
        let config = GameConfig {
            mode: Mode::survival(),
            handling,
            ruleset,
            tuning: Tuning::default(),
        };
        let inputs = timeline(&script);
        let end = inputs.last().map_or(0, |l| l.0) + tail;
        let every_ms: Vec<Time> = (0..=end).collect();
        let reference = survival_run(&config, seed, &inputs, end, &every_ms, 1000);
        let cut = survival_run(&config, seed, &inputs, end, &cuts, 1000);
        prop_assert_eq!(&reference.0, &cut.0);
        prop_assert_eq!(&reference.1, &cut.1);
        let sparse = survival_run(&config, seed, &inputs, end, &[], 1000);
        prop_assert_eq!(&reference.0, &sparse.0);
        prop_assert_eq!(reference.1, sparse.1);
    }
}
