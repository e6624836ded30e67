//! The list of open rooms: a room is on it only while its host lists it, it is in its lobby
//! and it has a free seat; it goes when unlisted, full, started or closed; a list is bounded.

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_protocol::OpenRoomEntry;
use minotty_ui::{Request, Response};

use super::{Client, battle, room_of};
use minotty_domain::RoomCode;

/// The `i`-th room code (distinct for every `i` below 31^6).
fn numbered(i: usize) -> RoomCode {
    RoomCode::from_positions(std::array::from_fn(|d| i / 31usize.pow(d as u32) % 31))
}
use crate::services::versus::SharedVersus;
use crate::versus::open_rooms::{self, MAX_OPEN_LISTED, MAX_OPEN_PER_NETWORK};
use minotty_domain::ClientAddr;

fn addr(s: &str) -> Option<ClientAddr> {
    Some(s.parse().expect("an address"))
}

/// Waits (generously) until the directory holds what `f` wants, and returns it.
async fn listed_until(
    shared: &SharedVersus,
    f: impl Fn(&[OpenRoomEntry]) -> bool,
) -> Vec<OpenRoomEntry> {
    for _ in 0..3000 {
        let entries = shared.hub().open_rooms.entries();
        if f(&entries) {
            return entries;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "the open rooms never became as expected: {:?}",
        shared.hub().open_rooms.entries()
    );
}

/// What a player asking for the list is told.
async fn open_rooms(c: &mut Client) -> Vec<OpenRoomEntry> {
    c.send(Request::OpenRooms);
    c.wait(|r| match r {
        Response::OpenRooms(list) => Some(list),
        _ => None,
    })
    .await
}

#[tokio::test(start_paused = true)]
async fn a_room_is_listed_only_while_its_host_lists_it_in_the_lobby_with_a_free_seat() {
    let shared = SharedVersus::default();
    let (mut c, code) = room_of(&shared, battle(3), &["ann", "bob"]).await;
    let mut eve = Client::new(&shared, "eve", None);

    // Private by default: nobody sees it.
    assert!(!c[0].room().await.listed);
    assert_eq!(open_rooms(&mut eve).await, []);

    // Only the host lists it.
    c[1].send(Request::Room(RoomCommand::SetListed { listed: true }));
    let notice = c[1]
        .wait(|r| match r {
            Response::Notice { message } => Some(message),
            _ => None,
        })
        .await;
    assert!(notice.contains("host"), "{notice}");
    assert_eq!(open_rooms(&mut eve).await, []);

    c[0].send(Request::Room(RoomCommand::SetListed { listed: true }));
    c[0].wait(|r| matches!(r, Response::Room(v) if v.listed).then_some(()))
        .await;
    listed_until(&shared, |e| e.len() == 1).await;
    let list = open_rooms(&mut eve).await;
    assert_eq!(
        list,
        [OpenRoomEntry {
            code: code.clone(),
            host: "ann".into(),
            kind: minotty_engine::versus::MatchKind::Battle,
            players: 2,
            seats: 3,
        }]
    );

    // Full: off the list; a seat frees: back on it.
    eve.send(Request::JoinRoom {
        code: code.clone(),
        spectate: false,
    });
    eve.room().await;
    listed_until(&shared, <[_]>::is_empty).await;
    assert_eq!(open_rooms(&mut c[0]).await, []);
    eve.send(Request::LeaveRoom);
    listed_until(&shared, |e| e.len() == 1 && e[0].players == 2).await;

    // Started: off the list.
    c[1].send(Request::Room(RoomCommand::Ready { ready: true }));
    super::start(&mut c).await;
    listed_until(&shared, <[_]>::is_empty).await;
    assert_eq!(open_rooms(&mut eve).await, []);
}

#[tokio::test(start_paused = true)]
async fn an_unlisted_or_closed_room_leaves_the_list() {
    let shared = SharedVersus::default();
    let (mut c, _code) = room_of(&shared, battle(2), &["ann"]).await;
    c[0].send(Request::Room(RoomCommand::SetListed { listed: true }));
    listed_until(&shared, |e| e.len() == 1).await;
    c[0].send(Request::Room(RoomCommand::SetListed { listed: false }));
    c[0].wait(|r| matches!(r, Response::Room(v) if !v.listed).then_some(()))
        .await;
    listed_until(&shared, <[_]>::is_empty).await;

    c[0].send(Request::Room(RoomCommand::SetListed { listed: true }));
    listed_until(&shared, |e| e.len() == 1).await;
    // The last player goes: the room closes and its entry with it.
    drop(c);
    listed_until(&shared, <[_]>::is_empty).await;
    assert_eq!(shared.hub().room_count(), 0);
}

#[tokio::test(start_paused = true)]
async fn a_ranked_room_is_never_listed() {
    let shared = SharedVersus::default();
    let mut a = Client::new(&shared, "ann", Some(1));
    let mut b = Client::new(&shared, "bob", Some(2));
    a.send(Request::QuickMatch);
    b.send(Request::QuickMatch);
    a.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
        .await;
    for c in [&mut a, &mut b] {
        c.send(Request::Room(RoomCommand::SetListed { listed: true }));
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(shared.hub().open_rooms.is_empty());
}

#[test]
fn a_list_sends_at_most_fifty_rooms_and_a_dropped_listing_is_gone() {
    let rooms = open_rooms::OpenRooms::default();
    let listings: Vec<_> = (0..MAX_OPEN_LISTED + 10)
        .map(|i| {
            let host = addr(&format!("10.{}.{}.1", i / 256, i % 256));
            rooms.list(open_rooms::entry(&numbered(i), "ann", battle(2), 1), host)
        })
        .collect();
    assert_eq!(rooms.len(), MAX_OPEN_LISTED + 10);
    let sent = rooms.entries();
    assert_eq!(sent.len(), MAX_OPEN_LISTED);
    assert_eq!(sent[0].code, numbered(0).as_str(), "the oldest first");
    drop(listings);
    assert!(rooms.is_empty());
}

/// The attacker of issue 35: 50 lobbies listed from one /24 (in both address forms of a
/// `[::]` listener), then a real host lists a room. Before, the list was the oldest 50: the
/// crowd's, and the real room was never shown. Now a network shows at most its share, in
/// turns with every other network, and the real host's room is on the list.
#[test]
fn a_crowd_of_lobbies_from_one_network_never_hides_another_hosts_room() {
    let rooms = open_rooms::OpenRooms::default();
    let crowd: Vec<_> = (0..50usize)
        .map(|i| {
            let host = if i.is_multiple_of(2) {
                format!("198.51.100.{i}")
            } else {
                format!("::ffff:198.51.100.{i}")
            };
            rooms.list(
                open_rooms::entry(&numbered(i), "~crowd", battle(2), 1),
                addr(&host),
            )
        })
        .collect();
    let _real = rooms.list(
        open_rooms::entry(&numbered(999), "ann", battle(2), 1),
        addr("203.0.113.5"),
    );
    let sent = rooms.entries();
    assert!(
        sent.iter().any(|e| e.code == numbered(999).as_str()),
        "the real host's room is listed: {sent:?}"
    );
    let of_crowd = sent.iter().filter(|e| e.host == "~crowd").count();
    assert_eq!(of_crowd, MAX_OPEN_PER_NETWORK, "one network's share");
    // Round robin: the real room comes second, after the crowd's oldest.
    assert_eq!(sent[1].code, numbered(999).as_str());
    // An IPv6 crowd shares by /56: a /64 of its own for each lobby changes nothing.
    let v6: Vec<_> = (0..20)
        .map(|i| {
            let host = addr(&format!("2001:db8:0:{i:x}::1"));
            rooms.list(
                open_rooms::entry(&numbered(100 + i), "~v6", battle(2), 1),
                host,
            )
        })
        .collect();
    let sent = rooms.entries();
    assert_eq!(
        sent.iter().filter(|e| e.host == "~v6").count(),
        MAX_OPEN_PER_NETWORK
    );
    assert!(sent.iter().any(|e| e.code == numbered(999).as_str()));
    drop((crowd, v6));
}
