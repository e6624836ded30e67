//! Play in the browser over a real listener and the server's own core: the page's socket gets
//! the same game as an SSH client (the main menu, keys that move it), and a hostile page is
//! closed at each bound (an oversized message, a flood of messages) while an absurd window
//! size, bytes that are not UTF-8 and a size it cannot say leave the session running; at
//! shutdown the session hears its client leave.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use minotty_server::{HostKey, Limits, ServerConfig};
use minotty_web::Web;
use minotty_web::play::{MAX_MESSAGE, MESSAGES_BURST};
use tokio::net::TcpListener;
use tokio::time::timeout;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;

const WAIT: Duration = Duration::from_secs(10);

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn core() -> minotty_server::Core {
    minotty_server::start(ServerConfig {
        host_key: HostKey::generate().expect("a host key"),
        limits: Limits::default(),
        store: None,
        tbp: Default::default(),
        cluster: None,
        spool: None,
        web: None,
    })
    .await
    .expect("the core starts")
}

async fn serve(
    web: Arc<Web>,
) -> (
    std::net::SocketAddr,
    CancellationToken,
    tokio::task::JoinHandle<()>,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let task = tokio::spawn({
        let stop = stop.clone();
        async move { minotty_web::serve(listener, web, stop.cancelled_owned()).await }
    });
    (addr, stop, task)
}

async fn open(addr: std::net::SocketAddr) -> Socket {
    let url = format!("ws://{addr}/play/ws?cols=100&rows=30&name=ada");
    timeout(WAIT, tokio_tungstenite::connect_async(url))
        .await
        .expect("a handshake in time")
        .expect("a session")
        .0
}

/// Reads what the session writes into `screen` until `text` shows (or fails after WAIT).
async fn until_shown(socket: &mut Socket, screen: &mut vt100::Parser, text: &str) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !screen.screen().contents().contains(text) {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match timeout(left, socket.next()).await {
            Ok(Some(Ok(Message::Binary(bytes)))) => screen.process(&bytes),
            Ok(Some(Ok(_))) => {}
            other => panic!(
                "no {text:?} on the screen ({other:?}):\n{}",
                screen.screen().contents()
            ),
        }
    }
}

/// Waits for the socket's end; its close code, if it sent one.
async fn closed(socket: &mut Socket) -> Option<u16> {
    loop {
        match timeout(WAIT, socket.next()).await.expect("closed in time") {
            Some(Ok(Message::Close(frame))) => return frame.map(|f| f.code.into()),
            Some(Ok(_)) => {}
            _ => return None,
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_browser_plays_the_same_game_and_hostile_pages_are_closed() {
    let core = core().await;
    let web = Arc::new(Web::new(None, 2222).with_play(core.opener()));
    let (addr, stop, task) = serve(Arc::clone(&web)).await;

    // The game: its main menu, and a key that moves down it.
    let mut socket = open(addr).await;
    let size = |n| std::num::NonZeroU16::new(n).expect("not zero");
    let mut screen = vt100::Parser::new(size(30), size(100), 0);
    until_shown(&mut socket, &mut screen, "M I N O T T Y").await;
    // Junk the session must take in its stride: a size it cannot say, an absurd one, bytes
    // that are not UTF-8.
    for text in [
        "not json",
        "{\"cols\": -1}",
        "{\"cols\": 4000000000, \"rows\": 99999}",
    ] {
        socket.send(Message::Text(text.into())).await.expect("sent");
    }
    socket
        .send(Message::Binary(vec![0xff, 0xfe, 0x00, 0x1b].into()))
        .await
        .expect("sent");
    socket
        .send(Message::Text("{\"cols\": 100, \"rows\": 30}".into()))
        .await
        .expect("sent");
    // Quit's dialog comes up for `q`: the session still reads keys.
    socket
        .send(Message::Binary(b"q".to_vec().into()))
        .await
        .expect("sent");
    until_shown(&mut socket, &mut screen, "Quit").await;

    // One message over the bound: the socket ends.
    let mut big = open(addr).await;
    let _ = big
        .send(Message::Binary(vec![b'x'; MAX_MESSAGE + 1].into()))
        .await;
    let _ = closed(&mut big).await;
    // A flood of messages: closed with 1008 once past the burst.
    let mut flood = open(addr).await;
    for _ in 0..MESSAGES_BURST * 2 {
        if flood
            .send(Message::Binary(b"\x1b[B".to_vec().into()))
            .await
            .is_err()
        {
            break;
        }
    }
    assert_eq!(closed(&mut flood).await, Some(1008));

    // Shutdown: the pages close the socket and end; the core ends its sessions.
    stop.cancel();
    timeout(WAIT, task)
        .await
        .expect("the pages end")
        .expect("served");
    assert_eq!(web.sockets(), 0);
    let _ = closed(&mut socket).await;
    timeout(WAIT, core.stop()).await.expect("the core ends");
}
