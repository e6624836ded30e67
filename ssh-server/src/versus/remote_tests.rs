//! The hub with another instance behind [`RemoteRooms`] (a recording stand-in for the
//! cluster): what versus asks of other instances, and when.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use minotty_engine::versus::MatchKind;
use minotty_protocol::{RoomLimit, RoomSettings};
use minotty_ui::{Request, Response};
use tokio::sync::{mpsc, watch};

use super::{Member, MemberId, QueueAction, RemoteJoin, RemoteRooms, SessionTx, lock};
use crate::services::Who;
use crate::services::versus::{SharedVersus, VersusClient};
use minotty_domain::{AccountRef, PlayerId};

/// What the stand-in was asked.
#[derive(Debug, Default)]
struct Recorded {
    joins: Vec<(MemberId, String, bool, bool)>,
    queue_joins: Vec<MemberId>,
    to_queue: Vec<(MemberId, QueueAction)>,
}

#[derive(Debug, Default)]
struct Elsewhere {
    prefix: Option<u8>,
    leads: bool,
    draining: AtomicBool,
    remote_member: Option<MemberId>,
    recorded: Mutex<Recorded>,
    stopped: AtomicBool,
}

impl RemoteRooms for Elsewhere {
    fn code_prefix(&self) -> Option<u8> {
        self.prefix
    }
    fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Relaxed)
    }
    fn is_remote_member(&self, id: MemberId) -> bool {
        self.remote_member == Some(id)
    }
    fn leads_queue(&self) -> bool {
        self.leads
    }
    fn join(&self, join: RemoteJoin, _failed: Box<dyn FnOnce() + Send>) {
        let joins = &mut lock(&self.recorded).joins;
        joins.push((
            join.member.id,
            join.code.into_string(),
            join.spectate,
            join.watchable,
        ));
    }
    fn queue_join(&self, member: Member, _address: Option<std::net::IpAddr>, _watchable: bool) {
        lock(&self.recorded).queue_joins.push(member.id);
    }
    fn to_queue(&self, id: MemberId, action: QueueAction) -> bool {
        let mut recorded = lock(&self.recorded);
        // Only a session the stand-in queued waits there.
        if !recorded.queue_joins.contains(&id) {
            return false;
        }
        recorded.to_queue.push((id, action));
        true
    }
    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }
}

fn client(shared: &SharedVersus, account: i64) -> (VersusClient, mpsc::Receiver<Response>) {
    let (tx, rx) = mpsc::channel(256);
    let (_keep, registered) = watch::channel(Some(AccountRef {
        id: PlayerId(account),
        name: format!("p{account}"),
    }));
    let who = Who {
        ssh_user: format!("p{account}"),
        identity: crate::services::Identity::Guest,
        peer: std::net::IpAddr::from(std::net::Ipv4Addr::new(10, 0, 0, 1)).into(),
        account: registered,
    };
    (VersusClient::new(shared, who, tx), rx)
}

fn shared_with(remote: &Arc<Elsewhere>) -> SharedVersus {
    let remote: Arc<dyn RemoteRooms> = remote.clone();
    SharedVersus::default().with_remote(Some(remote))
}

#[tokio::test(start_paused = true)]
async fn codes_start_with_the_instances_character_and_unknown_codes_are_asked_elsewhere() {
    let remote = Arc::new(Elsewhere {
        prefix: Some(b'K'),
        ..Elsewhere::default()
    });
    let shared = shared_with(&remote);
    let hub = Arc::clone(shared.hub());
    for _ in 0..20 {
        let (tx, _rx) = mpsc::channel(16);
        let host = Member {
            id: hub.next_member(),
            name: "host".into(),
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
        assert!(room.code.as_str().starts_with('K'), "{}", room.code);
        assert!(minotty_domain::room_code::normalize(room.code.as_str()).is_some());
    }

    let (mut ann, _rx) = client(&shared, 1);
    ann.handle(Request::JoinRoom {
        code: "zz2345".into(),
        spectate: true,
    });
    let joins = std::mem::take(&mut lock(&remote.recorded).joins);
    assert_eq!(
        joins,
        vec![(ann.member_id(), "ZZ2345".to_owned(), true, true)],
        "asked elsewhere, normalised, with the player's watch setting"
    );
}

#[tokio::test(start_paused = true)]
async fn a_follower_queues_at_the_leader_and_its_ways_out_go_there() {
    let remote = Arc::new(Elsewhere::default());
    let shared = shared_with(&remote);
    let hub = Arc::clone(shared.hub());
    let (mut ann, _rx) = client(&shared, 1);
    ann.handle(Request::QuickMatch);
    assert_eq!(lock(&remote.recorded).queue_joins, vec![ann.member_id()]);
    // The leader holds the ranked claim: none is held here.
    let claim = hub.claim_ranked(PlayerId(1)).expect("released here");
    hub.release_ranked(claim);
    ann.handle(Request::CancelQuickMatch);
    assert_eq!(
        lock(&remote.recorded).to_queue,
        vec![(ann.member_id(), QueueAction::Cancel)]
    );

    // Draining elsewhere is draining here; a remote member is known as one.
    assert!(!hub.is_draining());
    remote.draining.store(true, Ordering::Relaxed);
    assert!(hub.is_draining());
    assert!(!hub.is_remote_member(ann.member_id()));

    // The hub's shutdown stops the remote side.
    assert!(!remote.stopped.load(Ordering::Relaxed));
    hub.shutdown(Duration::from_secs(1)).await;
    assert!(remote.stopped.load(Ordering::Relaxed));
}

#[tokio::test(start_paused = true)]
async fn the_leader_queues_its_own_players_itself() {
    let remote = Arc::new(Elsewhere {
        leads: true,
        ..Elsewhere::default()
    });
    let shared = shared_with(&remote);
    let (mut ann, mut rx) = client(&shared, 1);
    ann.handle(Request::QuickMatch);
    let queued = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(r) = rx.recv().await {
            if matches!(r, Response::Queued { .. }) {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(queued, Ok(true));
    assert!(lock(&remote.recorded).queue_joins.is_empty());
    // Its claim is held here, by this queue.
    assert!(shared.hub().claim_ranked(PlayerId(1)).is_none());
}
