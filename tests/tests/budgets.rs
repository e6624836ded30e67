//! Exec commands over real SSH connections, played as an attacker: a flood of `leaderboard`
//! (each a database read) from many connections of one address (one connection's own budget
//! is shown in `command_budget_tests.rs`: a connection holds at most 4 channels here).
//! Past the budgets every command is refused with one line and exit status 1 and reads
//! nothing; the commands that ran are counted (the refill is 0 a minute here, so the counts
//! are exact whatever the machine's speed).

use minotty_server::Limits;
use minotty_server::command_budget::CommandLimits;
use minotty_tests::{Connection, Login, Output, TestServer, WAIT};
use russh::ChannelMsg;

async fn server(burst: u32) -> TestServer {
    TestServer::start_with(Limits {
        commands: CommandLimits {
            burst,
            per_minute: 0,
            ..CommandLimits::default()
        },
        ..Limits::default()
    })
    .await
    .expect("server starts")
}

/// Runs `command` on `conn` as a flooding client would: its own channel, read to the exit
/// status, then closed by the client (which frees it on the server: a connection holds 4).
async fn exec(conn: &Connection, command: &str) -> anyhow::Result<Output> {
    let mut channel = conn.handle.channel_open_session().await?;
    channel.exec(true, command).await?;
    let mut out = Output::default();
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let msg = tokio::time::timeout_at(deadline, channel.wait()).await?;
        match msg {
            Some(ChannelMsg::Data { data }) => out.stdout.push_str(&String::from_utf8_lossy(&data)),
            Some(ChannelMsg::ExtendedData { data, .. }) => {
                out.stderr.push_str(&String::from_utf8_lossy(&data));
            }
            Some(ChannelMsg::ExitStatus { exit_status }) => out.status = Some(exit_status),
            Some(ChannelMsg::Eof | ChannelMsg::Close) | None => break,
            Some(_) => {}
        }
    }
    let _ = channel.close().await;
    Ok(out)
}

/// Runs `leaderboard` `n` times on `conn`: how many ran, and how many were refused for
/// `reason`.
async fn flood(conn: &Connection, n: usize, reason: &str) -> anyhow::Result<(usize, usize)> {
    let (mut ran, mut refused) = (0, 0);
    for _ in 0..n {
        let out = exec(conn, "leaderboard").await?;
        match out.status {
            Some(0) => ran += 1,
            Some(1) if out.stderr.contains(reason) => {
                assert!(out.stdout.is_empty());
                assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
                refused += 1;
            }
            _ => panic!("unexpected answer: {:?} {}", out.status, out.stderr),
        }
    }
    Ok((ran, refused))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_flood_from_many_connections_of_one_address_is_refused_past_its_budget()
-> anyhow::Result<()> {
    let server = server(20).await;
    let (mut ran, mut refused) = (0, 0);
    // 3 commands a connection: within its own budget (10) and its channels (4).
    for i in 0..10 {
        let conn = Connection::open(server.addr, &format!("p{i}"), Login::Guest).await?;
        let (r, x) = flood(&conn, 3, "too many commands from your address").await?;
        conn.close().await;
        ran += r;
        refused += x;
    }
    assert_eq!(ran, 20, "the address's burst ran, in all");
    assert_eq!(refused, 10 * 3 - 20);
    Ok(())
}

/// Runs `command` on its own channel and reads until the server closes it (the client never
/// closes it: russh then never tells the server's handler that the channel closed).
async fn exec_to_close(conn: &Connection, command: &str) -> anyhow::Result<Option<u32>> {
    let mut channel = conn.handle.channel_open_session().await?;
    channel.exec(true, command).await?;
    let mut status = None;
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        match tokio::time::timeout_at(deadline, channel.wait()).await? {
            Some(ChannelMsg::ExitStatus { exit_status }) => status = Some(exit_status),
            Some(ChannelMsg::Close) | None => break,
            Some(_) => {}
        }
    }
    Ok(status)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn command_after_command_on_one_connection_and_still_four_channels_at_once()
-> anyhow::Result<()> {
    let server = server(50).await;
    let conn = Connection::open(server.addr, "one", Login::Guest).await?;
    // Before: the fifth command found its 4 slots held by channels the server had closed, and
    // its channel was refused (`AdministrativelyProhibited`).
    for i in 0..12 {
        let status = exec_to_close(&conn, "help").await?;
        // Past the connection's own burst (10) a command is refused, but answered.
        let want = if i < 10 { 0 } else { 1 };
        assert_eq!(status, Some(want), "command {i}");
    }
    // The cap on channels open at once holds: four idle channels, then a fifth is refused.
    let mut held = Vec::new();
    for _ in 0..4 {
        held.push(conn.handle.channel_open_session().await?);
    }
    assert!(
        conn.handle.channel_open_session().await.is_err(),
        "a fifth channel at once was opened"
    );
    drop(held);
    conn.close().await;
    Ok(())
}
