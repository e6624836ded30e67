//! The combo bot playing real combo-mode games through the engine (every tap an `update`), per
//! look-ahead: the longest combo (pieces that cleared a line in a row, as in the strength
//! table) and the time per piece, engine included.
//!
//! `cargo run --release -p minotty-bots --example combo_bot [-- SEEDS]`
//!
//! A real game's preview holds 7 pieces, so the look-ahead goes up to 7 here; a game also stops
//! at the engine's input limit (100,000 inputs, about 12,000 pieces of the bot's taps).

use minotty_bots::autoplay_combo;
use minotty_engine::{Game, GameConfig, Mode};

fn main() {
    let seeds: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    for lookahead in 0..=7 {
        let start = std::time::Instant::now();
        let (mut combos, mut pieces) = (Vec::new(), 0u64);
        for seed in 1..=seeds {
            let config = GameConfig {
                mode: Mode::combo(),
                ..GameConfig::default()
            };
            let mut game = Game::new(config, seed);
            autoplay_combo(&mut game, u32::MAX, 50, lookahead);
            combos.push(u64::from(game.stats().max_combo) + 1);
            pieces += u64::from(game.stats().pieces);
        }
        combos.sort_unstable();
        println!(
            "look-ahead {lookahead}: {seeds} games, median combo {}, average {:.1}, best {}, {:.1?} per piece",
            combos[combos.len() / 2],
            combos.iter().sum::<u64>() as f64 / f64::from(seeds),
            combos.last().copied().unwrap_or(0),
            start.elapsed() / pieces.max(1) as u32
        );
    }
}
