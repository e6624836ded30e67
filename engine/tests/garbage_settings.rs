//! A room's attack and garbage settings in real games (`versus::GarbageSettings`): the
//! multiplier, the cap and their growth with game time, messy and wide holes, each blocking
//! mode, surge, the opener, and a replay that verifies under them. The settings' own tables
//! (every value at every time) are in `engine/src/versus/garbage/tests.rs`.

mod common;

use common::*;
use minotty_engine::versus::{BackToBack, Blocking, GarbageDraft, GarbageSettings};
use minotty_engine::{
    Board, Button, Event, EventKind, Game, Input, Mode, Piece, Position, Replay, Rotation,
};

/// (multiplier %, increase a minute, margin s, at ms) -> lines sent.
type MultiplierRow = ((u16, u16, u16, u64), u8);
/// (blocking, queued) -> (cancelled, sent, lines still queued).
type BlockingRow = ((Blocking, u8), (u8, u8, u32));
/// (cap, increase a minute, margin s, at ms) -> lines risen.
type CapRow = ((u8, u8, u16, u64), u32);

fn battle(f: impl FnOnce(&mut GarbageDraft)) -> Mode {
    let mut d = GarbageDraft::default();
    f(&mut d);
    let mut mode = Mode::custom(0, true, None);
    mode.garbage = GarbageSettings::new(d);
    mode
}

fn risen(events: &[Event]) -> Vec<(u8, u8)> {
    events
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::GarbageRisen { lines, hole } => Some((lines, hole)),
            _ => None,
        })
        .collect()
}

fn cancelled(events: &[Event]) -> u8 {
    events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::GarbageCancelled { lines } => Some(lines),
            _ => None,
        })
        .unwrap_or(0)
}

fn sent(events: &[Event]) -> u8 {
    events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::AttackSent { lines } => Some(lines),
            _ => None,
        })
        .unwrap_or(0)
}

const WELL: [&str; 5] = [
    "##........",
    "#########.",
    "#########.",
    "#########.",
    "#########.",
];

/// A game whose first seven pieces are I's, on the well.
fn all_i(mode: Mode) -> Sim {
    let position = Position {
        board: board(&WELL),
        current: Piece::I,
        next: vec![Piece::I; 6],
        hold: None,
        combo: 0,
        back_to_back: false,
    };
    Sim {
        game: Game::from_position(config(mode), &position, 1),
        t: 0,
        log: Vec::new(),
    }
}

/// A tetris (4 lines of attack by the table) at about `t` ms (the I in play then) with
/// `queued` lines arriving 100 ms before.
fn tetris_at(mode: Mode, queued: u8, t: u64) -> (Sim, Vec<Event>) {
    let mut sim = all_i(mode);
    sim.at(t.saturating_sub(100));
    if queued > 0 {
        sim.input(Input::Garbage(queued));
    }
    sim.at(t);
    assert_eq!(sim.wait_for_piece(), Piece::I);
    sim.game.set_board(board(&WELL));
    let ev = sim.drop_at(Rotation::East, 7);
    assert_eq!(clear(&ev).lines, 4);
    (sim, ev)
}

/// (multiplier %, increase a minute, margin s, at ms) -> lines a tetris sends.
#[test]
fn the_multiplier_at_the_games_time_scales_what_a_clear_sends() {
    let rows: &[MultiplierRow] = &[
        ((100, 0, 0, 700), 4),
        ((200, 0, 0, 700), 8),
        ((50, 0, 0, 700), 2),
        ((150, 0, 0, 700), 6),
        // +60 points a minute after 10 s: at 70 s it is 160%, 6.4 lines.
        ((100, 60, 10, 700), 4),
        ((100, 60, 10, 70_000), 6),
    ];
    for &((m, inc, margin, t), want) in rows {
        let mode = battle(|d| {
            d.multiplier = m;
            d.multiplier_increase = inc;
            d.multiplier_margin = margin;
        });
        let (sim, ev) = tetris_at(mode, 0, t);
        assert_eq!(sent(&ev), want, "{m}% +{inc} after {margin}s at {t}");
        assert_eq!(clear(&ev).attack, want);
        assert_eq!(sim.game.stats().attack, u32::from(want));
    }
}

