//! tetro-tui's handling extras (issue 40, item 6): teleport left and right, a double tap that
//! becomes a teleport, and DAS and ARR kept below the lock delay. Each is a table: where the
//! piece is after which presses at which times, under each ruleset.

mod common;

use common::{Sim, config};
use minotty_engine::ruleset::MAX_DOUBLE_TAP;
use minotty_engine::{
    Button, Game, GameConfig, Handling, Input, Mode, Replay, RulesetId, Time, Tuning,
};

/// A started custom game under `ruleset` with `handling`, on a seed whose first piece is a T
/// (three wide in every ruleset's spawn orientation).
fn t_game(ruleset: RulesetId, handling: Handling) -> Sim {
    let cfg = GameConfig {
        ruleset,
        handling,
        ..config(Mode::custom(0, false, None))
    };
    let seed = (1..)
        .find(|&s| {
            let mut g = Game::new(cfg.clone(), s);
            g.update(0, None);
            g.active()
                .is_some_and(|a| a.placed.piece == minotty_engine::Piece::T)
        })
        .expect("a seed dealing a T");
    let mut sim = Sim::with_config(cfg, seed);
    sim.at(0);
    sim
}

/// The leftmost and rightmost columns (of the piece's origin) the T reaches by taps.
fn walls(sim: &Sim) -> (i8, i8) {
    let reach = |b: Button| {
        let mut g = sim.game.fork();
        let mut last = g.active().expect("a piece").placed.x;
        loop {
            let t = g.now();
            g.update(t, Some(Input::Press(b)));
            g.update(t, Some(Input::Release(b)));
            let x = g.active().expect("a piece").placed.x;
            if x == last {
                return x;
            }
            last = x;
        }
    };
    (reach(Button::Left), reach(Button::Right))
}

#[test]
fn teleports_go_to_the_wall_under_the_rulesets_that_have_them() {
    // (ruleset, teleports exist)
    let table = [
        (RulesetId::Standard, true),
        (RulesetId::Tetrs, true),
        (RulesetId::TuiTetris, false),
    ];
    for (ruleset, exists) in table {
        let mut sim = t_game(ruleset, Handling::default());
        let spawn = sim.placed().x;
        let (left, right) = walls(&sim);
        assert!(left < spawn && spawn < right, "{ruleset:?}");
        sim.at(5);
        sim.tap(Button::TeleportLeft);
        let want = if exists { left } else { spawn };
        assert_eq!(sim.placed().x, want, "{ruleset:?}: teleport left");
        sim.tap(Button::TeleportRight);
        let want = if exists { right } else { spawn };
        assert_eq!(sim.placed().x, want, "{ruleset:?}: teleport right");
    }
}

#[test]
fn a_teleport_pressed_in_the_spawn_delay_moves_the_next_piece_to_the_wall() {
    // tetrs has a 50 ms spawn delay (ARE): the next piece appears 50 ms after the lock.
    let mut sim = t_game(RulesetId::Tetrs, Handling::default());
    sim.at(10);
    sim.tap(Button::HardDrop);
    assert!(sim.game.active().is_none(), "in the delay");
    sim.at(30);
    sim.tap(Button::TeleportRight);
    sim.at(60);
    let piece = sim.game.active().expect("spawned").placed;
    let mut probe = sim.game.fork();
    probe.update(60, Some(Input::Press(Button::Right)));
    assert_eq!(
        probe.active().unwrap().placed.x,
        piece.x,
        "already at the right wall: {piece:?}"
    );
}

/// Two taps of Left, the second `gap` ms after the first, under a double tap of `window` ms.
fn after_two_taps(ruleset: RulesetId, window: u32, gap: Time) -> (i8, i8, i8) {
    let mut sim = t_game(
        ruleset,
        Handling {
            double_tap: window,
            ..Handling::default()
        },
    );
    let spawn = sim.placed().x;
    let (left, _) = walls(&sim);
    sim.at(10);
    sim.tap(Button::Left);
    sim.at(10 + gap);
    sim.tap(Button::Left);
    (sim.placed().x, spawn, left)
}

#[test]
fn a_second_tap_within_the_window_teleports() {
    // (ruleset, window, gap, teleports)
    let table = [
        (RulesetId::Standard, 150, 40, true),
        (RulesetId::Standard, 150, 150, true),
        (RulesetId::Standard, 150, 151, false),
        (RulesetId::Standard, 0, 20, false),
        (RulesetId::Tetrs, 100, 60, true),
        (RulesetId::TuiTetris, 150, 40, false),
    ];
    for (ruleset, window, gap, teleports) in table {
        let (x, spawn, left) = after_two_taps(ruleset, window, gap);
        let want = if teleports { left } else { spawn - 2 };
        assert_eq!(x, want, "{ruleset:?}, window {window}, gap {gap}");
    }
}

