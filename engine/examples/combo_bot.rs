//! Measures the combo bot: average longest combo in combo mode over a few seeds, per look-ahead
//! depth, and the time it takes per piece.
//!
//! `cargo run --release -p minotty-engine --example combo_bot`

use minotty_engine::bot::autoplay_combo;
use minotty_engine::{Game, GameConfig, Mode};

fn main() {
    const SEEDS: u32 = 8;
    for depth in [1u8, 2, 3, 4, 5, 6] {
        let start = std::time::Instant::now();
        let (mut total, mut best, mut pieces) = (0, 0, 0);
        for seed in 1..=SEEDS {
            let config = GameConfig {
                mode: Mode::combo(),
                ..GameConfig::default()
            };
            let mut game = Game::new(config, seed);
            autoplay_combo(&mut game, 500, 50, depth);
            total += game.stats().max_combo;
            best = best.max(game.stats().max_combo);
            pieces += game.stats().pieces;
        }
        println!(
            "depth {depth}: average combo {:.1}, best {best}, {:?} per piece",
            f64::from(total) / f64::from(SEEDS),
            start.elapsed() / pieces.max(1)
        );
    }
}
