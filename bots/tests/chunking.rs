//! Determinism with the placement bot's games: a `tui-tetris` game with inputs at every offset
//! of its 16 ms step gives the same events and final state however its updates are cut. (The
//! property tests of any chunking are the engine's `tests/chunking.rs`.)

#[path = "../../engine/tests/common/chunked.rs"]
mod chunked;

use chunked::{chunked, per_ms};
use minotty_bots::{Weights, best_plan};
use minotty_engine::{Button, Game, GameConfig, Handling, Input, Mode, RulesetId, Time, Tuning};

/// Inputs for `game` from the placement bot, each piece's taps starting at another offset of
/// its 16 ms step, half the pieces hard-dropped and half left to lock by lock delay.
fn bot_inputs_at_odd_times(mut game: Game, pieces: u32) -> Vec<(Time, Input)> {
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
