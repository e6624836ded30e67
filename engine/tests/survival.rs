//! Survival: garbage rises on a clock that speeds up (a timeline), each row with one hole, the
//! piece in play riding up with the stack, a row rising during a line clear, the end by
//! topping out, snapshots refused, and its replays.

mod common;

use common::*;
use minotty_engine::board::{HEIGHT, WIDTH};
use minotty_engine::{
    Button, Cell, EndReason, Event, EventKind, Game, GameConfig, Mode, ModeKind, Replay, RulesetId,
    StartBoard, Time, Tuning, survival_rise_at,
};

/// The rows risen so far (the row and the time of each) in `events`.
fn rises(events: &[Event]) -> Vec<Time> {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::GarbageRisen { lines: 1, .. }))
        .map(|e| e.time)
        .collect()
}

/// The schedule: the first row at 10 s, each next one 0.5 s sooner after the last, never
/// closer than 1 s: (rows risen before, the time the next one rises).
#[test]
fn the_rising_schedule() {
    #[rustfmt::skip]
    let table: [(u32, Time); 22] = [
        (0, 10_000), (1, 19_500), (2, 28_500), (3, 37_000), (4, 45_000), (5, 52_500),
        (6, 59_500), (7, 66_000), (8, 72_000), (9, 77_500), (10, 82_500), (11, 87_000),
        (12, 91_000), (13, 94_500), (14, 97_500), (15, 100_000), (16, 102_000),
        (17, 103_500), (18, 104_500), (19, 105_500), (20, 106_500), (100, 186_500),
    ];
    for (risen, at) in table {
        assert_eq!(survival_rise_at(risen), at, "after {risen} rows");
    }
    // The intervals: 10 s shrinking by 0.5 s down to 1 s, then 1 s for ever.
    let gaps: Vec<Time> = (0..22)
        .map(|k| survival_rise_at(k + 1) - survival_rise_at(k))
        .collect();
    assert_eq!(gaps[..3], [9_500, 9_000, 8_500]);
    assert_eq!(gaps[16], 1_500);
    assert!(gaps[17..].iter().all(|&g| g == 1_000));
}

/// The board without the player's cells (the garbage rows stay where they are).
fn garbage_only(b: &minotty_engine::Board) -> minotty_engine::Board {
    let mut out = b.clone();
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            if matches!(b.cell(x, y), Cell::Block(_)) {
                out.set(x, y, Cell::Empty);
            }
        }
    }
    out
}

/// A game left to gravity for a minute (each locked piece taken off the board, so that the
/// stack is the garbage alone): rows rise at the schedule's times, each at the bottom with
/// exactly one hole (the holes differ), and `next_deadline` names each rise exactly.
#[test]
fn a_timeline_of_rows_rising() {
    let mut sim = Sim::new(Mode::survival(), 5);
    sim.at(0);
    let mut holes = Vec::new();
    loop {
        let next = (sim.game.next_deadline())
            .unwrap_or_else(|| panic!("nothing due: {:?} {:?}", sim.game.outcome(), sim.log));
        assert!(next <= survival_rise_at(rises(&sim.log).len() as u32));
        if next > 60_000 {
            sim.at(60_000);
            break;
        }
        let ev = sim.at(next);
        if has(&ev, |k| matches!(k, EventKind::Lock { .. })) {
            let board = garbage_only(sim.game.board());
            sim.game.set_board(board);
        }
        if !rises(&ev).is_empty() {
            assert_eq!(next, survival_rise_at(holes.len() as u32), "rose on time");
            let b = sim.game.board();
            let open: Vec<usize> = (0..WIDTH)
                .filter(|&x| b.cell(x, HEIGHT - 1) == Cell::Empty)
                .collect();
            assert_eq!(open.len(), 1, "one hole: {b:?}");
            assert!(
                (0..WIDTH).all(|x| matches!(b.cell(x, HEIGHT - 1), Cell::Empty | Cell::Garbage))
            );
            holes.push(open[0]);
        }
    }
    assert_eq!(
        rises(&sim.log),
        [10_000, 19_500, 28_500, 37_000, 45_000, 52_500, 59_500]
    );
    assert_eq!(sim.game.stats().garbage_received, 7);
    assert!(holes.windows(2).any(|w| w[0] != w[1]), "{holes:?}");
    assert!(sim.game.outcome().is_none());
    // Seven garbage rows at the bottom, nothing else.
    assert_eq!(sim.game.board().garbage_rows_at_bottom(), 7);
    assert_eq!(sim.game.board().stack_height(), 7);
}

/// A piece resting on the stack rides up with it (here on the floor, with a long lock delay so
/// that it is still in play when the first row rises); its lock timer runs on.
#[test]
fn the_piece_in_play_rides_up_with_the_stack() {
    let config = GameConfig {
        mode: Mode::survival(),
        tuning: Tuning {
            lock_delay: Some(10_000),
            ..Tuning::default()
        },
        ..GameConfig::default()
    };
    let mut sim = Sim::with_config(config, seed_for("O"));
    sim.at(0);
    sim.at(500);
    sim.tap(Button::SonicDrop);
    assert_eq!(sim.placed().y, 38);
    assert_eq!(sim.game.next_deadline(), Some(10_000));
    sim.at(10_000);
    assert_eq!(rises(&sim.log), [10_000]);
    assert_eq!(sim.placed().y, 37, "lifted a row");
    assert_eq!(sim.game.next_deadline(), Some(10_500), "the lock as it was");
    sim.at(10_500);
    assert_eq!(sim.game.stats().pieces, 1);
    let b = sim.game.board();
    assert_eq!(b.cell(4, 37), Cell::Block(minotty_engine::Piece::O));
    assert_eq!(b.cell(4, 38), Cell::Block(minotty_engine::Piece::O));
    assert_eq!(
        (0..WIDTH)
            .filter(|&x| b.cell(x, HEIGHT - 1) == Cell::Empty)
            .count(),
        1,
        "the risen row under it"
    );
}

