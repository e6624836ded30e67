//! A refused database fails a write at once, and the retries keep their schedule; the SQLite
//! file is private.
//!
//! The PostgreSQL tests play the operator's outage: the store reaches the test server through
//! a loopback relay of the test's own, and the relay stops listening (PostgreSQL stopped: its
//! port refuses connections). Before, every attempt then waited sqlx's 30 s acquire timeout
//! (sqlx retries a refused connection until it), and the attempts failed with "pool timed
//! out"; now each fails with "connection refused", so a game is given up after its schedule.

use std::sync::Arc;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinHandle;

use super::*;
use crate::observer::tests::Counting;
use crate::spool::tests::{a_match, game};
use crate::spool::{Fallback, Retries};
use crate::testing::PgDatabase;
use crate::{NewKey, Store, StoreError, WriteError, WriterConfig};
use minotty_domain::{KeyFingerprint, PlayerId, PlayerName};

#[test]
fn the_probed_address_is_the_urls() {
    assert_eq!(
        PgListener::of_url("postgres://u:p@db.example:6543/minotty"),
        Some(PgListener::Tcp {
            host: "db.example".into(),
            port: 6543
        })
    );
    assert_eq!(
        PgListener::of_url("postgres://u@localhost/minotty"),
        Some(PgListener::Tcp {
            host: "localhost".into(),
            port: 5432
        })
    );
    assert_eq!(
        PgListener::of_url("postgres:///minotty?host=/run/postgresql"),
        Some(PgListener::Unix("/run/postgresql/.s.PGSQL.5432".into()))
    );
}

/// A loopback port that nobody listens on is refused; one that listens is not.
#[tokio::test]
async fn a_refused_port_is_told_from_a_listening_one() {
    let listening = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let open = listening.local_addr().expect("addr").port();
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let at = |port| PgListener::Tcp {
        host: "127.0.0.1".into(),
        port,
    };
    assert!(at(open).probe().await.is_none());
    let refused = at(closed).probe().await.expect("refused");
    assert_eq!(refused.kind(), std::io::ErrorKind::ConnectionRefused);
}

