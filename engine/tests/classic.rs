//! Classic: the NES game's gravity and level progression (as tables), its lock down without a
//! lock delay (and with the optional one), its scoring, and its replays.

mod common;

use common::*;
use minotty_engine::nes::{self, NES_FRAMES, NES_GRAVITY_MS};
use minotty_engine::ruleset::LockDown;
use minotty_engine::{
    Button, EndReason, EventKind, Game, GameConfig, Gravity, Mode, ModeKind, Replay, Rotation,
    Ruleset, RulesetId,
};

/// Level, the NES game's frames per row, and the whole ms the engine counts: the frames at
/// 60.0988 frames a second, rounded to the nearest ms.
#[test]
fn nes_gravity_table_in_whole_ms() {
    #[rustfmt::skip]
    let table: [(u32, u32, u32); 36] = [
        (0, 48, 799), (1, 43, 715), (2, 38, 632), (3, 33, 549), (4, 28, 466), (5, 23, 383),
        (6, 18, 300), (7, 13, 216), (8, 8, 133), (9, 6, 100), (10, 5, 83), (11, 5, 83),
        (12, 5, 83), (13, 4, 67), (14, 4, 67), (15, 4, 67), (16, 3, 50), (17, 3, 50),
        (18, 3, 50), (19, 2, 33), (20, 2, 33), (21, 2, 33), (22, 2, 33), (23, 2, 33),
        (24, 2, 33), (25, 2, 33), (26, 2, 33), (27, 2, 33), (28, 2, 33), (29, 1, 17),
        (30, 1, 17), (31, 1, 17), (39, 1, 17), (100, 1, 17), (1000, 1, 17), (u32::MAX, 1, 17),
    ];
    for (level, frames, ms) in table {
        let at = (level as usize).min(29);
        assert_eq!(NES_FRAMES[at], frames, "level {level}: frames");
        assert_eq!(nes::gravity_ms(level), ms, "level {level}: ms");
        // The rounding, computed here in floating point: to the nearest ms, no half in sight.
        let exact = f64::from(frames) * 1000.0 / 60.0988;
        assert_eq!(exact.round() as u32, ms, "level {level}: {exact}");
        assert!(
            (exact - exact.floor() - 0.5).abs() > 0.001,
            "{exact} is no half"
        );
    }
    assert_eq!(NES_GRAVITY_MS[0], 799);
    assert_eq!(nes::frames_to_ms(60), 998, "60 frames are 998.36 ms");
}

/// The start level, the lines of the first level-up (`min(start*10+10, max(100, start*10-50))`)
/// and the level after some line counts.
#[test]
fn nes_level_progression_table() {
    #[rustfmt::skip]
    let first: [(u32, u32); 20] = [
        (0, 10), (1, 20), (2, 30), (3, 40), (4, 50), (5, 60), (6, 70), (7, 80), (8, 90),
        (9, 100), (10, 100), (11, 100), (12, 100), (13, 100), (14, 100), (15, 100),
        (16, 110), (17, 120), (18, 130), (19, 140),
    ];
    for (start, lines) in first {
        assert_eq!(nes::first_level_up(start), lines, "start {start}");
        assert_eq!(
            nes::level(start, lines - 1),
            start,
            "start {start}: one line short"
        );
        assert_eq!(
            nes::level(start, lines),
            start + 1,
            "start {start}: first level-up"
        );
        assert_eq!(nes::level(start, lines + 9), start + 1, "start {start}");
        assert_eq!(
            nes::level(start, lines + 10),
            start + 2,
            "start {start}: then every 10"
        );
    }
    // (start, lines, level)
    #[rustfmt::skip]
    let games = [
        (0, 0, 0), (0, 9, 0), (0, 10, 1), (0, 95, 9), (0, 290, 29), (5, 59, 5), (5, 60, 6),
        (9, 99, 9), (9, 100, 10), (12, 100, 13), (18, 129, 18), (18, 130, 19), (18, 230, 29),
        (19, 139, 19), (19, 140, 20), (19, 240, 30),
    ];
    for (start, lines, level) in games {
        assert_eq!(
            nes::level(start, lines),
            level,
            "start {start}, {lines} lines"
        );
    }
}

fn classic(level: u32, lock_delay: bool, pattern: &str) -> Sim {
    let mut sim = Sim::new(Mode::classic(level, lock_delay), seed_for(pattern));
    sim.at(0);
    sim
}

