//! End to end: the Live screen and `ssh HOST watch` over real SSH connections, screens read
//! with vt100. One player plays Marathon; another watches it from the Live screen; a client
//! without a terminal gets the TV as a stream of frames; one connection cannot hold more than
//! one watch.

use std::time::Duration;

use minotty_tests::{Connection, Login, PtySession, TestServer, WAIT, board, keys, new_key};
use russh::ChannelMsg;

type Result = anyhow::Result<()>;

/// Ada (a new key, playing as a guest: others see `~ada`) in a Marathon game.
async fn ada_plays_marathon(server: &TestServer) -> anyhow::Result<(Connection, PtySession)> {
    ada_plays_marathon_as(server, Login::Key).await
}

async fn ada_plays_marathon_as(
    server: &TestServer,
    login: Login,
) -> anyhow::Result<(Connection, PtySession)> {
    let conn = Connection::open(server.addr, "ada", login).await?;
    let mut s = conn.play(100, 32).await?;
    s.skip_welcome().await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Marathon", WAIT).await?;
    s.send(keys::DOWN).await?;
    s.send(keys::ENTER).await?;
    s.wait_until("the board with a piece", WAIT, |sc| {
        board::find(sc).is_some_and(|b| b.has_piece)
    })
    .await?;
    Ok((conn, s))
}

/// The number right of `label` on the screen's row that starts with it (after spaces).
fn value_after(s: &PtySession, label: &str) -> Option<u64> {
    s.contents().lines().find_map(|line| {
        let at = line.find(label)?;
        let rest = &line[at + label.len()..];
        let digits: String = rest
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == ',')
            .filter(char::is_ascii_digit)
            .collect();
        digits.parse().ok()
    })
}

/// Filled cells of the board drawn on a screen.
fn filled(screen: &vt100::Screen) -> usize {
    board::find(screen).map_or(0, |b| b.lines.iter().map(|l| l.matches("██").count()).sum())
}

/// `name` connected at 100x32 and on the Live screen (the main menu's seventh item).
async fn on_live_screen(
    server: &TestServer,
    name: &str,
    login: Login,
) -> anyhow::Result<(Connection, PtySession)> {
    let conn = Connection::open(server.addr, name, login).await?;
    let mut s = conn.play(100, 32).await?;
    s.skip_welcome().await?;
    for _ in 0..6 {
        s.send(keys::DOWN).await?;
    }
    s.send(keys::ENTER).await?;
    Ok((conn, s))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_watches_another_players_marathon_from_the_live_screen() -> Result {
    let server = TestServer::start().await?;
    let (_ada_conn, mut ada) = ada_plays_marathon(&server).await?;

    let (_bo_conn, mut bo) = on_live_screen(&server, "bo", Login::Key).await?;
    bo.wait_for_text("Being played now", WAIT).await?;
    bo.wait_for_text("~ada", WAIT).await?;
    assert!(
        bo.contents().contains("Marathon · standard"),
        "{}",
        bo.contents()
    );
    bo.send(keys::ENTER).await?;
    bo.wait_for_text("WATCHING: ~ada · Marathon · standard", WAIT)
        .await?;
    bo.wait_until("ada's board", WAIT, |sc| board::find(sc).is_some())
        .await?;
    let score_before = value_after(&bo, "Score").unwrap_or(0);

    // Ada drops pieces; Bo sees her score and board change.
    for _ in 0..4 {
        ada.send(keys::HARD_DROP).await?;
        ada.pump_for(Duration::from_millis(150)).await;
    }
    let ada_score = value_after(&ada, "SCORE").unwrap_or(0);
    assert!(ada_score > 0, "{}", ada.contents());
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        bo.pump_for(Duration::from_millis(100)).await;
        let score = value_after(&bo, "Score").unwrap_or(0);
        if score == ada_score && score > score_before {
            break;
        }
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "Bo never saw Ada's score {ada_score}:\n{}",
            bo.contents()
        );
    }
    // The locked pieces (4 cells each) and the falling one are on Bo's screen.
    assert!(filled(bo.screen()) >= 16, "{}", bo.contents());
    // Bo's keys do nothing to Ada's game.
    bo.send(keys::HARD_DROP).await?;
    bo.send(keys::LEFT).await?;
    bo.pump_for(Duration::from_millis(300)).await;
    ada.pump_for(Duration::from_millis(100)).await;
    assert_eq!(value_after(&ada, "SCORE"), Some(ada_score));

    // Ada leaves: Bo is told the game is over.
    ada.quit().await?;
    bo.wait_for_text("(game over)", WAIT).await?;
    // Esc: the list, without Ada's game now.
    bo.send(keys::ESC).await?;
    bo.wait_for_text("Nobody is playing right now", WAIT)
        .await?;
    Ok(())
}

