//! The seed's score and attack tables row by row, then back-to-back, combo, perfect clears,
//! drop points and the pre-clear level through real games.

mod common;

use common::*;
use minotty_engine::scoring::{self, Spin};
use minotty_engine::{Button, EventKind, Mode, Piece, Rotation};

// ---- Tables ----

#[test]
fn classic_line_scores_times_level_plus_one() {
    let base = [(1, 40), (2, 100), (3, 300), (4, 1200)];
    for level in 0..=20 {
        for (lines, points) in base {
            let s = scoring::score(lines, Spin::None, level, false, 0);
            assert_eq!(
                s.clear,
                points * (level + 1),
                "{lines} lines at level {level}"
            );
            assert_eq!(s.combo, 0);
            assert_eq!(s.total(), s.clear);
        }
        assert_eq!(scoring::score(0, Spin::None, level, false, 0).total(), 0);
    }
}

#[test]
fn t_spin_table_replaces_the_line_score() {
    let table = [
        (Spin::Full, 0, 400),
        (Spin::Full, 1, 800),
        (Spin::Full, 2, 1200),
        (Spin::Full, 3, 1600),
        (Spin::Mini, 0, 100),
        (Spin::Mini, 1, 200),
        (Spin::Mini, 2, 400),
    ];
    for level in [0, 1, 4, 9, 15] {
        for (spin, lines, points) in table {
            let s = scoring::score(lines, spin, level, false, 0);
            assert_eq!(
                s.clear,
                points * (level + 1),
                "{spin:?} {lines} at level {level}"
            );
        }
    }
}

#[test]
fn back_to_back_is_one_and_a_half_times_the_clear() {
    assert_eq!(scoring::score(4, Spin::None, 0, true, 0).clear, 1800);
    assert_eq!(
        scoring::score(4, Spin::None, 3, true, 0).clear,
        1200 * 4 * 3 / 2
    );
    assert_eq!(scoring::score(2, Spin::Full, 0, true, 0).clear, 1800);
    assert_eq!(scoring::score(3, Spin::Full, 2, true, 0).clear, 7200);
    assert_eq!(scoring::score(1, Spin::Full, 1, true, 0).clear, 2400);
    // The multiplier comes before the combo bonus, which has no level multiplier.
    let s = scoring::score(4, Spin::None, 1, true, 2);
    assert_eq!((s.clear, s.combo, s.total()), (3600, 100, 3700));
}

#[test]
fn combo_bonus_is_fifty_per_index_without_level() {
    for level in [0, 5, 12] {
        for n in 0..12 {
            let s = scoring::score(1, Spin::None, level, false, n);
            assert_eq!(s.combo, 50 * n);
            assert_eq!(s.clear, 40 * (level + 1));
        }
    }
    // No combo bonus for a lock that cleared nothing (a zero-line T-spin).
    assert_eq!(scoring::score(0, Spin::Full, 0, false, 3).total(), 400);
}

#[test]
fn back_to_back_qualifies_only_for_tetris_and_full_t_spins_with_lines() {
    let q = scoring::qualifies_for_b2b;
    assert!(q(4, Spin::None));
    for lines in 1..=3 {
        assert!(q(lines, Spin::Full));
        assert!(!q(lines, Spin::None));
    }
    assert!(!q(0, Spin::Full));
    assert!(!q(1, Spin::Mini));
    assert!(!q(2, Spin::Mini));
    assert!(!q(0, Spin::Mini));
}

