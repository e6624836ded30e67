//! Incoming garbage: the delay, cancelling by attack, rising on empty locks, the per-piece cap,
//! one hole per attack, and seeded holes.

mod common;

use common::*;
use minotty_engine::board::{HEIGHT, WIDTH};
use minotty_engine::{Board, Button, Cell, Event, EventKind, Input, Mode, Rotation};

fn risen(events: &[Event]) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::GarbageRisen { lines, hole } => Some((lines, hole)),
            _ => None,
        })
        .collect()
}

fn pending(sim: &Sim) -> (u32, u32) {
    sim.game.garbage().pending()
}

/// Whether board row `y` is garbage everywhere but column `hole`.
fn garbage_row(board: &Board, y: usize, hole: usize) -> bool {
    (0..WIDTH).all(|x| {
        let c = board.cell(x, y);
        if x == hole {
            c == Cell::Empty
        } else {
            c == Cell::Garbage
        }
    })
}

/// Hard-drops the piece in play on an empty board (a lock that clears nothing), keeping
/// whatever garbage rises.
fn empty_lock(sim: &mut Sim) -> Vec<Event> {
    sim.wait_for_piece();
    sim.game.set_board(Board::new());
    sim.tap(Button::HardDrop)
}

#[test]
fn garbage_waits_500_ms_before_it_can_rise() {
    let mut sim = Sim::new(Mode::sprint(), 0);
    sim.at(100);
    let ev = sim.input(Input::Garbage(3));
    assert!(has(&ev, |k| *k
        == EventKind::GarbageQueued {
            lines: 3,
            ready_at: 600
        }));
    assert_eq!(pending(&sim), (0, 3));
    assert_eq!(sim.game.stats().garbage_received, 3);
    // A lock before it is ready: nothing rises.
    sim.at(300);
    let ev = sim.tap(Button::HardDrop);
    assert!(risen(&ev).is_empty());
    assert!(!has(&sim.at(599), |k| matches!(
        k,
        EventKind::GarbageReady { .. }
    )));
    assert_eq!(pending(&sim), (0, 3));
    let ev = sim.at(600);
    assert!(has(&ev, |k| *k == EventKind::GarbageReady { lines: 3 }));
    assert_eq!(pending(&sim), (3, 0));
}

#[test]
fn garbage_rises_only_on_a_lock_that_clears_nothing() {
    let mut sim = Sim::new(Mode::sprint(), 0);
    sim.at(0);
    sim.input(Input::Garbage(3));
    sim.at(1000);
    // A single (no attack): the garbage stays queued.
    let ev = sim.single();
    assert_eq!(clear(&ev).attack, 0);
    assert!(risen(&ev).is_empty());
    assert_eq!(pending(&sim), (3, 0));
    // A lock that clears nothing: up it comes, under the piece.
    let ev = empty_lock(&mut sim);
    let r = risen(&ev);
    assert_eq!(r.len(), 1);
    let (lines, hole) = r[0];
    assert_eq!(lines, 3);
    assert_eq!(pending(&sim), (0, 0));
    let b = sim.game.board();
    for y in HEIGHT - 3..HEIGHT {
        assert!(garbage_row(b, y, hole as usize), "row {y}: {b:?}");
    }
    // The piece that locked on the floor was lifted by three rows.
    assert_eq!(b.stack_height(), 3 + 2);
    assert_eq!(sim.game.stats().garbage_received, 3);
}

/// A well for a tetris down column 9, under a partial row.
const WELL: [&str; 5] = [
    "##........",
    "#########.",
    "#########.",
    "#########.",
    "#########.",
];

/// A game dealing an I first, with `queued` attacks waiting, then a tetris (4 lines of attack).
fn tetris_against(queued: &[u8]) -> (Sim, Vec<Event>) {
    let mut sim = Sim::on_board(Mode::sprint(), "I", &WELL);
    for &lines in queued {
        sim.input(Input::Garbage(lines));
    }
    sim.at(700);
    let ev = sim.drop_at(Rotation::East, 7);
    let c = clear(&ev);
    assert_eq!((c.lines, c.attack), (4, 4));
    (sim, ev)
}

fn cancelled(events: &[Event]) -> Option<u8> {
    events.iter().find_map(|e| match e.kind {
        EventKind::GarbageCancelled { lines } => Some(lines),
        _ => None,
    })
}

fn sent(events: &[Event]) -> Option<u8> {
    events.iter().find_map(|e| match e.kind {
        EventKind::AttackSent { lines } => Some(lines),
        _ => None,
    })
}

#[test]
fn attack_cancels_queued_garbage_partially() {
    let (sim, ev) = tetris_against(&[6]);
    assert_eq!(cancelled(&ev), Some(4));
    assert_eq!(sent(&ev), None);
    assert_eq!(pending(&sim), (2, 0));
    assert_eq!(sim.game.stats().sent, 0);
    assert_eq!(sim.game.stats().attack, 4);
}

