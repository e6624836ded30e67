//! Versus over SSH: out of a match of three (a forfeit) while the others play on, the player
//! leaves with Esc; the match goes on for the others and ends as it would have.

use std::time::Duration;

use minotty_tests::WAIT;
use minotty_tests::autoplay::{K_ENTER, K_ESC, KittyKey, kitty_tap};
use minotty_tests::versus::{create_room, guest, join_room, wait_for_play};
use minotty_tests::{PtySession, TestServer};

async fn tap(s: &mut PtySession, key: KittyKey) {
    s.send(&kitty_tap(key)).await.expect("send");
}

/// Forfeits from the prompt (Esc, then y).
async fn forfeit(s: &mut PtySession) {
    tap(s, K_ESC).await;
    s.wait_for_text("y forfeit", WAIT)
        .await
        .expect("the prompt");
    tap(s, KittyKey::Char('y')).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_out_of_a_match_of_three_leaves_and_the_others_play_on() {
    let server = TestServer::start().await.expect("server starts");
    let (_ca, mut ann) = guest(server.addr, "ann").await.expect("ann");
    let code = create_room(&mut ann, false, 3).await.expect("room");
    let (_cb, mut bob) = guest(server.addr, "bob").await.expect("bob");
    let (_cc, mut cid) = guest(server.addr, "cid").await.expect("cid");
    for s in [&mut bob, &mut cid] {
        join_room(s, &code, false).await.expect("joins");
        tap(s, KittyKey::Char('r')).await;
    }
    ann.wait_until("both ready", WAIT, |s| {
        s.contents().matches("READY").count() >= 2
    })
    .await
    .expect("ready shown");
    tap(&mut ann, K_ENTER).await;
    for s in [&mut ann, &mut bob, &mut cid] {
        wait_for_play(s).await.expect("plays");
    }

    forfeit(&mut bob).await;
    bob.wait_for_text("Esc leave", WAIT)
        .await
        .expect("bob is told how to leave");
    // Enter and game keys leave nothing.
    tap(&mut bob, K_ENTER).await;
    tap(&mut bob, KittyKey::Char(' ')).await;
    bob.pump_for(Duration::from_millis(300)).await;
    assert!(bob.contents().contains("Esc leave"), "{}", bob.contents());
    tap(&mut bob, K_ESC).await;
    bob.wait_for_text("the match goes on", WAIT)
        .await
        .expect("bob left, told the match goes on");
    assert!(!bob.contents().contains("loss"), "{}", bob.contents());

    // ann and cid still play; cid forfeits too: ann wins.
    cid.pump_for(Duration::from_millis(300)).await;
    assert!(
        !cid.contents().contains("MATCH RESULTS"),
        "{}",
        cid.contents()
    );
    forfeit(&mut cid).await;
    ann.wait_for_text("You win!", WAIT).await.expect("ann wins");
    // bob, gone, is shown no results.
    bob.pump_for(Duration::from_millis(500)).await;
    assert!(
        !bob.contents().contains("MATCH RESULTS"),
        "{}",
        bob.contents()
    );
}
