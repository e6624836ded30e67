//! End-to-end: real SSH sessions move the operator's metrics, read over HTTP from `/metrics`
//! as Prometheus would (a solo game to its end, then a room with a match against a bot), and
//! `/health` follows the server from serving to draining.

use std::net::SocketAddr;
use std::time::Duration;

use minotty_server::metrics::HEALTH;
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::versus::{create_room, guest, wait_for_play};
use minotty_tests::{Connection, Login, TestServer, WAIT, WELCOME, keys};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

type Result = anyhow::Result<()>;

/// One GET; the status line and the body.
async fn get(addr: SocketAddr, path: &str) -> anyhow::Result<(String, String)> {
    let mut s = TcpStream::connect(addr).await?;
    s.write_all(format!("GET {path} HTTP/1.1\r\nHost: test\r\n\r\n").as_bytes())
        .await?;
    let mut reply = String::new();
    tokio::time::timeout(WAIT, s.read_to_string(&mut reply)).await??;
    let (head, body) = reply
        .split_once("\r\n\r\n")
        .ok_or_else(|| anyhow::anyhow!("no head: {reply:?}"))?;
    let status = head.lines().next().unwrap_or_default().to_owned();
    Ok((status, body.to_owned()))
}

/// The value of the sample `series` (name and labels, as written) in a scrape.
fn sample(text: &str, series: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
        .unwrap_or_else(|| panic!("no sample {series} in:\n{text}"))
}

async fn scrape(addr: SocketAddr) -> anyhow::Result<String> {
    let (status, body) = get(addr, "/metrics").await?;
    anyhow::ensure!(status == "HTTP/1.1 200 OK", "{status}");
    Ok(body)
}

/// Polls the scrape until `series` reaches at least `at_least`.
async fn wait_for(addr: SocketAddr, series: &str, at_least: f64) -> anyhow::Result<String> {
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let text = scrape(addr).await?;
        if sample(&text, series) >= at_least {
            return Ok(text);
        }
        if tokio::time::Instant::now() > deadline {
            anyhow::bail!("{series} stayed below {at_least}:\n{text}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_session_moves_the_counters() -> Result {
    let mut server = TestServer::start().await?;
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let metrics = listener.local_addr()?;
    tokio::spawn(minotty_web::operator::serve(
        listener,
        &HEALTH,
        std::future::pending(),
    ));
    // Serving once the server task runs (it is spawned: a moment after `start`).
    let deadline = tokio::time::Instant::now() + WAIT;
    while get(metrics, "/health").await?.0 != "HTTP/1.1 200 OK" {
        anyhow::ensure!(tokio::time::Instant::now() < deadline, "never healthy");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(get(metrics, "/nope").await?.0, "HTTP/1.1 404 Not Found");

    let before = scrape(metrics).await?;
    let v = |text: &str, series: &str| sample(text, series);
    // A registered player (their finished game goes to the database).
    let conn = Connection::open(server.addr, "meter", Login::Key).await?;
    let mut s = conn.play(100, 40).await?;
    s.wait_for_text(WELCOME, WAIT).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("Leaderboards", WAIT).await?;
    let open = v(&before, "minotty_sessions_open") + 1.0;
    wait_for(metrics, "minotty_sessions_open", open).await?;

    s.start_40_lines().await?;
    let solo = "minotty_players_in_game{mode=\"solo\"}";
    wait_for(metrics, solo, v(&before, solo) + 1.0).await?;
    let during = scrape(metrics).await?;

    // Hard drops pile pieces in the middle until the game is lost; each drop is a key the
    // server answers with a frame.
    minotty_tests::menu::top_out_to_results(&mut s, 60, Duration::from_millis(320)).await?;
    let latency = "minotty_input_to_frame_seconds_count";
    let after = wait_for(metrics, latency, v(&during, latency) + 5.0).await?;
    for counter in ["minotty_frames_sent_total", "minotty_bytes_sent_total"] {
        assert!(
            v(&after, counter) > v(&during, counter),
            "{counter}:\n{after}"
        );
    }
    assert!(
        v(&after, "minotty_bytes_sent_total") - v(&before, "minotty_bytes_sent_total") > 1000.0,
        "{after}"
    );
    // Every answered key is in the histogram, with its time added to the sum and its bucket
    // counted. How fast the answers were is a benchmark's business (BENCHMARKS.md, "Server
    // load"), not a test's: it depends on the machine's load.
    let bucket = |scrape: &str, le: &str| {
        v(
            scrape,
            &format!("minotty_input_to_frame_seconds_bucket{{le=\"{le}\"}}"),
        )
    };
    let all = v(&after, latency) - v(&during, latency);
    let within_50ms = bucket(&after, "0.05") - bucket(&during, "0.05");
    let within_5s = bucket(&after, "5") - bucket(&during, "5");
    let sum = "minotty_input_to_frame_seconds_sum";
    assert!(all >= 5.0, "{all} keys answered:\n{after}");
    assert!(v(&after, sum) > v(&during, sum), "{after}");
    assert!(within_50ms <= within_5s && within_5s <= all, "{after}");
    // The game is over: no longer in a game; the game writer stored it (one transaction at
    // least) and its queue is empty again.
    wait_for(
        metrics,
        "minotty_db_write_seconds_count{writer=\"games\"}",
        v(&before, "minotty_db_write_seconds_count{writer=\"games\"}") + 1.0,
    )
    .await?;
    let stored = scrape(metrics).await?;
    assert_eq!(v(&stored, solo), v(&before, solo), "{stored}");
    assert_eq!(
        v(&stored, "minotty_db_queue{writer=\"games\"}"),
        0.0,
        "{stored}"
    );

    assert_eq!(s.quit().await?, Some(0));
    let deadline = tokio::time::Instant::now() + WAIT;
    while v(&scrape(metrics).await?, "minotty_sessions_open") > v(&before, "minotty_sessions_open")
    {
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "the session stayed open"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // A room with a bot and a match in it: the room, the match and a versus player count.
    let rooms = v(&before, "minotty_rooms_open");
    let matches = v(&before, "minotty_matches_running");
    let versus = "minotty_players_in_game{mode=\"versus\"}";
    let (_ann_conn, mut ann) = guest(server.addr, "ann").await?;
    create_room(&mut ann, false, 2).await?;
    wait_for(metrics, "minotty_rooms_open", rooms + 1.0).await?;
    ann.send(&kitty_tap(KittyKey::Char('b'))).await?;
    ann.wait_for_text("Bot level", WAIT).await?;
    ann.send(&kitty_tap(K_ENTER)).await?;
    wait_for_play(&mut ann).await?;
    wait_for(metrics, "minotty_matches_running", matches + 1.0).await?;
    wait_for(metrics, versus, v(&before, versus) + 1.0).await?;

    // Shutting down: health says so (a load balancer stops sending players here).
    server.stop(Duration::from_secs(20)).await?;
    let (status, body) = get(metrics, "/health").await?;
    assert_eq!(
        (status.as_str(), body.as_str()),
        ("HTTP/1.1 503 Service Unavailable", "draining\n")
    );
    assert_eq!(v(&scrape(metrics).await?, "minotty_up"), 0.0);
    Ok(())
}
