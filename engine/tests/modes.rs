//! Each mode's start, win and loss.

mod common;

use common::*;
use minotty_engine::board::{HEIGHT, WIDTH};
use minotty_engine::{
    Board, Button, Cell, EndReason, EventKind, Game, Mode, ModeKind, Piece, Rotation, Stat,
};

fn game_over(sim: &Sim) -> Option<(EndReason, bool)> {
    sim.game.outcome()
}

fn won(stat: Stat) -> Option<(EndReason, bool)> {
    Some((EndReason::Limit(stat), true))
}

/// Clears `n` single lines, asserting the game is still on before the last one.
fn singles(sim: &mut Sim, n: u32) {
    for i in 0..n {
        assert!(game_over(sim).is_none(), "over after {i} singles");
        assert_eq!(clear(&sim.single()).lines, 1);
    }
}

#[test]
fn forty_lines_is_won_at_forty() {
    let mut sim = Sim::new(Mode::sprint(), 5);
    sim.at(0);
    singles(&mut sim, 39);
    assert_eq!(sim.game.stats().lines, 39);
    assert!(game_over(&sim).is_none());
    let ev = sim.single();
    assert!(has(&ev, |k| *k
        == EventKind::GameOver {
            reason: EndReason::Limit(Stat::Lines),
            won: true
        }));
    assert_eq!(game_over(&sim), won(Stat::Lines));
    assert_eq!(sim.game.stats().lines, 40);
    assert_eq!(sim.game.next_deadline(), None);
}

#[test]
fn marathon_is_won_at_150_lines() {
    let mut sim = Sim::new(Mode::marathon(), 5);
    sim.at(0);
    singles(&mut sim, 149);
    assert!(game_over(&sim).is_none());
    assert_eq!(sim.game.level(), 14);
    sim.single();
    assert_eq!(game_over(&sim), won(Stat::Lines));
    assert_eq!(sim.game.stats().lines, 150);
    assert_eq!(sim.game.level(), 15);
}

/// Hard drops in a `mode` game (seed 5) end it, within 30 pieces, lost by a block out.
fn assert_tops_out(mode: Mode) {
    let mut sim = Sim::new(mode, 5);
    sim.at(0);
    for _ in 0..30 {
        if game_over(&sim).is_some() {
            break;
        }
        sim.tap(Button::HardDrop);
    }
    assert_eq!(game_over(&sim), Some((EndReason::BlockOut, false)));
}

#[test]
fn marathon_is_lost_by_topping_out() {
    assert_tops_out(Mode::marathon());
}

#[test]
fn ultra_ends_at_three_minutes_won_with_the_score_kept() {
    let mut sim = Sim::new(Mode::ultra(), 5);
    sim.at(0);
    let mut t = 0;
    while t < 179_000 {
        t += 1000;
        sim.at(t);
        sim.single();
    }
    sim.at(179_999);
    assert!(game_over(&sim).is_none());
    let score = sim.game.stats().score;
    assert!(score > 0);
    let ev = sim.at(180_000);
    assert!(has(&ev, |k| *k
        == EventKind::GameOver {
            reason: EndReason::Limit(Stat::Time),
            won: true
        }));
    assert_eq!(game_over(&sim), won(Stat::Time));
    assert_eq!(sim.game.stats().score, score);
    assert_eq!(sim.game.stats().time, 180_000);
    // Later updates change nothing.
    sim.at(200_000);
    sim.tap(Button::HardDrop);
    assert_eq!(sim.game.stats().score, score);
    assert_eq!(sim.game.stats().time, 180_000);
}

#[test]
fn ultra_ends_on_time_even_during_a_line_clear() {
    let mut sim = Sim::new(Mode::ultra(), 5);
    for t in (0..180_000).step_by(10_000) {
        sim.at(t);
        sim.junk();
    }
    sim.at(179_900);
    sim.single();
    assert!(sim.game.clearing_rows() != 0);
    let ev = sim.at(180_100);
    assert_eq!(ev.len(), 1, "{ev:?}");
    assert_eq!(game_over(&sim), won(Stat::Time));
    assert_eq!(sim.game.stats().time, 180_000);
}

