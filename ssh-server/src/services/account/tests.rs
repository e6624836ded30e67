//! The session's own snapshots and their budgets.

use std::net::{IpAddr, Ipv4Addr};

use minotty_engine::{Game, GameConfig};

use super::*;

/// A guest's client of `shared`, and its response channel.
fn guest_of(shared: &SharedAccounts) -> (AccountClient, mpsc::Receiver<Response>) {
    let (tx, rx) = mpsc::channel(crate::versus::RESPONSE_QUEUE);
    let (account_tx, account_rx) = watch::channel(None);
    let who = Who {
        ssh_user: "~ada".into(),
        identity: crate::services::Identity::Guest,
        peer: IpAddr::V4(Ipv4Addr::LOCALHOST).into(),
        account: account_rx,
    };
    let client = AccountClient::new(shared, who, "ada".into(), account_tx, tx);
    (client, rx)
}

/// A guest's client on a server without a database, and its response channel.
fn guest() -> (AccountClient, mpsc::Receiver<Response>) {
    guest_of(&SharedAccounts::default())
}

fn snapshot() -> Box<minotty_engine::Snapshot> {
    let mut g = Game::new(GameConfig::default(), 5);
    g.update(0, None);
    Box::new(g.snapshot().expect("a piece in play"))
}

fn save(label: &str) -> Request {
    Request::SaveSnapshot {
        label: label.into(),
        snapshot: snapshot(),
    }
}

fn drain(rx: &mut mpsc::Receiver<Response>) -> Vec<Response> {
    std::iter::from_fn(|| rx.try_recv().ok()).collect()
}

#[test]
fn a_flood_of_saves_is_held_to_the_budget() {
    let (mut client, mut rx) = guest();
    for i in 0..200 {
        client.handle(save(&format!("flood {i}")));
    }
    let answers = drain(&mut rx);
    let saved = answers
        .iter()
        .filter(|r| matches!(r, Response::SnapshotSaved { .. }))
        .count();
    let slowed = answers
        .iter()
        .filter(
            |r| matches!(r, Response::SnapshotFailed { message } if message == SNAPSHOT_SLOW_DOWN),
        )
        .count();
    // The flood takes far less than the 5 s a token takes to come back.
    assert_eq!(saved, SNAPSHOT_BURST as usize, "{answers:?}");
    assert!(slowed > 0);
    assert!(client.session_snapshots() <= SNAPSHOT_BURST as usize);
    // Past the request budget nothing is even answered but one "slow down".
    assert!(
        answers.len() <= REQUESTS_BURST as usize + 1,
        "{}",
        answers.len()
    );
}

#[test]
fn a_guest_keeps_at_most_twenty_for_the_session_newest_first() {
    let (mut client, mut rx) = guest();
    for i in 0..(MAX_SNAPSHOTS + 13) {
        // The save budget is the other test's: here the bound on what is kept.
        client.snapshot_budget = crate::budget::TokenBucket::per_minute(1, 0, 0);
        client.session_snapshot(save(&format!("save {i}\x1b[2J")), 0);
    }
    assert_eq!(client.session_snapshots(), MAX_SNAPSHOTS);
    drain(&mut rx);
    client.session_snapshot(Request::ListSnapshots, 0);
    let Some(Response::Snapshots(list)) = rx.try_recv().ok() else {
        panic!("a list");
    };
    assert_eq!(list.len(), MAX_SNAPSHOTS);
    assert_eq!(list[0].label, format!("save {}[2J", MAX_SNAPSHOTS + 12));
    assert_eq!(
        list[MAX_SNAPSHOTS - 1].label,
        "save 13[2J",
        "the oldest went"
    );
    let id = list[0].id;
    client.session_snapshot(Request::DeleteSnapshot { id }, 0);
    let Some(Response::Snapshots(list)) = rx.try_recv().ok() else {
        panic!("a list");
    };
    assert_eq!(list.len(), MAX_SNAPSHOTS - 1);
    assert!(list.iter().all(|e| e.id != id));
}

