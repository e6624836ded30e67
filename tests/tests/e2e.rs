//! End-to-end: real SSH connections to a server on 127.0.0.1:0, screens read with vt100.

use std::time::Duration;

use minotty_server::Limits;
use minotty_tests::menu::{ada_at_the_menu, ada_at_the_modes};
use minotty_tests::slots::{open_once_a_slot_frees, plays_once_a_slot_frees};
use minotty_tests::{Connection, Login, TestServer, WAIT, board, keys};

type Result = anyhow::Result<()>;

/// Where `text` starts on the screen (row, column).
fn position(screen: &vt100::Screen, text: &str) -> Option<(usize, usize)> {
    let (_, cols) = screen.size();
    screen
        .rows(0, cols.get())
        .enumerate()
        .find_map(|(y, line)| {
            line.find(text)
                .map(|byte| (y, line[..byte].chars().count()))
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn menu_shows_with_the_players_name() -> Result {
    let server = TestServer::start().await?;
    let (_conn, mut s) = ada_at_the_menu(&server, 100, 40).await?;
    s.wait_for_text("ada", WAIT).await?;
    assert!(
        s.screen().alternate_screen(),
        "the game runs on the alternate screen"
    );
    assert!(
        s.screen().hide_cursor(),
        "the cursor is hidden while playing"
    );
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn colorterm_lang_and_term_program_are_kept_and_truecolor_is_used() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Guest).await?;
    let (mut s, kept) = conn
        .play_with_env(
            100,
            40,
            &[
                ("COLORTERM", "truecolor"),
                ("LD_PRELOAD", "/tmp/evil.so"),
                ("LANG", "en_US.UTF-8"),
                ("TERM_PROGRAM", "Wez\x1b[2JTerm"),
                ("PATH", "/bin"),
            ],
        )
        .await?;
    assert_eq!(kept, [true, false, true, false, false]);
    s.start_40_lines().await?;
    // A player without stored settings gets 24-bit colours: the falling piece is drawn in RGB.
    s.wait_until("a piece in 24-bit colour", WAIT, |screen| {
        let (rows, cols) = screen.size();
        (0..rows.get()).any(|y| {
            (0..cols.get()).any(|x| {
                screen.cell(y, x).is_some_and(|c| {
                    c.contents() == "█" && matches!(c.fgcolor(), vt100::Color::Rgb(..))
                })
            })
        })
    })
    .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guests_without_keys_get_in_and_bad_names_become_guest() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "\x07\x1b\x08", Login::Guest).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text("guest", WAIT).await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forty_lines_starts_and_a_hard_drop_lands_at_the_bottom() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Key).await?;
    let mut s = conn.play(100, 40).await?;
    s.start_40_lines().await?;
    let before = board::find(s.screen()).ok_or_else(|| anyhow::anyhow!("no board"))?;
    assert_eq!(before.lines.len(), 20, "20 visible rows:\n{}", s.contents());
    assert!(!before.bottom_has_block(), "empty board:\n{}", s.contents());

    s.send(keys::HARD_DROP).await?;
    s.wait_until("a block on the bottom row", WAIT, |screen| {
        board::find(screen).is_some_and(|b| b.bottom_has_block())
    })
    .await?;

    // Quitting from inside a game asks first, then restores the terminal.
    assert_eq!(s.quit().await?, Some(0));
    assert!(!s.screen().alternate_screen());
    Ok(())
}

