//! The spool on real files and a real SQLite store: bounds, corrupt and cut records, replay
//! exactly once, and the writer's shutdown that spools instead of retrying.

use minotty_bots::autoplay;
use minotty_domain::{KeyFingerprint, PlayerId, PlayerName};
use minotty_engine::versus::MatchKind;
use minotty_engine::{Game, GameConfig, Mode};

use super::*;
use crate::observer::tests::Counting;
use crate::{
    FinishedGame, GameWriter, MatchPlayer, NewKey, NewMatch, Store, WriteError, WriterConfig,
};

pub(crate) fn dir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary directory")
}

/// A Marathon game of `player` played by the bot for `pieces` pieces, ending at `ended_at`.
pub(crate) fn game(player: PlayerId, pieces: u32, ended_at: i64) -> FinishedGame {
    let mut g = Game::new(
        GameConfig {
            mode: Mode::marathon(),
            ..GameConfig::default()
        },
        7,
    );
    autoplay(&mut g, pieces, 100);
    FinishedGame {
        player,
        replay: g.replay(),
        stats: *g.stats(),
        outcome: g.outcome(),
        started_at: ended_at - 60_000,
        ended_at,
    }
}

pub(crate) fn a_match(player: Option<PlayerId>, seed: u32) -> NewMatch {
    NewMatch {
        kind: MatchKind::Battle,
        ranked: false,
        room: "K7PQ".into(),
        seed,
        started_at: 1_000,
        ended_at: 2_000,
        players: (0..2)
            .map(|seat| MatchPlayer {
                seat,
                player: if seat == 0 { player } else { None },
                name: format!("p{seat}"),
                place: seat + 1,
                kos: 0,
                forfeited: false,
                lines: 3,
                pieces: 10,
                attack_sent: 1,
                garbage_received: 0,
                time_ms: 9_000,
                rating: None,
                replay: Some(vec![1, 2, 3]),
                bot: None,
                replay_check: None,
            })
            .collect(),
        settings: None,
    }
}

/// A store with one registered player.
pub(crate) async fn store(dir: &std::path::Path) -> (Store, PlayerId) {
    let url = format!("sqlite://{}", dir.join("minotty.db").display());
    let store = Store::open(&url).await.expect("the store");
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(&format!("SHA256:{:0>43}", "k1")).expect("print"),
        algorithm: "ssh-ed25519".into(),
    };
    let ada = store
        .register(&PlayerName::parse("ada").expect("name"), &key, 0)
        .await
        .expect("ada")
        .id;
    (store, ada)
}

fn files(dir: &std::path::Path) -> usize {
    std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().is_file() && e.file_name() != LOCK)
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn records_round_trip_through_their_files() {
    let d = dir();
    let spool = Spool::open(d.path(), SpoolLimits::default()).expect("open");
    let records = [
        Record::Game(Box::new(game(PlayerId(3), 30, 5_000_000))),
        Record::Match(a_match(Some(PlayerId(3)), 9)),
    ];
    for r in &records {
        spool.put(r).expect("spooled");
    }
    assert_eq!(spool.len(), 2);
    let pending = spool.pending().expect("listed");
    assert_eq!(pending.len(), 2);
    let read: Vec<Record> = pending
        .iter()
        .map(|p| spool.read(p).expect("read").expect("decodes"))
        .collect();
    assert!(read.contains(&records[0]) && read.contains(&records[1]));
    // While it is open no other spool takes the directory; then a new one counts them again.
    assert!(matches!(
        Spool::open(d.path(), SpoolLimits::default()),
        Err(SpoolError::Taken(_))
    ));
    drop(spool);
    assert_eq!(
        Spool::open(d.path(), SpoolLimits::default())
            .expect("reopen")
            .len(),
        2
    );
}

