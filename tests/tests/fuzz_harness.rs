//! The randomized robustness harness (`minotty_tests::fuzz`), bounded for CI: a few thousand
//! cases of each target with a fixed seed, plus a run under a seed that changes every time
//! (printed, so a failure can be reproduced with `minotty-fuzz --seed S --case C`). The long
//! runs are `minotty-fuzz` (see RELIABILITY.md).
//!
//! One test runs every target in turn: the heap counter is process-wide, so the decoder's
//! memory check needs no other test allocating beside it.

use minotty_tests::fuzz::{self, Target};

minotty_tests::install_heap_counter!();

/// Cases per target and seed, sized for a few seconds in a debug build.
fn cases(target: Target) -> u64 {
    match target {
        Target::Decoder => 2_000,
        Target::Engine => 1_000,
        Target::Replay => 1_500,
        Target::Names => 20_000,
    }
}

#[test]
fn every_target_survives_random_input() {
    let fresh = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut report = Vec::new();
    for seed in [1, fresh] {
        for target in Target::ALL {
            let outcome = fuzz::run(target, seed, 0, cases(target), 5, |_, _| {});
            println!(
                "{}: seed {seed}, {} cases, {:.0} cases/s, most heap held {} B",
                target.name(),
                outcome.cases,
                outcome.rate(),
                outcome.figures.max_retained
            );
            report.extend(outcome.failures.iter().map(|f| f.to_string()));
        }
    }
    assert!(report.is_empty(), "failures:\n{}", report.join("\n"));
}

#[test]
fn the_harness_catches_what_it_should() {
    // The checks themselves: a bidi override or a control is unsafe in a name, letters are not.
    assert!(fuzz::names_unsafe_char('\u{202e}'));
    assert!(fuzz::names_unsafe_char('\u{061c}'));
    assert!(fuzz::names_unsafe_char('\u{e0041}'));
    assert!(fuzz::names_unsafe_char('\x1b'));
    assert!(!fuzz::names_unsafe_char('a'));
    assert!(!fuzz::names_unsafe_char('ü'));
    // A panic inside a case is reported as a failure with its message, not unwound.
    let mut figures = fuzz::Figures::default();
    let caught = fuzz::run_guarded(&mut figures, |_| panic!("boom"));
    assert!(caught.is_err_and(|m| m.contains("boom")));
}
