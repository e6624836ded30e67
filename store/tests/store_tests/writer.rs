//! The background game writer: judging, batching, replies, retries, failures and draining.

use std::time::Duration;

use minotty_domain::{Period, PlayerId, Verdict};
use minotty_engine::{Mode, ModeKind};
use minotty_store::sqlite_pool;
use minotty_store::{GameWriter, Page, Store, WriteError, WriterConfig};
use sqlx::sqlite::SqliteConnection;
use sqlx::{AnyPool, Connection};

use crate::support::{NOW, played, player};

const FAST: WriterConfig = WriterConfig {
    max_batch: 8,
    max_attempts: 20,
    first_backoff: Duration::from_millis(10),
    max_backoff: Duration::from_millis(100),
};

both!(the_writer_judges_stores_and_reports_id_verdict_and_rank);
async fn the_writer_judges_stores_and_reports_id_verdict_and_rank(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let alice = player(&store, "alice", 1).await;
    let bob = player(&store, "bob", 2).await;
    let (writer, done) = GameWriter::spawn(store.clone(), FAST);

    let fast = played(&bob, Mode::sprint(), 8, 1000);
    let slow = played(&alice, Mode::sprint(), 7, 1000);
    assert!(
        fast.stats.time < slow.stats.time,
        "seeds chosen so bob is faster"
    );
    let first = writer
        .submit(fast.clone())
        .await
        .expect("a reply")
        .expect("stored");
    assert!(matches!(first.verdict, Verdict::Ranked { .. }));
    assert_eq!(
        (first.improved.as_slice(), first.rank),
        (&Period::ALL[..], Some(1))
    );
    let second = writer.submit(slow).await.expect("a reply").expect("stored");
    assert_eq!(second.rank, Some(2));

    // A tampered game is stored, rejected and reported as such.
    let mut tampered = fast;
    tampered.player = alice.id;
    tampered.stats.time /= 2;
    let third = writer
        .submit(tampered)
        .await
        .expect("a reply")
        .expect("stored");
    assert!(
        matches!(third.verdict, Verdict::Rejected(_)),
        "{:?}",
        third.verdict
    );
    assert_eq!((third.improved.len(), third.rank), (0, None));
    assert_eq!(
        store
            .game(third.id)
            .await
            .expect("query")
            .expect("stored")
            .verdict,
        "rejected"
    );

    // An unfinished game: stored, unranked, no rank.
    let fourth = writer
        .submit(played(&alice, Mode::combo(), 3, 4))
        .await
        .expect("a reply");
    let fourth = fourth.expect("stored");
    assert!(matches!(fourth.verdict, Verdict::Unranked(_)));
    assert_eq!(
        store.recent_games(alice.id, 10).await.expect("query").len(),
        3
    );

    let board = store
        .leaderboard(ModeKind::Sprint, Period::AllTime, NOW, Page::top(10))
        .await;
    let board: Vec<_> = board
        .expect("query")
        .into_iter()
        .map(|e| (e.rank, e.player))
        .collect();
    assert_eq!(board, [(1, bob.id), (2, alice.id)]);
    drop(writer);
    done.await.expect("the writer ends cleanly");
}

both!(queued_games_are_written_in_batches_and_drained_at_shutdown);
async fn queued_games_are_written_in_batches_and_drained_at_shutdown(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let alice = player(&store, "alice", 1).await;
    let (writer, done) = GameWriter::spawn(store.clone(), FAST);
    let game = played(&alice, Mode::marathon(), 5, 30);
    let replies: Vec<_> = (0..50).map(|_| writer.submit(game.clone())).collect();
    // The receivers may be dropped: the games are written all the same.
    drop(replies);
    drop(writer);
    done.await.expect("the writer ends cleanly");
    assert_eq!(
        store
            .recent_games(alice.id, 100)
            .await
            .expect("query")
            .len(),
        50
    );
}

both!(a_game_that_cannot_be_stored_fails_alone_and_is_reported);
async fn a_game_that_cannot_be_stored_fails_alone_and_is_reported(pool: AnyPool) {
    let store = Store::from_pool(pool).await.expect("store");
    let alice = player(&store, "alice", 1).await;
    let good = played(&alice, Mode::marathon(), 5, 20);
    let mut orphan = good.clone();
    orphan.player = PlayerId(9_999); // no such player: the foreign key refuses it
    // Submitted without yielding to the writer, so the three share a batch.
    let (writer, done) = GameWriter::spawn(store.clone(), FAST);
    let replies = [
        writer.submit(good.clone()),
        writer.submit(orphan),
        writer.submit(good),
    ];
    let mut results = Vec::new();
    for r in replies {
        results.push(r.await.expect("a reply"));
    }
    assert!(results[0].is_ok() && results[2].is_ok(), "{results:?}");
    assert!(
        matches!(&results[1], Err(WriteError::Failed { attempts: 1, error }) if error.to_lowercase().contains("foreign key")),
        "{:?}",
        results[1]
    );
    assert_eq!(
        store.recent_games(alice.id, 10).await.expect("query").len(),
        2
    );
    drop(writer);
    done.await.expect("the writer ends cleanly");
}

/// SQLite only: its lock is the whole database (PostgreSQL's concurrent writers are in
/// `store_tests::instances`).
#[tokio::test]
async fn a_busy_database_is_retried_until_the_write_goes_through() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("busy.db").display());
    // A short busy timeout, so that the held lock fails writes quickly and the writer retries.
    let pool = sqlite_pool(&url, 4, Duration::from_millis(20), 16_384)
        .await
        .expect("pool");
    let store = Store::from_pool(pool).await.expect("store");
    let alice = player(&store, "alice", 1).await;
    let game = played(&alice, Mode::sprint(), 7, 1000);
    let mut blocker = SqliteConnection::connect(&url).await.expect("connects");
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut blocker)
        .await
        .expect("locks");

    let (writer, done) = GameWriter::spawn(store.clone(), FAST);
    let mut reply = writer.submit(game);
    // While the lock is held (300 ms, many busy timeouts of 20 ms) the game is not stored and
    // not given up on: the reply is still pending. Ordered, not timed.
    let waiting = tokio::time::timeout(Duration::from_millis(300), &mut reply).await;
    assert!(
        waiting.is_err(),
        "answered while the database was locked: {waiting:?}"
    );
    sqlx::query("COMMIT")
        .execute(&mut blocker)
        .await
        .expect("unlocks");
    let stored = reply.await.expect("a reply").expect("stored after retries");
    assert_eq!(stored.rank, Some(1));
    drop(writer);
    done.await.expect("the writer ends cleanly");
}

#[tokio::test]
async fn a_stopped_writer_answers_closed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let url = format!("sqlite://{}", dir.path().join("w.db").display());
    let store = Store::open(&url).await.expect("opens");
    let alice = player(&store, "alice", 1).await;
    let (writer, done) = GameWriter::spawn(store.clone(), FAST);
    done.abort();
    let _ = done.await;
    // The judge finds the writer gone: the game is logged in full and refused.
    let reply = writer.submit(played(&alice, Mode::sprint(), 7, 3)).await;
    assert_eq!(reply, Ok(Err(WriteError::Closed)));
    assert!(
        store
            .recent_games(alice.id, 10)
            .await
            .expect("query")
            .is_empty()
    );
}