#[test]
fn attack_table() {
    let a = |lines, spin| scoring::attack(lines, spin, false, 0, false);
    assert_eq!([1, 2, 3, 4].map(|l| a(l, Spin::None)), [0, 1, 2, 4]);
    assert_eq!(a(1, Spin::Mini), 0);
    assert_eq!(a(2, Spin::Mini), 1);
    assert_eq!([1, 2, 3].map(|l| a(l, Spin::Full)), [2, 4, 6]);
    assert_eq!(a(0, Spin::Full), 0);
    assert_eq!(a(0, Spin::None), 0);
    // Back-to-back: +1.
    assert_eq!(scoring::attack(4, Spin::None, true, 0, false), 5);
    assert_eq!(scoring::attack(2, Spin::Full, true, 0, false), 5);
    // Combo table by index: 0,1,1,2,2,3,3,4,4,4,5, then 5.
    let combo = [0, 1, 1, 2, 2, 3, 3, 4, 4, 4, 5, 5, 5, 5];
    for (i, &bonus) in combo.iter().enumerate() {
        assert_eq!(scoring::combo_attack(i as u32), bonus, "combo {i}");
        assert_eq!(
            scoring::attack(1, Spin::None, false, i as u32, false),
            bonus
        );
        assert_eq!(
            scoring::attack(2, Spin::None, false, i as u32, false),
            1 + bonus
        );
    }
    assert_eq!(scoring::combo_attack(1000), 5);
    // Perfect clear: +10 on top of everything else.
    assert_eq!(scoring::attack(1, Spin::None, false, 0, true), 10);
    assert_eq!(
        scoring::attack(4, Spin::None, true, 2, true),
        4 + 1 + 1 + 10
    );
}

// ---- Through a game ----

/// Eight rows with column 9 open under a partial row: room for two tetrises by vertical I's.
const WELL: [&str; 9] = [
    "##........",
    "#########.",
    "#########.",
    "#########.",
    "#########.",
    "#########.",
    "#########.",
    "#########.",
    "#########.",
];

/// Waits for the next piece (an I), puts it down column 9 and returns the clear.
fn tetris(sim: &mut Sim) -> minotty_engine::Clear {
    assert_eq!(sim.wait_for_piece(), Piece::I);
    let ev = sim.drop_at(Rotation::East, 7);
    let c = clear(&ev);
    assert_eq!(c.lines, 4);
    c
}

/// A game that deals `pattern`, with the first `junk` pieces put away on an empty board.
fn game(pattern: &str, junk: usize) -> Sim {
    let mut sim = Sim::new(Mode::sprint(), seed_for(pattern));
    sim.at(0);
    for _ in 0..junk {
        sim.junk();
    }
    sim
}

#[test]
fn tetris_after_tetris_gets_the_back_to_back_bonus() {
    let mut sim = game("??????II", 6);
    sim.game.set_board(board(&WELL));
    let first = tetris(&mut sim);
    assert!(!first.b2b);
    assert_eq!((first.score, first.combo, first.attack), (1200, 0, 4));
    assert!(sim.game.back_to_back());
    let second = tetris(&mut sim);
    assert!(second.b2b);
    // 1200 * 1.5, plus combo 1 (50 points, 1 line of attack), plus 1 line for back-to-back.
    assert_eq!(
        (second.score, second.combo, second.attack),
        (1850, 1, 4 + 1 + 1)
    );
    assert_eq!(sim.game.stats().max_b2b, 1);
    assert_eq!(sim.game.stats().tetrises, 2);
}

#[test]
fn a_clear_that_does_not_qualify_breaks_back_to_back() {
    let mut sim = game("??????I?I", 6);
    sim.game.set_board(board(&WELL));
    tetris(&mut sim);
    let single = clear(&sim.single());
    assert_eq!(single.lines, 1);
    assert!(!single.b2b);
    assert!(!sim.game.back_to_back());
    sim.wait_for_piece();
    sim.game.set_board(board(&WELL));
    let after = tetris(&mut sim);
    assert!(!after.b2b);
    // Combo 2 continues through the single: 1200 + 100.
    assert_eq!((after.score, after.combo), (1300, 2));
}

#[test]
fn a_lock_that_clears_nothing_keeps_back_to_back_but_ends_the_combo() {
    let mut sim = game("??????I?I", 6);
    sim.game.set_board(board(&WELL));
    tetris(&mut sim);
    sim.wait_for_piece();
    let rest = sim.game.board().clone();
    let ev = sim.junk();
    assert!(clears(&ev).is_empty());
    assert!(sim.game.back_to_back());
    assert_eq!(sim.game.combo(), None);
    sim.game.set_board(rest);
    let after = tetris(&mut sim);
    assert!(after.b2b);
    assert_eq!((after.score, after.combo), (1800, 0));
}

