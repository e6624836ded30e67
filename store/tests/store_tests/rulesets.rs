//! Boards per ruleset: 40 lines, marathon and ultra under `tui-tetris` and `tetrs` rank on
//! boards of their own; the judge re-simulates a replay under its own ruleset and tuning; a
//! tuned game is stored and shown, never ranked.

use minotty_domain::{Period, Unranked, Verdict};
use minotty_engine::{Mode, ModeKind, RulesetId, Tuning};
use minotty_store::{Board, Page, Store};
use sqlx::AnyPool;

use crate::support::{
    NOW, all_time_top, played, played_under, player, ranked, ranked_under, stats, store,
};

async fn top(store: &Store, board: Board) -> Vec<String> {
    let rows = all_time_top(store, board).await;
    rows.iter()
        .map(|e| format!("{}:{}", e.rank, e.name))
        .collect()
}

both!(each_ruleset_has_its_own_boards);
async fn each_ruleset_has_its_own_boards(pool: AnyPool) {
    let store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let bob = player(&store, "bob", 2).await;
    let cy = player(&store, "cyd", 3).await;
    let sprint = ModeKind::Sprint;
    let games = [
        ranked(&ada, sprint, stats(40_000, 0, 40, 100, 0), NOW),
        ranked_under(
            &bob,
            RulesetId::Tetrs,
            sprint,
            stats(30_000, 0, 40, 100, 0),
            NOW,
        ),
        ranked_under(
            &cy,
            RulesetId::Tetrs,
            sprint,
            stats(35_000, 0, 40, 100, 0),
            NOW,
        ),
        ranked_under(
            &ada,
            RulesetId::TuiTetris,
            sprint,
            stats(50_000, 0, 40, 100, 0),
            NOW,
        ),
        // A worse tetrs time of bob's does not replace his best.
        ranked_under(
            &bob,
            RulesetId::Tetrs,
            sprint,
            stats(39_000, 0, 40, 100, 0),
            NOW,
        ),
    ];
    let stored = store.insert_games(&games).await.expect("insert");
    assert!(stored[4].improved.is_empty());
    let standard = Board::new(sprint, RulesetId::Standard);
    let tetrs = Board::new(sprint, RulesetId::Tetrs);
    let tui = Board::new(sprint, RulesetId::TuiTetris);
    assert_eq!(top(&store, standard).await, ["1:ada"]);
    assert_eq!(
        top(&store, sprint.into()).await,
        ["1:ada"],
        "a mode is its standard board"
    );
    assert_eq!(top(&store, tetrs).await, ["1:bob", "2:cyd"]);
    assert_eq!(top(&store, tui).await, ["1:ada"]);
    let marathon = Board::new(ModeKind::Marathon, RulesetId::Tetrs);
    assert!(top(&store, marathon).await.is_empty());
    for (board, size) in [(standard, 1), (tetrs, 2), (tui, 1), (marathon, 0)] {
        let n = store
            .board_size(board, Period::AllTime, NOW)
            .await
            .expect("size");
        assert_eq!(n, size, "{board:?}");
    }
    let cy_rank = store
        .rank_of(tetrs, Period::Today, NOW, cy.id)
        .await
        .expect("rank");
    assert_eq!(cy_rank.map(|e| e.rank), Some(2));
    let cy_standard = store.rank_of(standard, Period::AllTime, NOW, cy.id).await;
    assert_eq!(cy_standard.expect("rank"), None);
    // Page two of a board starts with the right rank (bucket counts per ruleset).
    let second = store
        .leaderboard(
            tetrs,
            Period::AllTime,
            NOW,
            Page {
                offset: 1,
                limit: 5,
            },
        )
        .await
        .expect("page");
    assert_eq!(second.iter().map(|e| e.rank).collect::<Vec<_>>(), [2]);
    // The history names each game's ruleset.
    let recent = store.recent_games(bob.id, 10).await.expect("recent");
    assert!(recent.iter().all(|g| g.ruleset == RulesetId::Tetrs));
}

