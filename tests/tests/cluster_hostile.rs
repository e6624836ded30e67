//! The cluster against a hostile peer: a raw NATS client that can publish on the instances'
//! NATS server (its own NATS user) but does not hold the cluster key. It claims queue
//! leadership with forged heartbeats, floods heartbeats and joins, tries a subject injection
//! (`SUB injected.proof`) through a join's instance id, seats accounts in the ranked queue and
//! forges `Finished` reports. Afterwards no rating or match was stored, the peer map and the
//! proxies stayed within their bounds, the injected subscription never existed, and two real
//! players on two instances still pair. Also: an instance refuses to start, saying why,
//! without NATS credentials or without a cluster key, and never prints the password.

use std::process::{Command, Stdio};
use std::time::Duration;

use futures_util::StreamExt;
use minotty_protocol::{Progress, Report};
use minotty_server::cluster::wire::{self, Heartbeat, JoinReq, ToProxy, WireRoom};
use minotty_tests::WAIT;
use minotty_tests::cluster::{Instance, Nats, nats_available, server_binary, two_instances};
use minotty_tests::peer::KeyedPeer;
use minotty_tests::rows::count;
use minotty_tests::versus::{registered, versus_item, wait_for_play};
use sqlx::Connection as _;

/// How many forged heartbeats (each from another made-up instance) and joins the flood sends.
const FLOOD: usize = 300;

/// The ids of the instances, read off their NATS connections' names (`minotty ID` in
/// nats-server's `/connz`): their heartbeats are sealed and encrypted, so a peer without the
/// key cannot read them there.
async fn instance_ids(nats: &Nats) -> Vec<String> {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let connz = nats.subscriptions().await.expect("connz");
        let v: serde_json::Value = serde_json::from_str(&connz).expect("connz is JSON");
        let ids: Vec<String> = v["connections"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["name"].as_str()?.strip_prefix("minotty "))
            .map(str::to_owned)
            .collect();
        if ids.len() >= 2 {
            return ids;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "two instances connect: {connz}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What a subscriber to every subject captured of the instances' own messages (sealed:
/// `MCA...`), until nothing more is buffered.
async fn sealed_payloads(all: &mut async_nats::Subscriber) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_millis(200), all.next()).await {
        if msg.payload.starts_with(b"MCA") {
            out.push(msg.payload.to_vec());
        }
    }
    out
}

/// The NATS connection ids of the instances (named `minotty ID`), from nats-server's
/// `/connz`: a connection cut (e.g. for a malformed `PUB` a subject injection makes) comes
/// back with another id.
fn instance_connections(connz: &str) -> Vec<u64> {
    let v: serde_json::Value = serde_json::from_str(connz).expect("connz is JSON");
    let mut cids: Vec<u64> = v["connections"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| {
            c["name"]
                .as_str()
                .is_some_and(|n| n.starts_with("minotty "))
        })
        .filter_map(|c| c["cid"].as_u64())
        .collect();
    cids.sort_unstable();
    cids
}

async fn player_id(db: &str, name: &str) -> i64 {
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(db)
        .await
        .expect("the database");
    sqlx::query_scalar::<_, i64>("SELECT id FROM players WHERE name = $1")
        .bind(name)
        .fetch_one(&mut conn)
        .await
        .expect("registered")
}