/// The session's account worker runs on the tracker it was given (the server's): counted
/// while its session lives, and ended when the session's client is dropped, so that the
/// tracker's wait completes with no task left.
#[tokio::test]
async fn the_account_worker_is_tracked_and_ends_with_its_client() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("minotty.db").display());
    let store = minotty_store::Store::open(&url).await.expect("the store");
    let tasks = TaskTracker::new();
    let shared = SharedAccounts::new(Some(store), None).with_tasks(tasks.clone());
    let (mut client, mut rx) = guest_of(&shared);
    assert_eq!(tasks.len(), 0, "no worker before the first request");
    client.handle(Request::RetryAccount);
    let answer = tokio::time::timeout(Duration::from_secs(10), rx.recv()).await;
    assert!(matches!(answer, Ok(Some(_))), "{answer:?}");
    assert_eq!(tasks.len(), 1, "the worker, waiting for the next request");
    drop(client);
    tasks.close();
    tokio::time::timeout(Duration::from_secs(10), tasks.wait())
        .await
        .expect("the worker ends with its client");
    assert_eq!(tasks.len(), 0);
}

/// A registered player's finished game goes to the writer on a task of the tracker it was
/// given (the server's): shutdown's wait covers it, and it ends once the writer answered
/// (the answer reaches the session first).
#[tokio::test]
async fn a_game_submission_is_tracked_until_the_writer_answers() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("minotty.db").display());
    let store = minotty_store::Store::open(&url).await.expect("the store");
    let key = minotty_store::NewKey {
        fingerprint: KeyFingerprint::parse(&format!("SHA256:{:0>43}", "k1")).expect("a key"),
        algorithm: "ssh-ed25519".into(),
    };
    let name = minotty_domain::PlayerName::parse("ada").expect("a name");
    let ada = store.register(&name, &key, 0).await.expect("ada");
    let (writer, writer_task) =
        minotty_store::GameWriter::spawn(store.clone(), minotty_store::WriterConfig::default());
    let tasks = TaskTracker::new();
    let shared = SharedAccounts::new(Some(store), Some(writer)).with_tasks(tasks.clone());
    let (tx, mut rx) = mpsc::channel(crate::versus::RESPONSE_QUEUE);
    let (account_tx, account_rx) = watch::channel(Some(AccountRef {
        id: ada.id,
        name: "ada".into(),
    }));
    let who = Who {
        ssh_user: "ada".into(),
        identity: crate::services::Identity::of_key(Some(key.fingerprint.clone()), "ssh-ed25519"),
        peer: IpAddr::V4(Ipv4Addr::LOCALHOST).into(),
        account: account_rx,
    };
    let client = AccountClient::new(&shared, who, "ada".into(), account_tx, tx);
    let mut game = Game::new(GameConfig::default(), 7);
    game.update(1000, None);
    let finished = minotty_ui::FinishedGame {
        kind: minotty_engine::ModeKind::Marathon,
        replay: game.replay(),
        stats: *game.stats(),
        reason: minotty_engine::EndReason::TopOut,
        won: false,
    };
    client.submit_game(finished, 1_000);
    assert_eq!(tasks.len(), 1, "the submission, on the tracker");
    let answer = tokio::time::timeout(Duration::from_secs(10), rx.recv()).await;
    assert!(matches!(answer, Ok(Some(_))), "{answer:?}");
    tasks.close();
    tokio::time::timeout(Duration::from_secs(10), tasks.wait())
        .await
        .expect("the submission ends once answered");
    assert_eq!(tasks.len(), 0);
    drop(client);
    drop(shared);
    tokio::time::timeout(Duration::from_secs(10), writer_task)
        .await
        .expect("the writer ends with its last sender")
        .expect("the writer's task");
}

#[test]
fn a_listener_reachable_from_loopback_without_a_trusted_proxy_is_warned_about() {
    let warned = |listen: &str, proxies: bool| {
        loopback_registration_warning(listen.parse().expect("address"), proxies).is_some()
    };
    assert!(warned("127.0.0.1:2222", false));
    assert!(warned("[::1]:2222", false));
    assert!(warned("0.0.0.0:22", false));
    assert!(warned("[::]:22", false));
    assert!(warned("[::ffff:127.0.0.1]:22", false));
    assert!(
        !warned("192.0.2.10:22", false),
        "not reachable from loopback"
    );
    assert!(
        !warned("127.0.0.1:2222", true),
        "a trusted proxy sends the players' addresses"
    );
}
