//! Teams over SSH with real russh clients: the host turns on two teams on the room's
//! settings screen, ann and bob play together (bob picks team A with `g`) against two bots
//! (seated on team B, the smaller), the match screen marks the teammate, and after both
//! people forfeit both see their team's defeat with every row's team in the results.

use minotty_tests::autoplay::{K_DOWN, K_ENTER, K_ESC, KittyKey, kitty_tap};
use minotty_tests::versus::{create_room, guest, join_room, wait_for_play};
use minotty_tests::{PtySession, TestServer, WAIT};

async fn tap(s: &mut PtySession, key: KittyKey) {
    s.send(&kitty_tap(key)).await.expect("send");
}

async fn forfeit(s: &mut PtySession) {
    tap(s, K_ESC).await;
    s.wait_for_text("y forfeit", WAIT)
        .await
        .expect("the prompt");
    tap(s, KittyKey::Char('y')).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_and_two_bots_play_a_2v2_with_results_per_team() {
    let server = TestServer::start().await.expect("server starts");
    let (_ca, mut ann) = guest(server.addr, "ann").await.expect("ann");
    let code = create_room(&mut ann, false, 4).await.expect("room");
    let (_cb, mut bob) = guest(server.addr, "bob").await.expect("bob");
    join_room(&mut bob, &code, false).await.expect("bob joins");
    ann.wait_for_text("~bob", WAIT).await.expect("bob seated");

    // The settings screen: down to Teams, one step right, apply.
    tap(&mut ann, KittyKey::Char('o')).await;
    ann.wait_for_text("SETTINGS", WAIT).await.expect("settings");
    for _ in 0..7 {
        tap(&mut ann, K_DOWN).await;
    }
    ann.wait_for_text("< free-for-all >", WAIT)
        .await
        .expect("the Teams row");
    tap(&mut ann, KittyKey::Arrow('C')).await;
    ann.wait_for_text("< 2 teams >", WAIT)
        .await
        .expect("2 teams");
    tap(&mut ann, K_ENTER).await;
    // Dealt out: ann on A, bob on B; bob moves to A.
    ann.wait_for_text("[B] ~bob", WAIT)
        .await
        .expect("teams dealt");
    bob.wait_for_text("g change team", WAIT)
        .await
        .expect("bob's team key");
    tap(&mut bob, KittyKey::Char('g')).await;
    ann.wait_for_text("[A] ~bob", WAIT).await.expect("bob on A");
    // Two bots: both take the smaller team, B.
    for n in 1..=2 {
        tap(&mut ann, KittyKey::Char('b')).await;
        ann.wait_until("a bot on B", WAIT, |s| {
            s.contents().matches("[B] Bot").count() == n
        })
        .await
        .expect("a bot seated on B");
    }
    tap(&mut bob, KittyKey::Char('r')).await;
    ann.wait_until("everyone ready", WAIT, |s| {
        s.contents().matches("READY").count() >= 3
    })
    .await
    .expect("ready");
    tap(&mut ann, K_ENTER).await;
    wait_for_play(&mut ann).await.expect("ann plays");
    wait_for_play(&mut bob).await.expect("bob plays");
    for (s, mate) in [(&mut ann, "+~bob"), (&mut bob, "+~ann")] {
        let text = s.contents();
        assert!(text.contains("team A"), "{text}");
        assert!(text.contains(mate), "the teammate is marked\n{text}");
        assert!(text.contains("B Bot"), "the other team's letter\n{text}");
    }
    forfeit(&mut ann).await;
    forfeit(&mut bob).await;
    for s in [&mut ann, &mut bob] {
        s.wait_for_text("Defeat: team B wins", WAIT)
            .await
            .expect("the team's defeat");
        let text = s.contents();
        for row in [" 2A ~ann", " 2A ~bob", " 1B Bot"] {
            assert!(text.contains(row), "{row}\n{text}");
        }
    }
}