/// Without a lock delay the piece locks at the first gravity step at which it cannot fall:
/// an O at level 19 (33 ms a row) falls 18 rows from its spawn to the floor by 594 ms and
/// locks at the next step, 627 ms, however it moves on the ground meanwhile.
#[test]
fn without_lock_delay_a_piece_locks_at_the_first_gravity_step_it_cannot_fall() {
    let mut sim = classic(19, false, "O");
    assert_eq!(sim.game.ruleset().lock, LockDown::Gravity);
    assert_eq!(sim.game.gravity_interval(), Some(33));
    assert_eq!(sim.game.next_deadline(), Some(33));
    sim.at(594);
    assert_eq!(sim.placed().y, 38, "on the floor");
    // Moving on the ground resets nothing: the next gravity step is still the lock.
    assert_eq!(sim.game.next_deadline(), Some(627));
    sim.at(600);
    sim.tap(Button::Left);
    sim.tap(Button::RotateCw);
    assert_eq!(sim.game.next_deadline(), Some(627));
    assert_eq!(sim.game.active().unwrap().lock_at, None);
    sim.at(626);
    assert_eq!(sim.game.stats().pieces, 0);
    sim.at(627);
    assert_eq!(
        sim.game.stats().pieces,
        1,
        "locked at the step it could not fall"
    );
    // No points for letting it fall.
    assert_eq!(sim.game.stats().score, 0);
}

/// Moving a grounded piece off a ledge lets it fall on at the next gravity step: only a step
/// it cannot fall locks it.
#[test]
fn a_piece_moved_off_a_ledge_falls_at_the_next_step() {
    // A ledge of two rows on the left half; the O lands on it, then is moved right off it.
    let rows = ["#####.....", "#####....."];
    let mut sim = Sim::new(Mode::classic(19, false), seed_for("O"));
    sim.game.set_board(board(&rows));
    sim.at(0);
    sim.at(16 * 33);
    assert_eq!(sim.placed().y, 36, "on the ledge");
    sim.shift(Button::Right, 3);
    sim.at(17 * 33);
    assert_eq!(sim.placed().y, 37, "fell off the ledge at the step");
    assert_eq!(sim.game.stats().pieces, 0);
    sim.at(18 * 33);
    assert_eq!(sim.placed().y, 38);
    sim.at(19 * 33);
    assert_eq!(sim.game.stats().pieces, 1);
}

/// With the optional lock delay the ruleset's own lock down runs with 500 ms: the O landing at
/// 594 ms locks at 1094.
#[test]
fn the_optional_lock_delay_is_500_ms() {
    let mut sim = classic(19, true, "O");
    let r = sim.game.ruleset();
    assert_eq!(r.lock, Ruleset::STANDARD.lock);
    assert_eq!(r.lock_delay, 500);
    sim.at(594);
    assert_eq!(sim.game.next_deadline(), Some(1094));
    sim.locks_at(1094);
}

/// The NES game's points: 40, 100, 300, 1200 times the level (before the clear) plus one;
/// a hard drop scores nothing, a soft drop a point a row.
#[test]
fn clears_score_the_nes_way_and_only_soft_drops_score_rows() {
    let nes = Ruleset::STANDARD.with_mode(&Mode::classic(0, false));
    assert_eq!(nes.scoring, minotty_engine::ruleset::Scoring::Nes);
    assert_eq!(
        Ruleset::STANDARD.with_mode(&Mode::marathon()),
        Ruleset::STANDARD
    );
    for level in [0, 5, 18] {
        let mut sim = classic(level, false, "?");
        let ev = sim.single();
        assert_eq!(clear(&ev).score, 40 * (level + 1), "level {level}");
        assert_eq!(sim.game.stats().score, u64::from(40 * (level + 1)));
    }
    // A tetris (here a perfect clear, which earns nothing more) by an I down column 9.
    for level in [0, 9] {
        let rows = ["#########."; 4];
        let mut sim = Sim::on_board(Mode::classic(level, false), "I", &rows);
        let ev = sim.drop_at(Rotation::East, 7);
        let c = clear(&ev);
        assert_eq!((c.lines, c.perfect, c.b2b), (4, true, false));
        assert_eq!(c.score, 1200 * (level + 1));
        assert_eq!(sim.game.stats().score, u64::from(1200 * (level + 1)));
    }
    // Soft drop from the spawn to the floor: 18 rows, a point each; the piece locks at the
    // first soft drop step it cannot fall.
    let mut sim = classic(0, false, "O");
    sim.press(Button::SoftDrop);
    let mut t = 0;
    while sim.game.stats().pieces == 0 {
        t = sim.game.next_deadline().expect("a step");
        sim.at(t);
    }
    assert_eq!(sim.game.stats().score, 18);
    // 799 / 10 is more than standard's 50 ms ceiling: a row each 50 ms, the lock one later.
    assert_eq!(t, 18 * 50);
}

/// No lock is a spin under the NES game's scoring: the T-spin double of `tests/tspin.rs`
/// (1200 points in 40 lines) is a plain double in Classic, 100 points at level 0.
#[test]
fn the_nes_knows_no_spins() {
    let tsd = ["####..#...", "###...####", "####.#####"];
    for (mode, spin, score) in [
        (Mode::sprint(), minotty_engine::Spin::Full, 1200),
        (Mode::classic(0, true), minotty_engine::Spin::None, 100),
    ] {
        let mut sim = Sim::on_board(mode, "T", &tsd);
        sim.tap(Button::RotateCcw);
        sim.shift(Button::Right, 1);
        sim.tap(Button::SonicDrop);
        sim.tap(Button::RotateCcw);
        let ev = sim.tap(Button::HardDrop);
        assert_eq!(lock_spin(&ev), spin);
        let c = clear(&ev);
        assert_eq!((c.lines, c.spin, c.score), (2, spin, score));
    }
}

