//! Engine throughput. (Replay verification of a bot's 40-lines game, move generation and the
//! versus bot are measured in `bots/benches/bots.rs`.)
//!
//! Throughput script (the issue's): per piece, random left/right taps, a rotation and a hard
//! drop, each button pressed and released; restart on top-out. One `update` call per press or
//! release, 8 ms of game time apart.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use minotty_engine::rng::SplitMix;
use minotty_engine::{Button, Game, GameConfig, Input, Mode, RulesetId, Time};
use std::hint::black_box;

/// The scripted inputs: `(press/release, button)` pairs for `pieces` pieces.
fn script(pieces: usize) -> Vec<Input> {
    let mut rng = SplitMix::new(2024, 7);
    let mut out = Vec::with_capacity(pieces * 10);
    for _ in 0..pieces {
        let taps = rng.below(5);
        let dir = if rng.below(2) == 0 {
            Button::Left
        } else {
            Button::Right
        };
        let rotate =
            [Button::RotateCw, Button::RotateCcw, Button::Rotate180][rng.below(3) as usize];
        for b in std::iter::repeat_n(dir, taps as usize).chain([rotate, Button::HardDrop]) {
            out.push(Input::Press(b));
            out.push(Input::Release(b));
        }
    }
    out
}

/// Runs the script under `ruleset`, restarting on top-out. Returns (updates, pieces).
fn run(script: &[Input], ruleset: RulesetId) -> (u64, u64) {
    let config = GameConfig {
        mode: Mode::custom(0, true, None),
        ruleset,
        ..GameConfig::default()
    };
    let mut seed = 1;
    let mut game = Game::new(config.clone(), seed);
    let mut t: Time = 0;
    let mut pieces = 0;
    for &input in script {
        t += 8;
        game.update(t, Some(input));
        if game.is_over() {
            pieces += u64::from(game.stats().pieces);
            seed += 1;
            game = Game::new(config.clone(), seed);
            t = 0;
        }
    }
    pieces += u64::from(game.stats().pieces);
    black_box(&game);
    (script.len() as u64, pieces)
}

fn benches(c: &mut Criterion) {
    let script = script(20_000);
    let mut group = c.benchmark_group("throughput");
    for ruleset in RulesetId::ALL {
        let (updates, pieces) = run(&script, ruleset);
        eprintln!(
            "throughput script ({}): {updates} updates, {pieces} pieces ({:.2} updates per piece)",
            ruleset.id(),
            updates as f64 / pieces as f64
        );
        // `updates` and `pieces` keep their names for the standard ruleset.
        let suffix = match ruleset {
            RulesetId::Standard => String::new(),
            other => format!("/{}", other.id()),
        };
        group.throughput(Throughput::Elements(updates));
        group.bench_function(BenchmarkId::new(format!("updates{suffix}"), updates), |b| {
            b.iter(|| run(black_box(&script), ruleset))
        });
        group.throughput(Throughput::Elements(pieces));
        group.bench_function(BenchmarkId::new(format!("pieces{suffix}"), pieces), |b| {
            b.iter(|| run(black_box(&script), ruleset))
        });
    }
    group.finish();
}

criterion_group!(engine, benches);
criterion_main!(engine);
