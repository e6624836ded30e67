//! How the games of `engine/tests/data/v1_replays.txt` were recorded (the engine's
//! `tests/old_versions.rs` plays them again): stall games with random shifts and rotations,
//! the others with the placement bot's moves at odd times. Ignored: run only on the engine
//! whose version is being recorded.

#[path = "../../engine/tests/common/v1_replays.rs"]
mod v1_replays;

use minotty_bots::{Weights, best_plan};
use minotty_engine::rng::SplitMix;
use minotty_engine::{Button, Game, GameConfig, Handling, Input, Time};
use v1_replays::{Setup, fingerprint, hex, setups};

/// Plays `setup` and returns the game: stall games with random shifts and rotations only,
/// the others with the placement bot's moves at odd times, each piece finished by a hard drop
/// or by holding soft drop and waiting for the lock delay, with a random extra tap now and then.
fn play(setup: &Setup) -> Game {
    let config = GameConfig {
        ruleset: setup.ruleset,
        mode: setup.mode.clone(),
        handling: Handling::default(),
        tuning: setup.tuning,
    };
    let mut game = Game::new(config, setup.seed);
    let mut rng = SplitMix::new(setup.seed, 77);
    game.update(0, None);
    let t = if setup.stall {
        stall(&mut game, &mut rng)
    } else {
        placements(&mut game, &mut rng)
    };
    game.update(t + 1500, None);
    game
}

fn tap(game: &mut Game, t: &mut Time, rng: &mut SplitMix, button: Button, hold: u32) {
    game.update(*t, Some(Input::Press(button)));
    *t += Time::from(1 + rng.below(hold));
    game.update(*t, Some(Input::Release(button)));
}

fn stall(game: &mut Game, rng: &mut SplitMix) -> Time {
    let mut t: Time = 0;
    for _ in 0..500 {
        if game.is_over() {
            break;
        }
        t += Time::from(1 + rng.below(300));
        let button = match rng.below(100) {
            0..=29 => Button::Left,
            30..=59 => Button::Right,
            60..=79 => Button::RotateCw,
            80..=94 => Button::RotateCcw,
            _ => Button::Rotate180,
        };
        tap(game, &mut t, rng, button, 120);
    }
    t
}

fn placements(game: &mut Game, rng: &mut SplitMix) -> Time {
    let weights = Weights::default();
    let mut t: Time = 0;
    while !game.is_over() && game.stats().pieces < 120 {
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
        t += Time::from(1 + rng.below(200));
        let Some(plan) = best_plan(game, &weights) else {
            break;
        };
        if rng.below(10) == 0 {
            let extra = [
                Button::RotateCw,
                Button::RotateCcw,
                Button::Left,
                Button::Hold,
            ];
            let b = extra[rng.below(4) as usize];
            tap(game, &mut t, rng, b, 30);
        }
        let (moves, _) = plan.buttons.split_at(plan.buttons.len().saturating_sub(1));
        for &b in moves {
            tap(game, &mut t, rng, b, 30);
        }
        if rng.below(2) == 0 {
            tap(game, &mut t, rng, Button::HardDrop, 30);
        } else {
            tap(game, &mut t, rng, Button::SoftDrop, 700);
            // Let gravity and the lock delay finish the piece.
            t += Time::from(rng.below(1200));
            game.update(t, None);
        }
    }
    t
}

/// Writes `engine/tests/data/v1_replays.txt` from the engine as it is (run once, on the old
/// engine).
#[test]
#[ignore = "records the test data; run only on the engine whose version is being recorded"]
fn record_v1_replays() {
    let mut out = String::from(
        "# Games recorded by the engine before version 2 of every ruleset (issue 26).\n\
         # name<TAB>replay (binary form, hex)<TAB>end state; see tests/old_versions.rs.\n",
    );
    for setup in setups() {
        let game = play(&setup);
        let replay = game.replay();
        out.push_str(&format!(
            "{}\t{}\t{}\n",
            setup.name,
            hex(&replay.to_bytes()),
            fingerprint(&game)
        ));
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/v1_replays.txt"
    );
    std::fs::write(path, out).expect("writes the recordings");
}
