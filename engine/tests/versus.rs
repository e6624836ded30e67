//! Versus in one deterministic room simulation: attack routing, cancelling, the per-lock cap,
//! hole columns, knock-outs, winners and targeting, with scripted players (matches the
//! placement bot plays are in `bots/tests/versus.rs`).

use minotty_engine::versus::{Match, MatchEvent, MatchKind, PlayerView, Router, Targeting};
use minotty_engine::{
    Board, Button, EventKind, GameConfig, Generator, Input, Mode, Piece, PieceSource, Time,
};

fn battle_config() -> GameConfig {
    GameConfig {
        mode: Mode::custom(0, false, None),
        ..GameConfig::default()
    }
}

/// The first seed whose bag deals `first` first.
fn seed_starting_with(first: Piece) -> u32 {
    (0..)
        .find(|&s| PieceSource::new(Generator::Bag, s).next_piece() == first)
        .expect("some seed")
}

fn tap(m: &mut Match, p: usize, t: Time, b: Button) -> Vec<MatchEvent> {
    let mut out = m.input(p, t, Input::Press(b)).to_vec();
    out.extend_from_slice(m.input(p, t, Input::Release(b)));
    out
}

/// A board with the bottom `rows` rows full but for column 9, under one loose cell (so that
/// clearing them is not a perfect clear).
fn well_board(rows: usize) -> Board {
    let mut lines = vec!["#........."];
    lines.extend(std::iter::repeat_n("#########.", rows));
    Board::from_ascii(&lines)
}

/// Player 0 drops an I into a right-hand well over `rows` rows.
fn drop_i_into_well(m: &mut Match, t: Time) -> Vec<MatchEvent> {
    let mut events = tap(m, 0, t, Button::RotateCw);
    for _ in 0..4 {
        events.extend(tap(m, 0, t, Button::Right));
    }
    events.extend(tap(m, 0, t, Button::HardDrop));
    events
}

fn attacks(events: &[MatchEvent]) -> Vec<(usize, usize, u8)> {
    events
        .iter()
        .filter_map(|e| match *e {
            MatchEvent::Attack {
                from, to, lines, ..
            } => Some((from, to, lines)),
            _ => None,
        })
        .collect()
}

fn new_battle(seeds: &[u32]) -> Match {
    let mut m = Match::new(
        MatchKind::Battle,
        vec![battle_config(); seeds.len()],
        seeds,
        &[],
        1,
    );
    m.update(0);
    m
}

