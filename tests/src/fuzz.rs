//! A randomized robustness harness: structure-aware random inputs for the server's input
//! decoder, the engine, the replay decoder and the name checks, each case checked for panics
//! and for bounded growth.
//!
//! Every case is determined by `(seed, case number)`, so a failure is reproduced by running that
//! one case again (`minotty-fuzz --target T --seed S --case C`). The binary `minotty-fuzz` runs
//! millions of cases; `tests/fuzz_harness.rs` runs a few thousand of each in CI.
//!
//! A panic anywhere inside a case counts, even one the code under test catches itself (the
//! input decoder catches its parser's panics): a panic hook records it for the running thread.
//! Memory growth is observed with `stats_alloc`'s counting allocator, which a binary installs
//! as its global allocator ([`install_heap_counter!`]); without it the memory checks are
//! skipped.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;
use std::time::{Duration, Instant};

mod decoder;
mod engine;
mod names;
mod replay;

pub use decoder::DECODER_RETAINED_LIMIT;
pub use engine::ENGINE_INPUT_CAP;
pub use names::unsafe_char as names_unsafe_char;
pub use stats_alloc;

/// What a case feeds random input into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// Client bytes into `minotty_server::input::InputDecoder`.
    Decoder,
    /// Timestamped inputs into `minotty_engine::Game`, in random modes.
    Engine,
    /// Bytes into `minotty_engine::Replay::from_bytes` (and re-simulation of what decodes).
    Replay,
    /// Strings into `DisplayName::parse` and `PlayerName::parse`.
    Names,
}

impl Target {
    pub const ALL: [Target; 4] = [
        Target::Decoder,
        Target::Engine,
        Target::Replay,
        Target::Names,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Target::Decoder => "decoder",
            Target::Engine => "engine",
            Target::Replay => "replay",
            Target::Names => "names",
        }
    }
}

/// What one target's run found besides failures: the largest values its checks saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Figures {
    /// Bytes, inputs or characters fed in all cases.
    pub units: u64,
    /// Decoder: the most heap bytes it held after a packet (0 without a heap counter).
    pub max_retained: u64,
    /// Decoder: most events for one case; engine: most inputs recorded by one game; replay:
    /// most inputs in a decoded replay.
    pub max_items: u64,
    /// Cases whose input was accepted (replays that decoded, names that parsed).
    pub accepted: u64,
    /// The slowest case.
    pub slowest: Duration,
}

/// A failed case: enough to run it again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub target: Target,
    pub seed: u64,
    pub case: u64,
    pub what: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} case {} (reproduce: minotty-fuzz --target {} --seed {} --case {}): {}",
            self.target.name(),
            self.case,
            self.target.name(),
            self.seed,
            self.case,
            self.what
        )
    }
}

/// The result of running one target.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub target: Target,
    pub cases: u64,
    /// Cases that failed.
    pub failed: u64,
    /// The first failures (at most the `keep` given to [`run`]).
    pub failures: Vec<Failure>,
    pub elapsed: Duration,
    pub figures: Figures,
}

