//! Puzzle progress per account: it only grows, one row per account, stages outside the table
//! are refused, and every stage up to the last marks the mode completed.

use minotty_engine::puzzle::STAGE_COUNT;
use minotty_store::{PuzzleError, PuzzleProgress};
use sqlx::AnyPool;

use crate::support::{NOW, player, store};

both!(puzzle_progress_only_grows_per_account);
async fn puzzle_progress_only_grows_per_account(pool: AnyPool) {
    let store = store(pool.clone()).await;
    let alice = player(&store, "alice", 1).await;
    let bob = player(&store, "bob", 2).await;
    assert_eq!(
        store.puzzle_progress(alice.id).await.expect("query"),
        PuzzleProgress::default()
    );

    let p = store
        .record_puzzle_cleared(alice.id, 3, NOW)
        .await
        .expect("records");
    assert_eq!(
        p,
        PuzzleProgress {
            cleared: 3,
            completed: false,
            updated_at: NOW
        }
    );
    // A lower stage (a game started further back) changes nothing, not even the time.
    let p = store
        .record_puzzle_cleared(alice.id, 2, NOW + 5)
        .await
        .expect("records");
    assert_eq!((p.cleared, p.updated_at), (3, NOW));
    let p = store
        .record_puzzle_cleared(alice.id, 7, NOW + 9)
        .await
        .expect("records");
    assert_eq!((p.cleared, p.completed, p.updated_at), (7, false, NOW + 9));
    assert_eq!(store.puzzle_progress(alice.id).await.expect("query"), p);
    assert_eq!(
        store.puzzle_progress(bob.id).await.expect("query"),
        PuzzleProgress::default()
    );

    // Stages that do not exist are refused and leave the progress alone.
    for stage in [0, STAGE_COUNT + 1, 255] {
        let res = store.record_puzzle_cleared(alice.id, stage, NOW + 10).await;
        assert!(
            matches!(res, Err(PuzzleError::NoSuchStage(s)) if s == stage),
            "{res:?}"
        );
    }
    assert_eq!(store.puzzle_progress(alice.id).await.expect("query"), p);

    // The last stage completes the mode, and it stays completed.
    let done = store
        .record_puzzle_cleared(alice.id, STAGE_COUNT, NOW + 20)
        .await
        .expect("records");
    assert_eq!((done.cleared, done.completed), (STAGE_COUNT, true));
    let again = store
        .record_puzzle_cleared(alice.id, 1, NOW + 30)
        .await
        .expect("records");
    assert_eq!(again, done);

    // One row per account, however often a stage is recorded.
    for _ in 0..20 {
        store
            .record_puzzle_cleared(bob.id, 1, NOW)
            .await
            .expect("records");
    }
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM puzzle_progress")
        .fetch_one(&pool)
        .await
        .expect("count");
    assert_eq!(rows, 2);
}

both!(a_stored_stage_beyond_the_table_is_corrupt);
async fn a_stored_stage_beyond_the_table_is_corrupt(pool: AnyPool) {
    let store = store(pool.clone()).await;
    let alice = player(&store, "alice", 1).await;
    sqlx::query(
        "INSERT INTO puzzle_progress (player_id, cleared, completed, updated_at) \
         VALUES ($1, 200, $2, 0)",
    )
    .bind(alice.id.0)
    .bind(false)
    .execute(&pool)
    .await
    .expect("insert");
    assert!(store.puzzle_progress(alice.id).await.is_err());
}
