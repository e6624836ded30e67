//! Play in the browser: `/play` is a terminal (xterm.js, vendored by `web/vendor/update.sh`)
//! whose WebSocket (`/play/ws`) is one more client of the server's session loop
//! (`minotty_server::session::remote`): the same App, input budget and frame encoder as over SSH.
//! The page plays as a guest.
//!
//! On the socket, binary messages are the terminal's bytes both ways; a text message from the
//! page is its window's size, `{"cols":C,"rows":R}`. Bounds: a message of at most
//! [`MAX_MESSAGE`] bytes; at most [`MESSAGES_BURST`] messages, then [`MESSAGES_PER_SEC`] a second
//! (past it the socket is closed, 1008); a write to the page that takes longer than
//! [`SEND_TIMEOUT`] ends the session as a dropped connection does. Each socket holds its
//! connection's place and is a tracked task; at shutdown its session hears the client leave.

use std::sync::Arc;
use std::time::Duration;

use askama::Template;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use minotty_domain::TokenBucket;
use minotty_server::session::SessionEvent;
use minotty_server::session::remote::{Opener, Opening, Output, Remote};
use serde::Deserialize;
use tokio_util::sync::CancellationToken;

use crate::Web;
use crate::listen::{Conn, Place};
use crate::pages::{Site, render};

/// The largest message either way from the page (a paste is cut into messages this long).
pub const MAX_MESSAGE: usize = 4096;
/// The socket's read buffer: a whole message and its header.
pub const READ_BUFFER: usize = MAX_MESSAGE + 64;
/// Messages from the page: a burst, then a steady rate.
pub const MESSAGES_BURST: u64 = 200;
pub const MESSAGES_PER_SEC: u64 = 100;
/// How long a write to the page may take.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// The window's size the page may ask for, at most (the session draws at most the UI's
/// largest screen anyway).
pub const MAX_COLS: u32 = 500;
pub const MAX_ROWS: u32 = 200;

/// The page's scripts and style: its own, and the vendored terminal.
pub const SCRIPT: &str = include_str!("../assets/play.js");
pub const XTERM: &str = include_str!("../assets/vendor/xterm.js");
pub const XTERM_FIT: &str = include_str!("../assets/vendor/addon-fit.js");
pub const XTERM_CSS: &str = include_str!("../assets/vendor/xterm.css");
pub const LICENSES: &str = include_str!("../assets/vendor/LICENSES.txt");

#[derive(Template)]
#[template(path = "play.html")]
struct PlayPage {
    site: Site,
    /// The account this browser is linked to, if any.
    linked: Option<String>,
}

/// `/play`.
pub async fn page(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    let linked = crate::link::account_of(web.store.as_ref(), &headers)
        .await
        .map(|a| a.name);
    let site = Site::of(&web, &headers);
    if web.opener.is_none() {
        return crate::pages::error(
            site,
            axum::http::StatusCode::NOT_FOUND,
            "No play here",
            "This server does not take players from the browser.".into(),
        );
    }
    let mut page = render(&PlayPage { site, linked });
    page.headers_mut().insert(
        axum::http::header::CONTENT_SECURITY_POLICY,
        axum::http::HeaderValue::from_static(crate::PLAY_CSP),
    );
    page
}

/// What `/play/ws` is opened with.
#[derive(Debug, Default, Deserialize)]
pub struct PlayQuery {
    cols: Option<u32>,
    rows: Option<u32>,
    name: Option<String>,
}

#[derive(Debug, Deserialize)]
struct Resize {
    cols: u32,
    rows: u32,
}

fn clamp_size(cols: u32, rows: u32) -> (u32, u32) {
    (cols.clamp(1, MAX_COLS), rows.clamp(1, MAX_ROWS))
}

