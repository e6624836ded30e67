use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::time::timeout;

use super::SideTasks;

/// Generous: only a hung shutdown waits this long.
const PATIENCE: Duration = Duration::from_secs(60);

#[tokio::test]
async fn finishing_ends_the_metrics_server_and_the_runtime_log_and_frees_the_port() {
    let runtime = tokio::runtime::Handle::current().metrics();
    let alive_before = runtime.num_alive_tasks();
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("its address");
    let side = SideTasks::new();
    side.serve_metrics(listener);
    side.log_runtime(Duration::from_secs(10));
    assert_eq!(side.tracker.len(), 2);
    assert_eq!(runtime.num_alive_tasks(), alive_before + 2);

    // Serving: it answers, and its port is taken.
    let mut client = TcpStream::connect(addr).await.expect("connects");
    client
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("request");
    let mut answer = Vec::new();
    timeout(PATIENCE, client.read_to_end(&mut answer))
        .await
        .expect("an answer")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 "), "{answer}");
    assert!(
        std::net::TcpListener::bind(addr).is_err(),
        "the metrics server holds {addr}"
    );

    timeout(PATIENCE, side.finish())
        .await
        .expect("the side tasks end once told to");
    // Nothing left running: the runtime's live tasks are back to what they were (the answered
    // connection's task too), and the port is free.
    timeout(PATIENCE, async {
        while runtime.num_alive_tasks() != alive_before {
            tokio::task::yield_now().await;
        }
    })
    .await
    .unwrap_or_else(|_| {
        panic!(
            "{} tasks alive, {alive_before} before",
            runtime.num_alive_tasks()
        )
    });
    std::net::TcpListener::bind(addr).expect("the metrics port is free once finished");
}
