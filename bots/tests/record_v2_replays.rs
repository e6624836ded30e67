//! How the games of `engine/tests/data/v2_replays.txt` were recorded (the engine's
//! `tests/old_versions.rs` plays them again): the placement bot's moves at odd times, and
//! after every piece one to three presses soon after its lock, most of which land in the line
//! clear or spawn delay that version 2 ignored (issue 36). Ignored: run only on the engine
//! whose version is being recorded.

#[path = "../../engine/tests/common/v1_replays.rs"]
mod v1_replays;
#[path = "../../engine/tests/common/v2_replays.rs"]
mod v2_replays;

use minotty_bots::{Weights, best_plan};
use minotty_engine::rng::SplitMix;
use minotty_engine::{Button, Game, GameConfig, Input, Time, Tuning};
use v1_replays::{fingerprint, hex};
use v2_replays::{Setup, setups};

fn play(setup: &Setup) -> Game {
    let config = GameConfig {
        ruleset: setup.ruleset,
        mode: setup.mode.clone(),
        handling: setup.handling,
        tuning: Tuning::default(),
    };
    let mut game = Game::new(config, setup.seed);
    let mut rng = SplitMix::new(setup.seed, 78);
    game.update(0, None);
    let t = placements(&mut game, &mut rng);
    game.update(t + 1500, None);
    game
}

fn tap(game: &mut Game, t: &mut Time, rng: &mut SplitMix, button: Button, hold: u32) {
    game.update(*t, Some(Input::Press(button)));
    *t += Time::from(1 + rng.below(hold));
    game.update(*t, Some(Input::Release(button)));
}

/// Presses soon after a lock: taps, holds through the delay, rotations, hold, drops.
fn early(game: &mut Game, t: &mut Time, rng: &mut SplitMix) {
    for _ in 0..1 + rng.below(3) {
        *t += Time::from(1 + rng.below(90));
        let (button, hold) = match rng.below(20) {
            0..=2 => (Button::Left, 40),
            3..=5 => (Button::Right, 40),
            6 => (Button::Left, 400),
            7 => (Button::Right, 400),
            8..=9 => (Button::RotateCw, 40),
            10..=11 => (Button::RotateCcw, 40),
            12 => (Button::Rotate180, 40),
            13..=14 => (Button::Hold, 40),
            15 => (Button::RotateCw, 300),
            16..=18 => (Button::SoftDrop, 60),
            _ => (Button::HardDrop, 20),
        };
        tap(game, t, rng, button, hold);
    }
}

fn placements(game: &mut Game, rng: &mut SplitMix) -> Time {
    let weights = Weights::default();
    let mut t: Time = 0;
    while !game.is_over() && game.stats().pieces < 100 {
        if game.active().is_none() {
            match game.next_deadline() {
                Some(due) => {
                    t = t.max(due);
                    game.update(t, None);
                    continue;
                }
                None => break,
            }
        }
        t += Time::from(1 + rng.below(150));
        let Some(plan) = best_plan(game, &weights) else {
            break;
        };
        let (moves, _) = plan.buttons.split_at(plan.buttons.len().saturating_sub(1));
        for &b in moves {
            tap(game, &mut t, rng, b, 30);
        }
        tap(game, &mut t, rng, Button::HardDrop, 30);
        early(game, &mut t, rng);
    }
    t
}

/// Writes `engine/tests/data/v2_replays.txt` from the engine as it is (run once, on the
/// engine before version 3).
#[test]
#[ignore = "records the test data; run only on the engine whose version is being recorded"]
fn record_v2_replays() {
    let mut out = String::from(
        "# Games recorded by the engine before version 3 of every ruleset (issue 36).\n\
         # name<TAB>replay (binary form, hex)<TAB>end state; see tests/old_versions.rs.\n",
    );
    for setup in setups() {
        let game = play(&setup);
        let replay = game.replay();
        assert_eq!(replay.version, 2, "{}", setup.name);
        out.push_str(&format!(
            "{}\t{}\t{}\n",
            setup.name,
            hex(&replay.to_bytes()),
            fingerprint(&game)
        ));
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/v2_replays.txt"
    );
    std::fs::write(path, out).expect("writes the recordings");
}