fn forged_beat(id: &str) -> Vec<u8> {
    wire::encode(&Heartbeat {
        id: id.to_owned(),
        started: 0,
        draining: false,
        prefix: b'Z',
    })
    .expect("encodes")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_peer_without_the_cluster_key_changes_no_rating_and_stalls_nothing() {
    let Some((shared, a, b)) = two_instances(
        "a_peer_without_the_cluster_key_changes_no_rating_and_stalls_nothing",
        None,
        Duration::from_secs(5),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };
    let evil =
        minotty_server::cluster::connect::connect(&shared.nats.other_url(), None, None, "evil")
            .await
            .expect("the hostile peer has NATS access");
    // A subscriber to everything (NATS access, no key) from the start.
    let mut all = evil.subscribe(">").await.expect("subscribe to everything");
    let ids = instance_ids(&shared.nats).await;
    let connections = instance_connections(&shared.nats.subscriptions().await.expect("connz"));
    assert_eq!(connections.len(), 2, "{connections:?}");
    let (_ca, mut ann) = registered(a.addr, "ann").await.expect("ann on A");
    let (_cb, mut bob) = registered(b.addr, "bob").await.expect("bob on B");
    let ann_id = player_id(&shared.db, "ann").await;
    let bob_id = player_id(&shared.db, "bob").await;

    // Forged heartbeats of an "oldest" instance, all along: it would lead the ranked queue.
    let beats = {
        let evil = evil.clone();
        tokio::spawn(async move {
            loop {
                let _ = evil
                    .publish(wire::HEARTBEAT, forged_beat("evil").into())
                    .await;
                tokio::time::sleep(Duration::from_millis(250)).await;
            }
        })
    };
    // A flood of made-up instances.
    for i in 0..FLOOD {
        evil.publish(wire::HEARTBEAT, forged_beat(&format!("evil{i}")).into())
            .await
            .expect("publish");
    }
    let mut sent_to = [FLOOD; 2];
    for (k, id) in ids.iter().enumerate() {
        let queue = wire::queue_subject(id);
        // Joins seating ann's and bob's accounts in the queue, one of them with an instance id
        // that would inject `SUB injected.proof` into the leader's publishes.
        let mut seated = Vec::new();
        for (n, (account, name, inst)) in [
            (ann_id, "ann", "x\r\nSUB injected.proof 1\r\n".to_owned()),
            (bob_id, "bob", "evil".to_owned()),
        ]
        .into_iter()
        .enumerate()
        {
            let req = JoinReq {
                inst,
                mid: n as u64 + 1,
                name: name.into(),
                account: Some((account, name.into())),
                spectate: false,
                address: None,
                watchable: false,
            };
            let bytes = wire::encode(&req).expect("encodes");
            let answer = tokio::time::timeout(
                Duration::from_secs(1),
                evil.request(queue.clone(), bytes.into()),
            )
            .await;
            sent_to[k] += 1;
            if let Ok(Ok(reply)) = answer {
                seated.push(reply);
            }
        }
        assert!(seated.is_empty(), "instance {id} admitted a forged join");
        // A flood of joins from made-up instances, and forged reports for every proxy id the
        // instance could have handed out: "ann lost".
        for i in 0..FLOOD {
            let req = JoinReq {
                inst: format!("evil{i}"),
                mid: i as u64,
                name: "ghost".into(),
                account: None,
                spectate: true,
                address: None,
                watchable: false,
            };
            let bytes = wire::encode(&req).expect("encodes");
            evil.publish(
                wire::join_subject(&minotty_domain::RoomCode::canonical("ZZZZZZ").expect("a code")),
                bytes.into(),
            )
            .await
            .expect("publish");
            let lost = ToProxy::Room(WireRoom::Command(minotty_protocol::RoomCommand::Report {
                reports: vec![Report::Finished {
                    won: false,
                    progress: Progress::default(),
                }],
            }));
            let bytes = wire::encode(&lost).expect("encodes");
            evil.publish(
                wire::proxy_subject(id, minotty_server::versus::MemberId(i as u64)),
                bytes.into(),
            )
            .await
            .expect("publish");
            sent_to[k] += 1;
        }
    }
    evil.flush().await.expect("flush");

    // Every instance dropped what it got unread and counted it.
    for (inst, sent) in [(&a, sent_to[0]), (&b, sent_to[1])] {
        let deadline = tokio::time::Instant::now() + WAIT;
        loop {
            let dropped = inst
                .metric("minotty_cluster_dropped_total{reason=\"unauthenticated\"}")
                .await
                .expect("the metric");
            if dropped >= sent as i64 {
                break;
            }
            assert!(
                tokio::time::Instant::now() < deadline,
                "{}: {dropped} of {sent} dropped",
                inst.name
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            inst.metric("minotty_cluster_peers").await.expect("peers"),
            1
        );
        assert_eq!(
            inst.metric("minotty_cluster_proxies")
                .await
                .expect("proxies"),
            0
        );
    }
    let subs = shared.nats.subscriptions().await.expect("connz");
    assert!(subs.contains("minotty.heartbeat"), "{subs}");
    assert!(!subs.contains("injected"), "{subs}");
    // No instance's NATS connection was cut (a malformed PUB would have had it closed).
    assert_eq!(instance_connections(&subs), connections);

    // The real players still pair across the instances (the queue did not follow the forged
    // leader), while the forged heartbeats go on.
    versus_item(&mut ann, 0).await.expect("ann queues");
    versus_item(&mut bob, 0).await.expect("bob queues");
    wait_for_play(&mut ann).await.expect("ann plays");
    wait_for_play(&mut bob).await.expect("bob plays");
    for inst in [&a, &b] {
        assert!(
            inst.metric("minotty_cluster_proxies")
                .await
                .expect("proxies")
                <= 1
        );
        assert_eq!(
            inst.metric("minotty_cluster_peers").await.expect("peers"),
            1
        );
    }
    beats.abort();
    // Of the instances' own messages the subscriber read nothing: their heartbeats, and the
    // ranked join that carried ann's or bob's account id, name and address to the leader, are
    // ciphertext (no field of their JSON, no address; markers of 4 bytes and more, which
    // random bytes do not hold by chance).
    let captured = sealed_payloads(&mut all).await;
    assert!(captured.len() >= 4, "{} sealed messages", captured.len());
    for payload in &captured {
        let text = String::from_utf8_lossy(payload);
        for plain in ["\"id\"", "\"inst\"", "\"name\"", "\"account\"", "127.0.0.1"] {
            assert!(!text.contains(plain), "{plain:?} readable in {text:?}");
        }
    }
    // Nothing of the forgeries was stored or rated.
    assert_eq!(count(&shared.db, "matches").await, 0);
    assert_eq!(count(&shared.db, "ratings").await, 0);
    let subs = shared.nats.subscriptions().await.expect("connz");
    assert!(!subs.contains("injected"), "{subs}");
    drop((a, b));
    shared.release().await.expect("drops the database");
}

/// Runs `minotty serve` with `args` and `env` and returns its exit status and output; it is
/// expected to refuse to start, so it is killed if it still runs after a while.
async fn refused(nats_url: &str, key: Option<&str>, dir: &std::path::Path) -> (bool, String) {
    let log = dir.join(format!("refused-{}.log", rand::random::<u32>()));
    let out = std::fs::File::create(&log).expect("log");
    let mut cmd = Command::new(server_binary().expect("the binary"));
    cmd.args(["serve", "--listen", "127.0.0.1:0", "--nats", nats_url]);
    cmd.env("MINOTTY_HTTP_LISTEN", "off")
        .arg("--db")
        .arg(format!("sqlite://{}", dir.join("refused.db").display()))
        .arg("--host-key")
        .arg(dir.join("host_key"))
        .env_remove("MINOTTY_CLUSTER_KEY")
        .stdin(Stdio::null())
        .stdout(out.try_clone().expect("log"))
        .stderr(out);
    if let Some(key) = key {
        cmd.env("MINOTTY_CLUSTER_KEY", key);
    }
    let mut child = cmd.spawn().expect("starts");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let exited = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break !status.success();
        }
        if tokio::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            break false;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    (exited, std::fs::read_to_string(&log).unwrap_or_default())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_nats_credentials_or_cluster_key_an_instance_refuses_to_start() {
    if !nats_available("without_nats_credentials_or_cluster_key_an_instance_refuses_to_start") {
        return;
    }
    let nats = Nats::start().await.expect("nats-server");
    let dir = tempfile::tempdir().expect("a directory");
    let key = minotty_tests::cluster::CLUSTER_KEY;

    let (failed, log) = refused(&nats.bare_url, Some(key), dir.path()).await;
    assert!(failed, "started without NATS credentials:\n{log}");
    assert!(log.contains("authorization violation"), "{log}");
    assert!(log.contains("credentials"), "{log}");

    let wrong = nats
        .url
        .replace(minotty_tests::cluster::NATS_PASSWORD, "wrong-password-shh");
    let (failed, log) = refused(&wrong, Some(key), dir.path()).await;
    assert!(failed, "started with a wrong password:\n{log}");
    assert!(
        !log.contains("wrong-password-shh"),
        "the password is printed:\n{log}"
    );
    assert!(log.contains("<redacted>"), "{log}");

    let (failed, log) = refused(&nats.url, None, dir.path()).await;
    assert!(failed, "started without a cluster key:\n{log}");
    assert!(log.contains("--cluster-key"), "{log}");
    let (failed, log) = refused(&nats.url, Some("short"), dir.path()).await;
    assert!(failed, "started with a short key:\n{log}");
    assert!(log.contains("at least 32"), "{log}");
    assert!(
        !log.contains(minotty_tests::cluster::NATS_PASSWORD),
        "{log}"
    );

    // With the credentials and the key it joins (and so does every instance of the other
    // cluster tests, against this same kind of server).
    let mut i = Instance::start(
        dir.path(),
        &format!("sqlite://{}", dir.path().join("ok.db").display()),
        &nats.url,
        "ok",
        None,
        Duration::from_secs(1),
    )
    .await
    .expect("starts with credentials and the key");
    assert!(i.is_running());
    i.kill();
    let log = std::fs::read_to_string(&i.log).unwrap_or_default();
    assert!(
        !log.contains(minotty_tests::cluster::NATS_PASSWORD),
        "{log}"
    );
}

/// A compromised instance (it holds the cluster key) seats ann's and bob's accounts in the
/// ranked queue of the leader, has them paired, and reports that bob lost: ann "wins" a game
/// she never played. The room on the leader rates such a result only once the winner's replay
/// verifies; none comes, so the match is stored unrated and no rating changes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_result_from_an_instance_with_the_key_changes_no_rating() {
    use minotty_server::cluster::wire::JoinRep;
    let Some((shared, a, b)) = two_instances(
        "a_forged_result_from_an_instance_with_the_key_changes_no_rating",
        None,
        Duration::from_secs(5),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };
    let mut rogue = KeyedPeer::connect(&shared.nats.url, "rogue")
        .await
        .expect("NATS");
    let ids = instance_ids(&shared.nats).await;
    let (_ca, _ann) = registered(a.addr, "ann").await.expect("ann on A");
    let (_cb, _bob) = registered(b.addr, "bob").await.expect("bob on B");
    let ann_id = player_id(&shared.db, "ann").await;
    let bob_id = player_id(&shared.db, "bob").await;
    let mut news = rogue
        .nats
        .subscribe("minotty.inst.rogue.>")
        .await
        .expect("subscribe");
    // The rogue instance beats (the youngest: it does not lead).
    rogue.beat().await;
    // Both accounts into the queue of whichever instance admits them (the leader pairs).
    let mut pids = Vec::new();
    for (mid, account, name) in [(1u64, ann_id, "ann"), (2, bob_id, "bob")] {
        let req = JoinReq {
            inst: "rogue".into(),
            mid,
            name: name.into(),
            account: Some((account, name.into())),
            spectate: false,
            address: None,
            watchable: false,
        };
        let mut admitted = None;
        for id in &ids {
            let subject = wire::queue_subject(id);
            let body = wire::encode(&req).expect("encodes");
            let opened = rogue
                .request(subject, &body, Duration::from_secs(2))
                .await
                .expect("an answer sealed by the instance");
            if let Some(JoinRep::Ok { pid }) = wire::decode::<JoinRep>("reply", &opened.body) {
                admitted = Some((id.clone(), pid));
                break;
            }
        }
        pids.push(admitted.expect("admitted to a queue"));
    }
    // Paired: the series' games start for the rogue's members; bob "tops out" in each of
    // the three a first-to-3 series needs (ranked players of 1500 play first to 3), and
    // ann wins each with no replay at all.
    let mut last_seed = None;
    for _game in 0..3 {
        // A game of the series starts: a `MatchStart` of another seed than the last game's
        // (one per member may come; the next game starts 10 s after the last one ended).
        let deadline = tokio::time::Instant::now() + 3 * WAIT;
        loop {
            let msg = tokio::time::timeout_at(deadline, news.next())
                .await
                .expect("the series' next game starts")
                .expect("subscription");
            // Sealed and encrypted: only a holder of the key reads it.
            assert!(!String::from_utf8_lossy(&msg.payload).contains("MatchStart"));
            let opened = rogue.open(&msg).expect("sealed by an instance");
            let body = String::from_utf8_lossy(&opened.body).into_owned();
            if !body.contains("MatchStart") {
                continue;
            }
            let seed = body.split("\"seed\":").nth(1).map(|rest| {
                rest.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            });
            if seed != last_seed {
                last_seed = seed;
                break;
            }
        }
        tokio::time::sleep(Duration::from_secs(4)).await;
        let (owner, bob_pid) = &pids[1];
        let lost = ToProxy::Room(WireRoom::Command(minotty_protocol::RoomCommand::Report {
            reports: vec![Report::Finished {
                won: false,
                progress: Progress::default(),
            }],
        }));
        let subject = wire::proxy_subject(owner, minotty_server::versus::MemberId(*bob_pid));
        let body = wire::encode(&lost).expect("encodes");
        rogue.publish(subject, &body).await.expect("publish");
    }
    // The series' games are stored (after the replays' grace time), unrated.
    let deadline = tokio::time::Instant::now() + 2 * WAIT;
    while count(&shared.db, "matches").await < 3 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the match is not stored"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let logs: String = [&a.log, &b.log]
        .iter()
        .map(|l| std::fs::read_to_string(l).unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        count(&shared.db, "ratings").await,
        0,
        "a forged result was rated:\n{logs}"
    );
    assert!(logs.contains("did not verify"), "{logs}");
    sqlx::any::install_default_drivers();
    let mut conn = sqlx::AnyConnection::connect(&shared.db).await.expect("db");
    let ranked: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM matches WHERE ranked = 1")
        .fetch_one(&mut conn)
        .await
        .expect("counts");
    assert_eq!(ranked, 0);
    drop(rogue);
    drop((a, b));
    shared.release().await.expect("drops the database");
}