#[test]
fn attack_cancels_queued_garbage_fully_and_sends_the_rest() {
    let (sim, ev) = tetris_against(&[1]);
    assert_eq!(cancelled(&ev), Some(1));
    assert_eq!(sent(&ev), Some(3));
    assert_eq!(pending(&sim), (0, 0));
    assert_eq!(sim.game.stats().sent, 3);

    // Nothing queued: all of it is sent.
    let (sim, ev) = tetris_against(&[]);
    assert_eq!(cancelled(&ev), None);
    assert_eq!(sent(&ev), Some(4));
    assert_eq!(sim.game.stats().sent, 4);
}

#[test]
fn attack_cancels_the_oldest_garbage_first() {
    let (sim, ev) = tetris_against(&[2, 3]);
    assert_eq!(cancelled(&ev), Some(4));
    let left: Vec<u8> = sim.game.garbage().entries().map(|e| e.lines).collect();
    assert_eq!(left, vec![1]);
}

#[test]
fn attack_also_cancels_garbage_that_is_not_ready_yet() {
    let mut sim = Sim::on_board(Mode::sprint(), "I", &WELL);
    sim.at(100);
    sim.input(Input::Garbage(2));
    assert_eq!(pending(&sim), (0, 2));
    let ev = sim.drop_at(Rotation::East, 7);
    assert_eq!(cancelled(&ev), Some(2));
    assert_eq!(sent(&ev), Some(2));
    assert_eq!(pending(&sim), (0, 0));
    assert!(!has(&sim.at(1000), |k| matches!(
        k,
        EventKind::GarbageReady { .. }
    )));
}

#[test]
fn at_most_eight_lines_rise_per_piece() {
    let mut sim = Sim::new(Mode::sprint(), 0);
    sim.at(0);
    sim.input(Input::Garbage(10));
    sim.at(500);
    let ev = empty_lock(&mut sim);
    let r = risen(&ev);
    assert_eq!(r.len(), 1);
    let (lines, hole) = r[0];
    assert_eq!(lines, 8);
    assert_eq!(pending(&sim), (2, 0));
    // The rest comes with the next empty lock, through the same hole.
    let before = sim.game.board().clone();
    sim.wait_for_piece();
    let ev = sim.tap(Button::HardDrop);
    assert_eq!(risen(&ev), vec![(2, hole)]);
    assert_eq!(pending(&sim), (0, 0));
    let b = sim.game.board();
    for y in HEIGHT - 10..HEIGHT {
        assert!(garbage_row(b, y, hole as usize), "row {y}: {b:?}");
    }
    assert!(before != *b);

    // Two attacks of five: the first whole and three of the second, each through its own hole.
    let mut sim = Sim::new(Mode::sprint(), 7);
    sim.at(0);
    sim.input(Input::Garbage(5));
    sim.input(Input::Garbage(5));
    sim.at(500);
    let ev = empty_lock(&mut sim);
    let r = risen(&ev);
    assert_eq!(r.iter().map(|&(l, _)| l).collect::<Vec<_>>(), vec![5, 3]);
    assert_eq!(pending(&sim), (2, 0));
    let holes: Vec<u8> = sim.game.garbage().entries().map(|e| e.hole).collect();
    assert_eq!(holes, vec![r[1].1], "the split attack keeps its hole");
    let b = sim.game.board();
    // The first attack rose first, so it is above the second.
    for y in HEIGHT - 8..HEIGHT - 3 {
        assert!(garbage_row(b, y, r[0].1 as usize));
    }
    for y in HEIGHT - 3..HEIGHT {
        assert!(garbage_row(b, y, r[1].1 as usize));
    }
}

#[test]
fn all_lines_of_one_attack_share_one_hole() {
    for seed in 0..10 {
        let mut sim = Sim::new(Mode::sprint(), seed);
        sim.at(0);
        sim.input(Input::Garbage(4));
        sim.at(500);
        let ev = empty_lock(&mut sim);
        let (lines, hole) = risen(&ev)[0];
        assert_eq!(lines, 4);
        assert!((hole as usize) < WIDTH);
        for y in HEIGHT - 4..HEIGHT {
            assert!(
                garbage_row(sim.game.board(), y, hole as usize),
                "seed {seed}"
            );
        }
    }
}

/// The holes of `n` one-line attacks in a game with `seed`.
fn holes(seed: u32, n: usize) -> Vec<u8> {
    let mut sim = Sim::new(Mode::sprint(), seed);
    sim.at(0);
    for _ in 0..n {
        sim.input(Input::Garbage(1));
    }
    sim.game.garbage().entries().map(|e| e.hole).collect()
}

#[test]
fn holes_come_from_the_seeded_rng() {
    // Same seed, same holes.
    for seed in [0, 1, 42, 0xDEAD_BEEF] {
        assert_eq!(holes(seed, 20), holes(seed, 20));
    }
    // Different seeds, different holes; and holes vary within a game.
    assert_ne!(holes(1, 20), holes(2, 20));
    let h = holes(42, 20);
    assert!(h.iter().any(|&x| x != h[0]), "{h:?}");
    // Garbage never changes the pieces a seed deals.
    let mut a = Sim::new(Mode::sprint(), 42);
    let mut b = Sim::new(Mode::sprint(), 42);
    a.at(0);
    b.at(0);
    b.input(Input::Garbage(3));
    a.at(600);
    b.at(600);
    for _ in 0..10 {
        assert_eq!(a.placed().piece, b.placed().piece);
        a.junk();
        b.junk();
    }
}
