//! A 2v2 of two people and two bots, as players drive it over SSH: the host turns on two
//! teams on the room's settings screen, the guest picks team A with `g`, two bots take team
//! B, the match screen marks each person's teammate, and after both forfeit both see their
//! team's defeat with every row's team in the results. The room may be on another instance
//! than the guest (`tests/tests/cluster_teams.rs`).

use crate::autoplay::{K_DOWN, K_ENTER, K_ESC, KittyKey, kitty_tap};
use crate::versus::{create_room, join_room, wait_for_play};
use crate::{PtySession, WAIT};

async fn tap(s: &mut PtySession, key: KittyKey) -> anyhow::Result<()> {
    s.send(&kitty_tap(key)).await
}

async fn forfeit(s: &mut PtySession) -> anyhow::Result<()> {
    tap(s, K_ESC).await?;
    s.wait_for_text("y forfeit", WAIT).await?;
    tap(s, KittyKey::Char('y')).await
}

/// Plays the 2v2: `host` (guest `~ann`, at the main menu) makes the room, `guest` (`~bob`,
/// at the main menu, on any instance) joins it; panics with the screen when a step fails.
pub async fn two_people_against_two_bots(host: &mut PtySession, guest: &mut PtySession) {
    let code = create_room(host, false, 4).await.expect("room");
    join_room(guest, &code, false).await.expect("bob joins");
    host.wait_for_text("~bob", WAIT).await.expect("bob seated");

    // The settings screen: down to Teams, one step right, apply.
    tap(host, KittyKey::Char('o')).await.expect("send");
    host.wait_for_text("SETTINGS", WAIT)
        .await
        .expect("settings");
    for _ in 0..7 {
        tap(host, K_DOWN).await.expect("send");
    }
    host.wait_for_text("< free-for-all >", WAIT)
        .await
        .expect("the Teams row");
    tap(host, KittyKey::Arrow('C')).await.expect("send");
    host.wait_for_text("< 2 teams >", WAIT)
        .await
        .expect("2 teams");
    tap(host, K_ENTER).await.expect("send");
    // Dealt out: ann on A, bob on B; bob moves to A.
    host.wait_for_text("[B] ~bob", WAIT)
        .await
        .expect("teams dealt");
    guest
        .wait_for_text("g change team", WAIT)
        .await
        .expect("bob's team key");
    tap(guest, KittyKey::Char('g')).await.expect("send");
    host.wait_for_text("[A] ~bob", WAIT)
        .await
        .expect("bob on A");
    // Two bots: both take the smaller team, B.
    for n in 1..=2 {
        tap(host, KittyKey::Char('b')).await.expect("send");
        host.wait_until("a bot on B", WAIT, |s| {
            s.contents().matches("[B] Bot").count() == n
        })
        .await
        .expect("a bot seated on B");
    }
    tap(guest, KittyKey::Char('r')).await.expect("send");
    host.wait_until("everyone ready", WAIT, |s| {
        s.contents().matches("READY").count() >= 3
    })
    .await
    .expect("ready");
    tap(host, K_ENTER).await.expect("send");
    wait_for_play(host).await.expect("ann plays");
    wait_for_play(guest).await.expect("bob plays");
    for (s, mate) in [(&mut *host, "+~bob"), (&mut *guest, "+~ann")] {
        let text = s.contents();
        assert!(text.contains("team A"), "{text}");
        assert!(text.contains(mate), "the teammate is marked\n{text}");
        assert!(text.contains("B Bot"), "the other team's letter\n{text}");
    }
    forfeit(host).await.expect("ann forfeits");
    forfeit(guest).await.expect("bob forfeits");
    for s in [host, guest] {
        s.wait_for_text("Defeat: team B wins", WAIT)
            .await
            .expect("the team's defeat");
        let text = s.contents();
        for row in [" 2A ~ann", " 2A ~bob", " 1B Bot"] {
            assert!(text.contains(row), "{row}\n{text}");
        }
    }
}
