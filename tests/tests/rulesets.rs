//! Rulesets end to end: a registered player picks `tetrs` for 40 lines on the mode select,
//! plays a few pieces over real SSH and sees the ruleset on the game and results screens; the
//! game is stored as a tetrs game and the choice is remembered in the stored settings.

use minotty_domain::PlayerName;
use minotty_engine::RulesetId;
use minotty_tests::{Connection, Login, TestServer, WAIT, WELCOME, board, keys, new_key};

type Result = anyhow::Result<()>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_picks_tetrs_for_40_lines_and_sees_it_on_screen() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "tia", Login::With(new_key())).await?;
    let mut s = conn.play(80, 24).await?;
    s.wait_for_text(WELCOME, WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Hello, tia!", WAIT).await?;

    // Play, then Right twice on 40 Lines: standard, tui-tetris, tetrs.
    s.send(keys::ENTER).await?;
    s.wait_for_text("< standard >", WAIT).await?;
    s.send(keys::RIGHT).await?;
    s.wait_for_text("< tui-tetris >", WAIT).await?;
    s.send(keys::RIGHT).await?;
    s.wait_for_text("< tetrs >", WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_until("the board with a piece", WAIT, |sc| {
        board::find(sc).is_some_and(|b| b.has_piece)
    })
    .await?;
    s.wait_for_text("40 Lines · tetrs", WAIT).await?;

    // A few pieces, each hard-dropped once the next one is in play.
    for i in 0..5 {
        s.send(keys::HARD_DROP).await?;
        s.pump_for(std::time::Duration::from_millis(150)).await;
        let b = board::find(s.screen());
        assert!(
            b.is_some_and(|b| b.bottom_has_block()),
            "piece {i}:\n{}",
            s.contents()
        );
    }
    s.wait_for_text("PIECES           5", WAIT).await?;

    // Give up (Ctrl+D): the results name the ruleset too.
    s.send(b"\x04").await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("RESULTS: 40 Lines · tetrs", WAIT).await?;
    s.wait_for_text("not ranked", WAIT).await?;

    let store = server.store().await?;
    let account = store
        .account_by_name(&PlayerName::parse("tia")?)
        .await?
        .expect("tia is stored");
    let games = store.recent_games(account.id, 10).await?;
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].ruleset, RulesetId::Tetrs);
    let settings = store.settings(account.id).await?.unwrap_or_default();
    assert!(settings.contains("\"ruleset\":\"tetrs\""), "{settings}");
    let _ = s.quit().await;
    Ok(())
}
