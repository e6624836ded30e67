//! The Live pages: `/live` lists what is being played now (the Live screen's list), and
//! `/live/ID` watches one game or match over a WebSocket (`/live/ID/ws`) as a spectator over
//! SSH does: the same directory (`minotty_server::live`), the same watcher bounds (per game and
//! server-wide), a frame at most every [`WATCH_INTERVAL`], for at most [`MAX_WATCH`].
//!
//! A watching page sends nothing: a socket's messages are read only to be counted, at most
//! [`MAX_MESSAGE`] bytes each and [`MAX_INCOMING`] in all (more closes it, 1008). A frame that
//! cannot be written within [`SEND_TIMEOUT`] ends the watch. Every name is passed through the one
//! text policy before it leaves, and the page sets it as text, never as markup.

use std::sync::Arc;
use std::time::Duration;

use askama::Template;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use minotty_protocol::{BoardSnapshot, LiveEntry, LiveFrame, LiveKind, LiveMatchFrame};
use minotty_server::live::{LiveDirectory, LiveUpdate, MAX_WATCH, WATCH_INTERVAL, WatcherGuard};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::Web;
use crate::listen::{Conn, Place};
use crate::pages::{Site, error, render};

/// The largest message a watching page may send (it sends none).
pub const MAX_MESSAGE: usize = 1024;
/// Messages a watching page may send in all before its socket is closed.
pub const MAX_INCOMING: u32 = 16;
/// How long one frame may take to be written.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(5);
/// The longest name sent.
const MAX_NAME: usize = 32;

/// The page's script.
pub const SCRIPT: &str = include_str!("../assets/live.js");
/// The drawing both the replay and the live pages use.
pub const BOARD_SCRIPT: &str = include_str!("../assets/board.js");

#[derive(Template)]
#[template(path = "live.html")]
struct ListPage {
    site: Site,
    entries: Vec<Listed>,
}

struct Listed {
    href: String,
    players: String,
    what: String,
    figures: String,
    watchers: u32,
}

#[derive(Template)]
#[template(path = "watch.html")]
struct WatchPage {
    site: Site,
    socket: String,
}

type Frames = watch::Receiver<Option<Arc<LiveUpdate>>>;

fn name(s: &str) -> String {
    minotty_domain::text::sanitize_display(s, MAX_NAME)
}

// An error here is the page that says so, handed to axum at once: boxing it gains nothing.
#[allow(clippy::result_large_err)]
fn directory<'a>(web: &'a Web, site: &Site) -> Result<&'a LiveDirectory, Response> {
    web.live.as_ref().ok_or_else(|| {
        error(
            site.clone(),
            StatusCode::NOT_FOUND,
            "No live games",
            "This server shows no live games on the web.".into(),
        )
    })
}

/// `/live`: the games and matches being played now, most interesting first.
pub async fn list(State(web): State<Arc<Web>>, headers: HeaderMap) -> Response {
    let site = Site::of(&web, &headers);
    let dir = match directory(&web, &site) {
        Ok(dir) => dir,
        Err(page) => return page,
    };
    let entries = dir.public_list().iter().map(listed).collect();
    let mut page = render(&ListPage { site, entries });
    // The list changes by the second: never kept.
    page.headers_mut().insert(
        header::CACHE_CONTROL,
        header::HeaderValue::from_static("no-store"),
    );
    page
}

fn listed(e: &LiveEntry) -> Listed {
    let players: Vec<String> = e.players.iter().map(|p| name(p)).collect();
    let (what, figures) = match &e.kind {
        LiveKind::Solo => (
            format!("{} · {}", e.mode.title(), e.ruleset.id()),
            format!(
                "{} lines · {} pieces · {}",
                e.stats.lines,
                e.stats.pieces,
                minotty_ui::boards::time(e.stats.time_ms)
            ),
        ),
        LiveKind::Match { kind } => (
            match kind {
                minotty_engine::versus::MatchKind::Battle => "Battle".to_owned(),
                minotty_engine::versus::MatchKind::Race => "Race".to_owned(),
            },
            String::new(),
        ),
    };
    Listed {
        href: format!("/live/{}", e.id),
        players: players.join(" vs "),
        what,
        figures,
        watchers: e.watchers,
    }
}

/// A listed id as its address writes it.
fn parse_id(s: &str) -> Option<u64> {
    (!s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit()))
        .then(|| s.parse().ok())
        .flatten()
}

/// `/live/ID`: the watching page (its script opens the socket).
pub async fn page(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let site = Site::of(&web, &headers);
    if let Err(page) = directory(&web, &site) {
        return page;
    }
    let Some(id) = parse_id(&id) else {
        return ended(site);
    };
    render(&WatchPage {
        site,
        socket: format!("/live/{id}/ws"),
    })
}

fn ended(site: Site) -> Response {
    error(
        site,
        StatusCode::NOT_FOUND,
        "Not being played",
        "That game has ended. See what is being played now on the Live page.".into(),
    )
}

