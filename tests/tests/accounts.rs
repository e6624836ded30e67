//! Accounts end to end: real SSH connections, screens read with vt100. A new key registers
//! and plays a real 40 lines game that reaches the leaderboard (in the game and with the
//! `leaderboard` command); the same key is recognised later, also after a server restart; a
//! second key is linked with the account's password.

use std::time::Duration;

use minotty_domain::PlayerName;
use minotty_store::Password;

use minotty_tests::autoplay::{self, K_ENTER, KITTY_REPLY, kitty_tap};
use minotty_tests::{Connection, Login, TestServer, WAIT, WELCOME, board, keys, new_key};

type Result = anyhow::Result<()>;

/// A 40 lines game takes about 100 pieces; a few hundred leave room for a bad start.
const MAX_PIECES: u32 = 400;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_key_registers_plays_40_lines_and_reaches_the_leaderboard() -> Result {
    let mut server = TestServer::start().await?;
    let key = new_key();
    let conn = Connection::open(server.addr, "ada", Login::With(key.clone())).await?;
    let mut s = conn.play(100, 40).await?;
    // A terminal with the kitty keyboard protocol: every tap is a press and a release.
    s.send(KITTY_REPLY).await?;

    // The welcome screen offers the SSH user name; Enter registers it.
    s.wait_for_text(WELCOME, WAIT).await?;
    s.wait_for_text("ada", WAIT).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("Hello, ada!", WAIT).await?;

    // Play, 40 Lines, and a real game to the goal.
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("40 Lines", WAIT).await?;
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_until("the board with a piece", WAIT, |sc| {
        board::find(sc).is_some_and(|b| b.has_piece)
    })
    .await?;
    // The final board waits for Enter before the results.
    let pieces =
        autoplay::play_until(&mut s, MAX_PIECES, |text| text.contains("Enter: results")).await?;
    assert!(pieces >= 40 * 10 / 4, "40 lines take at least 100 pieces");
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("Goal reached!", WAIT).await?;
    // The results say what storing the game earned.
    s.wait_for_text("NEW PERSONAL BEST", WAIT).await?;
    s.wait_for_text("Global rank #1", WAIT).await?;

    // The in-game leaderboard (Main menu, then Leaderboards) lists it.
    s.send(&kitty_tap(autoplay::K_ESC)).await?;
    s.wait_for_text("Leaderboards", WAIT).await?;
    for _ in 0..2 {
        s.send(&kitty_tap(autoplay::K_DOWN)).await?;
    }
    s.send(&kitty_tap(K_ENTER)).await?;
    s.wait_for_text("LEADERBOARDS", WAIT).await?;
    s.wait_for_text("ada", WAIT).await?;

    // So does the command, as plain text, and an unknown mode is a one-line error.
    let out = conn.exec("leaderboard 40l", false).await?;
    eprintln!("leaderboard 40l:\n{}", out.stdout);
    assert_eq!(out.status, Some(0), "{out:?}");
    assert!(
        out.stdout.starts_with("40 Lines - all time\n"),
        "{}",
        out.stdout
    );
    let row = out
        .stdout
        .lines()
        .find(|l| l.contains("ada"))
        .expect("ada's row");
    assert!(row.trim_start().starts_with("1  ada"), "{row}");
    assert!(!out.stdout.contains('\x1b'), "no colours without a PTY");
    let today = conn.exec("leaderboard 40l --period today", false).await?;
    assert!(today.stdout.contains("ada"), "{}", today.stdout);
    let bad = conn.exec("leaderboard tetris", false).await?;
    assert_eq!(bad.status, Some(1));
    assert!(bad.stdout.is_empty());
    assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
    assert!(
        bad.stderr.contains(
            "40l, marathon, ultra, master, cheese, combo, descent, classic, survival, ascent, versus"
        ),
        "{}",
        bad.stderr
    );
    let _ = s.quit().await;
    conn.close().await;

    // Everything survives a restart: the key is still ada's, the entry still on the board.
    server.restart().await?;
    let conn = Connection::open(server.addr, "someone", Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Hello, ada!", WAIT).await?;
    assert!(!s.contents().contains(WELCOME));
    let out = conn.exec("leaderboard", false).await?;
    assert!(out.stdout.contains("ada"), "{}", out.stdout);
    let store = server.store().await?;
    let account = store
        .account_by_name(&PlayerName::parse("ada")?)
        .await?
        .expect("ada is stored");
    let games = store.recent_games(account.id, 10).await?;
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].verdict, "ranked");
    // The game ends on the clear that reaches 40: a double from 39 makes it 41.
    assert!(
        (40..=43).contains(&games[0].stats.lines),
        "{:?}",
        games[0].stats
    );
    let _ = s.quit().await;
    server.stop(Duration::from_secs(30)).await?;
    Ok(())
}

