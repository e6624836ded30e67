//! Timestamped inputs into the engine: random presses, releases, garbage and forfeits at random
//! non-decreasing times (bursts, pauses, jumps of hours), in random modes including custom
//! ones, with random handling.
//!
//! Checks: no panic; the game never records more inputs than it was given (nor more than
//! [`ENGINE_INPUT_CAP`], once the engine has a cap); its replay survives the binary form
//! unchanged; and re-simulating the replay reproduces the game's stats and outcome (the
//! engine's determinism, whatever the input).

use minotty_engine::{Button, Game, GameConfig, Handling, Input, Mode, Replay, Stat, Time};

use super::{Figures, Rng};

/// The most inputs the engine records for one game (`minotty_engine::MAX_INPUTS`); `None`
/// would skip the check.
pub const ENGINE_INPUT_CAP: Option<usize> = Some(minotty_engine::MAX_INPUTS);

/// A random mode: a preset, or custom with any start level, level increase and goal.
pub(super) fn mode(rng: &mut Rng) -> Mode {
    match rng.below(8) {
        0 => Mode::sprint(),
        1 => Mode::marathon(),
        2 => Mode::ultra(),
        3 => Mode::master(),
        4 => Mode::cheese(rng.wide() as u32),
        5 => Mode::combo(),
        _ => {
            let stats = [
                Stat::Time,
                Stat::Lines,
                Stat::Pieces,
                Stat::Score,
                Stat::Level,
                Stat::GarbageCleared,
            ];
            let limit = (!rng.one_in(3)).then(|| (*rng.pick(&stats), rng.wide()));
            Mode::custom(rng.wide() as u32, rng.one_in(2), limit)
        }
    }
}

/// Handling from the defaults to far out of range (the engine clamps it).
pub(super) fn handling(rng: &mut Rng) -> Handling {
    if rng.one_in(3) {
        return Handling::default();
    }
    let value = |rng: &mut Rng| match rng.below(3) {
        0 => 0,
        1 => rng.below(300) as u32,
        _ => rng.wide() as u32,
    };
    Handling {
        das: value(rng),
        arr: value(rng),
        sdf: value(rng),
        hard_drop_guard: value(rng),
        das_cut: value(rng),
        double_tap: value(rng),
        move_under_lock: rng.one_in(2),
    }
}

/// The next time: mostly small steps, sometimes none, sometimes very long.
fn step(rng: &mut Rng) -> Time {
    match rng.below(20) {
        0..=4 => 0,
        5..=14 => rng.below(40),
        15..=17 => rng.below(1000),
        18 => rng.below(60_000),
        _ => rng.below(10_000_000),
    }
}

/// One input, or none (an update that only advances time).
fn input(rng: &mut Rng) -> Option<Input> {
    let button = *rng.pick(&Button::ALL);
    match rng.below(100) {
        0..=44 => Some(Input::Press(button)),
        45..=84 => Some(Input::Release(button)),
        85..=88 => Some(Input::ReleaseAll),
        89..=93 => Some(Input::Garbage(rng.byte())),
        94 => (rng.one_in(20)).then_some(Input::Forfeit),
        _ => None,
    }
}

/// A flood of inputs that never ends a game (taps left and right, at most 2 ms apart): past the
/// engine's input cap when it has one.
fn flood(rng: &mut Rng) -> (Game, u64) {
    let count = ENGINE_INPUT_CAP.map_or(20_000, |cap| cap as u64 + 1_000);
    let mut game = Game::new(GameConfig::default(), rng.next_u64() as u32);
    let mut now: Time = 0;
    for i in 0..count {
        now += rng.below(3);
        let button = if i % 4 < 2 {
            Button::Left
        } else {
            Button::Right
        };
        let input = if i % 2 == 0 {
            Input::Press(button)
        } else {
            Input::Release(button)
        };
        game.update(now, Some(input));
    }
    (game, count)
}

/// Plays a random game; returns it with the number of inputs given.
pub(super) fn random_game(rng: &mut Rng, max_inputs: u64) -> (Game, u64) {
    let config = GameConfig {
        mode: mode(rng),
        handling: handling(rng),
        ..GameConfig::default()
    };
    let mut game = Game::new(config, rng.next_u64() as u32);
    let count = if rng.one_in(50) {
        rng.below(max_inputs.saturating_mul(20))
    } else {
        rng.below(max_inputs)
    };
    let mut now: Time = 0;
    let mut given = 0;
    for _ in 0..count {
        now = now.saturating_add(step(rng));
        let input = input(rng);
        given += u64::from(input.is_some());
        game.update(now, input);
    }
    if rng.one_in(2) {
        game.update(now.saturating_add(step(rng)), None);
    }
    (game, given)
}

pub(super) fn case(rng: &mut Rng, figures: &mut Figures) -> Result<(), String> {
    let (game, given) = if rng.one_in(1_000) {
        flood(rng)
    } else {
        random_game(rng, 400)
    };
    figures.units += given;
    let recorded = game.inputs().len();
    figures.max_items = figures.max_items.max(recorded as u64);
    if recorded as u64 > given {
        return Err(format!("{recorded} inputs recorded of {given} given"));
    }
    if let Some(cap) = ENGINE_INPUT_CAP
        && recorded > cap
    {
        return Err(format!("{recorded} inputs recorded, over the cap of {cap}"));
    }
    let replay = game.replay();
    let bytes = replay.to_bytes();
    match Replay::from_bytes(&bytes) {
        Ok(back) if back == replay => {}
        Ok(_) => return Err("the replay changed through its binary form".to_owned()),
        Err(e) => return Err(format!("the game's own replay does not decode: {e}")),
    }
    let verified = replay
        .verify()
        .map_err(|e| format!("the game's own replay does not play: {e}"))?;
    if verified.stats != *game.stats() || verified.outcome != game.outcome() {
        return Err(format!(
            "re-simulation differs: played {:?} {:?}, replayed {:?} {:?}",
            game.stats(),
            game.outcome(),
            verified.stats,
            verified.outcome
        ));
    }
    Ok(())
}