#[test]
fn a_zero_line_t_spin_keeps_back_to_back_and_scores_400() {
    // (No seed deals I, T, I in a row: the LCG's low bits are far from random. The piece after
    // the T goes to hold instead, so nothing locks between the T-spin and the second tetris.)
    let mut sim = game("??????IT?I", 6);
    sim.game.set_board(board(&WELL));
    tetris(&mut sim);
    // The T-spin double slot, but rows 38 and 39 cannot complete (column 9).
    assert_eq!(sim.wait_for_piece(), Piece::T);
    sim.game.set_board(board(&[
        "####..#...", //
        "###...###.",
        "####.####.",
    ]));
    let score = sim.game.stats().score;
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Right, 1);
    sim.tap(Button::SonicDrop);
    let dropped = sim.game.stats().score;
    assert_eq!(dropped - score, 16, "sonic drop: 1 point per row");
    sim.tap(Button::RotateCcw);
    let ev = sim.tap(Button::HardDrop);
    let c = clear(&ev);
    assert_eq!(
        (c.lines, c.spin, c.score, c.attack),
        (0, Spin::Full, 400, 0)
    );
    assert!(!c.b2b);
    assert_eq!(sim.game.stats().score - dropped, 400);
    assert!(sim.game.back_to_back());
    assert_eq!(sim.game.combo(), None);
    assert_eq!(sim.game.stats().tspins, 1);
    sim.wait_for_piece();
    sim.tap(Button::Hold);
    sim.game.set_board(board(&WELL));
    assert!(tetris(&mut sim).b2b);
}

#[test]
fn combo_chains_count_up_and_reset_on_an_empty_lock() {
    let mut sim = game("?", 0);
    let mut got = Vec::new();
    for _ in 0..5 {
        let c = clear(&sim.single());
        got.push((c.combo, c.score, c.attack));
    }
    // Singles at level 0: 40 + 50 * combo; attack from the combo table.
    assert_eq!(
        got,
        vec![
            (0, 40, 0),
            (1, 90, 1),
            (2, 140, 1),
            (3, 190, 2),
            (4, 240, 2)
        ]
    );
    assert_eq!(sim.game.combo(), Some(4));
    assert_eq!(sim.game.stats().max_combo, 4);
    sim.junk();
    assert_eq!(sim.game.combo(), None);
    let c = clear(&sim.single());
    assert_eq!((c.combo, c.score), (0, 40));
    assert_eq!(sim.game.stats().max_combo, 4);
}

#[test]
fn perfect_clear_is_reported() {
    let mut sim = Sim::on_board(Mode::sprint(), "I", &["###....###"]);
    let ev = sim.tap(Button::HardDrop);
    let c = clear(&ev);
    assert!(c.perfect);
    assert_eq!((c.lines, c.score, c.attack), (1, 40, 10));
    assert!(has(&ev, |k| matches!(
        k,
        EventKind::LineClear(minotty_engine::Clear { perfect: true, .. })
    )));
    assert_eq!(sim.game.stats().perfect_clears, 1);
    assert_eq!(sim.game.stats().score, 40 + 2 * 18);
    sim.wait_for_piece();
    assert!(sim.game.board().is_empty());
    // A single that leaves cells behind is not one.
    let c = clear(&sim.single());
    assert!(!c.perfect);
    assert_eq!(sim.game.stats().perfect_clears, 1);
}

