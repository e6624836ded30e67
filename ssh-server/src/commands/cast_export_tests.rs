//! Tests of `cast_export.rs`, playing the attacker: someone else's private replay (no blob is
//! read), a client that leaves mid-export (the drawing stops: frames counted), a client that
//! reads slowly (the buffer stays at a few chunks: bytes counted), and the server's bound.

use std::sync::atomic::AtomicUsize;

use minotty_domain::{KeyFingerprint, PlayerName, Unranked, Verdict};
use minotty_engine::Game;
use tokio::sync::Notify;

use super::*;
use crate::cast;
use minotty_store::{FinishedGame, NewKey};

/// The server's export slots are one static: these tests take turns.
pub(super) static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

use crate::cast::tests::marathon;

/// The client address of the tests' exports.
const CLIENT: std::net::IpAddr = std::net::IpAddr::V4(std::net::Ipv4Addr::new(192, 0, 2, 1));

struct Stored {
    _dir: tempfile::TempDir,
    store: Store,
    ada: PlayerId,
    bob: PlayerId,
    ranked: i64,
    private: i64,
    game: Game,
}

/// ada's game stored twice: ranked, and unranked (only ada may export that one); bob is
/// another player.
async fn stored(pieces: u32) -> Stored {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("minotty.db").display());
    let store = Store::open(&url).await.expect("the store");
    let key = |n: &str| NewKey {
        fingerprint: KeyFingerprint::parse(&format!("SHA256:{n:0>43}")).expect("fingerprint"),
        algorithm: "ssh-ed25519".into(),
    };
    let ada = store
        .register(&PlayerName::parse("ada").expect("name"), &key("k1"), 0)
        .await
        .expect("ada")
        .id;
    let bob = store
        .register(&PlayerName::parse("bob").expect("name"), &key("k2"), 0)
        .await
        .expect("bob")
        .id;
    let game = marathon(pieces);
    let finished = FinishedGame {
        player: ada,
        replay: game.replay(),
        stats: *game.stats(),
        outcome: game.outcome(),
        started_at: 0,
        ended_at: 1000,
    };
    let ranked = Verdict::Ranked {
        key: minotty_domain::rank_key(minotty_engine::ModeKind::Marathon, game.stats())
            .expect("a marathon ranks"),
    };
    let unranked = Verdict::Unranked(Unranked::Unfinished);
    let ids = store
        .insert_games(&[(&finished, ranked), (&finished, unranked)])
        .await
        .expect("stored");
    Stored {
        _dir: dir,
        store,
        ada,
        bob,
        ranked: ids[0].id.0,
        private: ids[1].id.0,
        game,
    }
}

/// Exports game `id` (`<id> --cast`) for `caller` through `write`, with every budget allowing
/// it, until done or `cancel`.
async fn export_game<W, F>(
    store: &Store,
    id: i64,
    caller: Option<PlayerId>,
    cancel: CancellationToken,
    tuning: Tuning,
    write: W,
) -> Result<Exported, Outcome>
where
    W: FnMut(Vec<u8>) -> F,
    F: Future<Output = bool>,
{
    let args = [id.to_string(), "--cast".to_owned()];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let requester = Requester {
        caller,
        address: CLIENT.into(),
        budget: || Ok(()),
    };
    let args = cast::parse(&args).map_err(Outcome::fail)?;
    export(args, Some(store), requester, cancel, tuning, write).await
}

/// Exports game `id` for `caller` whole, with every budget allowing it.
async fn run(store: &Store, id: i64, caller: Option<PlayerId>) -> Result<Vec<u8>, Outcome> {
    let mut out = Vec::new();
    let write = |chunk: Vec<u8>| {
        out.extend_from_slice(&chunk);
        std::future::ready(true)
    };
    let cancel = CancellationToken::new();
    export_game(store, id, caller, cancel, Tuning::default(), write).await?;
    Ok(out)
}

