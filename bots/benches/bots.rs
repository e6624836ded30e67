//! Replay verification of the placement bot's 40-lines game, move generation and the versus
//! bot's decisions, on positions of the placement bot's own games.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use minotty_bots::{autoplay, reachable, reachable_after_hold};
use minotty_engine::{Game, GameConfig, Mode, Replay};
use std::hint::black_box;

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

fn replay(c: &mut Criterion) {
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
    use minotty_bots::versus::{Brain, Level};
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

criterion_group!(bots, replay, movegen, versus_bot);
criterion_main!(bots);
