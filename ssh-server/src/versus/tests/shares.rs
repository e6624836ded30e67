//! Shares per client address of the pools every room draws from, played by an attacker who
//! opens rooms from one address (in both forms a `[::]` listener reports, `::ffff:a.b.c.d` and
//! `a.b.c.d`): built-in bot seats, TBP bot seats and a room's spectator places. Each time the
//! attacker gets its share and a player at another address still gets a place.

use minotty_protocol::RoomCommand;
use std::time::Duration;

use minotty_tbp::frontend::{BotSpec, TbpBots, TbpSettings};
use minotty_ui::{Request, Response};

use super::{Client, battle, room_of};
use crate::services::versus::SharedVersus;
use crate::versus::SPECTATORS_PER_ADDRESS;
use crate::versus::bot::BotLimits;

/// The attacker's address, in the form of the `i`-th connection.
fn attacker(i: usize) -> &'static str {
    if i.is_multiple_of(2) {
        "::ffff:198.51.100.9"
    } else {
        "198.51.100.9"
    }
}

/// A room of two created by a guest at `peer`, its lobby seen.
async fn host_at(shared: &SharedVersus, name: &str, peer: &str) -> Client {
    let mut c = Client::connected_from(shared, name, None, peer);
    c.send(Request::CreateRoom(battle(2)));
    c.room().await;
    c
}

/// The first notice `c` is sent, or the view of a room with `n` seats: `Ok(())` when seated.
async fn seated_or_told(c: &mut Client, n: usize) -> Result<(), String> {
    c.wait(|r| match r {
        Response::Room(v) if v.seats.len() == n => Some(Ok(())),
        Response::Notice { message } => Some(Err(message)),
        _ => None,
    })
    .await
}

/// Before: one address seated every bot of the server (all 64). Now its rooms hold its
/// share, and a host at another address seats one.
#[tokio::test(start_paused = true)]
async fn one_address_seats_its_share_of_bots_and_another_host_still_gets_one() {
    let limits = BotLimits {
        max_total: 12,
        per_address: 4,
        ..BotLimits::default()
    };
    let shared = SharedVersus::with_bots(None, Some(5), limits);
    let mut rooms = Vec::new();
    let mut told = Vec::new();
    for i in 0..8 {
        let mut c = host_at(&shared, &format!("evil{i}"), attacker(i)).await;
        c.send(Request::Room(RoomCommand::AddBot { level: 1 }));
        if let Err(message) = seated_or_told(&mut c, 2).await {
            told.push(message);
        }
        rooms.push(c);
    }
    assert_eq!(shared.hub().bots.active(), 4, "the address's share");
    assert_eq!(told.len(), 4, "{told:?}");
    assert!(
        told.iter().all(|m| m.contains("Your address has 4 bots")),
        "{told:?}"
    );
    let mut ann = host_at(&shared, "ann", "203.0.113.5").await;
    ann.send(Request::Room(RoomCommand::AddBot { level: 1 }));
    assert_eq!(seated_or_told(&mut ann, 2).await, Ok(()));
    assert_eq!(shared.hub().bots.active(), 5);
    // A room of the attacker closes: its bot's place comes back to the address.
    drop(rooms.remove(0));
    for _ in 0..100 {
        if shared.hub().bots.active() == 4 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut again = host_at(&shared, "evil9", attacker(9)).await;
    again.send(Request::Room(RoomCommand::AddBot { level: 1 }));
    assert_eq!(seated_or_told(&mut again, 2).await, Ok(()));
}

/// The same for the operator's TBP bots: before, one address (a room per connection, a bot
/// each) seated all of `--tbp-max-bots`; now it seats its share of them and another host
/// seats one. (No process runs: a TBP bot's process starts with its first match.)
#[tokio::test(start_paused = true)]
async fn one_address_seats_its_share_of_tbp_bots_and_another_host_still_gets_one() {
    let spec: BotSpec = "ext=true".parse().expect("a spec");
    let tbp = TbpBots::new(vec![spec], TbpSettings::default(), 4);
    let limits = BotLimits {
        tbp_per_address: 2,
        ..BotLimits::default()
    };
    let shared = SharedVersus::with_tbp(None, Some(5), limits, tbp.clone());
    let mut rooms = Vec::new();
    let mut told = Vec::new();
    for i in 0..4 {
        let mut c = host_at(&shared, &format!("evil{i}"), attacker(i)).await;
        c.send(Request::Room(RoomCommand::AddTbpBot { name: "ext".into() }));
        if let Err(message) = seated_or_told(&mut c, 2).await {
            told.push(message);
        }
        rooms.push(c);
    }
    assert_eq!(tbp.running(), 2, "the address's share of the slots");
    assert_eq!(told.len(), 2, "{told:?}");
    assert!(
        told.iter().all(|m| m.contains("2 external bot(s)")),
        "{told:?}"
    );
    let mut ann = host_at(&shared, "ann", "203.0.113.5").await;
    ann.send(Request::Room(RoomCommand::AddTbpBot { name: "ext".into() }));
    assert_eq!(seated_or_told(&mut ann, 2).await, Ok(()));
    assert_eq!(tbp.running(), 3);
}

/// Before: one address could take every spectator place of a room. Now it takes its share,
/// the next of its spectators is told why, and a spectator at another address gets in.
#[tokio::test(start_paused = true)]
async fn one_address_takes_its_share_of_a_rooms_spectator_places() {
    let shared = SharedVersus::default();
    let (_players, code) = room_of(&shared, battle(2), &["ann"]).await;
    let mut watchers = Vec::new();
    for i in 0..SPECTATORS_PER_ADDRESS {
        let mut c = Client::connected_from(&shared, &format!("w{i}"), None, attacker(i));
        c.send(Request::JoinRoom {
            code: code.clone(),
            spectate: true,
        });
        c.room().await;
        watchers.push(c);
    }
    let mut one_more = Client::connected_from(&shared, "w-last", None, attacker(1));
    one_more.send(Request::JoinRoom {
        code: code.clone(),
        spectate: true,
    });
    let refused = one_more.failed().await;
    assert!(refused.contains("from your address"), "{refused}");
    let mut other = Client::connected_from(&shared, "eve", None, "203.0.113.7");
    other.send(Request::JoinRoom {
        code: code.clone(),
        spectate: true,
    });
    let view = other.room().await;
    assert_eq!(view.spectators as usize, SPECTATORS_PER_ADDRESS + 1);
}
