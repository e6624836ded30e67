//! The cluster's owner side against a real `nats-server`, with a raw NATS client playing
//! another instance (holding the cluster key): a join by code seats a proxy whose room news is
//! published to that instance; its messages reach the room; malformed messages are dropped
//! without harm; and when the other instance's heartbeats stop, its member leaves the room.
//! A client without the key (or with a replayed message, or a subject injection) is ignored.

use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use minotty_engine::versus::MatchKind;
use minotty_protocol::{RoomCommand, RoomLimit, RoomSettings};
use minotty_server::cluster::auth::{Auth, ClusterKey};
use minotty_server::cluster::checks::{self, DropReason};
use minotty_server::cluster::wire::{
    self, Heartbeat, JoinRep, JoinReq, Relay, ToMember, ToProxy, WireRoom,
};
use minotty_server::cluster::{self, ClusterConfig};
use minotty_server::versus::{Hub, Member, SessionTx};
use minotty_ui::Response;
use tokio::sync::mpsc;

struct Nats(Child, String);

impl Nats {
    async fn start() -> Nats {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new("nats-server")
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("nats-server (apt-get install nats-server)");
        for _ in 0..200 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        Nats(child, format!("nats://127.0.0.1:{port}"))
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

const KEY: &str = "the cluster key of the relay test, long enough";

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(0))
}

/// `value` encoded and sealed by `auth` for `subject`.
fn sealed<T: serde::Serialize>(auth: &Auth, subject: &str, value: &T) -> Vec<u8> {
    let body = wire::encode(value).expect("encodes");
    auth.seal(subject, &body, now_ms())
}

/// The payload of a message sealed for its subject, opened by `auth`.
fn opened(auth: &Auth, msg: &async_nats::Message) -> Vec<u8> {
    auth.open(
        &msg.subject,
        &msg.payload,
        now_ms(),
        tokio::time::Instant::now(),
    )
    .expect("sealed by the owner")
    .body
    .to_vec()
}