/// Registers a player named `name` with `key` through the welcome screen (the SSH user name
/// is offered, so Enter is enough).
async fn register(server: &TestServer, name: &str, key: minotty_tests::Key) -> Result {
    let conn = Connection::open(server.addr, name, Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(WELCOME, WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text(&format!("Hello, {name}!"), WAIT).await?;
    let _ = s.quit().await;
    conn.close().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_connection_with_the_same_key_is_recognised() -> Result {
    let server = TestServer::start().await?;
    let key = new_key();
    register(&server, "bea", key.clone()).await?;

    // Another user name, the same key: no welcome, the account's name.
    let conn = Connection::open(server.addr, "not-bea", Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Hello, bea!", WAIT).await?;
    assert!(!s.contents().contains(WELCOME));
    let _ = s.quit().await;

    // A name is unique without regard to case: another key cannot take "BEA".
    let other = Connection::open(server.addr, "BEA", Login::Key).await?;
    let mut t = other.play(100, 40).await?;
    t.wait_for_text(WELCOME, WAIT).await?;
    t.send(keys::ENTER).await?;
    t.wait_for_text("taken", WAIT).await?;
    let _ = t.quit().await;
    Ok(())
}

/// Links `key` to "cat" on the welcome screen: Tab to the link form, name, Enter, password,
/// Enter.
async fn link(
    server: &TestServer,
    key: &minotty_tests::Key,
    password: &str,
) -> anyhow::Result<(Connection, minotty_tests::PtySession)> {
    let conn = Connection::open(server.addr, "laptop", Login::With(key.clone())).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(WELCOME, WAIT).await?;
    s.send(b"\t").await?;
    s.wait_for_text("I ALREADY HAVE AN ACCOUNT", WAIT).await?;
    s.send(b"cat").await?;
    s.send(keys::ENTER).await?;
    s.send(password.as_bytes()).await?;
    s.send(keys::ENTER).await?;
    Ok((conn, s))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_linked_by_password_logs_in_as_the_same_player() -> Result {
    let server = TestServer::start().await?;
    register(&server, "cat", new_key()).await?;
    let store = server.store().await?;
    let cat = store
        .account_by_name(&PlayerName::parse("cat")?)
        .await?
        .expect("cat is stored");
    store
        .set_password(cat.id, &Password::parse("correct horse")?)
        .await?;

    // A new key, linked with a wrong password, then the right one.
    let laptop = new_key();
    let (_c1, mut wrong) = link(&server, &laptop, "battery staple").await?;
    wrong.wait_for_text("wrong name or password", WAIT).await?;
    let _ = wrong.quit().await;

    let (_c2, mut right) = link(&server, &laptop, "correct horse").await?;
    right.wait_for_text("Hello, cat!", WAIT).await?;
    let _ = right.quit().await;

    // From now on the laptop's key is cat's.
    let conn = Connection::open(server.addr, "laptop", Login::With(laptop)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Hello, cat!", WAIT).await?;
    assert!(!s.contents().contains(WELCOME));
    assert_eq!(store.keys(cat.id).await?.len(), 2);
    let _ = s.quit().await;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_are_not_asked_to_register_and_can_read_the_leaderboard() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "guest", Login::Guest).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Leaderboards", WAIT).await?;
    assert!(!s.contents().contains(WELCOME));
    let _ = s.quit().await;
    let out = conn
        .exec("leaderboard marathon --period month", false)
        .await?;
    assert_eq!(out.status, Some(0), "{out:?}");
    assert_eq!(out.stdout, "Marathon - this month\nNo entries yet.\n");
    let versus = conn.exec("leaderboard versus", true).await?;
    assert_eq!(versus.status, Some(0), "{versus:?}");
    assert!(
        versus
            .stdout
            .starts_with("Versus (ranked 1v1) - all time\r\n"),
        "with a PTY, lines end in CR LF: {:?}",
        versus.stdout
    );
    Ok(())
}

/// The text of the screen line that contains `label`.
fn line_with(s: &minotty_tests::PtySession, label: &str) -> String {
    s.contents()
        .lines()
        .find(|l| l.contains(label))
        .unwrap_or_default()
        .to_owned()
}

/// Main menu, then Settings (the fifth item), then down until "Ghost piece" is
/// the selected row (its value between `<` and `>`), however many rows come first.
async fn to_ghost_setting(s: &mut minotty_tests::PtySession) -> Result {
    s.wait_for_text("Leaderboards", WAIT).await?;
    s.send(&keys::DOWN.repeat(4)).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Ghost piece", WAIT).await?;
    for _ in 0..30 {
        if line_with(s, "Ghost piece").contains('<') {
            return Ok(());
        }
        s.send(keys::DOWN).await?;
        s.pump_for(Duration::from_millis(100)).await;
    }
    anyhow::bail!("\"Ghost piece\" never selected; screen:\n{}", s.contents())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_follow_the_player_to_the_next_connection() -> Result {
    let server = TestServer::start().await?;
    let key = new_key();
    register(&server, "eve", key.clone()).await?;

    let conn = Connection::open(server.addr, "eve", Login::With(key.clone())).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Hello, eve!", WAIT).await?;
    to_ghost_setting(&mut s).await?;
    assert!(
        line_with(&s, "Ghost piece").contains("on"),
        "{}",
        s.contents()
    );
    s.send(keys::ENTER).await?;
    s.wait_until("the ghost off", WAIT, |sc| {
        sc.contents()
            .lines()
            .any(|l| l.contains("Ghost piece") && l.contains("off"))
    })
    .await?;
    // Leaving the settings stores them.
    s.send(keys::ESC).await?;
    s.wait_for_text("Hello, eve!", WAIT).await?;
    let store = server.store().await?;
    let eve = store
        .account_by_name(&PlayerName::parse("eve")?)
        .await?
        .expect("eve is stored");
    let deadline = tokio::time::Instant::now() + WAIT;
    let saved = loop {
        if let Some(json) = store.settings(eve.id).await? {
            break json;
        }
        assert!(tokio::time::Instant::now() < deadline, "settings not saved");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(saved.contains("\"ghost\":false"), "{saved}");
    let _ = s.quit().await;
    conn.close().await;

    // The next connection starts with them.
    let conn = Connection::open(server.addr, "eve", Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Hello, eve!", WAIT).await?;
    to_ghost_setting(&mut s).await?;
    assert!(
        line_with(&s, "Ghost piece").contains("off"),
        "{}",
        s.contents()
    );
    let _ = s.quit().await;
    Ok(())
}

/// Waits until the stored settings of `name` contain `needle`.
async fn stored_settings_contain(server: &TestServer, name: &str, needle: &str) -> Result {
    let store = server.store().await?;
    let player = store
        .account_by_name(&PlayerName::parse(name)?)
        .await?
        .expect("the player is stored");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let saved = store.settings(player.id).await?.unwrap_or_default();
        if saved.contains(needle) {
            return Ok(());
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "settings without {needle}: {saved}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Flips "Ghost piece" on the settings screen and waits until it shows `now`.
async fn flip_ghost(s: &mut minotty_tests::PtySession, now: &'static str) -> Result {
    to_ghost_setting(s).await?;
    s.send(keys::ENTER).await?;
    s.wait_until("the ghost flipped", WAIT, move |sc| {
        sc.contents()
            .lines()
            .any(|l| l.contains("Ghost piece") && l.contains(now))
    })
    .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_left_unsaved_are_stored_when_the_player_quits_or_drops() -> Result {
    let server = TestServer::start().await?;
    let key = new_key();
    register(&server, "ivy", key.clone()).await?;

    // The connection drops while the settings screen is open with a change.
    let conn = Connection::open(server.addr, "ivy", Login::With(key.clone())).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Hello, ivy!", WAIT).await?;
    flip_ghost(&mut s, "off").await?;
    conn.close().await;
    // The key registered with its algorithm.
    let store = server.store().await?;
    let ivy = store
        .account_by_name(&PlayerName::parse("ivy")?)
        .await?
        .expect("ivy is stored");
    let keys = store.keys(ivy.id).await?;
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0].algorithm, "ssh-ed25519");
    stored_settings_contain(&server, "ivy", "\"ghost\":false").await?;

    // Ctrl+C, Quit, from the settings screen with a change.
    let conn = Connection::open(server.addr, "ivy", Login::With(key.clone())).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Hello, ivy!", WAIT).await?;
    flip_ghost(&mut s, "on").await?;
    s.quit().await?;
    stored_settings_contain(&server, "ivy", "\"ghost\":true").await?;
    conn.close().await;

    // And the next connection starts with them.
    let conn = Connection::open(server.addr, "ivy", Login::With(key)).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("Hello, ivy!", WAIT).await?;
    to_ghost_setting(&mut s).await?;
    assert!(
        line_with(&s, "Ghost piece").contains("on"),
        "{}",
        s.contents()
    );
    let _ = s.quit().await;
    Ok(())
}
