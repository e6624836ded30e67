//! Games of the `tui-tetris` and `tetrs` rulesets (and the others) played by the placement bot:
//! tuned and hostile-tuned games replay through the binary form. (The rules themselves are
//! drawn case by case in the engine's `tests/rulesets.rs`.)

use minotty_bots::autoplay;
use minotty_engine::ruleset::{LockDown, Ruleset};
use minotty_engine::{GameConfig, Handling, Mode, Replay, RotationSystem, RulesetId, Tuning};

fn config_for(ruleset: RulesetId, mode: Mode) -> GameConfig {
    GameConfig {
        ruleset,
        mode,
        handling: Handling::default(),
        tuning: Tuning::default(),
    }
}

#[test]
fn tuned_games_replay_through_the_binary_form() {
    for ruleset in RulesetId::ALL {
        let tuning = Tuning {
            rotation: Some(RotationSystem::Classic),
            lock_delay: Some(333),
            line_clear_delay: Some(77),
            appearance_delay: Some(12),
            hard_drop_delay: Some(5),
            ..Tuning::default()
        };
        let config = GameConfig {
            tuning,
            ..config_for(ruleset, Mode::sprint())
        };
        let mut game = minotty_engine::Game::new(config, 99);
        game.update(0, None);
        autoplay(&mut game, 60, 120);
        let replay = game.replay();
        let bytes = replay.to_bytes();
        assert_eq!(bytes[4], 2, "a tuned replay is format 2");
        let back = Replay::from_bytes(&bytes).expect("reads back");
        assert_eq!(back, replay);
        let verified = back.verify().expect("verifies");
        assert_eq!(verified.stats, *game.stats(), "{ruleset:?}");
        assert!(game.stats().pieces >= 30, "{ruleset:?}: {:?}", game.stats());
        // Untuned replays keep format 1, byte for byte as before.
        let plain = minotty_engine::Game::new(config_for(ruleset, Mode::sprint()), 99).replay();
        assert_eq!(plain.to_bytes()[4], 1);
    }
}

#[test]
fn a_hostile_tuning_is_brought_into_bounds() {
    // Whatever a replay or a client claims, the rules a game runs by stay playable.
    let tuning = Tuning {
        generator: Some(minotty_engine::Generator::Stock {
            multiplicity: 255,
            restock: 255,
        }),
        lock_delay: Some(u32::MAX),
        ground_cap: Some(u32::MAX),
        line_clear_delay: Some(u32::MAX),
        appearance_delay: Some(u32::MAX),
        hard_drop_delay: Some(u32::MAX),
        ..Tuning::default()
    };
    let r = Ruleset::get(RulesetId::Tetrs).tuned(&tuning);
    let max = minotty_engine::ruleset::MAX_DELAY;
    assert_eq!(
        (
            r.lock_delay,
            r.line_clear_delay,
            r.appearance_delay,
            r.hard_drop_delay
        ),
        (max, max, max, max)
    );
    assert_eq!(r.lock, LockDown::Timer { ground_cap: 60_000 });
    assert_eq!(r.generator, r.generator.validated());
    let r = Ruleset::get(RulesetId::Standard).tuned(&Tuning {
        lock_delay: Some(0),
        ..Tuning::default()
    });
    assert_eq!(r.lock_delay, 1);
    // Such a replay still reads, plays and ends.
    let mut game = minotty_engine::Game::new(
        GameConfig {
            tuning,
            ..config_for(RulesetId::Tetrs, Mode::sprint())
        },
        5,
    );
    game.update(0, None);
    autoplay(&mut game, 10, 50);
    let replay = Replay::from_bytes(&game.replay().to_bytes()).expect("reads");
    assert_eq!(replay.verify().expect("verifies").stats, *game.stats());
}
