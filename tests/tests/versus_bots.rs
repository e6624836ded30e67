//! Bots over SSH with real russh clients: a host adds a bot to their room, starts, and watches
//! the bot's board fill on their own screen; a player alone in the quick-match queue is
//! offered a bot match (after a wait shortened for the test) and plays it.

use std::time::Duration;

use minotty_server::Limits;
use minotty_server::versus::bot::BotLimits;
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::versus::{create_room, fields, guest, registered, versus_item, wait_for_play};
use minotty_tests::{PtySession, TestServer, WAIT};

async fn server(offer_after: Duration) -> TestServer {
    TestServer::start_with(Limits {
        bots: BotLimits {
            offer_after,
            ..BotLimits::default()
        },
        ..Limits::default()
    })
    .await
    .expect("server starts")
}

/// Waits until the opponent's playfield (the second on the screen) holds at least `cells`
/// filled cells: the bot's pieces reach the player's screen.
async fn bot_board_fills(s: &mut PtySession, cells: usize) {
    s.wait_until(
        "the bot's board to fill",
        Duration::from_secs(30),
        |screen| fields(screen).get(1).is_some_and(|f| f.filled() >= cells),
    )
    .await
    .expect("the bot plays");
}

#[tokio::test]
async fn a_host_adds_a_bot_starts_and_sees_the_bot_play() {
    let server = server(Duration::from_secs(20)).await;
    let (_conn, mut ann) = guest(server.addr, "ann").await.expect("ann");
    create_room(&mut ann, false, 2).await.expect("room");
    ann.wait_for_text("b add a bot (level 3, steady)", WAIT)
        .await
        .expect("the host sees the bot keys");
    ann.send(&kitty_tap(KittyKey::Char('+')))
        .await
        .expect("send");
    ann.send(&kitty_tap(KittyKey::Char('b')))
        .await
        .expect("send");
    ann.wait_for_text("Bot level 4", WAIT)
        .await
        .expect("the bot takes the seat");
    assert!(ann.contents().contains("READY"), "{}", ann.contents());
    ann.send(&kitty_tap(K_ENTER)).await.expect("send");
    wait_for_play(&mut ann).await.expect("the match starts");
    assert!(ann.contents().contains("Bot level 4"), "{}", ann.contents());
    let before = fields(ann.screen()).get(1).map_or(0, |f| f.filled());
    // Three locked pieces at least (12 cells; one piece may be falling).
    bot_board_fills(&mut ann, before + 12).await;
}

#[tokio::test]
async fn the_quick_match_offers_a_bot_after_the_wait_and_plays_it() {
    let server = server(Duration::from_secs(1)).await;
    let (_conn, mut ann) = registered(server.addr, "ann").await.expect("ann");
    versus_item(&mut ann, 0).await.expect("quick match");
    ann.wait_for_text("Looking for an opponent", WAIT)
        .await
        .expect("queued");
    ann.wait_for_text("Play a bot instead?", WAIT)
        .await
        .expect("the offer");
    assert!(
        ann.contents().contains("Level 3 (steady)"),
        "{}",
        ann.contents()
    );
    ann.send(&kitty_tap(K_ENTER)).await.expect("send");
    wait_for_play(&mut ann).await.expect("the bot match starts");
    assert!(ann.contents().contains("Bot level 3"), "{}", ann.contents());
    bot_board_fills(&mut ann, 12).await;
}