/// The schedules the docs give (deploy/README.md, "Database") are the code's: games 10 tries
/// 16.35 s of backoff apart in all, matches 5 tries 4.25 s.
#[test]
fn the_documented_retry_schedules_are_the_codes() {
    let games = WriterConfig::default().retries();
    assert_eq!(games.tries, 10);
    let waits: Vec<u64> = games.waits().map(|d| d.as_millis() as u64).collect();
    assert_eq!(waits, [50, 100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    assert_eq!(games.total(), Duration::from_millis(16_350));
    let matches: Vec<u64> = Retries::MATCHES
        .waits()
        .map(|d| d.as_millis() as u64)
        .collect();
    assert_eq!(matches, [50, 200, 800, 3200]);
    assert_eq!(Retries::MATCHES.total(), Duration::from_millis(4_250));
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../deploy/README.md"))
            .expect("deploy/README.md");
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    for said in [
        "A write is tried 10 times, with 50 ms doubling to 5 s between tries (16.35 s of backoff in all)",
        "versus matches are tried 5 times, 50 ms to 3.2 s apart (4.25 s in all)",
    ] {
        assert!(readme.contains(said), "deploy/README.md says {said:?}");
    }
}

/// A relay from a loopback port to `upstream` that can stop listening.
struct Relay {
    url: String,
    task: JoinHandle<()>,
}

impl Relay {
    /// A relay in front of the `host:port` of `url`, and `url` through it.
    async fn in_front_of(url: &str) -> Relay {
        let (scheme, rest) = url.split_once("://").expect("a URL");
        let (credentials, rest) = rest.rsplit_once('@').expect("user info");
        let (authority, path) = rest.split_once('/').expect("a database");
        // PostgreSQL's port when the URL names none (the tests' default URL names none).
        let authority = if authority
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        {
            authority.to_owned()
        } else {
            format!("{authority}:5432")
        };
        let upstream = tokio::net::lookup_host(authority.as_str())
            .await
            .expect("resolves")
            .find(std::net::SocketAddr::is_ipv4)
            .expect("an IPv4 address");
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("addr");
        let task = tokio::spawn(async move {
            let mut conns = tokio::task::JoinSet::new();
            while let Ok((mut client, _)) = listener.accept().await {
                conns.spawn(async move {
                    if let Ok(mut server) = TcpStream::connect(upstream).await {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
            }
        });
        Relay {
            url: format!("{scheme}://{credentials}@{addr}/{path}"),
            task,
        }
    }

    /// PostgreSQL goes away: open connections close, the port refuses new ones.
    async fn refuse(self) {
        self.task.abort();
        let _ = self.task.await;
    }
}

/// A store on a fresh PostgreSQL database through a relay, with one registered player.
async fn store_through_a_relay(test: &str) -> Option<(PgDatabase, Relay, Store, PlayerId)> {
    let db = PgDatabase::create(test).await?;
    let relay = Relay::in_front_of(&db.url).await;
    let store = Store::open(&relay.url).await.expect("the store");
    let key = NewKey {
        fingerprint: KeyFingerprint::parse(&format!("SHA256:{:0>43}", "r1")).expect("print"),
        algorithm: "ssh-ed25519".into(),
    };
    let ada = store
        .register(&PlayerName::parse("ada").expect("name"), &key, 0)
        .await
        .expect("ada")
        .id;
    Some((db, relay, store, ada))
}

fn refused(e: &StoreError) -> bool {
    matches!(e, StoreError::Database(sqlx::Error::Io(io)) if io.kind() == std::io::ErrorKind::ConnectionRefused)
}

/// With PostgreSQL's port closed, a match's write and a game's write fail as refused, not
/// after sqlx's acquire timeout ("pool timed out").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_database_fails_a_write_at_once() {
    let Some((db, relay, store, ada)) = store_through_a_relay("refused_write").await else {
        return;
    };
    relay.refuse().await;
    let m = store.record_match(&a_match(Some(ada), 5)).await;
    assert!(m.as_ref().is_err_and(refused), "{m:?}");
    assert!(m.as_ref().is_err_and(StoreError::is_transient));
    let finished = game(ada, 10, 5_000_000);
    let verdict = finished.judge();
    let g = store.insert_games(&[(finished, verdict)]).await;
    assert!(g.as_ref().is_err_and(refused), "{:?}", g.map(|_| ()));
    store.close().await;
    db.drop().await;
}

/// The game writer against a refused database makes every attempt of its schedule, each
/// failing as refused, then gives the game up (here without a spool: logged). Counted: the
/// transactions tried.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_writer_tries_a_refused_database_on_its_schedule() {
    let Some((db, relay, store, ada)) = store_through_a_relay("refused_writer").await else {
        return;
    };
    relay.refuse().await;
    let counted = Arc::new(Counting::default());
    let config = WriterConfig {
        max_attempts: 4,
        first_backoff: Duration::from_millis(10),
        max_backoff: Duration::from_millis(40),
        ..WriterConfig::default()
    };
    let (writer, task) = crate::GameWriter::spawn_with(
        store.clone().observed_by(counted.clone()),
        config,
        Fallback::to(None),
    );
    let reply = writer.submit(game(ada, 10, 5_000_000));
    match reply.await.expect("answered") {
        Err(WriteError::Failed { attempts, error }) => {
            assert_eq!(attempts, 4);
            assert!(error.contains("Connection refused"), "{error}");
        }
        other => panic!("expected a failure after 4 attempts, got {other:?}"),
    }
    assert_eq!(
        counted.get(&counted.writes),
        4,
        "one transaction per attempt"
    );
    drop(writer);
    task.await.expect("the writer ends");
    store.close().await;
    db.drop().await;
}

/// The SQLite database and its WAL files are the server's user's only (0600); before, the
/// file was created 0644.
#[cfg(unix)]
#[tokio::test]
async fn the_sqlite_files_are_private() {
    use std::os::unix::fs::PermissionsExt as _;
    let d = crate::spool::tests::dir();
    let path = d.path().join("minotty.db");
    let store = Store::open(&format!("sqlite://{}", path.display()))
        .await
        .expect("the store");
    for suffix in ["", "-wal", "-shm"] {
        let file = format!("{}{suffix}", path.display());
        let mode = std::fs::metadata(&file).expect(&file).permissions().mode();
        assert_eq!(mode & 0o077, 0, "{file} is {mode:o}");
    }
    store.close().await;
}
