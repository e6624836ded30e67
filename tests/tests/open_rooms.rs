//! The list of open rooms over SSH with real russh clients: a host lists their room from the
//! lobby, another player finds it under "Open rooms" and joins it with Enter; a room that is
//! not listed is not shown.

use std::time::Duration;

use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::versus::{create_room, guest, versus_item};
use minotty_tests::{TestServer, WAIT};

/// The versus menu's "Open rooms" entry.
const OPEN_ROOMS: usize = 4;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_listed_room_is_found_under_open_rooms_and_joined_with_enter() {
    let server = TestServer::start().await.expect("server starts");
    let (_ca, mut ann) = guest(server.addr, "ann").await.expect("ann");
    let code = create_room(&mut ann, false, 2).await.expect("room");
    ann.wait_for_text("Private: join by code", WAIT)
        .await
        .expect("private by default");

    // Not listed yet: bob sees no room.
    let (_cb, mut bob) = guest(server.addr, "bob").await.expect("bob");
    versus_item(&mut bob, OPEN_ROOMS).await.expect("open rooms");
    bob.wait_for_text("No open rooms", WAIT)
        .await
        .expect("nothing listed");
    assert!(!bob.contents().contains(&code), "{}", bob.contents());

    // Ann lists it; bob's list shows it on its next refresh (every 2 s).
    ann.send(&kitty_tap(KittyKey::Char('l'))).await.expect("l");
    ann.wait_for_text("Listed: anyone can join from Open rooms", WAIT)
        .await
        .expect("listed");
    bob.wait_until("the room listed", WAIT, |s| {
        let t = s.contents();
        t.contains(&code) && t.contains("ann") && t.contains("1/2")
    })
    .await
    .expect("bob sees ann's room");

    // Enter joins it: both are in the lobby, full (so it leaves the list).
    bob.send(&kitty_tap(K_ENTER)).await.expect("enter");
    bob.wait_for_text(&format!("ROOM {code}"), WAIT)
        .await
        .expect("bob in the lobby");
    ann.wait_until("bob seated", WAIT, |s| {
        let t = s.contents();
        t.contains("bob") && t.contains("2/2 players")
    })
    .await
    .expect("ann sees bob");
    let (_cc, mut cy) = guest(server.addr, "cy").await.expect("cy");
    versus_item(&mut cy, OPEN_ROOMS).await.expect("open rooms");
    cy.wait_for_text("No open rooms", WAIT)
        .await
        .expect("a full room is not listed");
    cy.pump_for(Duration::from_millis(2_500)).await;
    assert!(!cy.contents().contains(&code), "{}", cy.contents());
}
