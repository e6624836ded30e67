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
