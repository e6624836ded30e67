//! The bots play real games by the rules.

use minotty_bots::{autoplay, autoplay_combo};
use minotty_engine::{EndReason, Game, GameConfig, Mode};

fn game(mode: Mode, seed: u32) -> Game {
    Game::new(
        GameConfig {
            mode,
            ..GameConfig::default()
        },
        seed,
    )
}

#[test]
fn combo_bot_keeps_long_combos_where_the_placement_bot_does_not() {
    let mut total_combo = 0;
    let mut total_plain = 0;
    for seed in 1..=4 {
        let mut g = game(Mode::combo(), seed);
        autoplay_combo(&mut g, 60, 50, 4);
        total_combo += g.stats().max_combo;
        if g.is_over() {
            assert_eq!(g.outcome(), Some((EndReason::ComboBroken, false)));
        }
        let mut p = game(Mode::combo(), seed);
        autoplay(&mut p, 60, 50);
        total_plain += p.stats().max_combo;
    }
    println!("combo bot: {total_combo}, placement bot: {total_plain}");
    assert!(
        total_combo >= 4 * 8,
        "combo bot averaged {}",
        total_combo / 4
    );
    assert!(total_combo > total_plain);
}

#[test]
fn placement_bot_clears_a_cheese_board() {
    let mut g = game(Mode::cheese(10), 3);
    autoplay(&mut g, 300, 100);
    assert_eq!(
        g.outcome(),
        Some((EndReason::Limit(minotty_engine::Stat::GarbageCleared), true))
    );
    assert!(g.stats().garbage_cleared >= 10);
}
