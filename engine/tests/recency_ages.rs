//! Recency deals every piece by its weight, whatever its age, the piece just dealt included.
//!
//! The tetrs seed ("Tetromino Generation"): "Remember the last time each piece was generated
//! and when choosing the next one randomly, do so weighted by when each one was last seen so it
//! is more likely to choose a piece not played in a while. This preserves 'possibly complete
//! randomness' in the sense that *any* piece may be generated at any time".
//!
//! minotty's weighting: a piece last dealt `k` pieces before the next draw (`k = 0` for the
//! piece just dealt) weighs `(k + 1)^snap`, snap 2.5 by default. The test follows a long
//! dealt sequence, works out every piece's `k` before each draw itself, and adds up for each
//! `k` the chance the weights give (expected) and how often a piece of that `k` came
//! (observed): a chi-square over `k = 0..=14` and a tail bin, with fixed seeds. Version 1
//! never dealt `k = 0` (weight 0): the same test refutes it.

use minotty_engine::generator::{Dealing, PieceSource};
use minotty_engine::{Generator, Ruleset, RulesetId};

const BINS: usize = 16;

/// `(observed, expected)` counts by `k` (the last bin: 15 and more) over `n` deals.
fn by_age(mut source: PieceSource, snap: f64, n: usize) -> ([f64; BINS], [f64; BINS]) {
    let (mut observed, mut expected) = ([0.0; BINS], [0.0; BINS]);
    // Before the first deal no piece has been seen: all weigh alike, as if all had just been.
    // The first 7 deals (while some piece may still be unseen) are not counted.
    let mut k = [0usize; 7];
    for i in 0..n + 7 {
        let weights = k.map(|k| ((k + 1) as f64).powf(snap));
        let total: f64 = weights.iter().sum();
        let dealt = source.next_piece() as usize;
        if i < 7 {
            for age in k.iter_mut() {
                *age += 1;
            }
            k[dealt] = 0;
            continue;
        }
        for (i, w) in weights.iter().enumerate() {
            expected[k[i].min(BINS - 1)] += w / total;
        }
        observed[k[dealt].min(BINS - 1)] += 1.0;
        for age in k.iter_mut() {
            *age += 1;
        }
        k[dealt] = 0;
    }
    (observed, expected)
}

/// Pearson's chi-square, merging bins from the end until each expects at least 5. Returns
/// `(chi-square, degrees of freedom)`.
fn chi_square(observed: &[f64], expected: &[f64]) -> (f64, usize) {
    let (mut o, mut e) = (observed.to_vec(), expected.to_vec());
    while e.len() > 2 && e[e.len() - 1] < 5.0 {
        let (lo, le) = (o.pop().unwrap_or(0.0), e.pop().unwrap_or(0.0));
        *o.last_mut().expect("bins") += lo;
        *e.last_mut().expect("bins") += le;
    }
    let chi = o.iter().zip(&e).map(|(o, e)| (o - e).powi(2) / e).sum();
    (chi, e.len() - 1)
}

/// The 99.9% point of chi-square with `dof` degrees of freedom (Wilson-Hilferty).
fn crit_999(dof: usize) -> f64 {
    let k = dof as f64;
    k * (1.0 - 2.0 / (9.0 * k) + 3.090_232 * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

#[test]
fn recency_deals_each_age_by_its_weight_including_zero() {
    let n = 300_000;
    for (snap_centi, seed) in [(250u16, 26u32), (250, 2026), (100, 7), (400, 8)] {
        let snap = f64::from(snap_centi) / 100.0;
        let g = Generator::Recency { snap_centi };
        // Every ruleset's current version deals this way (tetrs by default, the others when
        // tuned to recency).
        for id in RulesetId::ALL {
            assert!(Ruleset::get(id).dealing.recency_repeats, "{id:?}");
        }
        let (observed, expected) = by_age(PieceSource::new(g, seed), snap, n);
        let (chi, dof) = chi_square(&observed, &expected);
        println!("recency {snap}, seed {seed}: chi-square {chi:.1} on {dof} dof");
        println!("  k  weight (k+1)^snap  observed  expected");
        for k in 0..8 {
            println!(
                "  {k}  {:>17.2}  {:>8.5}  {:>8.5}",
                ((k + 1) as f64).powf(snap),
                observed[k] / n as f64,
                expected[k] / n as f64
            );
        }
        assert!(observed[0] > 0.0, "the piece just dealt came again");
        assert!(
            chi < crit_999(dof),
            "snap {snap} seed {seed}: chi-square {chi}"
        );
    }
}

#[test]
fn version_1_recency_never_repeated_and_fails_the_same_test() {
    let v1: Dealing = Ruleset::of_version(RulesetId::Tetrs, 1)
        .expect("version 1")
        .dealing;
    assert!(!v1.recency_repeats);
    let source = PieceSource::dealing(Generator::recency(), 26, v1);
    let (observed, expected) = by_age(source, 2.5, 300_000);
    assert_eq!(observed[0], 0.0);
    // About 0.24% of deals should be a repeat at snap 2.5 (720 of 300,000).
    assert!(expected[0] > 500.0);
    let (chi, dof) = chi_square(&observed, &expected);
    assert!(chi > 10.0 * crit_999(dof), "chi-square {chi}");
}
