//! The terminal doctor end to end: `ssh -t HOST doctor` with the real OpenSSH client inside
//! tmux (the doctor finds tmux and shows the keyboard and synchronized output results),
//! `doctor` without a PTY (a plain report, nothing asked), a terminal that answers nothing
//! (every check gives up at its deadline), and a client that floods made-up replies.

use std::time::{Duration, Instant};

use anyhow::Context;
use minotty_tests::tmux::{ClientKey, Tmux, ssh_in_tmux_available};
use minotty_tests::{Connection, Login, TestServer, WAIT};

type Result = anyhow::Result<()>;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_t_doctor_inside_tmux_finds_tmux_and_shows_keyboard_and_sync() -> Result {
    if !ssh_in_tmux_available() {
        return Ok(());
    }
    let server = TestServer::start().await?;
    let key = ClientKey::new()?;
    let ssh = key.ssh_as_ada(server.addr.port(), " doctor; echo '[ssh exited]'; sleep 60");
    let name = format!("minotty-doctor-{}", std::process::id());
    let tmux = Tmux::start(&name, 100, 32, &ssh)?;

    let screen = tokio::task::spawn_blocking(move || {
        let screen = tmux.wait_for("Multiplexer", WAIT)?;
        anyhow::Ok((tmux, screen))
    })
    .await?;
    let (tmux, screen) = screen?;
    let line = |name: &str| {
        screen
            .lines()
            .find(|l| l.contains(name))
            .map(str::to_owned)
            .with_context(|| format!("no {name} line in\n{screen}"))
    };
    // tmux answers XTVERSION itself: the doctor knows it is inside tmux, and says what to set.
    let mux = line("Multiplexer")?;
    assert!(
        mux.contains("[!!]") && mux.contains("inside tmux"),
        "{screen}"
    );
    assert!(line("Terminal")?.contains("tmux"), "{screen}");
    // The keyboard and synchronized output checks came back with a result, either way.
    let keyboard = line("Keyboard")?;
    assert!(
        keyboard.contains("kitty keyboard protocol"),
        "{keyboard}\n{screen}"
    );
    let sync = line("Sync output")?;
    assert!(
        sync.contains("mode 2026") || sync.contains("no answer"),
        "{sync}\n{screen}"
    );
    if keyboard.contains("[!!]") {
        assert!(screen.contains("set -s extended-keys on"), "{screen}");
    }
    if sync.contains("no answer") {
        assert!(screen.contains("terminal-features ',*:sync'"), "{screen}");
    }
    // The round trips were measured and every glyph was looked at.
    assert!(line("Round trip")?.contains("samples"), "{screen}");
    assert!(line("Glyph widths")?.contains("[ok]"), "{screen}");
    // q ends the session and gives the terminal back.
    tmux.send(&["q"])?;
    let after = tokio::task::spawn_blocking(move || tmux.wait_for("[ssh exited]", WAIT)).await??;
    assert!(!after.contains("TERMINAL DOCTOR"), "{after}");
    Ok(())
}

#[tokio::test]
async fn doctor_without_a_pty_prints_what_the_server_knows() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Guest).await?;
    let out = conn.exec("doctor", false).await?;
    assert_eq!(out.status, Some(0), "{out:?}");
    // The server knows the address the client reached: no placeholders.
    let here = format!(
        "ssh -t -p {} {} doctor",
        server.addr.port(),
        server.addr.ip()
    );
    for want in [
        "nothing was asked",
        "PTY            no",
        "COLORTERM      (not sent)",
        "SendEnv COLORTERM",
        here.as_str(),
    ] {
        assert!(
            out.stdout.contains(want),
            "{want:?} missing:\n{}",
            out.stdout
        );
    }
    // No escape sequence reaches a terminal in cooked mode.
    assert!(!out.stdout.contains('\x1b'));
    assert!(!out.stdout.contains("PORT HOST"), "{}", out.stdout);
    let help = conn.exec("help", false).await?;
    assert!(help.stdout.contains(&here), "{}", help.stdout);
    assert!(!help.stdout.contains("PORT HOST"), "{}", help.stdout);
    Ok(())
}

#[tokio::test]
async fn a_terminal_that_answers_nothing_gets_a_report_after_the_deadline() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "ada", Login::Guest).await?;
    // The test client's emulator answers no query at all. Timed from before the request, so
    // the probes' deadline cannot have started earlier: a lower bound only (how soon after it
    // the report came is not asserted; the wait below just waits for it).
    let asked = Instant::now();
    let mut s = conn.run_with_pty(100, 32, "doctor").await?;
    s.wait_for_text("the terminal answered nothing", WAIT)
        .await?;
    let took = asked.elapsed();
    assert!(took >= Duration::from_millis(1_400), "{took:?}");
    let screen = s.contents();
    assert!(
        screen.contains("answered none of the questions"),
        "{screen}"
    );
    assert!(screen.contains("q/Esc end"), "{screen}");
    s.send(b"q").await?;
    assert_eq!(s.wait_closed(WAIT).await?, Some(0));
    Ok(())
}

/// A client floods made-up replies of every kind while the doctor asks. Replies nobody asked
/// for cost the garbage budget (past it, input is dropped unparsed), none becomes a key (the
/// made-up XTVERSION is "q", which would end the session if it did), and the session goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_fake_probe_replies_is_held_to_the_input_budget() -> Result {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "eve", Login::Guest).await?;
    let mut s = conn.run_with_pty(100, 32, "doctor").await?;
    s.wait_for_text("TERMINAL DOCTOR", WAIT).await?;
    let fake: &[u8] = b"\x1b[32;2R\x1b[?1;2c\x1b[?2026;2$y\x1bP>|q\x1b\\\x1b[?11u\x1bP1$r0m\x1b\\";
    let chunk: Vec<u8> = fake.iter().copied().cycle().take(32 * fake.len()).collect();
    let started = Instant::now();
    let mut sent = 0;
    while sent < (2 << 20) {
        s.send(&chunk).await?;
        sent += chunk.len();
        // Frames keep being read, so the server never waits on the client.
        s.drain().await;
    }
    let flood = started.elapsed();
    // Let the budget refill, then check the session is still there and did not quit.
    s.pump_for(Duration::from_secs(2)).await;
    anyhow::ensure!(!s.closed, "the flood ended the session:\n{}", s.contents());
    let screen = s.contents();
    assert!(screen.contains("TERMINAL DOCTOR"), "{screen}");
    println!("2 MB of fake replies in {flood:?}; session alive");
    s.send(b"q").await?;
    assert_eq!(s.wait_closed(WAIT).await?, Some(0));
    Ok(())
}