/// Levels rise the NES way in a game: from level 18 the first level-up comes after 130 lines
/// (not 10), then every 10; gravity follows the table.
#[test]
fn a_game_levels_up_the_nes_way() {
    let mut sim = classic(18, false, "?");
    assert_eq!(sim.game.gravity_interval(), Some(50));
    for _ in 0..129 {
        sim.single();
    }
    assert_eq!(sim.game.level(), 18);
    assert!(!has(&sim.log, |k| matches!(k, EventKind::LevelUp { .. })));
    sim.single();
    assert_eq!(sim.game.level(), 19);
    assert!(has(&sim.log, |k| *k == EventKind::LevelUp { level: 19 }));
    sim.wait_for_piece();
    assert_eq!(sim.game.gravity_interval(), Some(33));
    for _ in 0..10 {
        sim.single();
    }
    assert_eq!(sim.game.level(), 20);
    // From level 0: every 10 lines, as marathon.
    let mut sim = classic(0, false, "?");
    for _ in 0..10 {
        sim.single();
    }
    assert_eq!(sim.game.level(), 1);
    sim.wait_for_piece();
    assert_eq!(sim.game.gravity_interval(), Some(715));
}

/// Classic is the modes table's preset of the NES game under any ruleset's delays; under the
/// `tetrs` ruleset (levels from 1) a start at 0 plays level 1, as its other modes do.
#[test]
fn classic_gravity_holds_under_every_ruleset() {
    for ruleset in RulesetId::ALL {
        let mut game = Game::new(
            GameConfig {
                ruleset,
                mode: Mode::classic(7, false),
                ..GameConfig::default()
            },
            3,
        );
        game.update(0, None);
        assert_eq!(game.gravity_interval(), Some(216), "{ruleset:?}");
        assert_eq!(game.ruleset().lock, LockDown::Gravity, "{ruleset:?}");
        assert_eq!(game.mode().gravity, Gravity::Nes { lock_delay: false });
    }
}

/// A Classic game left to gravity until it tops out, and its replay: the bytes round-trip and
/// re-simulate the same game; the mode's bytes carry the NES gravity as code 2 (3 with the
/// lock delay) in format 1.
#[test]
fn classic_replays_round_trip_and_re_simulate() {
    for (level, lock_delay, code) in [(0, false, 2u8), (18, false, 2), (12, true, 3)] {
        let mut game = Game::new(
            GameConfig {
                mode: Mode::classic(level, lock_delay),
                ..GameConfig::default()
            },
            11,
        );
        let mut t = 0;
        game.update(0, None);
        let mut i = 0u64;
        while !game.is_over() && t < 3_600_000 {
            t += 37 + (i * 7919) % 400;
            let b = [
                Button::Left,
                Button::Right,
                Button::RotateCw,
                Button::SoftDrop,
            ];
            let b = b[(i % 4) as usize];
            game.update(t, Some(minotty_engine::Input::Press(b)));
            game.update(t + 20, Some(minotty_engine::Input::Release(b)));
            i += 1;
        }
        assert!(game.is_over(), "level {level}: topped out");
        assert!(matches!(
            game.outcome(),
            Some((
                EndReason::BlockOut | EndReason::LockOut | EndReason::TopOut,
                false
            ))
        ));
        let bytes = game.replay().to_bytes();
        assert_eq!(
            bytes[4], 1,
            "format 1: nothing but the mode's own codes is new"
        );
        let mode = [ModeKind::Classic as u8, level as u8, 1, code, 0, 0, 0];
        assert!(bytes.windows(mode.len()).any(|w| w == mode), "{bytes:?}");
        let replay = Replay::from_bytes(&bytes).expect("round trip");
        assert_eq!(replay, game.replay());
        let verified = replay.verify().expect("verifies");
        assert_eq!(&verified.stats, game.stats());
        assert_eq!(verified.outcome, game.outcome());
        assert!(game.stats().pieces > 5);
    }
    // An unknown gravity code is refused.
    let game = classic(3, false, "?").game;
    let mut bytes = game.replay().to_bytes();
    let at = bytes
        .windows(4)
        .position(|w| w == [ModeKind::Classic as u8, 3, 1, 2])
        .expect("mode bytes");
    bytes[at + 3] = 4;
    assert!(Replay::from_bytes(&bytes).is_err());
}

/// A Classic game can be snapshotted (Ctrl+S), like marathon.
#[test]
fn classic_games_snapshot() {
    let sim = classic(5, false, "?");
    assert!(sim.game.snapshot().is_some());
}