/// What a channel without a PTY receives in `within`, through a 80x24 emulator.
async fn stream(
    channel: &mut russh::Channel<russh::client::Msg>,
    parser: &mut vt100::Parser,
    within: Duration,
) -> (usize, bool) {
    let deadline = tokio::time::Instant::now() + within;
    let mut bytes = 0;
    loop {
        match tokio::time::timeout_at(deadline, channel.wait()).await {
            Ok(Some(ChannelMsg::Data { data })) => {
                bytes += data.len();
                parser.process(&data);
            }
            Ok(Some(ChannelMsg::Close | ChannelMsg::Eof) | None) => return (bytes, true),
            Ok(Some(_)) => {}
            Err(_) => return (bytes, false),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_without_a_terminal_streams_the_tv_and_with_one_opens_it() -> Result {
    let server = TestServer::start().await?;
    let (_ada_conn, mut ada) = ada_plays_marathon(&server).await?;

    // `ssh HOST watch`: no PTY, no input, frames at 80x24.
    let viewer = Connection::open(server.addr, "viewer", Login::Guest).await?;
    let mut channel = viewer.handle.channel_open_session().await?;
    channel.exec(true, "watch").await?;
    // Its end of input changes nothing: it streams on.
    channel.eof().await?;
    let size = |v: u16| std::num::NonZeroU16::new(v).unwrap_or(std::num::NonZeroU16::MIN);
    let mut parser = vt100::Parser::new(size(24), size(80), 0);
    let deadline = tokio::time::Instant::now() + WAIT;
    while !parser.screen().contents().contains("LIVE TV: ~ada") {
        let (_, closed) = stream(&mut channel, &mut parser, Duration::from_millis(200)).await;
        anyhow::ensure!(!closed, "the stream ended:\n{}", parser.screen().contents());
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "no TV:\n{}",
            parser.screen().contents()
        );
    }
    assert!(parser.screen().alternate_screen());
    assert!(
        parser.screen().contents().contains("Ctrl+C ends"),
        "a stream's hint says how to stop"
    );
    // ... and how to watch with keys, at the address the viewer connected to.
    let here = format!(
        "ssh -t -p {} {} watch",
        server.addr.port(),
        server.addr.ip()
    );
    assert!(
        parser.screen().contents().contains(&here),
        "{}",
        parser.screen().contents()
    );
    // Ada plays on: the stream shows her board changing.
    let before = parser.screen().contents();
    for _ in 0..3 {
        ada.send(keys::HARD_DROP).await?;
        ada.pump_for(Duration::from_millis(150)).await;
    }
    let (bytes, closed) = stream(&mut channel, &mut parser, Duration::from_millis(800)).await;
    assert!(!closed && bytes > 0);
    let after = parser.screen().contents();
    assert_ne!(before, after, "the frames follow the game");
    assert!(filled(parser.screen()) >= 12, "{after}");

    // One watch per connection: a second one on the same connection is refused.
    let mut second = viewer.handle.channel_open_session().await?;
    second.exec(true, "watch").await?;
    loop {
        match tokio::time::timeout(WAIT, second.wait()).await? {
            Some(ChannelMsg::Failure) => break,
            Some(ChannelMsg::Success | ChannelMsg::Data { .. }) => {
                anyhow::bail!("a second watch on one connection was accepted")
            }
            Some(_) => {}
            None => anyhow::bail!("channel closed"),
        }
    }
    second.close().await?;
    // `watch CODE` still takes a code, and needs a terminal.
    let with_code = viewer.exec("watch K7PQ3M", false).await?;
    assert!(
        with_code.stderr.contains("needs a terminal"),
        "{with_code:?}"
    );

    // `ssh -t HOST watch`: the session, at the TV, with keys (Esc: the list).
    let tv_conn = Connection::open(server.addr, "cy", Login::Guest).await?;
    let tv_channel = tv_conn.handle.channel_open_session().await?;
    tv_channel
        .request_pty(false, "xterm-256color", 100, 32, 0, 0, &[])
        .await?;
    tv_channel.exec(false, "watch").await?;
    let mut tv = PtySession::attach(tv_channel, 100, 32);
    tv.wait_for_text("LIVE TV: ~ada", WAIT).await?;
    tv.send(keys::ESC).await?;
    tv.wait_for_text("Being played now", WAIT).await?;

    // The viewer closes: the stream's session ends.
    channel.close().await?;
    let (_, closed) = stream(&mut channel, &mut parser, WAIT).await;
    assert!(closed);
    Ok(())
}

/// A watcher flapping in and out of a game as fast as keys go: the server answers, the player
/// plays on, and the watcher still ends on a working screen.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flapping_watcher_is_bounded() -> Result {
    let server = TestServer::start().await?;
    let (_ada_conn, mut ada) = ada_plays_marathon(&server).await?;
    let (_conn, mut eve) = on_live_screen(&server, "eve", Login::Guest).await?;
    eve.wait_for_text("~ada", WAIT).await?;
    // Enter (watch), Backspace (the list), t (the TV), Backspace (the list), Backspace (the
    // menu), Enter (the Live screen again)... 300 times in one burst.
    let mut burst = Vec::new();
    for _ in 0..300 {
        burst.extend_from_slice(b"\r\x7ft\x7f\x7f\r");
    }
    eve.send(&burst).await?;
    eve.pump_for(Duration::from_millis(500)).await;
    // The player's game goes on, answering her keys.
    let score = value_after(&ada, "SCORE").unwrap_or(0);
    ada.send(keys::HARD_DROP).await?;
    let deadline = tokio::time::Instant::now() + WAIT;
    while value_after(&ada, "SCORE").unwrap_or(0) <= score {
        ada.pump_for(Duration::from_millis(50)).await;
        anyhow::ensure!(tokio::time::Instant::now() < deadline, "{}", ada.contents());
    }
    // Eve's session still answers: back to the menu, into the Live screen, watching Ada.
    eve.pump_for(Duration::from_secs(2)).await;
    eve.send(b"\x7f").await?;
    eve.pump_for(Duration::from_millis(300)).await;
    eve.send(b"\x7f").await?;
    eve.wait_for_text("Leaderboards", WAIT).await?;
    eve.send(keys::ENTER).await?;
    eve.wait_for_text("~ada", WAIT).await?;
    eve.send(keys::ENTER).await?;
    eve.wait_for_text("WATCHING: ~ada", WAIT).await?;
    Ok(())
}

/// A watched player's connection drops: their game is parked for their return, and the
/// watcher is told so, not that the game is over.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_of_a_dropped_players_game_sees_it_parked_not_over() -> Result {
    let server = TestServer::start().await?;
    let (ada_conn, ada) = ada_plays_marathon(&server).await?;

    let (_bo_conn, mut bo) = on_live_screen(&server, "bo", Login::Key).await?;
    bo.wait_for_text("~ada", WAIT).await?;
    bo.send(keys::ENTER).await?;
    bo.wait_for_text("WATCHING: ~ada · Marathon · standard", WAIT)
        .await?;
    bo.wait_until("ada's board", WAIT, |sc| board::find(sc).is_some())
        .await?;

    // Ada's connection drops: no quit, no channel close, the client is just gone.
    drop(ada);
    drop(ada_conn);
    bo.wait_for_text("reconnecting...", WAIT).await?;
    let screen = bo.contents();
    assert!(
        screen.contains("(player dropped: paused, reconnecting...)"),
        "{screen}"
    );
    assert!(!screen.contains("game over"), "{screen}");
    Ok(())
}