#[test]
fn master_is_20g_a_spawned_piece_is_already_on_the_floor() {
    let mut sim = Sim::new(Mode::master(), ZLOIJTSLIJ);
    let ev = sim.at(0);
    assert!(has(&ev, |k| *k == EventKind::Fall { rows: 18 }));
    let p = sim.placed();
    assert_eq!((p.piece, p.x, p.y), (Piece::Z, 3, 38));
    // Only the lock is left to wait for.
    assert_eq!(sim.game.next_deadline(), Some(450));
    sim.at(450);
    assert_eq!(sim.game.stats().pieces, 1);
    assert_eq!(sim.placed().piece, Piece::L);
    assert_eq!(sim.placed().y, 36, "the L lands on the Z");
    // Moving off an edge drops at once too.
    sim.shift(Button::Right, 4);
    let p = sim.placed();
    assert_eq!((p.x, p.y), (7, 38));
    // Pieces falling at 20G score nothing.
    assert_eq!(sim.game.stats().score, 0);
    assert!(
        Mode::master()
            .limits
            .iter()
            .any(|l| l.stat == Stat::Lines && l.value == 100 && l.win)
    );
}

/// Column of the single hole of board row `y`, if it has exactly one.
fn hole(board: &Board, y: usize) -> Option<usize> {
    let holes: Vec<usize> = (0..WIDTH)
        .filter(|&x| board.cell(x, y) == Cell::Empty)
        .collect();
    let garbage = (0..WIDTH).all(|x| matches!(board.cell(x, y), Cell::Empty | Cell::Garbage));
    (holes.len() == 1 && garbage).then(|| holes[0])
}

fn started(mode: Mode, seed: u32) -> Game {
    let mut game = Game::new(config(mode), seed);
    game.update(0, None);
    game
}

#[test]
fn cheese_starts_with_ten_garbage_rows_with_one_hole_each() {
    for seed in 0..20 {
        let game = started(Mode::cheese(20), seed);
        let b = game.board();
        for y in HEIGHT - 10..HEIGHT {
            assert!(hole(b, y).is_some(), "seed {seed} row {y}: {b:?}");
        }
        for y in 0..HEIGHT - 10 {
            assert!(row_empty(b, y));
        }
    }
    // Holes differ from seed to seed (and from row to row).
    let holes = |seed| {
        let game = started(Mode::cheese(20), seed);
        (30..40).map(|y| hole(game.board(), y)).collect::<Vec<_>>()
    };
    assert_ne!(holes(1), holes(2));
    assert_eq!(holes(1), holes(1));
}

/// A started cheese(`n`) game whose `n` garbage rows have their holes in one column and whose
/// first piece is an I.
fn lined_up_cheese(n: u32) -> Sim {
    let lined_up =
        |g: &Game| (40 - n as usize..39).all(|y| hole(g.board(), y) == hole(g.board(), y + 1));
    let seed = (0..)
        .find(|&s| {
            let g = started(Mode::cheese(n), s);
            g.active().unwrap().placed.piece == Piece::I && lined_up(&g)
        })
        .unwrap();
    let mut sim = Sim::new(Mode::cheese(n), seed);
    sim.at(0);
    assert_eq!(sim.game.board().garbage_rows_at_bottom(), n as usize);
    sim
}

/// Drops the I upright down the holes of a [`lined_up_cheese`] game: it clears the `n`
/// garbage rows, which wins the game.
fn dig_through(sim: &mut Sim, n: u32) {
    let h = hole(sim.game.board(), 39).unwrap() as i8;
    let ev = sim.drop_at(Rotation::East, h - 2);
    assert_eq!(u32::from(clear(&ev).lines), n);
    assert_eq!(sim.game.stats().garbage_cleared, n);
    assert_eq!(game_over(sim), won(Stat::GarbageCleared));
}

#[test]
fn cheese_is_won_after_digging_n_garbage_lines() {
    // Two rows whose holes line up, and an I first: one vertical I digs both.
    let mut sim = lined_up_cheese(2);
    assert!(row_empty(sim.game.board(), 37));
    dig_through(&mut sim, 2);
}

