//! The combo bot's strength table, as the tetrs seed measured its bot: runs of combo mode on
//! the bot's model (the engine's rules, see `minotty_bots::combo`), one per seed
//! `1..=samples`, each until nothing keeps the combo; the combo is the number of pieces placed
//! (every one clears a line), the hold starting empty.
//!
//! ```sh
//! cargo run --release -p minotty-bots --example combo_table -- \
//!     --generator bag --lookahead 0..=9 --samples 10000
//! ```
//!
//! Options: `--generator ID[,ID...]` (the engine's generator ids: `bag`, `uniform`, `balance`,
//! `stock:M:R`, `recency:S`; or `uniform-bag`, see [`Source`]; default `bag`), `--lookahead A..=B` or `A,B,...` (default
//! `0..=9`), `--samples N` (default 10000), `--cap N` (a run stops alive at N pieces; default
//! 1000000, the seed's), `--start engine|seed` (combo mode's start well, or the seed's bot's,
//! default engine), `--threads N` (default 1).

use std::time::Instant;

use minotty_bots::ComboBot;
use minotty_bots::combo::{Run, Well};
use minotty_engine::rng::SplitMix;
use minotty_engine::{Generator, Piece, PieceSource, RulesetId};

/// The start well of the tetrs seed's bot (its `_200`, "█▀  "): one cell on the floor at the
/// left, two on the row above it.
const SEED_START: Well = Well(0b0011_0001);

/// Where the pieces come from: one of the engine's generators, or `uniform-bag`, a 7-bag whose
/// every order is equally likely (Fisher-Yates over SplitMix64). The engine's `bag` is the
/// rules seed's LCG, whose low bits repeat with short periods (`% 2` of every sixth draw is
/// the same within a game), so not every order of a bag is equally likely; `uniform-bag`
/// shows the bot does not owe its figures to that.
#[derive(Clone, Copy)]
enum Source {
    Engine(Generator),
    UniformBag,
}

impl Source {
    fn parse(s: &str) -> Option<Source> {
        match s.trim() {
            "uniform-bag" => Some(Source::UniformBag),
            other => Generator::parse(other).map(Source::Engine),
        }
    }

    fn id(self) -> String {
        match self {
            Source::Engine(g) => g.id(),
            Source::UniformBag => "uniform-bag".to_string(),
        }
    }

    fn run(self, bot: &ComboBot, seed: u32, lookahead: usize, o: &Options) -> Option<Run> {
        match self {
            Source::Engine(g) => {
                let pieces = PieceSource::new(g, seed);
                bot.run_pieces(
                    pieces,
                    g == Generator::Bag,
                    lookahead,
                    o.start,
                    o.cap,
                    |_| {},
                )
            }
            Source::UniformBag => {
                let mut rng = SplitMix::new(seed, 9);
                let mut bag = Vec::new();
                let pieces = std::iter::from_fn(move || {
                    if bag.is_empty() {
                        bag = Piece::ALL.to_vec();
                        for i in (1..7).rev() {
                            bag.swap(i, rng.below(i as u32 + 1) as usize);
                        }
                    }
                    bag.pop()
                });
                bot.run_pieces(pieces, true, lookahead, o.start, o.cap, |_| {})
            }
        }
    }
}

struct Options {
    generators: Vec<Source>,
    lookaheads: Vec<usize>,
    samples: u32,
    cap: u64,
    start: Well,
    threads: usize,
}

fn parse_lookaheads(s: &str) -> Option<Vec<usize>> {
    if let Some((a, b)) = s.split_once("..=") {
        let (a, b): (usize, usize) = (a.parse().ok()?, b.parse().ok()?);
        return Some((a..=b).collect());
    }
    s.split(',').map(|x| x.trim().parse().ok()).collect()
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        generators: vec![Source::Engine(Generator::Bag)],
        lookaheads: (0..=9).collect(),
        samples: 10_000,
        cap: 1_000_000,
        start: Well::START,
        threads: 1,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        let bad = || format!("bad value for {flag}: {value}");
        match flag.as_str() {
            "--generator" => {
                o.generators = value
                    .split(',')
                    .map(Source::parse)
                    .collect::<Option<_>>()
                    .ok_or_else(bad)?
            }
            "--lookahead" => o.lookaheads = parse_lookaheads(value).ok_or_else(bad)?,
            "--samples" => o.samples = value.parse().map_err(|_| bad())?,
            "--cap" => o.cap = value.parse().map_err(|_| bad())?,
            "--threads" => o.threads = value.parse::<usize>().map_err(|_| bad())?.max(1),
            "--start" => {
                o.start = match value.as_str() {
                    "engine" => Well::START,
                    "seed" => SEED_START,
                    _ => return Err(bad()),
                }
            }
            _ => return Err(format!("unknown option {flag}")),
        }
    }
    Ok(o)
}

fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let built = Instant::now();
    let bot = ComboBot::shared(RulesetId::Standard);
    eprintln!(
        "model: {} wells, built with its values in {:.0?}",
        bot.model().len(),
        built.elapsed()
    );
    println!(
        "| Samples | Randomizer | Lookahead | Median combo | Average combo | Maximum combo | capped | µs per placement |"
    );
    println!("|-|-|-|-|-|-|-|-|");
    for &generator in &o.generators {
        for &lookahead in &o.lookaheads {
            let started = Instant::now();
            let mut runs: Vec<(u64, bool)> = std::thread::scope(|s| {
                let workers: Vec<_> = (0..o.threads)
                    .map(|k| {
                        let o = &o;
                        s.spawn(move || {
                            (1..=o.samples)
                                .skip(k)
                                .step_by(o.threads)
                                .map(|seed| {
                                    let run = generator
                                        .run(bot, seed, lookahead, o)
                                        .expect("the start well is in the model");
                                    (run.placed, run.capped)
                                })
                                .collect::<Vec<_>>()
                        })
                    })
                    .collect();
                workers
                    .into_iter()
                    .flat_map(|w| w.join().expect("a worker finished"))
                    .collect()
            });
            let elapsed = started.elapsed();
            runs.sort_unstable();
            let n = runs.len().max(1);
            let total: u64 = runs.iter().map(|r| r.0).sum();
            let median = runs.get(n / 2).map_or(0, |r| r.0);
            let max = runs.last().map_or(0, |r| r.0);
            let capped = runs.iter().filter(|r| r.1).count();
            println!(
                "| {} | '{}' | {lookahead} | {median} | {:.1} | {max} | {capped} | {:.2} |",
                runs.len(),
                generator.id(),
                total as f64 / n as f64,
                elapsed.as_secs_f64() * 1e6 * o.threads as f64 / total.max(1) as f64,
            );
            eprintln!("  ({lookahead}, {}) took {elapsed:.1?}", generator.id());
        }
    }
}