both!(the_judge_replays_under_the_games_own_ruleset);
async fn the_judge_replays_under_the_games_own_ruleset(pool: AnyPool) {
    let store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let none = Tuning::default();
    let game = played_under(&ada, RulesetId::Tetrs, none, Mode::sprint(), 7, 1000);
    assert_eq!(
        game.outcome.map(|(_, won)| won),
        Some(true),
        "the bot clears 40 lines"
    );
    let verdict = game.judge();
    assert!(
        matches!(verdict, Verdict::Ranked { key } if key == game.stats.time as i64),
        "{verdict:?}"
    );
    let stored = store
        .insert_games(&[(game.clone(), verdict)])
        .await
        .expect("insert");
    assert_eq!(stored[0].improved.len(), 3);
    let tetrs = Board::new(ModeKind::Sprint, RulesetId::Tetrs);
    assert_eq!(top(&store, tetrs).await, ["1:ada"]);
    assert!(top(&store, ModeKind::Sprint.into()).await.is_empty());
    let record = store
        .game(stored[0].id)
        .await
        .expect("read")
        .expect("stored");
    assert_eq!(record.ruleset, RulesetId::Tetrs);
    let replay = store
        .replay(stored[0].id)
        .await
        .expect("read")
        .expect("stored");
    assert_eq!(replay.ruleset, RulesetId::Tetrs);

    // A standard game's replay relabelled tetrs does not reproduce its claims.
    let mut relabelled = played(&ada, Mode::marathon(), 5, 60);
    relabelled.replay.ruleset = RulesetId::Tetrs;
    relabelled.outcome = Some((minotty_engine::EndReason::BlockOut, false));
    assert!(
        matches!(relabelled.judge(), Verdict::Rejected(_)),
        "{:?}",
        relabelled.judge()
    );
}

both!(a_tuned_game_is_stored_and_never_ranked);
async fn a_tuned_game_is_stored_and_never_ranked(pool: AnyPool) {
    let store = store(pool).await;
    let ada = player(&store, "ada", 1).await;
    let tuned = Tuning {
        lock_delay: Some(300),
        ..Tuning::default()
    };
    for ruleset in RulesetId::ALL {
        let game = played_under(&ada, ruleset, tuned, Mode::sprint(), 7, 1000);
        assert_eq!(
            game.judge(),
            Verdict::Unranked(Unranked::Tuned),
            "{ruleset:?}"
        );
        let stored = store
            .insert_games(&[(game.clone(), game.judge())])
            .await
            .expect("insert");
        assert!(stored[0].improved.is_empty());
        let board = Board::new(ModeKind::Sprint, ruleset);
        assert!(top(&store, board).await.is_empty(), "{ruleset:?}");
    }
    // Master has no tetrs board: stored, not ranked.
    let master = played_under(
        &ada,
        RulesetId::Tetrs,
        Tuning::default(),
        Mode::master(),
        3,
        30,
    );
    let master = minotty_store::FinishedGame {
        outcome: Some((minotty_engine::EndReason::BlockOut, false)),
        ..master
    };
    assert_eq!(master.judge(), Verdict::Unranked(Unranked::Ruleset));
    store
        .insert_games(&[(master.clone(), master.judge())])
        .await
        .expect("insert");
    let recent = store.recent_games(ada.id, 10).await.expect("recent");
    assert_eq!(recent.len(), 4, "every game is in the history");
    assert_eq!(recent[0].verdict, "unranked");
    assert_eq!(
        recent[0].verdict_note.as_deref(),
        Some("this mode has no board under this ruleset")
    );
}

/// A database migrated up to 0007 with a leaderboard entry, then migrated by this version:
/// the entry is on the `standard` board and its counts still add up.
/// SQLite only: PostgreSQL databases start at this version's migrations.
#[tokio::test]
async fn boards_from_before_0008_become_standard() {
    let db_dir = tempfile::tempdir().expect("temp dir");
    let pool = crate::store_db::sqlite(db_dir.path()).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let migrations = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../migrations");
    for entry in std::fs::read_dir(&migrations).expect("migrations") {
        let path = entry.expect("entry").path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.as_bytes().first().is_some_and(|&c| c == b'0') && name < "0008" {
            std::fs::copy(&path, dir.path().join(name)).expect("copy");
        }
    }
    let old = sqlx::migrate::Migrator::new(dir.path()).await.expect("old");
    old.run(&pool).await.expect("old migrations");
    sqlx::query(
        "INSERT INTO players (id, name, name_folded, created_at) VALUES (1, 'ada', 'ada', 0)",
    )
    .execute(&pool)
    .await
    .expect("player");
    sqlx::query(
        "INSERT INTO leaderboard_best (mode, period, period_start, player_id, rank_key, bucket, \
         achieved_at, game_id, time_ms, score, lines, pieces, max_combo) \
         VALUES ('40l', 'all', 0, 1, 30000, 29952, 5, 9, 30000, 0, 40, 100, 0)",
    )
    .execute(&pool)
    .await
    .expect("entry");
    let store = Store::from_pool(pool)
        .await
        .expect("migrates to the latest");
    assert_eq!(top(&store, ModeKind::Sprint.into()).await, ["1:ada"]);
    let tetrs = Board::new(ModeKind::Sprint, RulesetId::Tetrs);
    assert!(top(&store, tetrs).await.is_empty());
    let size = store
        .board_size(ModeKind::Sprint, Period::AllTime, NOW)
        .await;
    assert_eq!(size.expect("size"), 1, "the bucket counts moved too");
}
