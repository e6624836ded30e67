//! Descent's board: under `tetrs` only, ranked by gems (its score), judged by re-simulating the
//! replay like every ranked game.

use minotty_domain::{Unranked, Verdict};
use minotty_engine::{
    Button, EndReason, Game, GameConfig, Input, Mode, ModeKind, RulesetId, Stat, Time,
};
use minotty_store::{Board, FinishedGame, Store};
use sqlx::AnyPool;

use crate::support::{NOW, all_time_top, player, ranked_under, stats, store};

async fn top(store: &Store, board: Board) -> Vec<String> {
    let rows = all_time_top(store, board).await;
    rows.iter()
        .map(|e| format!("{}:{}:{}", e.rank, e.name, e.score))
        .collect()
}

/// A whole Descent game under `ruleset` by a deterministic player that rotates, shifts and
/// soft-drops every 50 ms (choices from an LCG of `salt`), to the time limit.
fn descent_game(ruleset: RulesetId, seed: u32, salt: u32) -> Game {
    let mut game = Game::new(
        GameConfig {
            ruleset,
            mode: Mode::descent(),
            ..GameConfig::default()
        },
        seed,
    );
    let buttons = [
        Button::RotateCw,
        Button::RotateCcw,
        Button::Left,
        Button::Right,
        Button::SoftDrop,
    ];
    let mut state = salt;
    let mut t: Time = 0;
    while !game.is_over() {
        t += 50;
        state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let b = buttons[(state >> 16) as usize % buttons.len()];
        game.update(t, Some(Input::Press(b)));
        game.update(t, Some(Input::Release(b)));
    }
    game
}

fn finished(account: &minotty_store::Account, game: &Game) -> FinishedGame {
    FinishedGame {
        player: account.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: NOW - 180_000,
        ended_at: NOW,
    }
}

both!(a_descent_game_lands_on_the_tetrs_descent_board_by_gems);
async fn a_descent_game_lands_on_the_tetrs_descent_board_by_gems(pool: AnyPool) {
    let store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let game = (1..30)
        .map(|seed| descent_game(RulesetId::Tetrs, seed, seed * 7))
        .find(|g| g.stats().score > 0)
        .expect("a game with gems");
    assert_eq!(game.outcome(), Some((EndReason::Limit(Stat::Time), true)));
    let gems = game.descent().expect("descent").gems();
    assert_eq!(game.stats().score, u64::from(gems));
    let done = finished(&ada, &game);
    let verdict = done.judge();
    assert_eq!(
        verdict,
        Verdict::Ranked {
            key: -i64::from(gems)
        }
    );
    let stored = store
        .insert_games(&[(done, verdict)])
        .await
        .expect("insert");
    assert_eq!(stored[0].improved.len(), 3, "all time, month, day");
    let board = Board::new(ModeKind::Descent, RulesetId::Tetrs);
    assert_eq!(top(&store, board).await, [format!("1:ada:{gems}")]);
    assert_eq!(
        Board::from(ModeKind::Descent),
        board,
        "descent's home board is tetrs"
    );
    let standard = Board::new(ModeKind::Descent, RulesetId::Standard);
    assert!(top(&store, standard).await.is_empty());
    let record = store
        .game(stored[0].id)
        .await
        .expect("read")
        .expect("stored");
    assert_eq!(record.mode, ModeKind::Descent);
    assert_eq!(record.stats.score, u64::from(gems));
}

both!(more_gems_rank_first_and_ties_share_a_rank_earlier_first);
async fn more_gems_rank_first_and_ties_share_a_rank_earlier_first(pool: AnyPool) {
    let store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let bob = player(&store, "bob", 2).await;
    let cyd = player(&store, "cyd", 3).await;
    let descent = ModeKind::Descent;
    let tetrs = RulesetId::Tetrs;
    let games = [
        ranked_under(&ada, tetrs, descent, stats(180_000, 12, 0, 0, 0), NOW),
        ranked_under(&bob, tetrs, descent, stats(180_000, 20, 0, 0, 0), NOW - 5),
        // The same gems as ada, earlier: the same rank, listed before her.
        ranked_under(&cyd, tetrs, descent, stats(180_000, 12, 0, 0, 0), NOW - 20),
    ];
    store.insert_games(&games).await.expect("insert");
    let board = Board::new(descent, tetrs);
    assert_eq!(
        top(&store, board).await,
        ["1:bob:20", "2:cyd:12", "2:ada:12"]
    );
}

both!(descent_under_another_ruleset_or_paused_is_stored_unranked);
async fn descent_under_another_ruleset_or_paused_is_stored_unranked(pool: AnyPool) {
    let store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let standard = finished(&ada, &descent_game(RulesetId::Standard, 3, 5));
    assert_eq!(standard.judge(), Verdict::Unranked(Unranked::Ruleset));
    let paused = descent_game(RulesetId::Tetrs, 4, 9);
    let mut replay = paused.replay();
    replay.inputs.insert(0, (10, Input::Pause));
    let paused = FinishedGame {
        replay,
        ..finished(&ada, &paused)
    };
    assert_eq!(paused.judge(), Verdict::Unranked(Unranked::Paused));
    let stored = store
        .insert_games(&[
            (standard.clone(), standard.judge()),
            (paused.clone(), paused.judge()),
        ])
        .await
        .expect("insert");
    assert!(stored.iter().all(|s| s.improved.is_empty()));
    for ruleset in RulesetId::ALL {
        let board = Board::new(ModeKind::Descent, ruleset);
        assert!(top(&store, board).await.is_empty(), "{ruleset:?}");
    }
}