#[test]
fn a_double_tap_uses_both_presses_and_only_the_same_direction_counts() {
    let h = Handling {
        double_tap: 200,
        ..Handling::default()
    };
    // Left, Left (teleport), Right, Right (teleport back), Left (one step), Right (the last
    // tap was the other way: one step).
    let mut sim = t_game(RulesetId::Standard, h);
    let spawn = sim.placed().x;
    let (left, right) = walls(&sim);
    for (t, b, want) in [
        (10, Button::Left, spawn - 1),
        (60, Button::Left, left),
        (100, Button::Right, left + 1),
        (140, Button::Right, right),
        (180, Button::Left, right - 1),
        (220, Button::Right, right),
    ] {
        sim.at(t);
        sim.tap(b);
        assert_eq!(sim.placed().x, want, "{b:?} at {t}");
    }
    // Right then Left within the window: two single steps.
    let mut sim = t_game(RulesetId::Standard, h);
    sim.at(10);
    sim.tap(Button::Right);
    sim.at(30);
    sim.tap(Button::Left);
    assert_eq!(sim.placed().x, spawn);
}

/// A T resting on the floor of a standard custom game with a 100 ms lock delay; returns the
/// game and the time it landed.
fn grounded(move_under_lock: bool) -> (Sim, Time) {
    let h = Handling {
        das: 150,
        arr: 50,
        move_under_lock,
        ..Handling::default()
    };
    let sim = t_game(RulesetId::Standard, h);
    let mut cfg = sim.game.config().clone();
    cfg.tuning = Tuning {
        lock_delay: Some(100),
        ..Tuning::default()
    };
    let mut sim = Sim::with_config(cfg, sim.game.seed());
    sim.at(0);
    sim.at(5);
    sim.tap(Button::SonicDrop);
    (sim, 5)
}

#[test]
fn moves_under_the_lock_delay_keep_a_grounded_piece_sliding() {
    // Right pressed and held as the piece lands: it moves at once (the lock delay restarts:
    // 100 ms), then auto-shift waits for DAS. At 150 ms DAS the piece has locked first; with
    // the cap DAS is 99 ms and the slide goes on every 50 ms, each move restarting the delay.
    let (mut sim, landed) = grounded(false);
    let x0 = sim.placed().x;
    sim.press(Button::Right);
    assert_eq!(sim.placed().x, x0 + 1);
    sim.at(landed + 100);
    assert_eq!(sim.game.stats().pieces, 1, "locked before DAS");

    let (mut sim, landed) = grounded(true);
    sim.press(Button::Right);
    sim.xs(&[
        (landed + 98, x0 + 1),
        (landed + 99, x0 + 2),
        (landed + 148, x0 + 2),
        (landed + 149, x0 + 3),
    ]);
    assert_eq!(sim.game.stats().pieces, 0, "still sliding");
}

#[test]
fn the_double_tap_window_is_capped_and_both_extras_replay_in_format_6() {
    let h = Handling {
        double_tap: 10_000,
        ..Handling::default()
    }
    .clamped();
    assert_eq!(h.double_tap, MAX_DOUBLE_TAP);
    for r in RulesetId::ALL {
        let d = minotty_engine::Ruleset::get(r).handling;
        assert_eq!((d.double_tap, d.move_under_lock), (0, false), "{r:?} off");
    }
    let h = Handling {
        double_tap: 120,
        move_under_lock: true,
        ..Handling::default()
    };
    let mut sim = t_game(RulesetId::Standard, h);
    let mut t = 0;
    for i in 0..300u32 {
        t += 9 + Time::from(i % 11);
        let b = Button::ALL[(i as usize * 7) % Button::ALL.len()];
        sim.at(t);
        sim.press(b);
        sim.at(t + 4);
        sim.release(b);
    }
    let replay = sim.game.replay();
    let bytes = replay.to_bytes();
    assert_eq!(bytes[4], 6, "format 6");
    let back = Replay::from_bytes(&bytes).expect("reads");
    assert_eq!(back, replay);
    assert_eq!(
        (back.handling.double_tap, back.handling.move_under_lock),
        (120, true)
    );
    let played = back.play().expect("plays");
    assert_eq!(played.stats(), sim.game.stats());
    assert_eq!(played.board(), sim.game.board());
    // Unknown handling flags are refused, not guessed: the flags are the last header field
    // before the end time and the input count, so find them by writing the same replay with
    // the flag off.
    let mut off = replay.clone();
    off.handling.move_under_lock = false;
    let off_bytes = off.to_bytes();
    let at = bytes
        .iter()
        .zip(&off_bytes)
        .position(|(a, b)| a != b)
        .expect("the flags differ");
    let mut bad = bytes.clone();
    bad[at] = 3;
    assert!(Replay::from_bytes(&bad).is_err(), "flag 2 is unknown");
}