#[test]
fn the_spool_is_bounded_in_records_and_in_bytes() {
    let d = dir();
    let limits = SpoolLimits {
        max_records: 2,
        max_bytes: 1 << 20,
    };
    let counted = Arc::new(Counting::default());
    let spool = Spool::open_observed(d.path(), limits, counted.clone()).expect("open");
    let m = Record::Match(a_match(None, 1));
    spool.put(&m).expect("first");
    spool.put(&m).expect("second");
    assert!(matches!(
        spool.put(&m),
        Err(SpoolError::Full { records: 2, .. })
    ));
    assert_eq!(spool.pending().expect("listed").len(), 2);
    assert_eq!(counted.get(&counted.full), 1);

    // Bytes: a bound below two records' size takes one.
    let d = dir();
    let one = format::encode(&m).expect("encodes").len() as u64;
    let limits = SpoolLimits {
        max_records: 100,
        max_bytes: one * 3 / 2,
    };
    let spool = Spool::open(d.path(), limits).expect("open");
    spool.put(&m).expect("first");
    assert!(matches!(
        spool.put(&m),
        Err(SpoolError::Full { records: 1, .. })
    ));
    // Room again once a record left.
    let first = spool.pending().expect("listed").remove(0);
    spool.remove(&first).expect("removed");
    spool.put(&m).expect("room again");
    assert_eq!(spool.len(), 1);
}

#[test]
fn a_cut_or_changed_record_is_refused_whole() {
    let bytes =
        format::encode(&Record::Game(Box::new(game(PlayerId(1), 20, 1_000_000)))).expect("encodes");
    assert!(format::decode(&bytes).is_ok());
    for cut in [0, 10, bytes.len() / 2, bytes.len() - 1] {
        assert!(format::decode(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut changed = bytes.clone();
    let last = changed.len() - 2;
    changed[last] ^= 0x01;
    assert_eq!(format::decode(&changed), Err(format::Corrupt::Checksum));
    let newer = String::from_utf8(bytes.clone()).expect("utf-8").replacen(
        "\"version\":1",
        "\"version\":2",
        1,
    );
    assert!(matches!(
        format::decode(newer.as_bytes()),
        Err(format::Corrupt::Version(_, 2))
    ));
}

#[tokio::test]
async fn corrupt_and_half_written_records_are_set_aside_and_the_rest_is_stored() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let spool_dir = d.path().join("spool");
    let spool = Spool::open(&spool_dir, SpoolLimits::default()).expect("open");
    spool
        .put(&Record::Game(Box::new(game(ada, 30, 7_000_000))))
        .expect("spooled");
    let good = spool.pending().expect("listed").remove(0);
    // A record cut short (as a crash of an older writer would leave it under its final
    // name), garbage, and a temporary file a crash left mid-write.
    let bytes = std::fs::read(&good).expect("read");
    std::fs::write(
        spool_dir.join("0-1-2.game.spool"),
        &bytes[..bytes.len() / 2],
    )
    .expect("w");
    std::fs::write(spool_dir.join("0-1-3.match.spool"), b"not a record").expect("w");
    std::fs::write(spool_dir.join(".tmp-0-1-4.game.spool"), &bytes[..20]).expect("w");
    drop(spool);

    let spool = Spool::open(&spool_dir, SpoolLimits::default()).expect("reopen");
    // The temporary file is aside already; it never counts as a record.
    assert_eq!(spool.len(), 3);
    assert_eq!(files(&spool_dir.join("aside")), 1);
    let done = spool.replay(&store).await;
    assert_eq!(
        done,
        Replayed {
            stored: 1,
            aside: 2,
            ..Replayed::default()
        }
    );
    assert!(spool.is_empty());
    assert_eq!(files(&spool_dir), 0);
    assert_eq!(files(&spool_dir.join("aside")), 3);
    assert_eq!(store.recent_games(ada, 10).await.expect("games").len(), 1);
    // Nothing is tried again.
    assert_eq!(spool.replay(&store).await, Replayed::default());
}

#[tokio::test]
async fn replay_stores_each_record_exactly_once() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let spool = Spool::open(&d.path().join("spool"), SpoolLimits::default()).expect("open");
    let g = game(ada, 40, 9_000_000);
    let m = a_match(Some(ada), 77);
    spool.put(&Record::Game(Box::new(g.clone()))).expect("game");
    spool.put(&Record::Match(m.clone())).expect("match");
    let done = spool.replay(&store).await;
    assert_eq!((done.stored, done.already, done.remaining), (2, 0, 0));
    assert!(spool.is_empty());

    // A crash between storing and deleting: the same records are in the spool again. They
    // are found stored and only deleted.
    spool
        .put(&Record::Game(Box::new(g.clone())))
        .expect("game again");
    spool.put(&Record::Match(m.clone())).expect("match again");
    let done = spool.replay(&store).await;
    assert_eq!((done.stored, done.already), (0, 2));
    assert!(spool.is_empty());
    let games = store.recent_games(ada, 10).await.expect("games");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].stats.score, g.stats.score);
    let id = store.stored_match(&m).await.expect("read").expect("stored");
    assert_eq!(store.match_players(id).await.expect("players").len(), 2);
    assert!(
        store
            .stored_match(&a_match(Some(ada), 78))
            .await
            .expect("read")
            .is_none()
    );
}

