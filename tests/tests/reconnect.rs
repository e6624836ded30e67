//! Reconnecting over SSH: a solo game whose connection dropped waits, paused, for the same
//! key; the player is offered it, resumes it and plays on from where it stopped.

use std::time::Duration;

use minotty_server::Limits;
use minotty_tests::rows::games_once_stored;
use minotty_tests::{Connection, Key, Login, PtySession, TestServer, WAIT, board, keys, new_key};

type Result = anyhow::Result<()>;

/// The value after `label` in the game's stats ("LINES       3/150" gives "3/150").
fn stat(screen: &vt100::Screen, label: &str) -> Option<String> {
    screen.contents().lines().find_map(|line| {
        let rest = line.split(&format!("{label} ")).nth(1)?;
        rest.split_whitespace().next().map(str::to_owned)
    })
}

/// From the main menu into a Marathon game (the second mode).
async fn start_marathon(s: &mut PtySession) -> Result {
    s.skip_welcome().await?;
    marathon_from_menu(s).await
}

async fn marathon_from_menu(s: &mut PtySession) -> Result {
    s.send(keys::ENTER).await?;
    s.wait_for_text("40 Lines", WAIT).await?;
    s.send(keys::DOWN).await?;
    s.pump_for(Duration::from_millis(100)).await;
    s.send(keys::ENTER).await?;
    s.wait_until("a Marathon board with a piece", WAIT, |screen| {
        screen.contents().contains("Marathon") && board::find(screen).is_some_and(|b| b.has_piece)
    })
    .await
}

/// A server that keeps a dropped player's game or seat for `reconnect`.
async fn with_reconnect(reconnect: Duration) -> anyhow::Result<TestServer> {
    TestServer::start_with(Limits {
        reconnect,
        ..Limits::default()
    })
    .await
}

