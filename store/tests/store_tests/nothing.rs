//! A game that achieved nothing in its board's measure (a master game with 0 lines, a marathon
//! or classic game with 0 points, a combo game without a combo, a descent without a gem, a
//! survival game that dug no garbage row, a 40 lines or cheese game short of its goal) is stored in the player's history, and is neither a personal best
//! nor on any board: every board, judged by the writer as a session's game is.

use std::time::Duration;

use minotty_domain::{Period, Unranked, Verdict, has_board, rank_key, ranked_modes};
use minotty_engine::{Game, GameConfig, ModeKind, RulesetId, Tuning};
use minotty_store::{Board, FinishedGame, GameWriter, Page, Store, WriterConfig};
use sqlx::AnyPool;

use crate::support::{NOW, player};

const FAST: WriterConfig = WriterConfig {
    max_batch: 8,
    max_attempts: 20,
    first_backoff: Duration::from_millis(10),
    max_backoff: Duration::from_millis(100),
};

/// A game left to gravity, no key pressed, until it ends (or 10 minutes of game time pass).
fn untouched(account: &minotty_store::Account, kind: ModeKind, ruleset: RulesetId) -> FinishedGame {
    let mut game = Game::new(
        GameConfig {
            ruleset,
            mode: kind.mode(),
            tuning: Tuning::default(),
            ..GameConfig::default()
        },
        7,
    );
    let mut now = 0;
    game.update(now, None);
    while !game.is_over() && now < 600_000 {
        now = game.next_deadline().unwrap_or(now + 1_000).max(now + 1);
        game.update(now, None);
    }
    FinishedGame {
        player: account.id,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: NOW - i64::try_from(now).expect("short game"),
        ended_at: NOW,
    }
}

both!(a_game_that_achieved_nothing_is_history_not_a_best_nor_on_a_board);
async fn a_game_that_achieved_nothing_is_history_not_a_best_nor_on_a_board(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let alice = player(&store, "alice", 1).await;
    let (writer, done) = GameWriter::spawn(store.clone(), FAST);
    let mut boards = 0;
    for kind in ranked_modes() {
        for ruleset in RulesetId::ALL {
            if !has_board(kind, ruleset) {
                continue;
            }
            boards += 1;
            let game = untouched(&alice, kind, ruleset);
            let s = game.stats;
            // What the measure is for each board: nothing was achieved in it.
            let nothing = match kind {
                ModeKind::Master => s.lines == 0,
                ModeKind::Combo => s.max_combo == 0,
                ModeKind::Marathon
                | ModeKind::Ultra
                | ModeKind::Descent
                | ModeKind::Classic
                | ModeKind::Ascent => s.score == 0,
                // Left alone, survival digs no garbage row: the garbage tops it out.
                ModeKind::Survival => s.garbage_cleared == 0,
                _ => game.outcome.is_some_and(|(_, won)| !won),
            };
            assert!(
                nothing,
                "{kind:?} {ruleset:?}: the untouched game scored: {s:?}"
            );
            assert!(game.outcome.is_some(), "{kind:?} {ruleset:?}: it ended");
            assert!(rank_key(kind, &s).is_some());
            let stored = writer.submit(game).await.expect("a reply").expect("stored");
            assert!(
                matches!(
                    stored.verdict,
                    Verdict::Unranked(Unranked::Nothing(_) | Unranked::GoalMissed)
                ),
                "{kind:?} {ruleset:?}: {:?}",
                stored.verdict
            );
            // Not a personal best in any period, no rank.
            assert_eq!((stored.improved.len(), stored.rank), (0, None), "{kind:?}");
            // In the history.
            let record = store.game(stored.id).await.expect("query").expect("stored");
            assert_eq!((record.mode, record.verdict.as_str()), (kind, "unranked"));
            // On no board, in no period.
            let board = Board::new(kind, ruleset);
            for period in Period::ALL {
                let page = store
                    .leaderboard(board, period, NOW, Page::top(10))
                    .await
                    .expect("query");
                assert!(page.is_empty(), "{kind:?} {ruleset:?} {period:?}: {page:?}");
                let own = store.rank_of(board, period, NOW, alice.id).await;
                assert_eq!(own.expect("query"), None);
                assert_eq!(store.board_size(board, period, NOW).await.expect("q"), 0);
            }
        }
    }
    // Every mode's home board and the other rulesets' 40 lines, marathon and ultra.
    assert_eq!(boards, minotty_domain::modes::profile_boards().len());
    assert_eq!(boards, 16);
    let history = store.recent_games(alice.id, 100).await.expect("query");
    assert_eq!(history.len(), boards);
    drop(writer);
    done.await.expect("the writer ends cleanly");
}