#[tokio::test]
async fn a_record_the_database_refuses_is_set_aside_not_retried() {
    let d = dir();
    let (store, _) = store(d.path()).await;
    let spool = Spool::open(&d.path().join("spool"), SpoolLimits::default()).expect("open");
    // No such player: the foreign key refuses the game, for good.
    spool
        .put(&Record::Game(Box::new(game(PlayerId(999), 20, 3_000_000))))
        .expect("spooled");
    let done = spool.replay(&store).await;
    assert_eq!((done.stored, done.aside, done.remaining), (0, 1, 0));
    assert!(spool.is_empty());
    assert_eq!(files(&d.path().join("spool").join("aside")), 1);
}

#[tokio::test]
async fn records_wait_while_the_database_is_unreachable() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let spool = Spool::open(&d.path().join("spool"), SpoolLimits::default()).expect("open");
    spool
        .put(&Record::Game(Box::new(game(ada, 20, 3_000_000))))
        .expect("1");
    spool
        .put(&Record::Game(Box::new(game(ada, 25, 3_100_000))))
        .expect("2");
    store.close().await;
    let done = spool.replay(&store).await;
    assert_eq!((done.stored, done.aside, done.remaining), (0, 0, 2));
    assert_eq!(spool.len(), 2);
}

/// On tokio's paused clock, a writer on `store` with `config` giving up to `spool`, already
/// stopping (the server shuts down), is given `game` and ended: what it answered.
pub(crate) async fn submit_at_shutdown(
    store: Store,
    spool: Option<Spool>,
    config: WriterConfig,
    game: FinishedGame,
) -> crate::writer::WriteResult {
    tokio::time::pause();
    let fallback = Fallback::to(spool);
    let (writer, task) = GameWriter::spawn_with(store, config, fallback.clone());
    fallback.stop.cancel();
    let reply = writer.submit(game);
    drop(writer);
    task.await.expect("the writer ends");
    reply.await.expect("answered")
}

/// With the database gone at shutdown the writer makes one attempt, retries nothing and spools
/// the game (before, it retried 10 times and then logged it as lost).
#[tokio::test]
async fn at_shutdown_the_writer_spools_instead_of_retrying() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let spool = Spool::open(&d.path().join("spool"), SpoolLimits::default()).expect("open");
    store.close().await;
    let config = WriterConfig {
        max_attempts: 10,
        ..WriterConfig::default()
    };
    let g = game(ada, 30, 4_000_000);
    match submit_at_shutdown(store, Some(spool.clone()), config, g).await {
        Err(WriteError::Spooled { attempts, .. }) => assert_eq!(attempts, 1),
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(spool.len(), 1);
    let path = spool.pending().expect("listed").remove(0);
    assert!(matches!(
        spool.read(&path).expect("read"),
        Ok(Record::Game(_))
    ));
}

/// While the server runs, a write given up after every retry is spooled too.
#[tokio::test]
async fn a_game_given_up_after_every_retry_is_spooled() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let spool = Spool::open(&d.path().join("spool"), SpoolLimits::default()).expect("open");
    store.close().await;
    tokio::time::pause();
    let config = WriterConfig {
        max_attempts: 3,
        ..WriterConfig::default()
    };
    let (writer, task) = GameWriter::spawn_with(store, config, Fallback::to(Some(spool.clone())));
    let reply = writer.submit(game(ada, 30, 4_000_000));
    match reply.await.expect("answered") {
        Err(e @ WriteError::Spooled { attempts: 3, .. }) => {
            // The player hears that it is kept, not that it is lost.
            assert!(e.for_player().contains("kept"), "{}", e.for_player());
        }
        other => panic!("expected a spooled game after 3 attempts, got {other:?}"),
    }
    assert_eq!(spool.len(), 1);
    drop(writer);
    task.await.expect("the writer ends");
}