/// ada, back with `key`, is offered nothing: past the welcome screen, no parked game "is
/// waiting".
async fn nothing_waits(server: &TestServer, key: Key) -> Result {
    let conn = Connection::open(server.addr, "ada", Login::With(key)).await?;
    let mut s = conn.play(80, 24).await?;
    s.skip_welcome().await?;
    s.pump_for(Duration::from_millis(300)).await;
    assert!(!s.contents().contains("is waiting"), "{}", s.contents());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_solo_game_is_offered_to_the_same_key_and_resumes_where_it_stopped() -> Result {
    let server = TestServer::start().await?;
    let key = new_key();
    let conn = Connection::open(server.addr, "ada", Login::With(key.clone())).await?;
    let mut s = conn.play(80, 24).await?;
    // Registered (the name offered is the SSH user name), so the game is stored.
    s.wait_for_text(minotty_tests::WELCOME, WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Leaderboards", WAIT).await?;
    marathon_from_menu(&mut s).await?;
    // A few pieces, sent one at a time once the piece is in play (a key repeated faster than
    // the synthetic release timeout would be a held key).
    for i in 0..6 {
        s.pump_for(Duration::from_millis(300)).await;
        s.send(if i % 2 == 0 { keys::LEFT } else { keys::RIGHT })
            .await?;
        s.send(keys::HARD_DROP).await?;
        let pieces = (i + 1).to_string();
        s.wait_until("the piece locked", WAIT, |screen| {
            stat(screen, "PIECES").as_deref() == Some(pieces.as_str())
        })
        .await?;
    }
    let score = stat(s.screen(), "SCORE").expect("a score");
    let lines = stat(s.screen(), "LINES").expect("lines");
    assert_ne!(score, "0", "{}", s.contents());

    // The connection drops: no quit, no channel close, the client is just gone.
    drop(s);
    drop(conn);
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Another key is offered nothing.
    let other = Connection::open(server.addr, "ada", Login::Key).await?;
    let mut o = other.play(80, 24).await?;
    o.skip_welcome().await?;
    o.pump_for(Duration::from_millis(300)).await;
    assert!(!o.contents().contains("is waiting"), "{}", o.contents());
    other.close().await;

    // The same key, a moment later: the game is offered.
    let conn = Connection::open(server.addr, "ada", Login::With(key.clone())).await?;
    let mut s = conn.play(80, 24).await?;
    s.wait_for_text("Your Marathon game from 0:0", WAIT).await?;
    assert!(s.contents().contains("Enter resume"), "{}", s.contents());
    s.send(keys::ENTER).await?;
    s.wait_for_text("PAUSED", WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_until("the game running again", WAIT, |screen| {
        !screen.contents().contains("PAUSED") && board::find(screen).is_some_and(|b| b.has_piece)
    })
    .await?;
    assert_eq!(stat(s.screen(), "SCORE"), Some(score), "{}", s.contents());
    assert_eq!(stat(s.screen(), "LINES"), Some(lines), "{}", s.contents());
    assert_eq!(stat(s.screen(), "PIECES").as_deref(), Some("6"));
    // It plays on.
    s.pump_for(Duration::from_millis(300)).await;
    s.send(keys::HARD_DROP).await?;
    s.wait_until("the seventh piece", WAIT, |screen| {
        stat(screen, "PIECES").as_deref() == Some("7")
    })
    .await?;

    // To the end (hard drops in the middle top out): stored, judged by its replay like any
    // game, the time away a pause.
    minotty_tests::menu::top_out_to_results(&mut s, 40, Duration::from_millis(250)).await?;
    let store = server.store().await?;
    let account = store
        .account_by_name(&minotty_domain::PlayerName::parse("ada")?)
        .await?
        .expect("ada is registered");
    let games = games_once_stored(&store, account.id).await?;
    assert_eq!(games.len(), 1, "one game, the resumed one");
    let game = &games[0];
    assert_eq!(game.mode, minotty_engine::ModeKind::Marathon);
    assert_eq!(game.verdict, "ranked", "{game:?}");
    assert!(game.stats.pieces > 7, "{game:?}");
    let replay = store.replay(game.id).await?.expect("its replay");
    let pauses = replay
        .inputs
        .iter()
        .filter(|(_, i)| *i == minotty_engine::Input::Pause)
        .count();
    assert_eq!(pauses, 1, "the drop is one pause");
    // (`by_piece` is not a column of the games table: records read it as zeros.)
    let verified = replay.verify()?.stats;
    assert_eq!(
        minotty_engine::Stats {
            by_piece: game.stats.by_piece,
            ..verified
        },
        game.stats
    );

    // Quitting is not a drop: nothing waits for the next connection.
    s.quit().await?;
    conn.close().await;
    nothing_waits(&server, key).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_parked_game_is_gone_after_the_reconnect_time() -> Result {
    let server = with_reconnect(Duration::from_secs(2)).await?;
    let key = new_key();
    let conn = Connection::open(server.addr, "ada", Login::With(key.clone())).await?;
    let mut s = conn.play(80, 24).await?;
    start_marathon(&mut s).await?;
    s.send(keys::HARD_DROP).await?;
    s.pump_for(Duration::from_millis(200)).await;
    drop(s);
    drop(conn);
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Offered, and the connection drops again before an answer: parked again (twice).
    for again in 0..2 {
        if again > 0 {
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        let conn = Connection::open(server.addr, "ada", Login::With(key.clone())).await?;
        let mut s = conn.play(80, 24).await?;
        s.wait_for_text("Your Marathon game from", WAIT).await?;
        drop(s);
        drop(conn);
    }
    // Past the reconnect time: gone.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    nothing_waits(&server, key).await
}

/// The text of the seat row naming `name` in a lobby.
fn seat_row(screen: &vt100::Screen, name: &str) -> Option<String> {
    screen
        .contents()
        .lines()
        .find(|l| l.contains(name) && (l.contains("ready") || l.contains("READY")))
        .map(str::to_owned)
}

/// bob's connection (`conn`, his session `bob`) drops: ann's lobby shows his seat kept, as
/// reconnecting.
async fn bob_drops(ann: &mut PtySession, bob: PtySession, conn: Connection) -> Result {
    drop(bob);
    drop(conn);
    ann.wait_until("bob reconnecting", WAIT, |s| {
        seat_row(s, "bob").is_some_and(|r| r.contains("reconnecting..."))
    })
    .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_players_lobby_seat_is_kept_then_freed() -> Result {
    use minotty_tests::autoplay::KITTY_REPLY;
    use minotty_tests::versus::{COLS, ROWS, create_room, guest, join_room, player, register};

    let server = with_reconnect(Duration::from_secs(3)).await?;
    let (_ca, mut ann) = guest(server.addr, "ann").await?;
    let code = create_room(&mut ann, false, 4).await?;
    let key = new_key();
    let conn = Connection::open(server.addr, "bob", Login::With(key.clone())).await?;
    let mut bob = player(&conn).await?;
    register(&mut bob).await?;
    join_room(&mut bob, &code, false).await?;
    ann.wait_until("bob seated", WAIT, |s| seat_row(s, "bob").is_some())
        .await?;

    // bob's connection drops: his seat stays, shown as reconnecting.
    bob_drops(&mut ann, bob, conn).await?;

    // bob's key again: straight back into the room, in his seat.
    let conn = Connection::open(server.addr, "bob", Login::With(key)).await?;
    let mut bob = conn.play(COLS, ROWS).await?;
    bob.send(KITTY_REPLY).await?;
    bob.wait_for_text(&format!("ROOM {code}"), WAIT).await?;
    ann.wait_until("bob back", WAIT, |s| {
        seat_row(s, "bob").is_some_and(|r| !r.contains("reconnecting"))
    })
    .await?;

    // He drops again and stays away: after the reconnect time the seat is free.
    bob_drops(&mut ann, bob, conn).await?;
    ann.wait_until("bob's seat freed", WAIT, |s| seat_row(s, "bob").is_none())
        .await?;
    assert!(
        seat_row(ann.screen(), "ann").is_some(),
        "{}",
        ann.contents()
    );
    Ok(())
}
