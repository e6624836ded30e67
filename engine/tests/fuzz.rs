//! Hostile input never panics the engine: random (and nonsensical) inputs at random times into
//! `Game::update`, random bytes and damaged replays into `Replay::from_bytes`, and whatever
//! the reader accepts into `Replay::verify`. Bounded to a few seconds per run; the
//! reliability tests reuse the same targets with more cases.

use minotty_engine::{Button, Game, GameConfig, Input, MAX_INPUTS, Mode, Replay, Time};
use proptest::prelude::*;

fn any_input() -> impl Strategy<Value = Input> {
    let button = proptest::sample::select(Button::ALL.to_vec());
    prop_oneof![
        4 => button.clone().prop_map(Input::Press),
        4 => button.prop_map(Input::Release),
        1 => Just(Input::ReleaseAll),
        2 => any::<u8>().prop_map(Input::Garbage),
        1 => Just(Input::Forfeit),
        1 => Just(Input::Pause),
        1 => Just(Input::Bot),
    ]
}

fn any_mode() -> impl Strategy<Value = Mode> {
    prop_oneof![
        Just(Mode::sprint()),
        Just(Mode::marathon()),
        Just(Mode::ultra()),
        Just(Mode::master()),
        Just(Mode::cheese(20)),
        Just(Mode::combo()),
        (any::<u32>(), any::<bool>()).prop_map(|(l, i)| Mode::custom(l, i, None)),
    ]
}

/// A short real game's replay, to damage.
fn sample_replay() -> Vec<u8> {
    let mut game = Game::new(GameConfig::default(), 5);
    for (i, b) in Button::ALL.iter().enumerate() {
        let t = 100 * i as Time;
        game.update(t, Some(Input::Press(*b)));
        game.update(t + 40, Some(Input::Release(*b)));
    }
    game.update(2000, Some(Input::Pause));
    game.update(2050, Some(Input::Bot));
    game.update(2100, Some(Input::Garbage(3)));
    game.replay().to_bytes()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn update_never_panics(
        seed in any::<u32>(),
        mode in any_mode(),
        steps in proptest::collection::vec((any::<u16>(), proptest::option::of(any_input())), 0..300),
        backwards in any::<bool>(),
    ) {
        let mut game = Game::new(GameConfig { mode, ..GameConfig::default() }, seed);
        let mut t: Time = 0;
        for (dt, input) in steps {
            // Times sometimes go backwards (the engine treats them as now) or jump far.
            t = if backwards && dt % 7 == 0 { t / 2 } else { t.saturating_add(Time::from(dt)) };
            game.update(t, input);
            let _ = game.next_deadline();
        }
        prop_assert!(game.inputs().len() <= MAX_INPUTS);
        let replay = game.replay();
        let back = Replay::from_bytes(&replay.to_bytes());
        prop_assert_eq!(back.as_ref(), Ok(&replay));
    }

    #[test]
    fn from_bytes_never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        let _ = Replay::from_bytes(&bytes);
        let mut framed = b"MTRP\x01".to_vec();
        framed.extend_from_slice(&bytes);
        if let Ok(replay) = Replay::from_bytes(&framed) {
            prop_assert!(replay.inputs.len() <= MAX_INPUTS);
            let _ = replay.verify();
        }
    }

    #[test]
    fn damaged_replays_never_panic(
        flips in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6),
        cut in any::<usize>(),
    ) {
        let mut bytes = sample_replay();
        for (at, x) in flips {
            let i = at % bytes.len();
            bytes[i] ^= x;
        }
        if cut % 4 == 0 {
            bytes.truncate(cut % (bytes.len() + 1));
        }
        if let Ok(replay) = Replay::from_bytes(&bytes) {
            // A damaged header can claim a long game: keep the re-simulation short.
            if replay.end < 600_000 {
                let _ = replay.verify();
            }
        }
    }
}