#[test]
fn cheese_refills_to_ten_rows_and_counts_garbage_lines() {
    // An I first, and the top garbage row's hole not above the next one's: a vertical I in it
    // completes just that row.
    let seed = (0..)
        .find(|&s| {
            let g = started(Mode::cheese(20), s);
            g.active().unwrap().placed.piece == Piece::I
                && hole(g.board(), 30) != hole(g.board(), 31)
        })
        .unwrap();
    let mut sim = Sim::new(Mode::cheese(20), seed);
    sim.at(0);
    let before: Vec<usize> = (30..40)
        .map(|y| hole(sim.game.board(), y).unwrap())
        .collect();
    let h = before[0] as i8;
    let ev = sim.drop_at(Rotation::East, h - 2);
    assert_eq!(clear(&ev).lines, 1);
    assert_eq!(sim.game.stats().garbage_cleared, 1);
    assert!(game_over(&sim).is_none());
    sim.wait_for_piece();
    let b = sim.game.board();
    let after: Vec<usize> = (30..40)
        .map(|y| hole(b, y).expect("a cheese row"))
        .collect();
    // The nine old rows moved up one to make room for a new one at the bottom.
    assert_eq!(after[..9], before[1..]);
    // The rest of the I sits on top, in the old hole's column.
    for y in 27..30 {
        assert_eq!(b.cell(h as usize, y), Cell::Block(Piece::I));
    }
    assert!(row_empty(b, 26));
}

#[test]
fn combo_mode_is_a_four_wide_well_with_three_residual_cells() {
    let game = started(Mode::combo(), 0);
    let mut want = vec!["###....###".to_string(); HEIGHT - 2];
    want.push("####...###".into());
    want.push("#####..###".into());
    assert_eq!(game.board().to_ascii(), want);
}

#[test]
fn combo_mode_goes_on_while_locks_clear() {
    // A Z fits the residual cells: (4,38) (5,38) (5,39) (6,39) completes row 39. (Z then T:
    // the usual start; from version 4 a few first two pieces start on other cells.)
    let mut sim = Sim::new(Mode::combo(), seed_for("ZT"));
    sim.at(0);
    let ev = sim.drop_at(Rotation::North, 4);
    let c = clear(&ev);
    assert_eq!((c.lines, c.combo), (1, 0));
    assert!(game_over(&sim).is_none());
    sim.wait_for_piece();
    // The walls are rebuilt above: the well is still four wide all the way up.
    let ascii = sim.game.board().to_ascii();
    assert_eq!(ascii.len(), HEIGHT);
    assert_eq!(ascii[0], "###....###");
    assert_eq!(ascii[HEIGHT - 1], "####ZZ.###");
}

#[test]
fn combo_mode_ends_on_a_lock_that_clears_nothing() {
    // A vertical I down column 6 completes no row.
    let mut sim = Sim::new(Mode::combo(), seed_for("IT"));
    sim.at(0);
    let ev = sim.drop_at(Rotation::East, 4);
    assert!(clears(&ev).is_empty());
    assert!(has(&ev, |k| *k
        == EventKind::GameOver {
            reason: EndReason::ComboBroken,
            won: false
        }));
    assert_eq!(game_over(&sim), Some((EndReason::ComboBroken, false)));
}

/// 40 lines keeps its start level (and its gravity) whatever the lines; its preset under
/// ruleset versions 1 and 2 raised the level every 10 lines, and a replay of then plays so.
#[test]
fn forty_lines_keeps_its_level_from_version_3_and_rose_before() {
    let mut sim = Sim::new(Mode::sprint(), 3);
    sim.at(0);
    singles(&mut sim, 25);
    assert_eq!(sim.game.level(), 0);
    assert!(
        !sim.log
            .iter()
            .any(|e| matches!(e.kind, EventKind::LevelUp { .. }))
    );
    assert_eq!(ModeKind::Sprint.preset_at(3), Mode::sprint());
    let before = ModeKind::Sprint.preset_at(2);
    assert!(before.level_increase && before != Mode::sprint());
    let mut sim = Sim::new(before, 3);
    sim.at(0);
    singles(&mut sim, 25);
    assert_eq!(sim.game.level(), 2);
    for kind in ModeKind::ALL.into_iter().filter(|&k| k != ModeKind::Sprint) {
        assert_eq!(kind.preset_at(1), kind.mode(), "{kind:?}");
    }
}