/// The number on the stats row that starts with `label` ("PIECES          13").
fn stat(screen: &vt100::Screen, label: &str) -> Option<u64> {
    let (_, cols) = screen.size();
    screen.rows(0, cols.get()).find_map(|line| {
        let at = line.find(label)?;
        line[at + label.len()..]
            .split_whitespace()
            .next()?
            .parse()
            .ok()
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_combo_mode_b_hands_the_game_to_the_bot_and_back() -> Result {
    let server = TestServer::start().await?;
    let (_conn, mut s) = ada_at_the_modes(&server).await?;
    for _ in 0..5 {
        s.send(keys::DOWN).await?; // 40 lines, marathon, ultra, master, cheese: combo
    }
    s.wait_for_text("endless 4-wide well", WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("B bot plays", WAIT).await?;
    s.send(b"b").await?;
    s.wait_for_text("BOT PLAYING - press B to take over", WAIT)
        .await?;
    // The bot's taps reach the engine on the server: pieces lock with nobody pressing keys.
    s.wait_until("the bot placing pieces", WAIT, |screen| {
        stat(screen, "PIECES").is_some_and(|n| n >= 1)
    })
    .await?;
    s.send(b"b").await?;
    s.wait_until("the player back at the controls", WAIT, |screen| {
        !screen.contents().contains("BOT PLAYING")
    })
    .await?;
    assert_eq!(s.quit().await?, Some(0));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resize_redraws_at_the_new_size() -> Result {
    let server = TestServer::start().await?;
    let (_conn, mut s) = ada_at_the_menu(&server, 80, 30).await?;
    let small = position(s.screen(), "Play");

    s.resize(160, 50).await?;
    s.wait_until("the menu re-centred in 160 x 50", WAIT, |screen| {
        position(screen, "Play").is_some_and(|p| Some(p) != small && p.1 > 40)
    })
    .await?;

    // Back to the first size: everything drawn beyond it is gone, the menu moves back.
    s.resize(80, 30).await?;
    s.wait_until("the menu back at 80 x 30", WAIT, |screen| {
        position(screen, "Play") == small
    })
    .await?;
    Ok(())
}

/// A window too small for the game pauses it; enlarged again, the pause menu shows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_too_small_pauses_a_solo_game() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Key).await?;
    let mut s = conn.play(100, 40).await?;
    s.start_40_lines().await?;
    s.resize(40, 12).await?;
    s.wait_for_text("enlarge", WAIT).await?;
    s.resize(100, 40).await?;
    s.wait_until("the pause menu", WAIT, |screen| {
        let text = screen.contents();
        text.contains("PAUSED") && text.contains("Not ranked") && !text.contains("enlarge")
    })
    .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_window_too_small_shows_the_enlarge_message() -> Result {
    let server = TestServer::start().await?;
    let (_conn, mut s) = ada_at_the_menu(&server, 100, 40).await?;
    s.resize(40, 12).await?;
    s.wait_for_text("enlarge", WAIT).await?;
    s.resize(100, 40).await?;
    s.wait_until("the menu again", WAIT, |screen| {
        let text = screen.contents();
        text.contains("Play") && !text.contains("enlarge")
    })
    .await?;

    // Starting too small, and absurd or zero sizes, do no harm either.
    let conn2 = Connection::open(server.addr, "bo", Login::Key).await?;
    let mut t = conn2.play(30, 10).await?;
    t.wait_for_text("enlarge", WAIT).await?;
    t.resize(0, 0).await?;
    t.resize(60_000, 60_000).await?;
    t.resize(100, 40).await?;
    t.skip_welcome().await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quitting_ends_the_session_and_restores_the_terminal() -> Result {
    let server = TestServer::start().await?;
    let (_conn, mut s) = ada_at_the_menu(&server, 100, 40).await?;
    assert!(s.screen().alternate_screen());
    let status = s.quit().await?;
    assert_eq!(status, Some(0));
    assert!(!s.screen().alternate_screen(), "alternate screen left");
    assert!(!s.screen().hide_cursor(), "cursor visible again");
    assert!(server.is_running());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exec_help_prints_and_exits_zero() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Key).await?;
    let out = conn.exec("help", false).await?;
    assert_eq!(out.status, Some(0), "{out:?}");
    assert!(out.stdout.contains("help"), "{out:?}");
    assert!(out.stderr.is_empty(), "{out:?}");

    let out = conn.exec("help", true).await?;
    assert_eq!(out.status, Some(0), "{out:?}");
    assert!(out.stdout.contains("\r\n"), "CR LF with a PTY: {out:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_exec_commands_fail_with_one_line_on_stderr() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Key).await?;
    for command in ["bash", "rm -rf /", "", "\x1b]0;title\x07"] {
        let out = conn.exec(command, false).await?;
        assert_eq!(out.status, Some(1), "{command:?}: {out:?}");
        assert!(out.stdout.is_empty(), "{out:?}");
        assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
        assert!(!out.stderr.contains('\x1b'), "{out:?}");
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shell_without_pty_gets_an_explanation() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Key).await?;
    let out = conn.shell_without_pty().await?;
    assert_eq!(out.status, Some(1), "{out:?}");
    assert!(out.stderr.contains("needs a terminal"), "{out:?}");
    assert_eq!(out.stderr.lines().count(), 1, "{out:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forwarding_agent_and_subsystems_are_refused() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Key).await?;
    assert!(
        conn.handle
            .channel_open_direct_tcpip("127.0.0.1", 22, "127.0.0.1", 5000)
            .await
            .is_err(),
        "local forwarding"
    );
    assert!(
        conn.handle.tcpip_forward("127.0.0.1", 0).await.is_err(),
        "remote forwarding"
    );
    let mut channel = conn.handle.channel_open_session().await?;
    channel.request_subsystem(true, "sftp").await?;
    channel.agent_forward(true).await?;
    let mut failures = 0;
    while failures < 2 {
        match tokio::time::timeout(WAIT, channel.wait()).await? {
            Some(russh::ChannelMsg::Failure) => failures += 1,
            Some(russh::ChannelMsg::Success) => anyhow::bail!("a request was accepted"),
            Some(_) => {}
            None => anyhow::bail!("channel closed"),
        }
    }
    // The connection still works.
    assert_eq!(conn.exec("help", false).await?.status, Some(0));
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_per_address_limit_turns_clients_away_with_a_message() -> Result {
    let limits = Limits {
        max_per_ip: 2,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let first = Connection::open(server.addr, "a", Login::Key).await?;
    let _second = Connection::open(server.addr, "b", Login::Key).await?;

    // A raw TCP client reads the reason before any SSH.
    let mut raw = tokio::net::TcpStream::connect(server.addr).await?;
    let mut text = Vec::new();
    tokio::io::AsyncWriteExt::write_all(&mut raw, b"SSH-2.0-test\r\n").await?;
    tokio::time::timeout(
        WAIT,
        tokio::io::AsyncReadExt::read_to_end(&mut raw, &mut text),
    )
    .await??;
    let text = String::from_utf8_lossy(&text);
    assert!(
        text.starts_with("minotty: too many connections from your address (limit 2)"),
        "{text:?}"
    );
    assert!(
        Connection::open(server.addr, "c", Login::Key)
            .await
            .is_err()
    );

    // A slot frees when a client leaves.
    first.close().await;
    open_once_a_slot_frees(server.addr, "d", Login::Key, WAIT, "the slot was not freed").await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vanished_client_frees_its_slot() -> Result {
    let limits = Limits {
        max_per_ip: 1,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let conn = Connection::open(server.addr, "gone", Login::Key).await?;
    let mut s = conn.play(100, 40).await?;
    s.start_40_lines().await?;
    // No quit, no disconnect message: the client just goes away mid-game.
    drop(s);
    drop(conn);
    plays_once_a_slot_frees(server.addr, "next", Login::Key, WAIT).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_says_so() -> Result {
    let limits = Limits {
        max_connections: 1,
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let _only = Connection::open(server.addr, "a", Login::Key).await?;
    let mut raw = tokio::net::TcpStream::connect(server.addr).await?;
    let mut text = Vec::new();
    tokio::time::timeout(
        WAIT,
        tokio::io::AsyncReadExt::read_to_end(&mut raw, &mut text),
    )
    .await??;
    let text = String::from_utf8_lossy(&text);
    assert!(text.starts_with("minotty: the server is full"), "{text:?}");
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lone_escape_is_the_escape_key() -> Result {
    let server = TestServer::start().await?;
    let (_conn, mut s) = ada_at_the_menu(&server, 100, 40).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Clear 40 lines", WAIT).await?;
    // An arrow key split across two packets is one key (Down: the next mode's description),
    // not ESC (which would leave the mode list) followed by '[' and 'B'.
    s.send(b"\x1b").await?;
    s.send(b"[B").await?;
    s.wait_for_text("Clear 150 lines", WAIT).await?;
    assert!(s.contents().contains("40 Lines"), "{}", s.contents());
    // ESC alone: back to the main menu.
    s.send(keys::ESC).await?;
    s.wait_until("the main menu again", WAIT, |screen| {
        let text = screen.contents();
        text.contains("Settings") && !text.contains("40 Lines")
    })
    .await?;
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn silent_clients_are_dropped_after_the_login_timeout() -> Result {
    let limits = Limits {
        auth_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    // Taken before the connection exists, so the server's timer starts later: the close comes
    // at least the login timeout after it, however busy the machine (a lower bound only; how
    // soon after is not asserted, the read below just waits for it).
    let started = std::time::Instant::now();
    let mut raw = tokio::net::TcpStream::connect(server.addr).await?;
    let mut sink = Vec::new();
    tokio::time::timeout(
        WAIT,
        tokio::io::AsyncReadExt::read_to_end(&mut raw, &mut sink),
    )
    .await??;
    assert!(started.elapsed() >= Duration::from_secs(1));
    assert!(String::from_utf8_lossy(&sink).starts_with("SSH-2.0-minotty"));

    // Logged in but running nothing (like `ssh -N`): closed after the same time.
    let conn = Connection::open(server.addr, "squatter", Login::Key).await?;
    let deadline = std::time::Instant::now() + WAIT;
    while !conn.handle.is_closed() {
        anyhow::ensure!(
            std::time::Instant::now() < deadline,
            "idle connection kept open"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_players_are_disconnected_with_a_message() -> Result {
    let limits = Limits {
        idle_timeout: Duration::from_secs(1),
        ..Limits::default()
    };
    let server = TestServer::start_with(limits).await?;
    let (_conn, mut s) = ada_at_the_menu(&server, 100, 40).await?;
    assert_eq!(s.wait_closed(WAIT).await?, Some(0));
    assert!(!s.screen().alternate_screen());
    assert!(s.contents().contains("without input"), "{}", s.contents());
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_restores_every_players_terminal() -> Result {
    let mut server = TestServer::start().await?;
    let (_conn, mut s) = ada_at_the_menu(&server, 100, 40).await?;
    let conn2 = Connection::open(server.addr, "bo", Login::Key).await?;
    let mut t = conn2.play(100, 40).await?;
    t.start_40_lines().await?;

    let (stopped, a, b) = tokio::join!(server.stop(WAIT), s.wait_closed(WAIT), t.wait_closed(WAIT));
    stopped?;
    for (session, status) in [(&s, a?), (&t, b?)] {
        assert_eq!(status, Some(0));
        assert!(!session.screen().alternate_screen());
        assert!(!session.screen().hide_cursor());
        assert!(
            session.contents().contains("restarting"),
            "{}",
            session.contents()
        );
    }
    Ok(())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_kitty_keyboard_protocol_is_negotiated() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Key).await?;

    // A terminal that answers the flags query before the device attributes: push, then pop.
    let mut s = conn.play(100, 40).await?;
    s.record = true;
    s.skip_welcome().await?;
    let raw = String::from_utf8_lossy(&s.raw).into_owned();
    assert!(raw.contains("\x1b[?u\x1b[c"), "queries sent");
    assert!(
        raw.contains("\x1b[?2026h") && raw.contains("\x1b[?2026l"),
        "synchronized output"
    );
    s.send(b"\x1b[?0u\x1b[?62;22c").await?;
    s.pump_for(Duration::from_millis(300)).await;
    assert!(String::from_utf8_lossy(&s.raw).contains("\x1b[>11u"));
    s.raw.clear();
    // With the protocol on, keys arrive as CSI u: 'q' press, then 'y'.
    s.send(b"\x1b[113u").await?;
    s.pump_for(Duration::from_millis(200)).await;
    if !s.closed {
        s.send(b"\x1b[121u").await?;
    }
    assert_eq!(s.wait_closed(WAIT).await?, Some(0));
    assert!(
        String::from_utf8_lossy(&s.raw).contains("\x1b[<u"),
        "popped on exit"
    );

    // A terminal without the protocol answers only the device attributes: no push, no pop.
    let conn2 = Connection::open(server.addr, "bo", Login::Key).await?;
    let mut t = conn2.play(100, 40).await?;
    t.record = true;
    t.skip_welcome().await?;
    t.send(b"\x1b[?1;2c").await?;
    t.pump_for(Duration::from_millis(300)).await;
    assert_eq!(t.quit().await?, Some(0));
    let raw = String::from_utf8_lossy(&t.raw);
    assert!(
        !raw.contains("\x1b[>11u") && !raw.contains("\x1b[<u"),
        "{raw:?}"
    );
    Ok(())
}