/// (blocking, queued) -> (cancelled, sent, lines still queued).
#[test]
fn each_blocking_mode() {
    let rows: &[BlockingRow] = &[
        ((Blocking::Cancel, 0), (0, 4, 0)),
        ((Blocking::Cancel, 3), (3, 1, 0)),
        ((Blocking::Cancel, 6), (4, 0, 2)),
        ((Blocking::None, 0), (0, 4, 0)),
        ((Blocking::None, 3), (0, 4, 3)),
        ((Blocking::None, 6), (0, 4, 6)),
        ((Blocking::Passthrough, 0), (0, 4, 0)),
        ((Blocking::Passthrough, 3), (3, 4, 0)),
        ((Blocking::Passthrough, 6), (4, 4, 2)),
    ];
    for &((blocking, queued), (want_cancelled, want_sent, want_left)) in rows {
        let (sim, ev) = tetris_at(battle(|d| d.blocking = blocking), queued, 700);
        let (ready, waiting) = sim.game.garbage().pending();
        assert_eq!(
            (cancelled(&ev), sent(&ev), ready + waiting),
            (want_cancelled, want_sent, want_left),
            "{blocking:?} against {queued}"
        );
        assert_eq!(sim.game.stats().sent, u32::from(want_sent));
    }
}

/// Ten lines waiting; what rises on an empty lock at `t` under the cap and its increase.
fn rises_at(cap: u8, increase: u8, margin: u16, t: u64) -> u32 {
    let mut sim = Sim::new(
        battle(|d| {
            d.cap = cap;
            d.cap_increase = increase;
            d.cap_margin = margin;
        }),
        3,
    );
    sim.at(t - 600);
    sim.input(Input::Garbage(10));
    sim.at(t);
    sim.wait_for_piece();
    sim.game.set_board(Board::new());
    let ev = sim.tap(Button::HardDrop);
    risen(&ev).iter().map(|&(l, _)| u32::from(l)).sum()
}

#[test]
fn the_cap_at_the_games_time_bounds_each_rise() {
    let rows: &[CapRow] = &[
        ((8, 0, 0, 1_000), 8),
        ((3, 0, 0, 1_000), 3),
        ((1, 0, 0, 1_000), 1),
        // Two lines a minute after 30 s: 1 until 60 s, then 2, 3 at 90 s.
        ((1, 2, 30, 59_000), 1),
        ((1, 2, 30, 60_000), 2),
        ((1, 2, 30, 90_000), 3),
    ];
    for &((cap, inc, margin, t), want) in rows {
        assert_eq!(
            rises_at(cap, inc, margin, t),
            want,
            "{cap} +{inc} after {margin} at {t}"
        );
    }
}

#[test]
fn nothing_rises_during_the_opener() {
    let mut sim = Sim::new(battle(|d| d.opener = 5), 3);
    sim.at(0);
    sim.input(Input::Garbage(2));
    sim.at(1_000);
    assert_eq!(sim.game.garbage().pending(), (2, 0));
    let ev = empty_lock(&mut sim);
    assert!(risen(&ev).is_empty());
    assert_eq!(sim.game.garbage().pending(), (2, 0));
    // It waited, ready, through the opener; the first empty lock after it raises it.
    sim.at(5_000);
    let ev = empty_lock(&mut sim);
    assert_eq!(risen(&ev).iter().map(|r| r.0).sum::<u8>(), 2);
}

fn empty_lock(sim: &mut Sim) -> Vec<Event> {
    sim.wait_for_piece();
    sim.game.set_board(Board::new());
    sim.tap(Button::HardDrop)
}

/// The garbage rows of `lines` from one attack, bottom rows only, with `f`'s settings.
fn garbage_board(seed: u32, lines: u8, f: impl FnOnce(&mut GarbageDraft)) -> Vec<String> {
    let mut sim = Sim::new(battle(f), seed);
    sim.at(0);
    sim.input(Input::Garbage(lines));
    sim.at(600);
    sim.wait_for_piece();
    sim.game.set_board(Board::new());
    sim.tap(Button::HardDrop);
    let rows = sim.game.board().to_ascii();
    rows[rows.len() - usize::from(lines)..].to_vec()
}

#[test]
fn messy_garbage_moves_its_holes_row_by_row_from_the_seed() {
    let clean = garbage_board(11, 6, |_| {});
    assert!(clean.windows(2).all(|w| w[0] == w[1]), "{clean:#?}");
    let messy = garbage_board(11, 6, |d| d.messiness = 50);
    assert_eq!(messy, MESSY, "{messy:#?}");
    // Always moving: no two rows in a row share a hole.
    let always = garbage_board(11, 6, |d| d.messiness = 100);
    assert!(always.windows(2).all(|w| w[0] != w[1]), "{always:#?}");
}

