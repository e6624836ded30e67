//! Version 5 changed `tui-tetris`'s gravity (the rules seed's accumulator) and its line clear
//! pause (the next piece in play through it); versions 1 to 4 must play on exactly as they
//! did, for the replays recorded under them. Every event of scripted `tui-tetris` games
//! under versions 3 and 4 (fast levels, soft drop held and released, clears in cheese and a
//! combo well, a tuned line clear and appearance delay), hashed: the figures were taken from
//! the build before version 5.

use minotty_engine::rng::SplitMix;
use minotty_engine::{Button, Game, GameConfig, Input, Mode, RulesetId, Time, Tuning};

/// FNV-1a over the text, fed in order.
fn feed(hash: &mut u64, text: &str) {
    for b in text.bytes() {
        *hash = (*hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
}

/// Every event and the end state of the scripted games under `version`, hashed.
fn timelines(version: u16) -> u64 {
    let mut hash = 0xcbf2_9ce4_8422_2325;
    let modes = [
        Mode::sprint(),
        Mode::cheese(20),
        Mode::custom(9, true, None),
        Mode::custom(4, true, None),
        Mode::combo(),
    ];
    for (m, mode) in modes.iter().enumerate() {
        for seed in 1..=6u32 {
            let tuning = if seed % 3 == 0 {
                Tuning {
                    appearance_delay: Some(37),
                    line_clear_delay: Some(250),
                    ..Tuning::default()
                }
            } else {
                Tuning::default()
            };
            let config = GameConfig {
                ruleset: RulesetId::TuiTetris,
                mode: mode.clone(),
                tuning,
                ..GameConfig::default()
            };
            let mut game = Game::of_version(config, seed * 31 + m as u32, version).unwrap();
            let mut rng = SplitMix::new(seed, 5);
            let mut t: Time = 0;
            game.update(0, None);
            for _ in 0..800u32 {
                t += 1 + u64::from(rng.below(60));
                // The nine buttons of the build that pinned the figure (the teleports came
                // after them, at the end of the list).
                let b = Button::ALL[rng.below(9) as usize];
                let input = match rng.below(12) {
                    0..=4 => Input::Press(b),
                    5..=8 => Input::Release(b),
                    9 => Input::Press(Button::SoftDrop),
                    _ => Input::Press(Button::HardDrop),
                };
                let events = game.update(t, Some(input));
                feed(&mut hash, &format!("{events:?}"));
                if game.is_over() {
                    break;
                }
            }
            let (board, stats, active) = (game.board(), game.stats(), game.active());
            feed(&mut hash, &format!("{board:?} {stats:?} {active:?}"));
        }
    }
    hash
}

#[test]
fn tui_tetris_versions_3_and_4_play_every_event_as_before_version_5() {
    assert_eq!(timelines(4), 13_492_610_113_197_742_744);
    assert_eq!(timelines(3), 247_248_824_225_458_404);
    assert_ne!(timelines(5), timelines(4), "version 5 plays otherwise");
}
