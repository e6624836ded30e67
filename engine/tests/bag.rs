//! The 7-bag from the rules seed's LCG (the queue `tui-tetris` deals), checked against an
//! independent reimplementation and against piece orders pinned by hand. The uniformly
//! shuffled bag of `standard` and `tetrs` is tested in `bag_orders.rs`.

mod common;

use common::*;
use minotty_engine::rng::{Bag, Lcg};
use minotty_engine::{GameConfig, Mode, Piece, RulesetId};

/// The seed's generator, written again from its text: `state = (1664525 * state + 1013904223)
/// mod 2^32`, and the new state is the drawn value. Bags start as "IOTSZJL" and are shuffled by
/// Fisher-Yates from index 6 down to 1 with `j = next() % (i + 1)`.
fn reference_bags(seed: u32, bags: usize) -> Vec<String> {
    let mut state = u64::from(seed);
    let mut next = || {
        state = (1_664_525 * state + 1_013_904_223) % (1 << 32);
        state
    };
    (0..bags)
        .map(|_| {
            let mut bag: Vec<char> = "IOTSZJL".chars().collect();
            for i in (1..=6).rev() {
                let j = (next() % (i as u64 + 1)) as usize;
                bag.swap(i, j);
            }
            bag.into_iter().collect()
        })
        .collect()
}

fn letters(pieces: impl IntoIterator<Item = Piece>) -> String {
    pieces.into_iter().map(Piece::letter).collect()
}

const SEEDS: [u32; 4] = [0, 1, 42, 0xDEAD_BEEF];

#[test]
fn lcg_draws_follow_the_formula() {
    let mut lcg = Lcg::new(0);
    assert_eq!(lcg.next_u32(), 1_013_904_223);
    // (1664525 * 1013904223 + 1013904223) mod 2^32, worked out once and pinned.
    assert_eq!(lcg.next_u32(), 1_196_435_762);
    let mut lcg = Lcg::new(u32::MAX);
    // 1664525 * (2^32 - 1) + 1013904223 ≡ 1013904223 - 1664525 (mod 2^32).
    assert_eq!(lcg.next_u32(), 1_013_904_223 - 1_664_525);
}

#[test]
fn first_three_bags_match_the_reference() {
    for seed in SEEDS {
        let want = reference_bags(seed, 3).concat();
        let got = letters(Bag::new(seed).take(21));
        assert_eq!(got, want, "seed {seed:#x}");
    }
}

#[test]
fn first_fourteen_pieces_are_pinned() {
    // Worked out once from the formula and pinned here.
    assert_eq!(letters(deal_seed_queue(0, 14)), "ZLOIJTSLIJTSZO");
    assert_eq!(letters(deal_seed_queue(42, 14)), "OLIJTZSTSOIJZL");
    assert_eq!(reference_bags(0, 2).concat(), "ZLOIJTSLIJTSZO");
    assert_eq!(reference_bags(42, 2).concat(), "OLIJTZSTSOIJZL");
    // Seed 0, first swap by hand: next() = 1013904223, 1013904223 % 7 = 3, so L (index 6) and
    // S (index 3) swap: the bag ends with S.
    assert_eq!(deal_seed_queue(0, 7)[6], Piece::S);
}

#[test]
fn every_bag_is_a_permutation() {
    for seed in SEEDS.into_iter().chain(0..200) {
        let pieces = deal_seed_queue(seed, 7 * 20);
        for bag in pieces.chunks(7) {
            let mut sorted = bag.to_vec();
            sorted.sort();
            assert_eq!(sorted, Piece::ALL.to_vec(), "seed {seed}: {bag:?}");
        }
    }
}

fn tui_tetris(seed: u32) -> Sim {
    let config = GameConfig {
        ruleset: RulesetId::TuiTetris,
        ..config(Mode::sprint())
    };
    Sim::with_config(config, seed)
}

#[test]
fn tui_tetris_deals_the_seed_s_bag_order() {
    for seed in SEEDS {
        let want = reference_bags(seed, 4).concat();
        let mut sim = tui_tetris(seed);
        sim.at(0);
        let mut dealt = String::new();
        dealt.push(sim.placed().piece.letter());
        let preview = letters(sim.game.preview());
        assert!(preview.len() >= 6, "preview {preview}");
        assert_eq!(
            format!("{dealt}{preview}"),
            want[..1 + preview.len()],
            "seed {seed}"
        );
        // Play on: every new piece is the next letter, and the preview stays in order.
        for i in 1..18 {
            sim.junk();
            dealt.push(sim.placed().piece.letter());
            assert_eq!(&dealt[..], &want[..=i], "seed {seed}");
            let preview = letters(sim.game.preview());
            assert!(want[i + 1..].starts_with(&preview), "seed {seed} piece {i}");
        }
    }
}

#[test]
fn hold_does_not_change_the_order_of_the_queue() {
    let want = reference_bags(42, 2).concat();
    let mut sim = tui_tetris(42);
    sim.at(0);
    sim.tap(minotty_engine::Button::Hold);
    assert_eq!(
        sim.game.hold_piece(),
        Piece::from_letter(want.chars().next().unwrap())
    );
    assert_eq!(sim.placed().piece.letter(), want.chars().nth(1).unwrap());
    assert!(want[2..].starts_with(&letters(sim.game.preview())));
}