#[test]
fn custom_start_level_and_no_level_increase() {
    let mut sim = Sim::new(Mode::custom(5, false, None), 5);
    sim.at(0);
    assert_eq!(sim.game.level(), 5);
    assert_eq!(sim.game.next_deadline(), Some(320), "level 5 gravity");
    singles(&mut sim, 12);
    assert_eq!(sim.game.level(), 5);
    assert!(
        !sim.log
            .iter()
            .any(|e| matches!(e.kind, EventKind::LevelUp { .. }))
    );
    // Scored at level 5: the first single is 40 * 6.
    let first = clears(&sim.log)[0];
    assert_eq!(first.score, 240);

    let mut sim = Sim::new(Mode::custom(5, true, None), 5);
    sim.at(0);
    singles(&mut sim, 10);
    assert_eq!(sim.game.level(), 6);
    assert!(game_over(&sim).is_none());
}

#[test]
fn custom_pieces_limit() {
    let mut sim = Sim::new(Mode::custom(0, true, Some((Stat::Pieces, 3))), 5);
    sim.at(0);
    sim.junk();
    sim.junk();
    assert!(game_over(&sim).is_none());
    sim.single();
    assert_eq!(game_over(&sim), won(Stat::Pieces));
    assert_eq!(sim.game.stats().pieces, 3);
}

#[test]
fn custom_score_limit() {
    let mut sim = Sim::new(Mode::custom(0, true, Some((Stat::Score, 200))), 5);
    sim.at(0);
    sim.single(); // 34 + 40
    assert!(game_over(&sim).is_none());
    sim.single(); // 34 + 40 + 50
    assert!(game_over(&sim).is_none());
    sim.single();
    assert_eq!(game_over(&sim), won(Stat::Score));
}

#[test]
fn endless_never_ends_on_lines_or_time_and_ends_on_top_out() {
    let mode = Mode::endless();
    assert!(mode.limits.is_empty() && mode.level_increase && mode.goal().is_none());
    assert_eq!(mode, minotty_engine::ModeKind::Endless.mode());
    // A replay stores a kind as its index in ALL: the new kind came last, older bytes hold.
    for (i, kind) in minotty_engine::ModeKind::ALL.iter().enumerate() {
        assert_eq!(*kind as usize, i);
    }
    assert_eq!(minotty_engine::ModeKind::Custom as u8, 6);
    let mut sim = Sim::new(mode.clone(), 5);
    sim.at(0);
    // Past marathon's 150 and tetrs' 200 lines, with the level still rising.
    singles(&mut sim, 210);
    assert!(game_over(&sim).is_none());
    assert_eq!(sim.game.stats().lines, 210);
    assert_eq!(sim.game.level(), 21);
    // Hours of game time reach no limit (the falling pieces may top out meanwhile).
    sim.at(4 * 3_600_000);
    assert!(
        !matches!(game_over(&sim), Some((EndReason::Limit(_), _))),
        "{:?}",
        game_over(&sim)
    );

    // Only topping out does.
    assert_tops_out(mode);
}

#[test]
fn cheese_is_won_at_the_chosen_count() {
    // Three rows whose holes line up and an I first: one vertical I digs all three, which
    // ends cheese(3) (a third row more than the two-row game above needs).
    let mut sim = lined_up_cheese(3);
    dig_through(&mut sim, 3);
    // The goal is the chosen count, the board deals that many rows, 10 at a time.
    let m = Mode::cheese(37);
    assert_eq!(
        m.goal().map(|l| (l.stat, l.value)),
        Some((Stat::GarbageCleared, 37))
    );
    assert_eq!(
        m.start_board,
        minotty_engine::StartBoard::Cheese {
            total: 37,
            visible: 10
        }
    );
    // The count is clamped to the range a player may choose.
    assert_eq!(Mode::cheese(0), Mode::cheese(minotty_engine::CHEESE_MIN));
    assert_eq!(
        Mode::cheese(u32::MAX),
        Mode::cheese(minotty_engine::CHEESE_MAX)
    );
}

