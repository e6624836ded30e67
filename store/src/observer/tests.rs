//! The observer is told what the writer and the spool do: games queued and handed back,
//! transactions, records spooled, refused, replayed and set aside, records waiting.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::Duration;

use super::StoreObserver;
use crate::spool::tests::{a_match, dir, game, store};
use crate::spool::{Fallback, Record, Spool, SpoolLimits};
use crate::{GameWriter, WriteError, WriterConfig};

/// An observer that counts what it is told.
#[derive(Debug, Default)]
pub(crate) struct Counting {
    /// The sum of `games_queued`, and its highest value.
    pub queued: AtomicI64,
    pub queued_most: AtomicI64,
    pub writes: AtomicU64,
    /// The latest `spool_records`.
    pub records: AtomicU64,
    pub games: AtomicU64,
    pub matches: AtomicU64,
    pub full: AtomicU64,
    pub replayed: AtomicU64,
    pub aside: AtomicU64,
}

impl Counting {
    pub fn get(&self, n: &AtomicU64) -> u64 {
        n.load(Ordering::SeqCst)
    }

    fn one(n: &AtomicU64) {
        n.fetch_add(1, Ordering::SeqCst);
    }
}

impl StoreObserver for Counting {
    fn games_queued(&self, delta: i64) {
        let now = self.queued.fetch_add(delta, Ordering::SeqCst) + delta;
        self.queued_most.fetch_max(now, Ordering::SeqCst);
    }

    fn games_written(&self, _took: Duration) {
        Counting::one(&self.writes);
    }

    fn spool_records(&self, records: usize) {
        self.records.store(records as u64, Ordering::SeqCst);
    }

    fn spooled(&self, kind: &'static str) {
        match kind {
            "game" => Counting::one(&self.games),
            _ => Counting::one(&self.matches),
        }
    }

    fn spool_full(&self) {
        Counting::one(&self.full);
    }

    fn spool_replayed(&self) {
        Counting::one(&self.replayed);
    }

    fn spool_aside(&self) {
        Counting::one(&self.aside);
    }
}

#[tokio::test]
async fn the_writer_tells_its_stores_observer_of_each_game_and_transaction() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let counted = Arc::new(Counting::default());
    let (writer, task) =
        GameWriter::spawn(store.observed_by(counted.clone()), WriterConfig::default());
    let replies: Vec<_> = (0..3)
        .map(|i| writer.submit(game(ada, 20, 5_000_000 + i)))
        .collect();
    for reply in replies {
        reply.await.expect("answered").expect("stored");
    }
    drop(writer);
    task.await.expect("the writer ends");
    // Every game queued left the queue; each transaction (one to three of them) was timed.
    assert_eq!(counted.queued.load(Ordering::SeqCst), 0);
    assert_eq!(counted.queued_most.load(Ordering::SeqCst), 3);
    assert!((1..=3).contains(&counted.get(&counted.writes)));
}

#[tokio::test]
async fn the_spool_tells_its_observer_of_each_record() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let counted = Arc::new(Counting::default());
    let limits = SpoolLimits {
        max_records: 3,
        max_bytes: 1 << 20,
    };
    let spool_dir = d.path().join("spool");
    let spool = Spool::open_observed(&spool_dir, limits, counted.clone()).expect("open");
    spool
        .put(&Record::Game(Box::new(game(ada, 20, 3_000_000))))
        .expect("game");
    spool
        .put(&Record::Match(a_match(Some(ada), 5)))
        .expect("match");
    // No such player: the database refuses this one for good, and it is set aside.
    spool
        .put(&Record::Game(Box::new(game(
            crate::PlayerId(999),
            20,
            3_100_000,
        ))))
        .expect("game");
    assert_eq!(counted.get(&counted.records), 3);
    assert!(spool.put(&Record::Match(a_match(None, 6))).is_err());
    assert_eq!(
        [&counted.games, &counted.matches, &counted.full].map(|n| counted.get(n)),
        [2, 1, 1]
    );
    let done = spool.replay(&store).await;
    assert_eq!((done.stored, done.aside), (2, 1));
    assert_eq!(
        [&counted.replayed, &counted.aside, &counted.records].map(|n| counted.get(n)),
        [2, 1, 0]
    );

    // Reopened, the spool tells its new observer of the records found waiting.
    spool.put(&Record::Match(a_match(None, 7))).expect("match");
    drop(spool);
    let reopened = Arc::new(Counting::default());
    let _spool = Spool::open_observed(&spool_dir, limits, reopened.clone()).expect("reopen");
    assert_eq!(reopened.get(&reopened.records), 1);
}

/// A game the writer gives up on at shutdown goes to the spool: the spool's observer hears
/// of it, and the store's observer sees the game leave the writer's queue.
#[tokio::test]
async fn a_game_spooled_by_the_writer_is_told_to_both_observers() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let of_store = Arc::new(Counting::default());
    let of_spool = Arc::new(Counting::default());
    let spool = Spool::open_observed(
        &d.path().join("spool"),
        SpoolLimits::default(),
        of_spool.clone(),
    )
    .expect("open");
    store.close().await;
    tokio::time::pause();
    let fallback = Fallback::to(Some(spool.clone()));
    let (writer, task) = GameWriter::spawn_with(
        store.observed_by(of_store.clone()),
        WriterConfig::default(),
        fallback.clone(),
    );
    fallback.stop.cancel();
    let reply = writer.submit(game(ada, 20, 4_000_000));
    drop(writer);
    task.await.expect("the writer ends");
    assert!(matches!(
        reply.await.expect("answered"),
        Err(WriteError::Spooled { .. })
    ));
    assert_eq!(of_spool.get(&of_spool.games), 1);
    assert_eq!(of_spool.get(&of_spool.records), 1);
    assert_eq!(of_store.queued.load(Ordering::SeqCst), 0);
    assert_eq!(of_store.queued_most.load(Ordering::SeqCst), 1);
    assert!(of_store.get(&of_store.writes) >= 1);
}