impl Outcome {
    pub fn rate(&self) -> f64 {
        self.cases as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs `count` cases of `target` starting at case `first`, calling `progress` about once a
/// second with the cases done so far. All failures are counted; the first `keep` are kept.
pub fn run(
    target: Target,
    seed: u64,
    first: u64,
    count: u64,
    keep: usize,
    mut progress: impl FnMut(u64, Duration),
) -> Outcome {
    install_panic_hook();
    let start = Instant::now();
    let mut last_report = start;
    let mut figures = Figures::default();
    let mut failures = Vec::new();
    let mut failed = 0;
    for case in first..first.saturating_add(count) {
        if let Err(what) = run_case(target, seed, case, &mut figures) {
            failed += 1;
            if failures.len() < keep {
                failures.push(Failure {
                    target,
                    seed,
                    case,
                    what,
                });
            }
        }
        if last_report.elapsed() >= Duration::from_secs(1) {
            last_report = Instant::now();
            progress(case + 1 - first, start.elapsed());
        }
    }
    Outcome {
        target,
        cases: count,
        failed,
        failures,
        elapsed: start.elapsed(),
        figures,
    }
}

/// Runs one case; `Err` says what went wrong (a panic's message, or the check that failed).
pub fn run_case(target: Target, seed: u64, case: u64, figures: &mut Figures) -> Result<(), String> {
    let mut rng = Rng::new(seed, case);
    run_guarded(figures, |figures| match target {
        Target::Decoder => decoder::case(&mut rng, figures),
        Target::Engine => engine::case(&mut rng, figures),
        Target::Replay => replay::case(&mut rng, figures),
        Target::Names => names::case(&mut rng, figures),
    })
}

/// Runs `case` with panics caught and recorded (also those that the code under test catches
/// itself), and its time counted in `figures.slowest`.
pub fn run_guarded(
    figures: &mut Figures,
    case: impl FnOnce(&mut Figures) -> Result<(), String>,
) -> Result<(), String> {
    install_panic_hook();
    IN_CASE.set(true);
    PANIC.take();
    let started = Instant::now();
    let result = catch_unwind(AssertUnwindSafe(|| case(figures)));
    IN_CASE.set(false);
    figures.slowest = figures.slowest.max(started.elapsed());
    let panicked = PANIC.take();
    match (result, panicked) {
        (_, Some(message)) => Err(format!("panic: {message}")),
        (Err(_), None) => Err("panic without a message".to_owned()),
        (Ok(checked), None) => checked,
    }
}

thread_local! {
    /// Set while a case runs on this thread: its panics are recorded, not printed.
    static IN_CASE: Cell<bool> = const { Cell::new(false) };
    /// The first panic of the running case (message and location).
    static PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Records panics inside cases for the thread that runs them; any other panic (a test's own
/// assertion) goes to the hook that was there before.
fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if IN_CASE.get() {
                PANIC.with_borrow_mut(|p| {
                    if p.is_none() {
                        let message = info
                            .payload()
                            .downcast_ref::<&str>()
                            .map(|s| (*s).to_owned())
                            .or_else(|| info.payload().downcast_ref::<String>().cloned())
                            .unwrap_or_default();
                        let at = info.location().map(|l| l.to_string()).unwrap_or_default();
                        *p = Some(format!("{message} at {at}"));
                    }
                });
            } else {
                previous(info);
            }
        }));
    });
}

/// The heap bytes the process holds, when `stats_alloc::INSTRUMENTED_SYSTEM` is the global
/// allocator (install it with [`install_heap_counter!`]); `None` otherwise. The count is for
/// the whole process: measure with one thread at work.
pub fn live_bytes() -> Option<i64> {
    let probe = std::hint::black_box(Box::new(0u64));
    drop(probe);
    let s = stats_alloc::INSTRUMENTED_SYSTEM.stats();
    // Reallocations are counted in `bytes_allocated` and `bytes_deallocated` already.
    (s.allocations > 0).then(|| s.bytes_allocated as i64 - s.bytes_deallocated as i64)
}

/// Makes `stats_alloc`'s counting system allocator the global allocator of a binary, which
/// turns the harness's memory checks on.
#[macro_export]
macro_rules! install_heap_counter {
    () => {
        #[global_allocator]
        static GLOBAL: &$crate::fuzz::stats_alloc::StatsAlloc<std::alloc::System> =
            &$crate::fuzz::stats_alloc::INSTRUMENTED_SYSTEM;
    };
}

/// A small deterministic generator (SplitMix64): cases do not depend on any crate's stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64, case: u64) -> Rng {
        let mut r = Rng(seed ^ case.wrapping_mul(0xD6E8_FEB8_6659_FD93));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// A number in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// True once in `n` times.
    pub fn one_in(&mut self, n: u64) -> bool {
        self.below(n) == 0
    }

    pub fn byte(&mut self) -> u8 {
        self.next_u64() as u8
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// [`Rng::pick`] for items that are copied out (such as slices).
    pub fn pick_copy<T: Copy>(&mut self, items: &[T]) -> T {
        *self.pick(items)
    }

    /// A number whose size is spread over every magnitude up to `u64::MAX`.
    pub fn wide(&mut self) -> u64 {
        let bits = self.below(65);
        if bits == 64 {
            self.next_u64()
        } else {
            self.next_u64() & ((1u64 << bits) - 1)
        }
    }
}