#[test]
fn locked_pieces_are_counted_by_type() {
    let mut sim = Sim::new(Mode::marathon(), 11);
    sim.at(0);
    let mut expected = [0u32; 7];
    for _ in 0..12 {
        if game_over(&sim).is_some() {
            break;
        }
        let ev = sim.single();
        for e in &ev {
            if let EventKind::Lock { at, .. } = e.kind {
                expected[at.piece as usize] += 1;
            }
        }
        let s = sim.game.stats();
        assert_eq!(s.by_piece, expected);
        assert_eq!(s.by_piece.iter().sum::<u32>(), s.pieces);
    }
    let s = sim.game.stats();
    assert!(s.pieces >= 12, "{}", s.pieces);
    // More than one type was dealt, each counted under its own name.
    assert!(expected.iter().filter(|&&n| n > 0).count() > 1);
    for p in Piece::ALL {
        assert_eq!(s.locked(p), expected[p as usize]);
    }
}

/// Classic, Survival and Ascent: their presets, their places at the end of `ModeKind::ALL` (a replay
/// stores a kind's index there, so every older kind keeps its byte), their identifiers.
#[test]
fn classic_survival_and_ascent_are_presets_after_every_older_kind() {
    use minotty_engine::{CLASSIC_LOCK_DELAY, CLASSIC_MAX_START, Gravity, StartBoard};
    assert_eq!(ModeKind::ALL.len(), 13);
    assert_eq!(ModeKind::Descent as u8, 9);
    assert_eq!(
        (
            ModeKind::Classic as u8,
            ModeKind::Survival as u8,
            ModeKind::Ascent as u8
        ),
        (10, 11, 12)
    );
    for (kind, id, title) in [
        (ModeKind::Classic, "classic", "Classic"),
        (ModeKind::Survival, "survival", "Survival"),
        (ModeKind::Ascent, "ascent", "Ascent"),
    ] {
        assert_eq!((kind.id(), kind.title()), (id, title));
        assert_eq!(ModeKind::parse(id), Some(kind));
        assert_eq!(ModeKind::parse(&id.to_uppercase()), Some(kind));
        assert!(!kind.description().is_empty());
        assert_eq!(kind.preset_at(1), kind.mode(), "{kind:?}");
    }
    assert_eq!(ModeKind::parse("nes"), Some(ModeKind::Classic));

    // Classic: level 0, the NES game's gravity without lock delay, rising levels, no goal.
    let classic = ModeKind::Classic.mode();
    assert_eq!(classic, Mode::classic(0, false));
    assert_eq!(classic.gravity, Gravity::Nes { lock_delay: false });
    assert!(classic.level_increase && classic.limits.is_empty() && classic.goal().is_none());
    assert_eq!(classic.start_board, StartBoard::Empty);
    assert_eq!(Mode::classic(18, true).start_level, 18);
    assert_eq!(
        Mode::classic(18, true).gravity,
        Gravity::Nes { lock_delay: true }
    );
    // The start level is clamped to what the menu offers.
    assert_eq!(
        Mode::classic(40, false),
        Mode::classic(CLASSIC_MAX_START, false)
    );
    assert_eq!((CLASSIC_MAX_START, CLASSIC_LOCK_DELAY), (19, 500));

    // Survival: an empty board with its rising clock, level 0 throughout, no goal.
    let survival = ModeKind::Survival.mode();
    assert_eq!(survival, Mode::survival());
    assert_eq!(survival.start_board, StartBoard::Survival);
    assert_eq!(survival.gravity, Gravity::Levels);
    assert!(!survival.level_increase && survival.limits.is_empty());

    // Survival's result is its time (a pause stops its clock: not ranked); Classic's is its
    // score. Neither has a time limit.
    assert!(survival.timed() && !classic.timed());
    assert_eq!((survival.time_limit(), classic.time_limit()), (None, None));
    // Survival's clock is no part of a snapshot; Classic's game is.
    assert!(!survival.can_snapshot() && classic.can_snapshot());
    assert!(!Mode::descent().can_snapshot() && Mode::marathon().can_snapshot());
}

#[test]
fn classic_and_survival_end_only_by_topping_out() {
    assert_tops_out(Mode::classic(0, false));
    assert_tops_out(Mode::classic(15, true));
    assert_tops_out(Mode::survival());
}