/// `/live/ID/ws`: the watch itself. Refused before the upgrade (404, or 503 at a bound) with
/// the directory's reason as the body.
pub async fn socket(
    State(web): State<Arc<Web>>,
    Path(id): Path<String>,
    conn: Option<axum::extract::Extension<Conn>>,
    upgrade: WebSocketUpgrade,
) -> Response {
    let Some(dir) = web.live.as_ref() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let Some(id) = parse_id(&id) else {
        return (StatusCode::NOT_FOUND, "That game has ended.").into_response();
    };
    let (frames, guard) = match dir.watch(id) {
        Ok(w) => w,
        Err(why) if why.starts_with("Too many") => {
            return (StatusCode::SERVICE_UNAVAILABLE, why).into_response();
        }
        Err(why) => return (StatusCode::NOT_FOUND, why).into_response(),
    };
    let place = conn.map(|c| Arc::clone(&c.0.place));
    let (stop, tracker) = (web.stop.clone(), web.sockets.clone());
    upgrade
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(MAX_MESSAGE + 64)
        .write_buffer_size(0)
        .on_upgrade(move |socket| {
            tracker.track_future(async move {
                tokio::select! {
                    () = watch(socket, frames, guard, place) => {}
                    () = stop.cancelled() => {}
                }
            })
        })
}

/// Sends the watched game's frames until it ends, the page leaves, or a bound is reached.
async fn watch(
    mut socket: WebSocket,
    mut frames: Frames,
    _guard: WatcherGuard,
    _place: Option<Arc<Place>>,
) {
    let deadline = tokio::time::sleep(MAX_WATCH);
    tokio::pin!(deadline);
    let mut incoming = 0u32;
    // The latest frame at once (there may be none yet: the player's session makes one at
    // its next turn now that someone watches).
    frames.mark_changed();
    loop {
        tokio::select! {
            () = &mut deadline => {
                close(&mut socket, 1000, "watched for an hour: reload to watch on").await;
                return;
            }
            message = socket.recv() => match message {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(Message::Text(_) | Message::Binary(_))) => {
                    incoming += 1;
                    if incoming > MAX_INCOMING {
                        close(&mut socket, 1008, "this page sends nothing").await;
                        return;
                    }
                }
                Some(Ok(_)) => {}
            },
            changed = frames.changed() => {
                if changed.is_err() {
                    // The publisher is gone: the game ended, or it is parked for its
                    // player's return (its last word says so).
                    let parked = matches!(frames.borrow().as_deref(), Some(LiveUpdate::Parked));
                    let last = json!({"kind": if parked { "parked" } else { "ended" }});
                    let _ = send(&mut socket, &last).await;
                    close(&mut socket, 1000, "the game ended").await;
                    return;
                }
                let frame = frames.borrow_and_update().clone();
                if let Some(json) = frame.as_deref().and_then(encode)
                    && !send(&mut socket, &json).await
                {
                    return;
                }
                tokio::time::sleep(WATCH_INTERVAL).await;
            }
        }
    }
}

async fn send(socket: &mut WebSocket, value: &Value) -> bool {
    let text = Message::Text(Utf8Bytes::from(value.to_string()));
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(text)).await,
        Ok(Ok(()))
    )
}

/// How long a closing socket waits for the page's answering close.
pub const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// Closes `socket` with `code` and `reason`, then reads (and drops) what the page still sends
/// until its own close, for at most [`CLOSE_WAIT`]: the page reads the reason instead of a reset
/// connection. (`play.rs` closes its sockets so too.)
pub(crate) async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }));
    if !matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(frame)).await,
        Ok(Ok(()))
    ) {
        return;
    }
    let _ = tokio::time::timeout(CLOSE_WAIT, async {
        while let Some(Ok(message)) = socket.recv().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// A board as the page reads it: one digit per cell, rows top first.
fn cells(board: &BoardSnapshot) -> String {
    board
        .rows
        .iter()
        .flatten()
        .map(|&c| char::from(b'0' + c.min(8)))
        .collect()
}

/// What the page is sent of an update: a frame, or that the game waits for its player to
/// come back (frames follow if they do).
pub fn encode(update: &LiveUpdate) -> Option<Value> {
    match update {
        LiveUpdate::Solo(f) => Some(solo(f)),
        LiveUpdate::Match(m) => Some(matched(m)),
        LiveUpdate::Parked => Some(json!({"kind": "parked"})),
    }
}

fn solo(f: &LiveFrame) -> Value {
    json!({
        "kind": "solo",
        "player": name(&f.player),
        "mode": f.mode.title(),
        "ruleset": f.ruleset.id(),
        "rows": f.board.rows.len(),
        "cells": cells(&f.board),
        "next": f.next.iter().take(5).map(|&p| p.min(8)).collect::<Vec<_>>(),
        "hold": f.hold.min(8),
        "lines": f.stats.lines,
        "pieces": f.stats.pieces,
        "score": f.stats.score,
        "level": f.stats.level,
        "time": minotty_ui::boards::time(f.stats.time_ms),
    })
}

fn matched(m: &LiveMatchFrame) -> Value {
    let boards: Vec<Value> = m
        .boards
        .iter()
        .map(|b| {
            json!({
                "name": name(&b.name),
                "rows": b.board.rows.len(),
                "cells": cells(&b.board),
                "alive": b.alive,
                "place": b.place,
                "kos": b.kos,
            })
        })
        .collect();
    json!({"kind": "match", "boards": boards})
}

/// `/assets/live.js` and `/assets/board.js`.
pub async fn script() -> Response {
    crate::assets::javascript(SCRIPT)
}

pub async fn board_script() -> Response {
    crate::assets::javascript(BOARD_SCRIPT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_digits_only() {
        assert_eq!(parse_id("42"), Some(42));
        for bad in ["", "-1", "1e3", "99999999999999999999999", "0x1", " 1"] {
            assert_eq!(parse_id(bad), None, "{bad:?}");
        }
    }
}
