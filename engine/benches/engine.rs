//! Engine throughput and replay verification.
//!
//! Throughput script (the issue's): per piece, random left/right taps, a rotation and a hard
//! drop, each button pressed and released; restart on top-out. One `update` call per press or
//! release, 8 ms of game time apart.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use minotty_engine::bot::{autoplay, reachable, reachable_after_hold};
use minotty_engine::rng::SplitMix;
use minotty_engine::{Button, Game, GameConfig, Input, Mode, Replay, RulesetId, Time};
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

fn sprint_replay() -> Replay {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::sprint(),
            ..GameConfig::default()
        },
        7,
    );
    autoplay(&mut game, 1000, 120);
    assert!(game.stats().lines >= 40, "the bot finishes the sprint");
    game.replay()
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

    let replay = sprint_replay();
    eprintln!(
        "40-lines replay: {} inputs, {} ms of game, {} bytes",
        replay.inputs.len(),
        replay.end,
        replay.to_bytes().len()
    );
    c.bench_function("replay/verify_40_lines", |b| {
        b.iter(|| black_box(&replay).verify().expect("verifies"))
    });
    let bytes = replay.to_bytes();
    c.bench_function("replay/decode_and_verify_40_lines", |b| {
        b.iter(|| {
            Replay::from_bytes(black_box(&bytes))
                .expect("decodes")
                .verify()
                .expect("verifies")
        })
    });
}

/// Mid-game positions for move generation: the placement bot's games after 12-40 pieces (a
/// stack of a few rows with its holes), one per seed.
fn positions() -> Vec<Game> {
    (1..=8u32)
        .map(|seed| {
            let mut game = Game::new(
                GameConfig {
                    mode: Mode::custom(0, false, None),
                    ..GameConfig::default()
                },
                seed,
            );
            autoplay(&mut game, 12 + 4 * seed, 100);
            while game.active().is_none() {
                let t = game.next_deadline().expect("a deadline");
                game.update(t, None);
            }
            game
        })
        .collect()
}

fn movegen(c: &mut Criterion) {
    let games = positions();
    let found: usize = games.iter().map(|g| reachable(g).len()).sum();
    eprintln!(
        "movegen: {} positions, {found} placements of the piece in play",
        games.len()
    );
    let mut group = c.benchmark_group("movegen");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("reachable", |b| {
        b.iter(|| {
            for g in &games {
                black_box(reachable(black_box(g)));
            }
        })
    });
    group.bench_function("reachable_and_after_hold", |b| {
        b.iter(|| {
            for g in &games {
                black_box(reachable(black_box(g)));
                black_box(reachable_after_hold(black_box(g)));
            }
        })
    });
    group.finish();
}

/// One decision of the versus bot at each level, on the same positions.
fn versus_bot(c: &mut Criterion) {
    use minotty_engine::bot::versus::{Brain, Level};
    let games = positions();
    let mut group = c.benchmark_group("versus_bot");
    group.throughput(Throughput::Elements(games.len() as u64));
    for level in Level::ALL {
        let mut brain = Brain::new(level.spec(), 1);
        group.bench_function(format!("decide/{}", level.number()), |b| {
            b.iter(|| {
                for g in &games {
                    black_box(brain.decide(black_box(g)));
                }
            })
        });
    }
    group.finish();
}

criterion_group!(engine, benches, movegen, versus_bot);
criterion_main!(engine);