/// Before: `replay` read the blob, then checked who may see it. Now the record is checked
/// first: a refused export reads no blob (counted by the store).
#[tokio::test]
async fn a_replay_of_someone_elses_private_game_reads_no_blob() {
    let _turn = SERIAL.lock().await;
    let s = stored(10).await;
    assert_eq!(s.store.replay_reads(), 0);
    for caller in [None, Some(s.bob)] {
        let refused = run(&s.store, s.private, caller).await.unwrap_err();
        assert_eq!(refused.status, 1);
        assert!(
            refused.stderr.contains("only its player"),
            "{}",
            refused.stderr
        );
    }
    assert_eq!(s.store.replay_reads(), 0, "no blob read for a refusal");
    // A missing game reads none either.
    assert!(
        run(&s.store, 999, None)
            .await
            .unwrap_err()
            .stderr
            .contains("no game 999")
    );
    assert_eq!(s.store.replay_reads(), 0);
    // Over budget: refused after the check, still before the blob.
    let args = [s.ranked.to_string(), "--cast".to_owned()];
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let requester = Requester {
        caller: None,
        address: CLIENT.into(),
        budget: || Err(Refused::Exports { wait_ms: 30_000 }),
    };
    let write = |_: Vec<u8>| std::future::ready(true);
    let over = export(
        cast::parse(&args).unwrap(),
        Some(&s.store),
        requester,
        CancellationToken::new(),
        Tuning::default(),
        write,
    )
    .await
    .unwrap_err();
    assert!(
        over.stderr
            .contains("too many replay exports from your address; try again in 30 s"),
        "{}",
        over.stderr
    );
    assert_eq!(s.store.replay_reads(), 0);
    // The player exports their own; anyone exports the ranked one: one blob each.
    let mine = run(&s.store, s.private, Some(s.ada))
        .await
        .expect("ada's own");
    assert_eq!(s.store.replay_reads(), 1);
    let public = run(&s.store, s.ranked, None).await.expect("a ranked game");
    assert_eq!(s.store.replay_reads(), 2);
    assert!(!mine.is_empty() && !public.is_empty());
}

/// A client that reads slowly: the cast arrives whole and identical to the one filmed in
/// memory, while the export never holds more than a few chunks of it.
#[tokio::test]
async fn a_slow_reader_gets_the_whole_cast_through_a_bounded_buffer() {
    let _turn = SERIAL.lock().await;
    let s = stored(150).await;
    let whole = cast::cast(s.game.replay(), "ada", s.ranked, (80, 24), 1).expect("filmed");
    let longest = whole.lines().map(str::len).max().unwrap_or(0) + 1;
    let tuning = Tuning {
        chunk_bytes: 4096,
        in_flight: 2,
    };
    let mut out = Vec::new();
    let mut chunks = 0usize;
    let write = |chunk: Vec<u8>| {
        out.extend_from_slice(&chunk);
        chunks += 1;
        // A slow client: the drawing runs ahead until the queue is full, then waits.
        async {
            tokio::time::sleep(std::time::Duration::from_millis(1)).await;
            true
        }
    };
    let never = CancellationToken::new();
    let done = export_game(&s.store, s.ranked, None, never, tuning, write)
        .await
        .expect("exported");
    assert!(!done.cancelled);
    assert!(
        String::from_utf8_lossy(&out) == whole,
        "the same cast, streamed"
    );
    assert_eq!(done.sent, whole.len() as u64);
    // Queued chunks, one waiting to be queued and one being written, each at most a chunk
    // and a line.
    let bound = (tuning.in_flight + 2) * (tuning.chunk_bytes + longest);
    assert!(
        done.max_buffered <= bound as u64,
        "{} buffered, bound {bound}",
        done.max_buffered
    );
    assert!(
        whole.len() > 4 * bound,
        "the cast ({} bytes) is much larger than the buffer bound ({bound})",
        whole.len()
    );
    assert!(chunks > 4 * (tuning.in_flight + 2), "{chunks} chunks");
}

/// A client that starts an export and leaves: its channel closes, the export's token is
/// cancelled, and the drawing stops within a few chunks (frames counted), also when the
/// client is just gone (a write fails).
#[tokio::test]
async fn a_client_that_leaves_stops_the_export() {
    let _turn = SERIAL.lock().await;
    let s = stored(150).await;
    let whole = cast::film(
        s.game.replay(),
        "ada",
        s.ranked,
        (80, 24),
        1,
        cast::MAX_BYTES,
        &mut |_| true,
    )
    .expect("filmed");
    let tuning = Tuning {
        chunk_bytes: 4096,
        in_flight: 2,
    };

    // The channel closes after the first chunk: cancelled while the second is being written.
    let cancel = CancellationToken::new();
    let first = Arc::new(Notify::new());
    let calls = AtomicUsize::new(0);
    let write = |_: Vec<u8>| {
        let n = calls.fetch_add(1, Ordering::Relaxed);
        let first = Arc::clone(&first);
        async move {
            if n == 0 {
                first.notify_one();
                true
            } else {
                std::future::pending::<bool>().await
            }
        }
    };
    let leave = async {
        first.notified().await;
        cancel.cancel();
    };
    let (done, ()) = tokio::join!(
        export_game(&s.store, s.ranked, None, cancel.clone(), tuning, write),
        leave
    );
    let done = done.expect("streamed, then cancelled");
    assert!(done.cancelled);
    assert!(
        done.frames * 4 < whole.frames,
        "{} of {} frames drawn",
        done.frames,
        whole.frames
    );
    assert!(
        done.sent <= (tuning.chunk_bytes * 8) as u64,
        "{}",
        done.sent
    );

    // The client is gone: the second write fails.
    let calls = AtomicUsize::new(0);
    let write = |_: Vec<u8>| std::future::ready(calls.fetch_add(1, Ordering::Relaxed) == 0);
    let never = CancellationToken::new();
    let done = export_game(&s.store, s.ranked, None, never, tuning, write)
        .await
        .expect("streamed, then stopped");
    assert!(done.cancelled);
    assert!(
        done.frames * 4 < whole.frames,
        "{} of {}",
        done.frames,
        whole.frames
    );
    assert_eq!(
        calls.load(Ordering::Relaxed),
        2,
        "nothing written after the failure"
    );
}

