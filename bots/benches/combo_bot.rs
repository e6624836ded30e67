//! The combo bot's speed: the time of one placement decision (`ComboBot::choose`) at several
//! look-aheads, over positions the bot met in its own runs with the 7-bag (so the mix of
//! wells, holds and bag knowledge is the one it plays), and the time to build the bot.

use criterion::{Criterion, criterion_group, criterion_main};
use minotty_bots::ComboBot;
use minotty_bots::combo::{Position, Well};
use minotty_engine::{Generator, Ruleset, RulesetId};
use std::hint::black_box;

/// Positions the bot decided in, from runs of seeds 1, 2, ... until there are `n`.
fn positions(bot: &ComboBot, lookahead: usize, n: usize) -> Vec<Position> {
    let mut out = Vec::with_capacity(n);
    let mut seed = 1;
    while out.len() < n {
        let left = (n - out.len()) as u64;
        bot.run_observed(Generator::Bag, seed, lookahead, Well::START, left, |p| {
            out.push(p.clone())
        });
        seed += 1;
    }
    out.truncate(n);
    out
}

fn benches(c: &mut Criterion) {
    let bot = ComboBot::shared(RulesetId::Standard);
    let mut group = c.benchmark_group("combo_bot/placement");
    for lookahead in [0, 3, 6, 9, 12] {
        let positions = positions(bot, lookahead, 20_000);
        let mut i = 0;
        group.bench_function(format!("lookahead-{lookahead}"), |b| {
            b.iter(|| {
                i = (i + 1) % positions.len();
                bot.choose_at(black_box(&positions[i]))
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("combo_bot");
    group.sample_size(10);
    group.bench_function("build", |b| {
        b.iter(|| ComboBot::new(black_box(&Ruleset::STANDARD)))
    });
    group.finish();
}

criterion_group!(combo, benches);
criterion_main!(combo);
