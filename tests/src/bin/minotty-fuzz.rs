//! minotty-fuzz: the randomized robustness harness, run for as long as asked.
//!
//! `minotty-fuzz --target all --cases 1000000` runs a million cases of each target (input
//! decoder, engine, replay decoder, name checks; see `minotty_tests::fuzz`), printing the rate
//! as it goes and one line per target at the end: `fuzz: N cases, F failures`. A failure prints
//! the seed and case number; `--case C` runs that one case again. Exits non-zero on a failure.

use std::time::Duration;

use anyhow::bail;
use clap::Parser;
use minotty_tests::fuzz::{self, Figures, Target};

minotty_tests::install_heap_counter!();

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Which {
    Decoder,
    Engine,
    Replay,
    Names,
    All,
}

#[derive(Debug, Parser)]
#[command(
    name = "minotty-fuzz",
    about = "Randomized robustness harness for minotty"
)]
struct Args {
    /// What to feed random input into.
    #[arg(long, value_enum, default_value = "all")]
    target: Which,
    /// Cases per target.
    #[arg(long, default_value_t = 100_000)]
    cases: u64,
    /// The run's seed (cases are numbered from 0 under it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run only this case (to reproduce a failure).
    #[arg(long)]
    case: Option<u64>,
    /// Failures to print per target (all are counted).
    #[arg(long, default_value_t = 20)]
    show: usize,
}

fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let targets: Vec<Target> = match args.target {
        Which::Decoder => vec![Target::Decoder],
        Which::Engine => vec![Target::Engine],
        Which::Replay => vec![Target::Replay],
        Which::Names => vec![Target::Names],
        Which::All => Target::ALL.to_vec(),
    };
    if let Some(case) = args.case {
        let mut failed = false;
        for target in targets {
            let result = fuzz::run_case(target, args.seed, case, &mut Figures::default());
            match result {
                Ok(()) => println!("{} case {case}: ok", target.name()),
                Err(what) => {
                    println!("{} case {case}: FAILED: {what}", target.name());
                    failed = true;
                }
            }
        }
        if failed {
            bail!("the case failed");
        }
        return Ok(());
    }
    let mut failures = 0;
    for target in targets {
        let name = target.name();
        let outcome = fuzz::run(
            target,
            args.seed,
            0,
            args.cases,
            args.show,
            |done, elapsed| {
                if elapsed.as_secs().is_multiple_of(10) {
                    eprintln!(
                        "{name}: {done} cases, {:.0}/s",
                        done as f64 / elapsed.as_secs_f64()
                    );
                }
            },
        );
        for failure in &outcome.failures {
            println!("FAILED {failure}");
        }
        let f = &outcome.figures;
        println!(
            "{name}: {} cases in {:.1} s ({:.0} cases/s), {} units fed, {} accepted, \
             largest {}, most heap held {} B, slowest case {}",
            outcome.cases,
            outcome.elapsed.as_secs_f64(),
            outcome.rate(),
            f.units,
            f.accepted,
            f.max_items,
            f.max_retained,
            ms(f.slowest),
        );
        println!(
            "fuzz: {} cases, {} failures ({name}, seed {})",
            outcome.cases, outcome.failed, args.seed
        );
        failures += outcome.failed;
    }
    if failures > 0 {
        bail!("{failures} failures");
    }
    Ok(())
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
