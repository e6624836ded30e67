//! End to end over SSH: the operator configured `minotty-bot` as a TBP bot; a host sees it by
//! name in their room's lobby, seats it, starts, and watches its board fill on their screen;
//! the server stops and the bot's process with it.

mod common;

use std::time::Duration;

use common::{BOT, settings};
use minotty_server::Limits;
use minotty_tbp::frontend::{BotSpec, TbpBots, TbpSettings};
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::versus::{create_room, fields, guest, wait_for_play};
use minotty_tests::{TestServer, WAIT};

#[tokio::test]
async fn a_host_seats_the_tbp_bot_over_ssh_and_sees_it_play() {
    let spec: BotSpec = format!("minotty={BOT}").parse().expect("a spec");
    let tbp = TbpBots::new(
        vec![spec],
        TbpSettings {
            min_piece: Duration::from_millis(100),
            ..settings(3000)
        },
        2,
    );
    let mut server = TestServer::start_with_tbp(Limits::default(), tbp.clone())
        .await
        .expect("server starts");
    let (_conn, mut ann) = guest(server.addr, "ann").await.expect("ann");
    create_room(&mut ann, false, 2).await.expect("room");
    ann.wait_for_text("+/- bot", WAIT)
        .await
        .expect("the host can pick among more than the levels");
    // Level 3, then 4 to 7, then the first TBP bot.
    for _ in 0..5 {
        ann.send(&kitty_tap(KittyKey::Char('+')))
            .await
            .expect("send");
    }
    ann.wait_for_text("b add a bot (minotty, TBP)", WAIT)
        .await
        .expect("the bot by its name");
    ann.send(&kitty_tap(KittyKey::Char('b')))
        .await
        .expect("send");
    ann.wait_for_text("Bot minotty", WAIT)
        .await
        .expect("the bot takes the seat");
    assert_eq!(tbp.running(), 1, "its process runs");
    ann.send(&kitty_tap(K_ENTER)).await.expect("send");
    wait_for_play(&mut ann).await.expect("the match starts");
    let before = fields(ann.screen()).get(1).map_or(0, |f| f.filled());
    ann.wait_until(
        "the bot's board to fill",
        Duration::from_secs(30),
        |screen| {
            fields(screen)
                .get(1)
                .is_some_and(|f| f.filled() >= before + 12)
        },
    )
    .await
    .expect("the bot plays");
    // The server stops mid-match: the bot's process goes with its room.
    server
        .stop(Duration::from_secs(30))
        .await
        .expect("the server stops");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while tbp.running() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(tbp.running(), 0, "no bot process left");
}
