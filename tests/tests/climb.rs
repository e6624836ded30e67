//! The climb over SSH with real russh clients: ann picks Climb in the versus menu and climbs
//! beside two bots; bob drops in mid-way with `ssh -t HOST join UPWARD` (a bot gives him its
//! place); ann tops out, is told how high she climbed, and climbs again with Enter; bob
//! forfeits his run and leaves, and his board goes from ann's screen.

use std::time::Duration;

use minotty_server::Limits;
use minotty_tests::autoplay::{K_ENTER, K_ESC, KITTY_REPLY, KittyKey, kitty_tap};
use minotty_tests::versus::{
    drop_piece, exec_pty, fields, guest, registered, versus_item, wait_for_play,
};
use minotty_tests::{Connection, Login, TestServer, WAIT};

/// The flat text of the screen (words separated by single spaces).
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn climbers_drop_in_and_out_of_the_climb_over_ssh() {
    let server = TestServer::start_with(Limits {
        versus_seed: Some(5),
        ..Limits::default()
    })
    .await
    .expect("server starts");
    let (_ca, mut ann) = registered(server.addr, "ann").await.expect("ann");
    versus_item(&mut ann, 5).await.expect("Climb");
    ann.wait_for_text("CLIMB", WAIT).await.expect("the climb");
    ann.wait_for_text("floor 1 Ground", WAIT)
        .await
        .expect("the floor in the title");
    wait_for_play(&mut ann).await.expect("ann climbs");
    // Alone, with two bots to climb against.
    ann.wait_until("two bots' boards beside ann's", WAIT, |s| {
        fields(s).len() >= 3 && s.contents().matches("Bot level 3").count() == 2
    })
    .await
    .expect("bots fill the climb");
    assert!(
        flat(&ann.contents()).contains("of 3"),
        "the place among 3 climbers:\n{}",
        ann.contents()
    );

    // bob drops in by the climb's code, from his shell.
    let bob_conn = Connection::open(server.addr, "bob", Login::Guest)
        .await
        .expect("bob connects");
    let mut bob = exec_pty(&bob_conn, "join UPWARD")
        .await
        .expect("join UPWARD");
    bob.send(KITTY_REPLY).await.expect("reply");
    bob.wait_for_text("CLIMB", WAIT).await.expect("bob climbs");
    wait_for_play(&mut bob).await.expect("bob plays");
    ann.wait_until("bob's board on ann's screen, one bot fewer", WAIT, |s| {
        let text = s.contents();
        text.contains("bob") && text.matches("Bot level 3").count() == 1
    })
    .await
    .expect("bob is in ann's climb");

    // ann tops out: how high, and Enter climbs again.
    for _ in 0..80 {
        if flat(&ann.contents()).contains("Enter climb again") {
            break;
        }
        drop_piece(&mut ann).await;
        ann.pump_for(Duration::from_millis(120)).await;
    }
    let over = flat(&ann.contents());
    assert!(
        over.contains("Climbed ") && over.contains("Enter climb again"),
        "{}",
        ann.contents()
    );
    ann.send(&kitty_tap(K_ENTER)).await.expect("climb again");
    ann.wait_until("ann's next run", WAIT, |s| {
        !flat(&s.contents()).contains("Enter climb again")
    })
    .await
    .expect("a new run");
    wait_for_play(&mut ann).await.expect("ann climbs again");

    // bob forfeits his run and leaves: his board goes from ann's screen.
    bob.send(&kitty_tap(K_ESC)).await.expect("esc");
    bob.wait_for_text("FORFEIT?", WAIT).await.expect("asked");
    bob.send(&kitty_tap(KittyKey::Char('y')))
        .await
        .expect("forfeit");
    bob.wait_for_text("Enter climb again", WAIT)
        .await
        .expect("bob's run ended");
    bob.send(&kitty_tap(K_ESC)).await.expect("leave");
    bob.wait_for_text("Quick match", WAIT)
        .await
        .expect("bob back in the versus menu");
    ann.wait_until("bob gone from ann's climb", WAIT, |s| {
        !s.contents().contains("bob") && s.contents().matches("Bot level 3").count() == 2
    })
    .await
    .expect("a bot takes bob's place");

    // The climb's board answers on the command line.
    let (conn, _s) = guest(server.addr, "cid").await.expect("cid");
    let out = conn
        .exec("leaderboard climb --period today", false)
        .await
        .expect("leaderboard climb");
    assert!(out.stdout.contains("Climb"), "{}", out.stdout);
}