#[tokio::test]
async fn exports_beyond_the_servers_bound_are_refused_as_busy() {
    let _turn = SERIAL.lock().await;
    let s = stored(10).await;
    let held: Vec<_> = (0..MAX_EXPORTS)
        .map(|n| {
            let other = std::net::Ipv4Addr::new(203, 0, 113, n as u8);
            EXPORTS
                .take(Some(ClientAddr::new(other.into()).key()))
                .expect("no export runs")
        })
        .collect();
    let busy = run(&s.store, s.ranked, None).await.unwrap_err();
    assert_eq!(busy.status, 1);
    assert!(busy.stderr.contains("busy"), "{}", busy.stderr);
    drop(held);
    run(&s.store, s.ranked, None).await.expect("exported");
    assert_eq!(EXPORTS.held(None).0, 0, "given back");
}

/// The attacker: one address starts exports on channels that never read (each write waits
/// forever). Before, two such channels held both of the server's exports for as long as the
/// write timeout let them; now the address holds its share, the second of its exports is
/// refused, and another address's export runs meanwhile.
#[tokio::test]
async fn one_address_never_reading_leaves_an_export_for_another() {
    let _turn = SERIAL.lock().await;
    let s = stored(150).await;
    let tuning = Tuning {
        chunk_bytes: 1024,
        in_flight: 1,
    };
    let attacker: ClientAddr = "::ffff:198.51.100.66"
        .parse::<std::net::IpAddr>()
        .unwrap()
        .into();
    let started = Arc::new(Notify::new());
    let never_reads = |_: Vec<u8>| {
        let started = Arc::clone(&started);
        async move {
            started.notify_one();
            std::future::pending::<bool>().await
        }
    };
    let export_from = |address: ClientAddr, cancel: CancellationToken| {
        let args = [s.ranked.to_string(), "--cast".to_owned()];
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let args = cast::parse(&args).unwrap();
        let requester = Requester {
            caller: None,
            address,
            budget: || Ok(()),
        };
        (args, requester, cancel)
    };
    let hold = CancellationToken::new();
    let (args, requester, cancel) = export_from(attacker, hold.clone());
    let first = export(args, Some(&s.store), requester, cancel, tuning, never_reads);
    let rest = async {
        started.notified().await;
        // The same client again, in its plain IPv4 form: refused, its share is taken.
        let (args, requester, cancel) = export_from(
            "198.51.100.66".parse::<std::net::IpAddr>().unwrap().into(),
            CancellationToken::new(),
        );
        let second = export(args, Some(&s.store), requester, cancel, tuning, never_reads);
        // (Without the share, the second export would hold the other place forever.)
        let second = tokio::time::timeout(std::time::Duration::from_secs(60), second)
            .await
            .expect("the second export is refused, not run");
        let refused = second.unwrap_err();
        assert!(refused.stderr.contains("already"), "{}", refused.stderr);
        // Another address gets its export, whole, while the first is held.
        let mut out = Vec::new();
        let write = |chunk: Vec<u8>| {
            out.extend_from_slice(&chunk);
            std::future::ready(true)
        };
        let (args, requester, cancel) = export_from(CLIENT.into(), CancellationToken::new());
        let other = export(args, Some(&s.store), requester, cancel, tuning, write).await;
        assert!(!other.expect("another address exports").cancelled);
        assert!(!out.is_empty());
        hold.cancel();
    };
    let (first, ()) = tokio::join!(first, rest);
    assert!(first.expect("held, then cancelled").cancelled);
    assert_eq!(EXPORTS.held(None).0, 0, "every place given back");
}