/// The watched player comes back and resumes their parked game: the watcher, who stayed on
/// it, sees it move again and no longer says "reconnecting...".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_watcher_of_a_parked_game_sees_it_go_on_when_its_player_resumes_it() -> Result {
    let server = TestServer::start().await?;
    let key = new_key();
    let (ada_conn, ada) = ada_plays_marathon_as(&server, Login::With(key.clone())).await?;

    let (_bo_conn, mut bo) = on_live_screen(&server, "bo", Login::Key).await?;
    bo.wait_for_text("~ada", WAIT).await?;
    bo.send(keys::ENTER).await?;
    bo.wait_for_text("WATCHING: ~ada · Marathon · standard", WAIT)
        .await?;
    bo.wait_until("ada's board", WAIT, |sc| board::find(sc).is_some())
        .await?;
    drop(ada);
    drop(ada_conn);
    bo.wait_for_text("reconnecting...", WAIT).await?;

    // Ada is back with the same key: Enter resumes (paused), Enter again plays on.
    let conn = Connection::open(server.addr, "ada", Login::With(key)).await?;
    let mut ada = conn.play(100, 32).await?;
    ada.wait_for_text("is waiting", WAIT).await?;
    ada.send(keys::ENTER).await?;
    ada.wait_for_text("PAUSED", WAIT).await?;
    ada.send(keys::ENTER).await?;
    ada.wait_until("the game running again", WAIT, |sc| {
        !sc.contents().contains("PAUSED") && board::find(sc).is_some_and(|b| b.has_piece)
    })
    .await?;
    bo.wait_until("the game no longer reconnecting", WAIT, |sc| {
        !sc.contents().contains("reconnecting")
    })
    .await?;
    assert!(
        bo.contents()
            .contains("WATCHING: ~ada · Marathon · standard"),
        "{}",
        bo.contents()
    );
    for _ in 0..3 {
        ada.send(keys::HARD_DROP).await?;
        ada.pump_for(Duration::from_millis(150)).await;
    }
    let ada_score = value_after(&ada, "SCORE").unwrap_or(0);
    assert!(ada_score > 0, "{}", ada.contents());
    let deadline = tokio::time::Instant::now() + WAIT;
    while value_after(&bo, "Score") != Some(ada_score) {
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "Bo never saw Ada's score {ada_score}:\n{}",
            bo.contents()
        );
        bo.pump_for(Duration::from_millis(100)).await;
    }
    assert!(!bo.contents().contains("game over"), "{}", bo.contents());
    Ok(())
}
