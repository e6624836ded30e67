//! Match replays over SSH with real russh clients: a short ranked 1v1 (bob's connection drops,
//! ann wins), stored with every seat; then `ssh -t HOST replay m1` opens the viewer with both
//! boards, `replay m1 --cast` exports it, and a bad id is explained.

use std::time::Duration;

use minotty_server::Limits;
use minotty_tests::versus::{exec_output, exec_pty, ranked_pair};
use minotty_tests::{Connection, Login, TestServer, WAIT};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_played_over_ssh_is_watched_and_exported_with_every_seat() {
    let mut server = TestServer::start_with(Limits {
        versus_seed: Some(7),
        bots: minotty_server::versus::bot::BotLimits {
            ranked_same_address: true,
            ..Default::default()
        },
        ..Limits::default()
    })
    .await
    .expect("server starts");
    let ((_ca, mut ann), (cb, _bob)) = ranked_pair(server.addr, server.addr)
        .await
        .expect("ann and bob paired for ranked");
    cb.close().await;
    ann.wait_for_text("You win!", WAIT).await.expect("ann wins");
    // Stored (after the replays' grace): ann's seat with its replay judged.
    let store = server.store().await.expect("store");
    let deadline = tokio::time::Instant::now() + WAIT;
    let seats = loop {
        let seats = store
            .match_players(minotty_store::MatchId(1))
            .await
            .expect("seats");
        if !seats.is_empty() || tokio::time::Instant::now() > deadline {
            break seats;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(seats.len(), 2, "{seats:?}");
    assert_eq!(seats[0].replay_check.as_deref(), Some("verified"));

    // A ranked match: anyone may watch it, a guest too.
    let conn = Connection::open(server.addr, "eve", Login::Guest)
        .await
        .expect("connects");
    let mut viewer = exec_pty(&conn, "replay m1").await.expect("replay m1");
    viewer
        .wait_for_text("MATCH REPLAY", WAIT)
        .await
        .expect("the viewer opens");
    viewer
        .wait_for_text("ranked battle", WAIT)
        .await
        .expect("its kind");
    let text = viewer.contents();
    assert!(text.contains("ann") && text.contains("bob"), "{text}");
    let cast = exec_output(&conn, "replay m1 --cast")
        .await
        .expect("export");
    assert!(
        cast.contains("versus match m1"),
        "{}",
        &cast[..cast.len().min(400)]
    );
    let bad = exec_output(&conn, "replay mgarbage").await.expect("reply");
    assert!(bad.contains("is not a match ID"), "{bad}");
    let none = exec_output(&conn, "replay m99 --cast")
        .await
        .expect("reply");
    assert!(none.contains("no match m99"), "{none}");
    server.stop(Duration::from_secs(10)).await.expect("stops");
}