/// `/play/ws`: the session itself.
pub async fn socket(
    State(web): State<Arc<Web>>,
    Query(query): Query<PlayQuery>,
    conn: Option<axum::extract::Extension<Conn>>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(opener) = web.opener.clone() else {
        return axum::http::StatusCode::NOT_FOUND.into_response();
    };
    let place = conn.as_ref().map(|c| Arc::clone(&c.0.place));
    let peer = conn.map_or_else(|| ([127, 0, 0, 1], 0).into(), |c| c.0.peer);
    let size = clamp_size(query.cols.unwrap_or(80), query.rows.unwrap_or(24));
    let opening = Opening {
        name: query.name.unwrap_or_default(),
        peer,
        size,
        term: "xterm-256color".into(),
        truecolor: true,
    };
    // A linked browser plays as its account; any other as a guest.
    let account = crate::link::account_of(web.store.as_ref(), &headers).await;
    let (stop, tracker) = (web.stop.clone(), web.sockets.clone());
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        // The page's messages are small: no 128 KiB read buffer a socket (tungstenite's
        // default); a frame goes out as it is sent (each send flushes anyway).
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(0)
        .on_upgrade(move |socket| {
            tracker.track_future(play(socket, opener, (opening, account), place, stop))
        })
}

/// Relays the socket and the session until either ends (or the server stops).
async fn play(
    mut socket: WebSocket,
    opener: Opener,
    (opening, account): (Opening, Option<minotty_domain::AccountRef>),
    _place: Option<Arc<Place>>,
    stop: CancellationToken,
) {
    let Remote {
        input,
        size,
        mut output,
    } = opener.open(opening, account);
    let start = tokio::time::Instant::now();
    let mut budget = TokenBucket::new(MESSAGES_BURST, MESSAGES_PER_SEC, 0);
    let ended = loop {
        tokio::select! {
            () = stop.cancelled() => break None,
            out = output.recv() => match out {
                Some(Output::Bytes(bytes)) => {
                    let sent = tokio::time::timeout(
                        SEND_TIMEOUT,
                        socket.send(Message::Binary(bytes.into())),
                    )
                    .await;
                    if !matches!(sent, Ok(Ok(()))) {
                        break None;
                    }
                }
                Some(Output::Closed(_)) | None => break Some("the game ended"),
            },
            message = socket.recv() => {
                let now = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
                let message = match message {
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break None,
                    Some(Ok(m @ (Message::Binary(_) | Message::Text(_)))) => m,
                    Some(Ok(_)) => continue,
                };
                if !budget.try_take(now) {
                    crate::live::close(&mut socket, 1008, "too many messages").await;
                    break None;
                }
                match message {
                    Message::Binary(bytes)
                        if input.send(SessionEvent::Input(bytes.to_vec())).await.is_err() =>
                    {
                        break Some("the game ended");
                    }
                    Message::Text(text) => {
                        // A size the page cannot say is ignored.
                        if let Ok(r) = serde_json::from_str::<Resize>(&text) {
                            let _ = size.send(clamp_size(r.cols, r.rows));
                        }
                    }
                    _ => {}
                }
            }
        }
    };
    // The session hears the client leave (an SSH channel's close); the page, why it ended.
    let _ = input.try_send(SessionEvent::Closed);
    if let Some(why) = ended {
        crate::live::close(&mut socket, 1000, why).await;
    }
}

pub async fn script() -> Response {
    crate::assets::javascript(SCRIPT)
}

pub async fn xterm() -> Response {
    crate::assets::javascript(XTERM)
}

pub async fn xterm_fit() -> Response {
    crate::assets::javascript(XTERM_FIT)
}

pub async fn xterm_css() -> Response {
    crate::assets::css(XTERM_CSS)
}

pub async fn licenses() -> Response {
    (
        [(
            axum::http::header::CONTENT_TYPE,
            "text/plain; charset=utf-8",
        )],
        LICENSES,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_clamped() {
        assert_eq!(clamp_size(0, 0), (1, 1));
        assert_eq!(clamp_size(80, 24), (80, 24));
        assert_eq!(clamp_size(u32::MAX, u32::MAX), (MAX_COLS, MAX_ROWS));
    }
}
