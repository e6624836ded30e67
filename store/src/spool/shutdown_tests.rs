//! Without a spool: what a writer cannot store is logged whole, and at shutdown at once.
//!
//! Issue 35: the second instance of a layout that gave both one spool directory ran without
//! one; SIGTERM during a database outage took 89 s there (the writers retried as if no
//! shutdown had begun, each try waiting for a connection) and the game writer, waited out,
//! lost its game with no replay logged.

use super::tests::{Captured, a_match, dir, game, store, submit_at_shutdown};
use super::*;
use crate::{WriteError, WriterConfig};

/// Log lines of the current thread, for the test's length.
fn capture() -> (Captured, tracing::subscriber::DefaultGuard) {
    let captured = Captured::default();
    let sink = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || sink.clone())
        .with_ansi(false)
        .finish();
    (captured, tracing::subscriber::set_default(subscriber))
}

/// At shutdown without a spool the writer tries once, retries nothing and logs the game whole
/// at error level: its replay in hex (before, it retried on, and the server gave up on it).
#[tokio::test]
async fn without_a_spool_the_writer_logs_the_game_whole_at_shutdown() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    store.close().await;
    let (captured, _guard) = capture();
    let g = game(ada, 30, 4_000_000);
    let replay = format::hex(&g.replay.to_bytes());
    let config = WriterConfig {
        max_attempts: 3,
        ..WriterConfig::default()
    };
    match submit_at_shutdown(store, None, config, g).await {
        Err(WriteError::Failed { attempts, error }) => {
            assert_eq!(attempts, 1, "no retry once shutdown began");
            assert!(!error.is_empty());
        }
        other => panic!("expected a failure, got {other:?}"),
    }
    let log = captured.text();
    let lost = log
        .lines()
        .find(|l| l.contains("a finished game could not be stored"))
        .unwrap_or_else(|| panic!("no line for the lost game:\n{log}"));
    assert!(lost.contains("ERROR"), "{lost}");
    assert!(lost.contains(&replay), "the replay in hex: {lost}");
    assert!(lost.contains("no spool"), "{lost}");
    assert!(
        log.contains("games neither stored nor spooled were logged whole"),
        "{log}"
    );
}

/// While the server runs, without a spool, a game given up after every retry is logged whole.
#[tokio::test]
async fn without_a_spool_a_game_given_up_is_logged_whole() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    store.close().await;
    tokio::time::pause();
    let (captured, _guard) = capture();
    let g = game(ada, 30, 4_000_000);
    let replay = format::hex(&g.replay.to_bytes());
    let config = WriterConfig {
        max_attempts: 3,
        ..WriterConfig::default()
    };
    let (writer, task) = crate::GameWriter::spawn_with(store, config, Fallback::to(None));
    let reply = writer.submit(g);
    assert!(matches!(
        reply.await.expect("answered"),
        Err(WriteError::Failed { attempts: 3, .. })
    ));
    drop(writer);
    task.await.expect("the writer ends");
    let log = captured.text();
    assert!(
        log.lines()
            .any(|l| l.contains("a finished game could not be stored") && l.contains(&replay)),
        "{log}"
    );
}

/// Once shutdown began nothing waits out a backoff or an attempt past [`STOP_PATIENCE`], with
/// a spool or without one (on the paused clock: the virtual time is the schedule's).
#[tokio::test(start_paused = true)]
async fn at_shutdown_nothing_waits_out_a_retry_without_a_spool_either() {
    for spool in [
        None,
        Some(Spool::open(dir().path(), SpoolLimits::default()).expect("open")),
    ] {
        let fallback = Fallback::to(spool);
        fallback.stop.cancel();
        assert!(fallback.stopping());
        let start = tokio::time::Instant::now();
        fallback.backoff(std::time::Duration::from_secs(5)).await;
        assert_eq!(start.elapsed(), std::time::Duration::ZERO, "no backoff");
        let never = fallback.bounded(std::future::pending::<()>()).await;
        assert_eq!(never, None);
        assert_eq!(start.elapsed(), STOP_PATIENCE);
    }
}

/// A spool that cannot be made (its path is under a file) is refused at open, so the server
/// knows at start that it runs without one.
#[test]
fn a_spool_that_cannot_be_created_is_refused() {
    let d = dir();
    let file = d.path().join("file");
    std::fs::write(&file, b"x").expect("a file");
    assert!(matches!(
        Spool::open(&file.join("spool"), SpoolLimits::default()),
        Err(SpoolError::Io { .. })
    ));
}

/// A match's body as a log line carries every player whole (the match recorder logs it when
/// it can neither store nor spool the match).
#[test]
fn a_matchs_body_carries_its_players_whole() {
    let m = a_match(None, 4);
    let text = format::body_text(&Record::Match(m.clone()));
    let back: crate::NewMatch = serde_json::from_str(&text).expect("the body is the match");
    assert_eq!(back, m);
    assert!(!text.contains('\n'), "one line");
}