#[test]
fn a_tetris_sends_four_lines_that_rise_after_the_delay_with_one_hole() {
    let i_seed = seed_starting_with(Piece::I);
    let mut m = new_battle(&[i_seed, 99]);
    m.game_mut(0).expect("p0").set_board(well_board(4));
    let events = drop_i_into_well(&mut m, 10);
    assert_eq!(attacks(&events), vec![(0, 1, 4)]);
    let queued = events.iter().any(|e| {
        matches!(e, MatchEvent::Game { player: 1, event } if event.kind == EventKind::GarbageQueued { lines: 4, ready_at: 510 })
    });
    assert!(queued, "{events:?}");
    // Before the delay, a lock of player 1 raises nothing.
    let early = tap(&mut m, 1, 100, Button::HardDrop);
    assert!(!early.iter().any(|e| matches!(e, MatchEvent::Game { event, .. } if matches!(event.kind, EventKind::GarbageRisen { .. }))));
    // After it, the next lock raises all four rows with a single hole column.
    let late = tap(&mut m, 1, 600, Button::HardDrop);
    let risen: Vec<(u8, u8)> = late
        .iter()
        .filter_map(|e| match e {
            MatchEvent::Game { player: 1, event } => match event.kind {
                EventKind::GarbageRisen { lines, hole } => Some((lines, hole)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(risen.len(), 1);
    let (lines, hole) = risen[0];
    assert_eq!(lines, 4);
    let board = m.game(1).expect("p1").board();
    for y in 36..40 {
        for x in 0..10 {
            let empty = board.cell(x, y) == minotty_engine::Cell::Empty;
            assert_eq!(empty, x == usize::from(hole), "row {y} col {x}");
        }
    }
}

#[test]
fn an_attack_cancels_queued_garbage_first_and_only_the_rest_is_sent() {
    let i_seed = seed_starting_with(Piece::I);
    let mut m = new_battle(&[i_seed, 5]);
    // Player 1 has 3 lines queued against player 0.
    m.game_mut(0)
        .expect("p0")
        .update(0, Some(Input::Garbage(3)));
    m.game_mut(0).expect("p0").set_board(well_board(4));
    let events = drop_i_into_well(&mut m, 10);
    let cancelled = events.iter().any(|e| matches!(e, MatchEvent::Game { player: 0, event } if event.kind == EventKind::GarbageCancelled { lines: 3 }));
    assert!(cancelled, "{events:?}");
    assert_eq!(attacks(&events), vec![(0, 1, 1)]);
    assert_eq!(m.game(0).expect("p0").garbage().pending(), (0, 0));
}

#[test]
fn at_most_eight_lines_rise_per_lock_and_the_rest_waits() {
    let mut m = new_battle(&[1, 2]);
    m.game_mut(1)
        .expect("p1")
        .update(0, Some(Input::Garbage(10)));
    m.update(600);
    let events = tap(&mut m, 1, 600, Button::HardDrop);
    let risen: u32 = events
        .iter()
        .filter_map(|e| match e {
            MatchEvent::Game { event, .. } => match event.kind {
                EventKind::GarbageRisen { lines, .. } => Some(u32::from(lines)),
                _ => None,
            },
            _ => None,
        })
        .sum();
    assert_eq!(risen, 8);
    assert_eq!(m.game(1).expect("p1").garbage().pending(), (2, 0));
}

#[test]
fn topping_out_under_garbage_is_a_knock_out_for_the_attacker_and_the_match_ends() {
    let i_seed = seed_starting_with(Piece::I);
    let mut m = new_battle(&[i_seed, 5]);
    // Player 1 has two towers reaching 3 rows into the buffer, away from the spawn columns.
    let towers = vec!["##........"; 37];
    m.game_mut(1)
        .expect("p1")
        .set_board(Board::from_ascii(&towers));
    m.game_mut(0).expect("p0").set_board(well_board(4));
    drop_i_into_well(&mut m, 10);
    let mut events = m.update(600).to_vec();
    events.extend(tap(&mut m, 1, 600, Button::HardDrop));
    let ko = events
        .iter()
        .find_map(|e| match *e {
            MatchEvent::KnockOut { player, by } => Some((player, by)),
            _ => None,
        })
        .expect("a knock-out");
    assert_eq!(ko, (1, Some(0)));
    let reason = m.game(1).and_then(|g| g.outcome());
    assert_eq!(reason, Some((minotty_engine::EndReason::TopOut, false)));
    assert!(events.contains(&MatchEvent::Over { winner: Some(0) }));
    assert!(m.is_over());
    assert_eq!(m.router().kos(0), 1);
    assert_eq!(m.router().place(0), Some(1));
    assert_eq!(m.router().place(1), Some(2));
}

#[test]
fn targeting_strategies_with_four_players() {
    let views = [
        PlayerView {
            stack_height: 3,
            pending_garbage: 0,
        },
        PlayerView {
            stack_height: 12,
            pending_garbage: 2,
        },
        PlayerView {
            stack_height: 5,
            pending_garbage: 9,
        },
        PlayerView {
            stack_height: 1,
            pending_garbage: 0,
        },
    ];
    // Even: the opponent with the least garbage received, lowest seat on ties.
    let mut r = Router::new(MatchKind::Battle, &[Targeting::Even; 4], 1);
    assert_eq!(r.route(0, 2, 0, &views), Some(1));
    assert_eq!(r.route(0, 2, 1, &views), Some(2));
    assert_eq!(r.route(0, 2, 2, &views), Some(3));
    assert_eq!(r.route(0, 1, 3, &views), Some(1));
    // Attackers: back at whoever hit us last.
    r.set_targeting(3, Targeting::Attackers);
    assert_eq!(r.route(3, 1, 4, &views), Some(0));
    // KO hunting: highest stack plus queued garbage (2: 5 + 9 = 14 beats 1: 12 + 2).
    r.set_targeting(1, Targeting::KoHunting);
    assert_eq!(r.route(1, 1, 5, &views), Some(2));
    // Random: deterministic for a seed, and only ever living opponents.
    let picks = |seed| {
        let mut r = Router::new(MatchKind::Battle, &[Targeting::Random; 4], seed);
        r.knock_out(2);
        (0..20)
            .map(|t| r.route(0, 1, t, &views))
            .collect::<Vec<_>>()
    };
    assert_eq!(picks(9), picks(9));
    assert!(picks(9).iter().all(|p| matches!(p, Some(1) | Some(3))));
    assert!(picks(9).contains(&Some(1)) && picks(9).contains(&Some(3)));
    // Out players neither send nor receive; the last one standing wins.
    let mut r = Router::new(MatchKind::Battle, &[Targeting::Even; 3], 1);
    r.route(0, 4, 0, &views);
    assert_eq!(r.knock_out(1), Some(0));
    assert_eq!(r.route(1, 4, 1, &views), None);
    assert_eq!(r.winner(), None);
    assert_eq!(r.knock_out(2), None);
    assert_eq!(r.winner(), Some(0));
    assert_eq!((r.place(1), r.place(2)), (Some(3), Some(2)));
}