/// Seed 11, one attack of six at 50%: the hole moved on three of the five rows after the
/// first.
const MESSY: [&str; 6] = [
    "###.######",
    "###.######",
    "#########.",
    "#.########",
    "#########.",
    "#########.",
];

#[test]
fn wide_holes_never_leave_a_row_full_or_empty() {
    for size in 1..=9u8 {
        for seed in 0..8 {
            let rows = garbage_board(seed, 3, |d| {
                d.hole_size = size;
                d.messiness = 40;
            });
            for r in &rows {
                let holes = r.chars().filter(|&c| c == '.').count();
                assert_eq!(
                    holes,
                    usize::from(size),
                    "size {size} seed {seed}: {rows:#?}"
                );
                // One hole, not split.
                let first = r.find('.').expect("a hole");
                assert!(
                    r[first..first + usize::from(size)]
                        .chars()
                        .all(|c| c == '.')
                );
            }
        }
    }
}

/// Six I pieces down the well: a chain of five back-to-backs, then a single that breaks it.
fn chain_then_break(b2b: BackToBack) -> (Vec<u8>, u8) {
    let config = config(battle(|d| d.b2b = b2b));
    let position = Position {
        board: board(&WELL),
        current: Piece::I,
        next: vec![Piece::I; 6],
        hold: None,
        combo: 0,
        back_to_back: false,
    };
    let mut sim = Sim {
        game: Game::from_position(config, &position, 1),
        t: 0,
        log: Vec::new(),
    };
    sim.at(0);
    let mut attacks = Vec::new();
    for _ in 0..6 {
        assert_eq!(sim.wait_for_piece(), Piece::I);
        sim.game.set_board(board(&WELL));
        let ev = sim.drop_at(Rotation::East, 7);
        attacks.push(clear(&ev).attack);
    }
    sim.wait_for_piece();
    sim.game.set_board(single_board(Piece::I));
    let ev = sim.tap(Button::HardDrop);
    (attacks, clear(&ev).attack)
}

#[test]
fn surge_releases_the_charged_chain_when_it_breaks() {
    let (chaining, single) = chain_then_break(BackToBack::Chaining);
    let (surging, released) = chain_then_break(BackToBack::Surge);
    // The chain is worth the same while it lasts...
    assert_eq!(chaining, surging);
    // ...and the single that breaks it at count 5 releases 5 lines more.
    assert_eq!(released, single + 5, "{chaining:?} {single} {released}");
}

#[test]
fn a_replay_under_non_default_settings_verifies_and_keeps_them() {
    let mode = battle(|d| {
        d.multiplier = 250;
        d.multiplier_increase = 30;
        d.cap = 3;
        d.messiness = 60;
        d.hole_size = 2;
        d.blocking = Blocking::Passthrough;
        d.b2b = BackToBack::Surge;
        d.opener = 1;
    });
    // A game played by its inputs alone: garbage arrives, pieces go left and right.
    let mut game = Game::new(config(mode.clone()), 5);
    let mut t = 0;
    for i in 0..40u64 {
        t += 150;
        if i % 5 == 0 {
            game.update(t, Some(Input::Garbage(1 + (i % 4) as u8)));
        }
        let side = if i % 2 == 0 {
            Button::Left
        } else {
            Button::Right
        };
        for _ in 0..(i % 4) {
            game.update(t, Some(Input::Press(side)));
            game.update(t, Some(Input::Release(side)));
        }
        game.update(t, Some(Input::Press(Button::HardDrop)));
        game.update(t, Some(Input::Release(Button::HardDrop)));
    }
    assert!(game.stats().garbage_received > 0);
    let replay = game.replay();
    assert_eq!(replay.mode, mode);
    let played = replay.play().expect("plays");
    assert_eq!(played.stats(), game.stats());
    assert_eq!(played.board(), game.board());
    let bytes = replay.to_bytes();
    assert_eq!(bytes[4], 4, "format 4 holds the settings");
    let back = Replay::from_bytes(&bytes).expect("reads");
    assert_eq!(back, replay);
    assert_eq!(back.play().expect("plays").board(), game.board());
    // Under the defaults the same inputs play another game, written in an older format.
    let mut plain = replay.clone();
    plain.mode.garbage = GarbageSettings::default();
    assert_ne!(plain.play().expect("plays").board(), game.board());
    assert_ne!(plain.to_bytes()[4], 4);
}