#[test]
fn hard_drop_scores_two_per_row() {
    for piece in Piece::ALL {
        let mut sim = Sim::new(Mode::sprint(), seed_for(&piece.letter().to_string()));
        sim.at(0);
        // Every spawn shape's lowest cells are on row 21: 18 rows above the floor (row 39).
        let ev = sim.tap(Button::HardDrop);
        assert!(has(&ev, |k| matches!(
            k,
            EventKind::HardDrop { rows: 18, .. }
        )));
        assert_eq!(sim.game.stats().score, 36, "{piece:?}");
    }
    // Three soft-drop rows first: 3 + 2 * 15.
    let mut sim = Sim::new(Mode::sprint(), 0);
    sim.at(0);
    for _ in 0..3 {
        sim.tap(Button::SoftDrop);
    }
    assert_eq!(sim.game.stats().score, 3);
    sim.tap(Button::HardDrop);
    assert_eq!(sim.game.stats().score, 3 + 30);
}

#[test]
fn soft_drop_scores_one_per_row_moved() {
    let mut sim = Sim::new(Mode::sprint(), 0);
    sim.at(0);
    sim.press(Button::SoftDrop);
    assert_eq!(sim.placed().y, 21);
    assert_eq!(sim.game.stats().score, 1);
    // At level 0 the soft drop repeats every 50 ms (1000 / 10, capped at 50).
    for t in (50..=850).step_by(50) {
        sim.at(t);
        let rows = (sim.placed().y - 20) as u64;
        assert_eq!(rows, t / 50 + 1);
        assert_eq!(sim.game.stats().score, rows);
    }
    // On the floor: nothing more to score.
    assert_eq!(sim.placed().y, 38);
    sim.at(890);
    assert_eq!(sim.game.stats().score, 18);
    // Gravity without soft drop scores nothing.
    let mut sim = Sim::new(Mode::sprint(), 0);
    sim.at(0);
    sim.at(5000);
    assert_eq!(sim.placed().y, 25);
    assert_eq!(sim.game.stats().score, 0);
}

#[test]
fn sonic_drop_scores_one_per_row() {
    let mut sim = Sim::new(Mode::sprint(), 0);
    sim.at(0);
    sim.tap(Button::SonicDrop);
    assert_eq!(sim.placed().y, 38);
    assert_eq!(sim.game.stats().score, 18);
}

#[test]
fn a_clear_that_levels_up_is_scored_at_the_level_before_it() {
    // Marathon: 40 lines keeps its level.
    let mut sim = Sim::new(Mode::marathon(), seed_for("?"));
    sim.at(0);
    for _ in 0..9 {
        clear(&sim.single());
    }
    assert_eq!(sim.game.stats().lines, 9);
    assert_eq!(sim.game.level(), 0);
    sim.junk(); // ends the combo so the next clear's points are just the line score
    let score = sim.game.stats().score;
    let ev = sim.single();
    let c = clear(&ev);
    assert!(has(&ev, |k| *k == EventKind::LevelUp { level: 1 }));
    assert_eq!(sim.game.level(), 1);
    assert_eq!(c.score, 40, "level 0 before the clear");
    assert_eq!(sim.game.stats().score - score, 40 + 2 * 17);
    let c = clear(&sim.single());
    assert_eq!(c.score, 80 + 50, "level 1 now, combo 1");
}

#[test]
fn a_zero_line_t_spin_ends_a_combo_and_does_not_report_it() {
    let mut sim = game("??T", 0);
    clear(&sim.single());
    assert_eq!(clear(&sim.single()).combo, 1);
    assert_eq!(sim.wait_for_piece(), Piece::T);
    sim.game.set_board(board(&[
        "####..#...", //
        "###...###.",
        "####.####.",
    ]));
    sim.tap(Button::RotateCcw);
    sim.shift(Button::Right, 1);
    sim.tap(Button::SonicDrop);
    sim.tap(Button::RotateCcw);
    let c = clear(&sim.tap(Button::HardDrop));
    assert_eq!((c.lines, c.spin, c.score), (0, Spin::Full, 400));
    // The lock cleared nothing: it is no part of the chain (the seed reports combo -1 here).
    assert_eq!(c.combo, 0, "{c:?}");
    assert_eq!(sim.game.combo(), None);
    assert_eq!(sim.game.stats().max_combo, 1);
    assert_eq!(clear(&sim.single()).combo, 0);
}