/// Waits until `reason` was counted `n` times (the process's count).
async fn wait_for_count(reason: DropReason, n: u64) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while checks::dropped_count(reason) < n {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{reason:?} dropped {} times, not {n}",
            checks::dropped_count(reason)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits for a room view on `rx` that satisfies `f`.
async fn room_view(
    rx: &mut mpsc::Receiver<Response>,
    what: &str,
    f: impl Fn(&minotty_protocol::RoomView) -> bool,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let r = tokio::time::timeout_at(deadline, rx.recv())
            .await
            .unwrap_or_else(|_| panic!("no room view: {what}"))
            .expect("the session's channel");
        if let Response::Room(v) = r
            && f(&v)
        {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_of_another_instance_joins_plays_and_goes_with_its_instance() {
    let found = Command::new("nats-server")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        // `.ci/run` installs it and sets this, so CI never skips.
        if std::env::var("MINOTTY_TEST_NATS_REQUIRED").is_ok_and(|v| v == "1") {
            panic!("nats-server is required but not installed");
        }
        eprintln!("skipped: cluster relay test (no nats-server: apt-get install nats-server)");
        return;
    }
    let nats = Nats::start().await;
    let config = ClusterConfig {
        nats: nats.1.clone(),
        auth: None,
        tls: None,
        key: ClusterKey::new(KEY).expect("long enough"),
        instance_name: "owner".into(),
        drain: Duration::from_secs(5),
        max_proxies: 10,
        max_proxies_per_peer: 1,
    };
    let owner = cluster::connect(&config).await.expect("joins NATS");
    let remote: Arc<dyn minotty_server::versus::RemoteRooms> = owner.clone();
    let hub = Arc::new(Hub::new(None, Some(1)).with_remote(Some(remote)));
    owner.serve(&hub).await.expect("listens");

    // The host, a session of the owner.
    let (tx, mut host_rx) = mpsc::channel(256);
    let host = Member {
        id: hub.next_member(),
        name: "ann".into(),
        account: None,
        owner: None,
        address: None,
        tx: SessionTx::new(tx),
        link: Arc::new(Mutex::new(None)),
    };
    let options = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None);
    let room = hub
        .create_room(options, false, vec![(host, None)], Vec::new())
        .expect("a room");
    room_view(&mut host_rx, "the host alone", |v| v.seats.len() == 1).await;

    // Another instance "x", played by a raw client: it beats, then asks to join by code.
    let other = async_nats::connect(nats.1.as_str()).await.expect("client");
    let x = Auth::new(ClusterKey::new(KEY).expect("long enough"), "x");
    let mut inbox = other
        .subscribe(wire::member_subject(
            "x",
            minotty_server::versus::MemberId(7),
        ))
        .await
        .expect("subscribe");
    let beat = |started| Heartbeat {
        id: "x".into(),
        started,
        draining: false,
        prefix: b'Z',
    };
    // Without the key, a heartbeat claiming to be the oldest instance is dropped unread and
    // counted, unsealed or sealed with another key: the peer map does not grow and the owner
    // still leads the queue.
    let evil = Auth::new(
        ClusterKey::new("not the cluster key, but long enough").expect("long"),
        "evil",
    );
    let forged = Heartbeat {
        id: "evil".into(),
        ..beat(0)
    };
    let unauthenticated = checks::dropped_count(DropReason::Unauthenticated);
    other
        .publish(
            wire::HEARTBEAT,
            wire::encode(&forged).expect("encodes").into(),
        )
        .await
        .expect("forged beat");
    other
        .publish(
            wire::HEARTBEAT,
            sealed(&evil, wire::HEARTBEAT, &forged).into(),
        )
        .await
        .expect("forged beat");
    wait_for_count(DropReason::Unauthenticated, unauthenticated + 2).await;
    assert_eq!(owner.instances(), 1);
    assert!(owner.is_leader());

    other
        .publish(
            wire::HEARTBEAT,
            sealed(&x, wire::HEARTBEAT, &beat(0)).into(),
        )
        .await
        .expect("beat");
    // The owner reads heartbeats and joins on separate tasks: x's join is answered only once
    // its heartbeat made x a known peer, so wait for that (on a busy machine it can lag).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while owner.instances() < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "x's heartbeat never arrived"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // Garbage first, on every subject the owner reads: dropped, nothing breaks.
    for subject in [
        wire::join_subject(&room.code),
        format!("minotty.inst.{}.p.1", owner.id()),
        format!("minotty.inst.{}.m.1", owner.id()),
        format!("minotty.inst.{}.queue", owner.id()),
        format!("minotty.inst.{}.p.notanumber", owner.id()),
        wire::HEARTBEAT.to_owned(),
    ] {
        other
            .publish(subject, b"\xff{not json".to_vec().into())
            .await
            .expect("publish");
    }

    let req = JoinReq {
        inst: "x".into(),
        mid: 7,
        name: format!("bob\u{1b}[2J{}", "x".repeat(100)),
        account: None,
        spectate: false,
        address: None,
        // Its instance says bob lets others watch: the owner's Live list may list the match.
        watchable: true,
    };
    let subject = wire::join_subject(&room.code);
    let reply = other
        .request(subject.clone(), sealed(&x, &subject, &req).into())
        .await
        .expect("the owner answers");
    let Some(JoinRep::Ok { pid }) = wire::decode(&reply.subject, &opened(&x, &reply)) else {
        panic!("not admitted: {:?}", reply.payload);
    };
    let bob = minotty_server::versus::MemberId(pid);
    assert!(
        hub.is_watchable(bob),
        "the join's watch setting reached the owner's hub"
    );
    // The other instance's session hears it is linked, then the room.
    let mut linked = false;
    let mut seated = false;
    while !(linked && seated) {
        let msg = tokio::time::timeout(Duration::from_secs(5), inbox.next())
            .await
            .expect("news for the member")
            .expect("subscription");
        match wire::decode::<ToMember>(&msg.subject, &opened(&x, &msg)).expect("decodes") {
            ToMember::Linked { code, inst, pid: p } => {
                assert_eq!(
                    (code.as_str(), inst.as_str(), p),
                    (room.code.as_str(), owner.id(), pid)
                );
                linked = true;
            }
            ToMember::Response(Relay::Room(v)) => {
                assert_eq!(v.seats.len(), 2);
                // The typed name is sanitised and cut before anyone draws it.
                let name = &v.seats[1].name;
                assert!(
                    !name.contains('\u{1b}') && name.starts_with("bob"),
                    "{name:?}"
                );
                assert!(name.chars().count() <= 17, "{name:?}");
                seated = true;
            }
            _ => {}
        }
    }
    room_view(&mut host_rx, "bob seated", |v| v.seats.len() == 2).await;

    // The owner seats at most `max_proxies_per_peer` members of one other instance (1 here).
    let more = JoinReq {
        mid: 8,
        spectate: true,
        address: None,
        watchable: false,
        ..req.clone()
    };
    let reply = other
        .request(subject.clone(), sealed(&x, &subject, &more).into())
        .await
        .expect("the owner answers");
    assert!(
        matches!(
            wire::decode(&reply.subject, &opened(&x, &reply)),
            Some(JoinRep::Refused { .. })
        ),
        "{:?}",
        reply.payload
    );

    // A join whose instance id would inject a protocol line (`SUB injected.proof`) into the
    // owner's publishes is dropped, even sealed with the key: never answered, never formatted
    // into a subject.
    let bad_part = checks::dropped_count(DropReason::BadSubjectPart);
    let inject = JoinReq {
        inst: "x\r\nSUB injected.proof 1\r\n".into(),
        mid: 9,
        ..req.clone()
    };
    let answer = tokio::time::timeout(
        Duration::from_secs(2),
        other.request(subject.clone(), sealed(&x, &subject, &inject).into()),
    )
    .await;
    assert!(!matches!(answer, Ok(Ok(_))), "answered: {answer:?}");
    wait_for_count(DropReason::BadSubjectPart, bad_part + 1).await;

    // A room code from another instance is read as a `RoomCode` (issue 27): one that is not a
    // code as servers write them (too long, a control character, the wrong alphabet, lower
    // case) makes its message malformed, dropped and counted like any malformed message; a
    // join on a subject whose code part is not a code is dropped as a bad subject part. A
    // well-formed code (to a session that is not here) is neither.
    let malformed = checks::dropped_count(DropReason::Malformed);
    let bad_part = checks::dropped_count(DropReason::BadSubjectPart);
    let to_member = format!("minotty.inst.{}.m.1", owner.id());
    let linked = |code: &str| serde_json::json!({"Linked": {"code": code, "inst": "x", "pid": 1}});
    let mut bodies = vec![linked(room.code.as_str())];
    for bad in [
        "K7PQ3MK7PQ3M",
        "K7PQ3\r\nSUB injected.proof 1",
        "K0OIL1",
        "k7pq3m",
    ] {
        bodies.push(linked(bad));
    }
    bodies.push(serde_json::json!({"Unlinked": {"code": "K7PQ3\u{1b}"}}));
    for body in &bodies {
        other
            .publish(to_member.clone(), sealed(&x, &to_member, body).into())
            .await
            .expect("publish");
    }
    for part in ["k7pq3m", "K7PQ3MX", "K0OIL1"] {
        let subject = format!("minotty.room.{part}.join");
        other
            .publish_with_reply(
                subject.clone(),
                "x.reply",
                sealed(&x, &subject, &req).into(),
            )
            .await
            .expect("publish");
    }
    wait_for_count(DropReason::Malformed, malformed + 5).await;
    wait_for_count(DropReason::BadSubjectPart, bad_part + 3).await;
    // The good code was read first (one subscription, in order): not counted.
    assert_eq!(checks::dropped_count(DropReason::Malformed), malformed + 5);
    assert_eq!(
        checks::dropped_count(DropReason::BadSubjectPart),
        bad_part + 3
    );

    // The member's messages reach the room through its proxy; the same sealed message
    // published again is a replay, dropped.
    let ready = ToProxy::Room(WireRoom::Command(RoomCommand::Ready { ready: true }));
    let proxy = wire::proxy_subject(owner.id(), minotty_server::versus::MemberId(pid));
    let ready_bytes = sealed(&x, &proxy, &ready);
    let stale = checks::dropped_count(DropReason::Stale);
    for _ in 0..2 {
        other
            .publish(proxy.clone(), ready_bytes.clone().into())
            .await
            .expect("publish");
    }
    wait_for_count(DropReason::Stale, stale + 1).await;
    room_view(&mut host_rx, "bob ready", |v| {
        v.seats.len() == 2 && v.seats[1].ready
    })
    .await;
    assert_eq!(owner.instances(), 2);
    assert!(owner.nats_rtt().is_some());

    // Instance x falls silent: after the dead time its member leaves the room.
    room_view(&mut host_rx, "bob gone with his instance", |v| {
        v.seats.len() == 1
    })
    .await;
    assert_eq!(owner.instances(), 1);
    // The proxy is gone, and so is what the owner kept of bob's setting.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while hub.is_watchable(bob) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        !hub.is_watchable(bob),
        "a gone proxy's watch setting is forgotten"
    );
}