/// Log lines written to a shared buffer (the current thread's default subscriber).
#[derive(Clone, Default)]
pub(crate) struct Captured(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    pub(crate) fn text(&self) -> String {
        let bytes = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// A game that neither the database nor a full spool takes is logged whole at error level:
/// its replay in hex, enough to store it by hand.
#[tokio::test]
async fn a_game_a_full_spool_refuses_is_logged_whole() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let limits = SpoolLimits {
        max_records: 0,
        max_bytes: 1 << 20,
    };
    let counted = Arc::new(Counting::default());
    let spool =
        Spool::open_observed(&d.path().join("spool"), limits, counted.clone()).expect("open");
    store.close().await;
    let captured = Captured::default();
    let sink = captured.clone();
    let subscriber = tracing_subscriber::fmt()
        .with_writer(move || sink.clone())
        .with_ansi(false)
        .finish();
    let _guard = tracing::subscriber::set_default(subscriber);
    let g = game(ada, 30, 4_000_000);
    let replay = format::hex(&g.replay.to_bytes());
    let config = WriterConfig::default();
    assert!(matches!(
        submit_at_shutdown(store, Some(spool.clone()), config, g).await,
        Err(WriteError::Failed { .. })
    ));
    assert!(spool.is_empty());
    assert_eq!(counted.get(&counted.full), 1);
    // (The spool's own error line is written on the blocking pool, not captured here.)
    let log = captured.text();
    let lost = log
        .lines()
        .find(|l| l.contains("a finished game could not be stored"))
        .unwrap_or_else(|| panic!("no line for the lost game:\n{log}"));
    assert!(lost.contains("ERROR"), "{lost}");
    assert!(lost.contains(&replay), "the replay in hex: {lost}");
    assert!(lost.contains("the spool is full"), "{lost}");
}

/// The writer's queue is bounded: past it, a game is spooled at once (never waits, never
/// lost), and the rest are stored as usual. Counted: games queued, stored, spooled.
#[tokio::test]
async fn a_full_writer_queue_spools_the_games_it_has_no_room_for() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let spool = Spool::open(&d.path().join("spool"), SpoolLimits::default()).expect("open");
    let fallback = Fallback::to(Some(spool.clone()));
    let (writer, task) = GameWriter::spawn_queued(store, WriterConfig::default(), fallback, 2);
    // Submitted without yielding: the judge cannot empty the queue in between.
    let replies: Vec<_> = (0..5)
        .map(|i| writer.submit(game(ada, 10, 4_000_000 + i)))
        .collect();
    assert_eq!(writer.queued(), 2, "no more queued than the queue holds");
    drop(writer);
    task.await.expect("the writer ends");
    let (mut stored, mut spooled) = (0, 0);
    for reply in replies {
        match reply.await.expect("answered") {
            Ok(_) => stored += 1,
            Err(WriteError::Spooled { attempts: 0, error }) => {
                assert_eq!(error, "the game writer's queue is full");
                spooled += 1;
            }
            other => panic!("stored or spooled, got {other:?}"),
        }
    }
    assert_eq!((stored, spooled), (2, 3));
    assert_eq!(spool.len(), 3, "every game turned away is in the spool");
}

/// Without a spool a game a full queue turns away is logged whole and its submitter told.
#[tokio::test]
async fn without_a_spool_a_full_writer_queue_fails_the_game_at_once() {
    let d = dir();
    let (store, ada) = store(d.path()).await;
    let (writer, task) =
        GameWriter::spawn_queued(store, WriterConfig::default(), Fallback::to(None), 1);
    let kept = writer.submit(game(ada, 10, 4_000_000));
    let mut turned_away = writer.submit(game(ada, 10, 4_000_001));
    assert!(matches!(
        turned_away.try_recv(),
        Ok(Err(WriteError::Failed { attempts: 0, .. }))
    ));
    drop(writer);
    task.await.expect("the writer ends");
    assert!(kept.await.expect("answered").is_ok());
}
