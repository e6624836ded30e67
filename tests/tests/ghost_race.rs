//! A ghost race over SSH with a real russh client: ada registers and plays 40 lines to the
//! goal (stored, her personal best), then presses G on 40 lines: the race is dealt her best's
//! seed, her best is drawn beside her board as GHOST with the split, and the race is never
//! ranked. Played by the same screen-reading bot on the same pieces, the race places every
//! piece where her best did, in as many pieces, and the split at the end is the time against the
//! ghost's at its replay's last line (40), on the game screen and on the results. Then bob
//! races her best by name (F on 40 lines, "ada"); an unknown name is said plainly.

use minotty_tests::autoplay::{self, K_ENTER, K_ESC, KITTY_REPLY, KittyKey, kitty_tap};
use minotty_tests::{Connection, Login, TestServer, WAIT, WELCOME, board, new_key};

/// A 40 lines game takes about 100 pieces; a few hundred leave room for a bad start.
const MAX_PIECES: u32 = 400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ghost_race_over_ssh_replays_your_best_beside_you_and_is_not_ranked() -> anyhow::Result<()>
{
    let mut server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::With(new_key())).await?;
    let mut s = conn.play(120, 40).await?;
    s.send(KITTY_REPLY).await?;
    s.wait_for_text(WELCOME, WAIT).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("Hello, ada!", WAIT).await?;

    // Her best: a real 40 lines game, stored.
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("40 Lines", WAIT).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_until("the board with a piece", WAIT, |sc| {
        board::find(sc).is_some_and(|b| b.has_piece)
    })
    .await?;
    let first =
        autoplay::play_until(&mut s, MAX_PIECES, |text| text.contains("Enter: results")).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("NEW PERSONAL BEST", WAIT).await?;

    // G on 40 lines: the race against it.
    s.send(&kitty_tap(K_ESC)).await?;
    s.wait_for_text("Leaderboards", WAIT).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("40 Lines", WAIT).await?;
    s.send(&kitty_tap(KittyKey::Char('g'))).await?;
    s.wait_for_text("GHOST ada", WAIT).await?;
    s.wait_for_text("not ranked", WAIT).await?;
    s.wait_until("the board with a piece", WAIT, |sc| {
        board::find(sc).is_some_and(|b| b.has_piece)
    })
    .await?;
    let text = s.contents();
    assert!(text.contains("GHOST"), "the ghost's board beside:\n{text}");
    let race =
        autoplay::play_until(&mut s, MAX_PIECES, |text| text.contains("Enter: results")).await?;
    assert_eq!(race, first, "the same pieces placed the same way");
    let end = s.contents();
    // The split at her 40th line: her time against the ghost's at the line its replay ends on.
    // (A game of 40 lines ends on its 40th to 43rd line: the last clear may be more than one.)
    let flat = end.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        (40..=43).any(|n| flat.contains(&format!(" s at {n} lines"))),
        "the split at the ghost's last line:\n{end}"
    );
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("Goal reached!", WAIT).await?;
    s.wait_for_text("vs ada's ghost: ", WAIT).await?;
    let results = s.contents();
    assert!(
        (40..=43).any(|n| results.contains(&format!(" at {n} lines"))),
        "the split at the end:\n{results}"
    );
    assert!(
        !results.contains("NEW PERSONAL BEST"),
        "a ghost race never ranks:\n{results}"
    );
    let out = conn.exec("leaderboard 40l", false).await?;
    assert_eq!(
        out.stdout.lines().filter(|l| l.contains("ada")).count(),
        1,
        "one entry, her first game:\n{}",
        out.stdout
    );

    // A friend races her best by name: bob presses F on 40 lines and types "ada".
    let bob = Connection::open(server.addr, "bob", Login::With(new_key())).await?;
    let mut b = bob.play(120, 40).await?;
    b.send(KITTY_REPLY).await?;
    b.wait_for_text(WELCOME, WAIT).await?;
    b.send(&kitty_tap(K_ENTER)).await?;
    b.wait_for_text("Hello, bob!", WAIT).await?;
    b.send(&kitty_tap(K_ENTER)).await?;
    b.wait_for_text("F race a friend's best", WAIT).await?;
    b.send(&kitty_tap(KittyKey::Char('f'))).await?;
    b.wait_for_text("Race whose best?", WAIT).await?;
    b.send(&autoplay::kitty_text("nobody")).await?;
    b.send(&kitty_tap(K_ENTER)).await?;
    b.wait_for_text("no such player", WAIT).await?;
    b.send(&kitty_tap(KittyKey::Char('f'))).await?;
    b.send(&autoplay::kitty_text("ada")).await?;
    b.send(&kitty_tap(K_ENTER)).await?;
    b.wait_for_text("GHOST ada", WAIT).await?;
    server.stop(std::time::Duration::from_secs(10)).await?;
    Ok(())
}