/// A row rising during a line clear takes the full row up with it: the clear removes that row,
/// not the one that moved into its place.
#[test]
fn a_row_rising_during_a_line_clear_takes_the_cleared_row_up() {
    let mut sim = Sim::new(Mode::survival(), 5);
    sim.at(0);
    sim.at(9_900);
    let ev = sim.single();
    assert_eq!(clear(&ev).lines, 1);
    assert_ne!(sim.game.clearing_rows(), 0, "the clear's pause");
    sim.at(10_000);
    assert_eq!(rises(&sim.log), [10_000]);
    assert_eq!(sim.game.clearing_rows(), 1 << (HEIGHT - 3));
    sim.wait_for_piece();
    // The rows that hold cells, bottom-aligned: the risen row, the one that was below the
    // clear, and above them at most what the piece left of itself over the cleared row.
    let ascii = sim.game.board().to_ascii();
    let n = ascii.len();
    assert!(n == 2 || n == 3, "{ascii:?}");
    assert_eq!(
        ascii[n - 2],
        "#########.",
        "the row below the clear, moved up"
    );
    assert_eq!(ascii[n - 1].matches('.').count(), 1, "the risen row");
}

/// Survival ends only by topping out: a game left alone ends, its time is when it did.
#[test]
fn survival_ends_by_topping_out() {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::survival(),
            ..GameConfig::default()
        },
        9,
    );
    let mut now = 0;
    game.update(0, None);
    while !game.is_over() {
        now = game.next_deadline().expect("due");
        game.update(now, None);
        assert!(now < 600_000);
    }
    let (reason, won) = game.outcome().expect("over");
    assert!(!won);
    assert!(matches!(
        reason,
        EndReason::TopOut | EndReason::BlockOut | EndReason::LockOut
    ));
    assert_eq!(game.stats().time, now);
    assert!(game.stats().garbage_received > 0);
    assert_eq!(game.next_deadline(), None);
    // The same game in one update, and in updates a second apart: the same game.
    let fresh = || {
        let mut g = Game::new(game.config().clone(), 9);
        g.update(0, None);
        g
    };
    let mut once = fresh();
    once.update(now, None);
    let mut seconds = fresh();
    for t in (0..=now).step_by(1000).chain([now]) {
        seconds.update(t, None);
    }
    for other in [once, seconds] {
        assert_eq!(other.outcome(), game.outcome());
        assert_eq!(other.stats(), game.stats());
        assert_eq!(other.board(), game.board());
    }
}

/// Snapshots refuse Survival (its clock is no part of one), as they refuse Descent.
#[test]
fn survival_games_are_not_snapshotted() {
    let mut sim = Sim::new(Mode::survival(), 5);
    sim.at(0);
    assert!(sim.game.active().is_some());
    assert_eq!(sim.game.snapshot(), None);
    let mut sim = Sim::new(Mode::marathon(), 5);
    sim.at(0);
    assert!(sim.game.snapshot().is_some());
}

/// A Survival game played to its end under every ruleset: its replay round-trips through the
/// binary form (format 1, start-board code 6) and re-simulates to the same game.
#[test]
fn survival_replays_round_trip_and_re_simulate() {
    for ruleset in RulesetId::ALL {
        let mut game = Game::new(
            GameConfig {
                ruleset,
                mode: Mode::survival(),
                ..GameConfig::default()
            },
            21,
        );
        game.update(0, None);
        let mut t = 0;
        let mut i = 0u64;
        while !game.is_over() {
            t += 150 + (i * 7919) % 900;
            let b = [
                Button::Left,
                Button::HardDrop,
                Button::Right,
                Button::RotateCw,
            ];
            let b = b[(i % 4) as usize];
            game.update(t, Some(minotty_engine::Input::Press(b)));
            game.update(t + 30, Some(minotty_engine::Input::Release(b)));
            i += 1;
            assert!(t < 3_600_000);
        }
        let bytes = game.replay().to_bytes();
        assert_eq!(bytes[4], 1, "format 1");
        let mode = [ModeKind::Survival as u8, 0, 0, 0, 0, 6, 0];
        assert!(bytes.windows(mode.len()).any(|w| w == mode), "{ruleset:?}");
        let replay = Replay::from_bytes(&bytes).expect("round trip");
        assert_eq!(replay, game.replay());
        assert_eq!(replay.mode.start_board, StartBoard::Survival);
        let verified = replay.verify().expect("verifies");
        assert_eq!(&verified.stats, game.stats(), "{ruleset:?}");
        assert_eq!(verified.outcome, game.outcome());
        assert!(game.stats().garbage_received > 0, "{ruleset:?}");
    }
}
