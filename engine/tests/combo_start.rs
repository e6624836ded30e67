//! Combo mode's start under each ruleset version (issue 36 item 7): from version 4 the three
//! residual cells depend on the first two pieces (`game/combo_start.rs`; that every start can
//! be kept is `bots/tests/combo_start.rs`, which has the move generation); versions 1 to 3
//! keep the one start they always had, so their replays play as recorded. Same seed, same
//! pieces, in every version from 2 on (version 1 shuffled its bag otherwise).

use std::collections::{BTreeMap, BTreeSet};

use minotty_engine::board::HEIGHT;
use minotty_engine::{Game, GameConfig, Mode, Piece, Ruleset, RulesetId};

fn combo(seed: u32, version: u16) -> Game {
    let config = GameConfig {
        mode: Mode::combo(),
        ..GameConfig::default()
    };
    let mut game = Game::of_version(config, seed, version).expect("a version this engine plays");
    game.update(0, None);
    game
}

/// The well's two bottom rows (the board's columns 3-6), bottom first, `#` filled.
fn well(game: &Game) -> [String; 2] {
    [1, 2].map(|up| {
        let mask = game.board().row_mask(HEIGHT - up);
        (3..7)
            .map(|x| if mask & (1 << x) != 0 { '#' } else { '.' })
            .collect()
    })
}

fn pieces(game: &Game) -> Vec<Piece> {
    let first = game.active().map(|a| a.placed.piece);
    first.into_iter().chain(game.preview()).collect()
}

#[test]
fn versions_1_to_3_start_every_combo_game_on_the_same_cells() {
    let usual = ["##..".to_string(), "#...".to_string()];
    for version in 1..=3 {
        for seed in 0..300 {
            assert_eq!(well(&combo(seed, version)), usual, "v{version} seed {seed}");
        }
    }
}

#[test]
fn version_4_changes_the_cells_of_the_starts_that_broke_and_only_the_cells() {
    assert!(Ruleset::get(RulesetId::Standard).version >= 4);
    let mut by_start: BTreeMap<(Piece, Piece), [String; 2]> = BTreeMap::new();
    for seed in 0..2000 {
        let (old, new) = (combo(seed, 3), combo(seed, 4));
        assert_eq!(pieces(&old), pieces(&new), "seed {seed}");
        let p = pieces(&new);
        let cells = well(&new);
        // One start, one board: the cells follow from the first two pieces alone.
        let seen = by_start
            .entry((p[0], p[1]))
            .or_insert_with(|| cells.clone());
        assert_eq!(*seen, cells, "seed {seed}");
        // The other rows of the board are the walls, as before.
        for y in 0..HEIGHT - 2 {
            assert_eq!(
                old.board().row_mask(y),
                new.board().row_mask(y),
                "seed {seed}"
            );
        }
    }
    assert_eq!(by_start.len(), 42);
    let usual = ["##..".to_string(), "#...".to_string()];
    let moved: BTreeSet<String> = by_start
        .iter()
        .filter(|(_, cells)| **cells != usual)
        .map(|(&(a, b), _)| format!("{}{}", a.letter(), b.letter()))
        .collect();
    let want = [
        "IS", "TO", "TZ", "SI", "SO", "ST", "SZ", "SJ", "SL", "ZO", "LO", "LS",
    ];
    assert_eq!(moved, want.iter().map(|s| s.to_string()).collect());
}
