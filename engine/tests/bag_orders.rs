//! The 7-bag of `standard` and `tetrs` reaches every one of the 5,040 orders, each with equal
//! chance; the rules seed's queue (`tui-tetris`, and version 1 of every ruleset) reaches only
//! 1,260. Deterministic: fixed seeds, so the statistics are the same on every run.
//!
//! The bound: over `n` bags with every order equally likely, the chi-square statistic of the
//! 5,040 counts has 5,039 degrees of freedom, mean 5,039 and standard deviation
//! `sqrt(2 * 5039)` (about 100). The test allows 5 standard deviations above the mean (a
//! correct shuffle exceeds that with a chance below 10^-6, and with these fixed seeds it does
//! not: the figures are printed); the seed's LCG queue, which never deals 3,780 of the orders,
//! scores in the hundreds of thousands.

use minotty_engine::rng::{Bag, FairBag};
use minotty_engine::{Game, GameConfig, Generator, Mode, Piece, PieceSource, RulesetId};

const ORDERS: usize = 5040;
/// Bags per order on average.
const PER_ORDER: usize = 40;

/// The index of a permutation of the seven pieces (Lehmer code), 0..5040.
fn order_index(bag: &[Piece]) -> usize {
    let mut index = 0;
    for i in 0..7 {
        let smaller = bag[i + 1..].iter().filter(|&&p| p < bag[i]).count();
        index = index * (7 - i) + smaller;
    }
    index
}

fn counts(bags: impl Iterator<Item = Vec<Piece>>) -> Vec<u64> {
    let mut counts = vec![0u64; ORDERS];
    for bag in bags {
        counts[order_index(&bag)] += 1;
    }
    counts
}

/// `(chi-square, orders seen)` against equal chances.
fn chi_square(counts: &[u64]) -> (f64, usize) {
    let n: u64 = counts.iter().sum();
    let expected = n as f64 / ORDERS as f64;
    let chi = counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    (chi, counts.iter().filter(|&&c| c > 0).count())
}

fn bound() -> f64 {
    let dof = (ORDERS - 1) as f64;
    dof + 5.0 * (2.0 * dof).sqrt()
}

/// Consecutive bags of one game's stream.
fn stream_bags(mut next: impl FnMut() -> Piece, count: usize) -> impl Iterator<Item = Vec<Piece>> {
    (0..count).map(move |_| (0..7).map(|_| next()).collect())
}

#[test]
fn every_order_of_a_fair_bag_occurs_and_the_counts_fit_uniform() {
    let n = ORDERS * PER_ORDER;
    // A long game: consecutive bags of one seed.
    let mut bag = FairBag::new(2026, minotty_engine::generator::PIECE_STREAM);
    let (chi, seen) = chi_square(&counts(stream_bags(|| bag.next_piece(), n)));
    println!(
        "fair bag, {n} consecutive bags: chi-square {chi:.0}, {seen} orders (bound {:.0})",
        bound()
    );
    assert_eq!(seen, ORDERS);
    assert!(chi < bound(), "chi-square {chi}");
    // Many games: the opening bag of seeds 0..n, as `standard` deals it.
    let openings = (0..n as u32).map(|seed| {
        PieceSource::dealing(
            Generator::Bag,
            seed,
            minotty_engine::Ruleset::STANDARD.dealing,
        )
        .take(7)
        .collect()
    });
    let (chi, seen) = chi_square(&counts(openings));
    println!("fair bag, opening bags of {n} seeds: chi-square {chi:.0}, {seen} orders");
    assert_eq!(seen, ORDERS);
    assert!(chi < bound(), "chi-square {chi}");
}

#[test]
fn the_seed_s_lcg_queue_reaches_at_most_a_quarter_of_the_orders_and_fails_the_same_bound() {
    let n = ORDERS * PER_ORDER;
    let mut bag = Bag::new(2026);
    let (chi, seen) = chi_square(&counts(stream_bags(|| bag.next_piece(), n)));
    println!("seed's LCG bag, {n} consecutive bags: chi-square {chi:.0}, {seen} orders");
    // `j = next() % (i + 1)` from an LCG modulo 2^32: the low bits of consecutive draws are
    // tied together (the lowest bit alternates), so three quarters of the orders never occur
    // at all, and one game's stream even keeps to half of the rest.
    assert!(seen <= 1260, "{seen} orders");
    assert!(chi > 100.0 * bound(), "chi-square {chi}");
    let openings = (0..n as u32).map(|seed| Bag::new(seed).take(7).collect());
    let (chi, seen) = chi_square(&counts(openings));
    println!("seed's LCG bag, opening bags of {n} seeds: chi-square {chi:.0}, {seen} orders");
    assert_eq!(seen, 1260);
    assert!(chi > 100.0 * bound(), "chi-square {chi}");
}

/// The first two pieces of the opening bag of `seeds` games of `ruleset`.
fn openings(ruleset: RulesetId, seeds: u32) -> std::collections::HashSet<(Piece, Piece)> {
    (0..seeds)
        .map(|seed| {
            let config = GameConfig {
                ruleset,
                mode: Mode::sprint(),
                ..GameConfig::default()
            };
            let mut game = Game::new(config, seed);
            game.update(0, None);
            let first = game.active().expect("a piece").placed.piece;
            (first, game.preview().next().expect("a preview"))
        })
        .collect()
}

#[test]
fn every_opening_pair_happens_in_standard_and_tetrs_games_and_tui_tetris_keeps_the_seed_s_queue() {
    // 42 ordered pairs of two different pieces; "a bag never opens T then I" was one of the
    // pairs the old queue could not deal.
    let standard = openings(RulesetId::Standard, 3000);
    assert_eq!(standard.len(), 42);
    assert!(standard.contains(&(Piece::T, Piece::I)));
    let tui = openings(RulesetId::TuiTetris, 3000);
    assert!(!tui.contains(&(Piece::T, Piece::I)));
    assert!(tui.len() < 42);
    // tui-tetris deals exactly the seed's LCG queue.
    for seed in 0..50 {
        let config = GameConfig {
            ruleset: RulesetId::TuiTetris,
            mode: Mode::sprint(),
            ..GameConfig::default()
        };
        let mut game = Game::new(config, seed);
        game.update(0, None);
        let dealt: Vec<Piece> = std::iter::once(game.active().expect("a piece").placed.piece)
            .chain(game.preview())
            .collect();
        let want: Vec<Piece> = Bag::new(seed).take(dealt.len()).collect();
        assert_eq!(dealt, want, "seed {seed}");
    }
}
