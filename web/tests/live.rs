//! The Live pages against a real listener: the list escapes what players are called; a watch
//! over the WebSocket gets the game's frames, hears its end, and closes at every bound a
//! hostile page can reach (an oversized message, messages at all, sockets from one address,
//! an id that is not listed), and at shutdown.

use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use minotty_engine::{Game, GameConfig, Mode};
use minotty_server::live::{LiveDirectory, SoloPublisher};
use minotty_web::live::{MAX_INCOMING, MAX_MESSAGE};
use minotty_web::{BOUNDS, Web};
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::time::{Instant, timeout};
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_util::sync::CancellationToken;

const HOSTILE: &str = "<b>ada</b>\u{1b}[2J\u{7}";
const WAIT: Duration = Duration::from_secs(10);

struct Served {
    addr: std::net::SocketAddr,
    web: Arc<Web>,
    stop: CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

async fn serve(dir: LiveDirectory) -> Served {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("a port");
    let addr = listener.local_addr().expect("an address");
    let web = Arc::new(Web::new(None, 2222).with_live(dir));
    let stop = CancellationToken::new();
    let task = tokio::spawn({
        let (web, stop) = (Arc::clone(&web), stop.clone());
        async move { minotty_web::serve(listener, web, stop.cancelled_owned()).await }
    });
    Served {
        addr,
        web,
        stop,
        task,
    }
}

fn game() -> Game {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::sprint(),
            ..GameConfig::default()
        },
        3,
    );
    game.update(1_000, None);
    game
}

/// A game listed under `name`; returns its publisher and id.
fn listed(dir: &LiveDirectory, game: &Game) -> (SoloPublisher, u64) {
    let mut publisher = SoloPublisher::new(dir.clone());
    publisher.update(Some((1, game)), true, || HOSTILE.into(), Instant::now());
    let id = publisher.id().expect("listed");
    (publisher, id)
}

async fn http_get(addr: std::net::SocketAddr, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let head = format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
    s.write_all(head.as_bytes()).await.expect("writes");
    let mut out = Vec::new();
    timeout(WAIT, s.read_to_end(&mut out))
        .await
        .expect("in time")
        .expect("reads");
    String::from_utf8_lossy(&out).into_owned()
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn open(addr: std::net::SocketAddr, id: u64) -> Result<Socket, tungstenite::Error> {
    let url = format!("ws://{addr}/live/{id}/ws");
    timeout(WAIT, tokio_tungstenite::connect_async(url))
        .await
        .expect("a handshake in time")
        .map(|(socket, _)| socket)
}

/// The next text message, as JSON.
async fn next_json(socket: &mut Socket) -> Value {
    loop {
        match timeout(WAIT, socket.next())
            .await
            .expect("a message in time")
        {
            Some(Ok(Message::Text(t))) => return serde_json::from_str(&t).expect("JSON"),
            Some(Ok(_)) => {}
            other => panic!("the socket ended: {other:?}"),
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

#[tokio::test]
async fn the_list_escapes_names_and_a_watch_gets_frames_then_the_end() {
    let dir = LiveDirectory::default();
    let game = game();
    let (mut publisher, id) = listed(&dir, &game);
    let served = serve(dir.clone()).await;

    let page = http_get(served.addr, "/live").await;
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains(&format!("href=\"/live/{id}\"")), "{page}");
    assert!(!page.contains("<b>ada"), "escaped: {page}");
    assert!(
        !page.contains('\u{1b}') && !page.contains('\u{7}'),
        "no control byte"
    );
    assert!(
        page.to_ascii_lowercase()
            .contains("cache-control: no-store")
    );

    let mut socket = open(served.addr, id).await.expect("a watch");
    assert_eq!(dir.watchers(), 1);
    publisher.update(Some((1, &game)), true, || HOSTILE.into(), Instant::now());
    let frame = next_json(&mut socket).await;
    assert_eq!(frame["kind"], "solo");
    let player = frame["player"].as_str().expect("a name");
    assert!(
        !player.contains('\u{1b}') && !player.contains('\u{7}'),
        "{player:?}"
    );
    assert_eq!(frame["cells"].as_str().map(str::len), Some(200));
    assert_eq!(frame["mode"], "40 Lines");

    drop(publisher);
    assert_eq!(next_json(&mut socket).await["kind"], "ended");
    assert_eq!(closed(&mut socket).await, Some(1000));
    // The watcher is counted no more once its socket's task is done.
    let deadline = Instant::now() + WAIT;
    while dir.watchers() != 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(dir.watchers(), 0);
    served.stop.cancel();
    served.task.await.expect("served");
}

#[tokio::test]
async fn a_hostile_page_is_closed_at_every_bound() {
    let dir = LiveDirectory::default();
    let game = game();
    let (_publisher, id) = listed(&dir, &game);
    let served = serve(dir.clone()).await;

    // An id that is not listed: refused before the upgrade.
    match open(served.addr, id + 1).await {
        Err(tungstenite::Error::Http(answer)) => assert_eq!(answer.status(), 404),
        other => panic!("a watch of nothing: {other:?}"),
    }
    // One message over the size: the socket ends.
    let mut socket = open(served.addr, id).await.expect("a watch");
    let _ = socket
        .send(Message::Text("x".repeat(MAX_MESSAGE + 1).into()))
        .await;
    let _ = closed(&mut socket).await;
    // Messages at all: past MAX_INCOMING, closed with 1008.
    let mut socket = open(served.addr, id).await.expect("a watch");
    for _ in 0..=MAX_INCOMING {
        if socket.send(Message::Text("hi".into())).await.is_err() {
            break;
        }
    }
    assert_eq!(closed(&mut socket).await, Some(1008));

    // The closed ones gone (each waits up to CLOSE_WAIT for its page's close)...
    drop(socket);
    let deadline = Instant::now() + WAIT;
    while served.web.sockets() != 0 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(served.web.sockets(), 0);
    // ...sockets from one address: at most the pages' share per address, however many ask.
    let mut held = Vec::new();
    let mut refused = 0;
    for _ in 0..BOUNDS.max_per_address + 4 {
        match open(served.addr, id).await {
            Ok(s) => held.push(s),
            Err(_) => refused += 1,
        }
    }
    assert_eq!(held.len(), BOUNDS.max_per_address, "{refused} refused");
    assert_eq!(served.web.sockets(), BOUNDS.max_per_address);

    // Shutdown closes them all and the pages' end waits for them.
    served.stop.cancel();
    timeout(WAIT, served.task)
        .await
        .expect("the pages end")
        .expect("served");
    assert_eq!(served.web.sockets(), 0);
    for mut s in held {
        let _ = closed(&mut s).await;
    }
    assert_eq!(dir.watchers(), 0);
}
