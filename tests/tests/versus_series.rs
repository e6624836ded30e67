//! A series over SSH with real russh clients: the host of a room makes it first to 3 on the
//! room's settings screen, the guest sees it in the lobby, and three games follow each other
//! with the running score on the results between them until the series is won. Across two
//! instances: the host's setting on A reaches a player on B over NATS, and B's player sees the
//! series' score after a game.

use std::time::Duration;

use minotty_server::Limits;
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::cluster::two_instances;
use minotty_tests::series::{flat, set_first_to, top_out, wait_for_series};
use minotty_tests::versus::{create_room, guest, join_room, wait_for_play};
use minotty_tests::{PtySession, TestServer, WAIT};

/// The guest readies up, the host starts; both wait until they play.
async fn ready_and_start(host: &mut PtySession, guest: &mut PtySession) {
    guest
        .send(&kitty_tap(KittyKey::Char('r')))
        .await
        .expect("ready");
    host.wait_for_text("READY", WAIT)
        .await
        .expect("guest ready");
    host.send(&kitty_tap(K_ENTER)).await.expect("start");
    wait_for_play(host).await.expect("host plays");
    wait_for_play(guest).await.expect("guest plays");
}

/// Both ask for the next game from the results (past the results' grace for stray keys).
async fn next_game(host: &mut PtySession, guest: &mut PtySession) {
    for p in [&mut *host, &mut *guest] {
        p.pump_for(Duration::from_millis(800)).await;
        p.send(&kitty_tap(KittyKey::Char('r')))
            .await
            .expect("rematch");
    }
    wait_for_play(host).await.expect("host plays the next game");
    wait_for_play(guest)
        .await
        .expect("guest plays the next game");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_to_three_series_is_played_over_ssh_to_its_end() {
    let mut server = TestServer::start_with(Limits {
        versus_seed: Some(7),
        ..Limits::default()
    })
    .await
    .expect("server starts");
    let (_ca, mut ann) = guest(server.addr, "ann").await.expect("ann");
    let code = create_room(&mut ann, false, 2).await.expect("a room");
    set_first_to(&mut ann, 3).await.expect("first to 3");
    let (_cb, mut bob) = guest(server.addr, "bob").await.expect("bob");
    join_room(&mut bob, &code, false).await.expect("bob joins");
    bob.wait_for_text("First to 3", WAIT)
        .await
        .expect("the guest sees the setting before Ready");
    ready_and_start(&mut ann, &mut bob).await;
    for game in 1..=3u32 {
        let bobs = top_out(&mut bob).await.expect("bob tops out");
        let anns = wait_for_series(&mut ann, &format!("ann {game} - "))
            .await
            .expect("ann's results show the score");
        assert!(anns.contains("bob 0"), "{anns}");
        if game < 3 {
            assert!(
                anns.contains("first to 3") && !anns.contains("wins the series"),
                "{anns}"
            );
            assert!(bobs.contains("Series:"), "{bobs}");
            next_game(&mut ann, &mut bob).await;
        } else {
            assert!(anns.contains("ann wins the series!"), "{anns}");
            let bobs = wait_for_series(&mut bob, "wins the series!")
                .await
                .expect("bob is told too");
            assert!(bobs.contains("ann 3 - "), "{bobs}");
        }
    }
    server.stop(Duration::from_secs(10)).await.expect("stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hosts_setting_crosses_instances_and_the_series_score_comes_back() {
    let Some((shared, mut a, mut b)) = two_instances(
        "a_hosts_setting_crosses_instances_and_the_series_score_comes_back",
        Some(7),
        Duration::from_secs(30),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };
    let (_ca, mut ann) = guest(a.addr, "ann").await.expect("ann on A");
    let (_cb, mut bob) = guest(b.addr, "bob").await.expect("bob on B");
    let code = create_room(&mut ann, false, 2).await.expect("a room on A");
    join_room(&mut bob, &code, false)
        .await
        .expect("bob joins A's room from B");
    bob.wait_for_text("One game", WAIT)
        .await
        .expect("bob sees today's settings");
    set_first_to(&mut ann, 3).await.expect("first to 3");
    bob.wait_for_text("First to 3", WAIT)
        .await
        .expect("the setting reaches B over NATS");
    // B's player reads the settings screen: the host's value, read-only.
    bob.send(&kitty_tap(KittyKey::Char('o')))
        .await
        .expect("settings");
    bob.wait_for_text("Only the host changes these", WAIT)
        .await
        .expect("read-only for bob");
    assert!(
        flat(&bob).contains("First to 3 games"),
        "{}",
        bob.contents()
    );
    bob.send(&kitty_tap(KittyKey::Char('o')))
        .await
        .expect("back");
    bob.wait_for_text("First to 3", WAIT)
        .await
        .expect("the lobby");
    ready_and_start(&mut ann, &mut bob).await;
    top_out(&mut bob).await.expect("bob tops out");
    let bobs = wait_for_series(&mut bob, "first to 3)")
        .await
        .expect("the score reaches B");
    assert!(
        bobs.contains("ann 1 - ") && bobs.contains("bob 0"),
        "{bobs}"
    );
    a.stop().await.expect("A stops");
    b.stop().await.expect("B stops");
    shared.release().await.expect("drops the database");
}
