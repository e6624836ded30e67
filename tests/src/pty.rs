//! A game session seen through a terminal emulator (`vt100`), with the helpers a test or the
//! load tool uses to play: wait for text, send keys, resize, time answers, quit. The session
//! comes over SSH (a PTY channel) or over the web pages' `/play/ws` WebSocket, as the browser's
//! terminal plays ([`PtySession::open_web`]).

use std::num::NonZeroU16;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use futures_util::{SinkExt, StreamExt};
use russh::client::Msg;
use russh::{Channel, ChannelMsg};
use tokio_tungstenite::tungstenite::Message;

use crate::{WAIT, board, keys};

/// The title of the welcome screen a new key sees.
pub const WELCOME: &str = "WELCOME TO MINOTTY";

/// A game session seen through a terminal emulator.
pub struct PtySession {
    link: Link,
    parser: vt100::Parser,
    /// Feed received bytes to the emulator (the load tool turns this off once in a game).
    pub emulate: bool,
    /// Keep a copy of every byte received in [`PtySession::raw`].
    pub record: bool,
    pub raw: Vec<u8>,
    pub exit_status: Option<u32>,
    pub closed: bool,
    pub bytes_received: u64,
    pub packets_received: u64,
    /// When the last data packet arrived.
    pub last_packet: Option<Instant>,
    /// Bytes to look for in data packets (see [`PtySession::send_and_wait_for`]).
    watch: Option<Vec<u8>>,
    watch_hit: bool,
    /// Set when a data packet contains [`PtySession::flag_needle`] (cheaper than emulating).
    pub flag_needle: Option<Vec<u8>>,
    pub flag_seen: bool,
}

/// What the session comes over.
enum Link {
    Ssh(Channel<Msg>),
    Web(Box<WebSocket>),
}

type WebSocket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// What arrived, whichever the link.
enum Arrived {
    Data(Vec<u8>),
    Exit(u32),
    Closed,
    Other,
}

impl std::fmt::Debug for PtySession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PtySession")
            .field("closed", &self.closed)
            .field("exit_status", &self.exit_status)
            .field("bytes_received", &self.bytes_received)
            .finish_non_exhaustive()
    }
}

fn nz(v: u16) -> NonZeroU16 {
    NonZeroU16::new(v.max(1)).unwrap_or(NonZeroU16::MIN)
}

impl PtySession {
    pub(crate) fn new(channel: Channel<Msg>, cols: u16, rows: u16) -> PtySession {
        PtySession::over(Link::Ssh(channel), cols, rows)
    }

    fn over(link: Link, cols: u16, rows: u16) -> PtySession {
        PtySession {
            link,
            parser: vt100::Parser::new(nz(rows), nz(cols), 0),
            emulate: true,
            record: false,
            raw: Vec::new(),
            exit_status: None,
            closed: false,
            bytes_received: 0,
            packets_received: 0,
            last_packet: None,
            watch: None,
            watch_hit: false,
            flag_needle: None,
            flag_seen: false,
        }
    }

    /// A session on a channel the test opened itself (e.g. an exec request with a PTY, such
    /// as `watch`), seen through a `cols` x `rows` emulator.
    pub fn attach(channel: Channel<Msg>, cols: u16, rows: u16) -> PtySession {
        PtySession::new(channel, cols, rows)
    }

    /// A browser's game: the web pages at `web` (`/play/ws`), a `cols` x `rows` terminal, as
    /// a guest (no cookie).
    pub async fn open_web(
        web: std::net::SocketAddr,
        cols: u16,
        rows: u16,
    ) -> anyhow::Result<PtySession> {
        let url = format!("ws://{web}/play/ws?cols={cols}&rows={rows}");
        let (socket, _) = tokio_tungstenite::connect_async(url.as_str())
            .await
            .with_context(|| format!("opening {url}"))?;
        Ok(PtySession::over(Link::Web(Box::new(socket)), cols, rows))
    }

    /// The channel, for a test that drives it by hand from here on (e.g. split into halves to
    /// send and read at once); an error for a browser's session.
    pub fn into_channel(self) -> anyhow::Result<Channel<Msg>> {
        match self.link {
            Link::Ssh(channel) => Ok(channel),
            Link::Web(_) => bail!("a browser's session has no SSH channel"),
        }
    }

    pub fn screen(&self) -> &vt100::Screen {
        self.parser.screen()
    }

    /// The screen's text, one line per row.
    pub fn contents(&self) -> String {
        self.parser.screen().contents()
    }

    /// Sends bytes as if typed.
    pub async fn send(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        match &mut self.link {
            Link::Ssh(channel) => channel
                .data_bytes(bytes.to_vec())
                .await
                .context("sending input"),
            Link::Web(socket) => socket
                .send(Message::Binary(bytes.to_vec().into()))
                .await
                .context("sending input"),
        }
    }

    /// Changes the window size (the client's terminal and the server's view of it). The
    /// emulator follows only sizes the server draws (at most 500 x 200, not 0).
    pub async fn resize(&mut self, cols: u16, rows: u16) -> anyhow::Result<()> {
        if cols > 0 && rows > 0 {
            self.parser
                .screen_mut()
                .set_size(nz(rows.min(200)), nz(cols.min(500)));
        }
        match &mut self.link {
            Link::Ssh(channel) => channel
                .window_change(cols.into(), rows.into(), 0, 0)
                .await
                .context("sending a window change"),
            Link::Web(socket) => socket
                .send(Message::Text(
                    format!("{{\"cols\":{cols},\"rows\":{rows}}}").into(),
                ))
                .await
                .context("sending a window change"),
        }
    }

    /// Handles one message from the server, waiting at most until `deadline`. Returns whether a
    /// message arrived.
    pub async fn pump_until(&mut self, deadline: tokio::time::Instant) -> bool {
        if self.closed {
            return false;
        }
        let arrived = match &mut self.link {
            Link::Ssh(channel) => {
                tokio::time::timeout_at(deadline, channel.wait())
                    .await
                    .map(|msg| match msg {
                        Some(ChannelMsg::Data { data }) => Arrived::Data(data.to_vec()),
                        Some(ChannelMsg::ExitStatus { exit_status }) => Arrived::Exit(exit_status),
                        Some(ChannelMsg::Close) | None => Arrived::Closed,
                        Some(_) => Arrived::Other,
                    })
            }
            Link::Web(socket) => {
                tokio::time::timeout_at(deadline, socket.next())
                    .await
                    .map(|msg| match msg {
                        Some(Ok(Message::Binary(data))) => Arrived::Data(data.to_vec()),
                        Some(Ok(Message::Close(_)) | Err(_)) | None => Arrived::Closed,
                        Some(Ok(_)) => Arrived::Other,
                    })
            }
        };
        match arrived {
            Err(_) => false,
            Ok(arrived) => {
                self.handle(arrived);
                true
            }
        }
    }

    fn handle(&mut self, arrived: Arrived) {
        match arrived {
            Arrived::Data(data) => {
                self.bytes_received += data.len() as u64;
                self.packets_received += 1;
                self.last_packet = Some(Instant::now());
                if self.emulate {
                    self.parser.process(&data);
                }
                if self.record {
                    self.raw.extend_from_slice(&data);
                }
                if let Some(needle) = &self.watch
                    && data.windows(needle.len()).any(|w| w == needle.as_slice())
                {
                    self.watch_hit = true;
                }
                if let Some(needle) = &self.flag_needle
                    && data.windows(needle.len()).any(|w| w == needle.as_slice())
                {
                    self.flag_seen = true;
                }
            }
            Arrived::Exit(exit_status) => self.exit_status = Some(exit_status),
            Arrived::Closed => self.closed = true,
            Arrived::Other => {}
        }
    }

    /// Reads what the server sends until `until` completes, and returns its output. A load
    /// player that stops reading while others ramp up fills its channel, stops answering SSH
    /// keepalives and is dropped after `keepalive_max` unanswered ones (200 of 1,000 were).
    /// Without a session it only waits.
    pub async fn read_while<T>(session: Option<&mut Self>, until: impl Future<Output = T>) -> T {
        let Some(this) = session else {
            return until.await;
        };
        tokio::pin!(until);
        loop {
            tokio::select! {
                biased;
                out = &mut until => return out,
                _ = this.pump_for(Duration::from_millis(100)), if !this.closed => {}
                _ = tokio::time::sleep(Duration::from_millis(100)), if this.closed => {}
            }
        }
    }

    /// Handles whatever arrives for `duration`.
    pub async fn pump_for(&mut self, duration: Duration) {
        let deadline = tokio::time::Instant::now() + duration;
        while tokio::time::Instant::now() < deadline && self.pump_until(deadline).await {}
    }

    /// Waits until `check` holds for the screen; on timeout the error shows the screen.
    pub async fn wait_until(
        &mut self,
        what: &str,
        within: Duration,
        check: impl Fn(&vt100::Screen) -> bool,
    ) -> anyhow::Result<()> {
        let deadline = tokio::time::Instant::now() + within;
        loop {
            if check(self.parser.screen()) {
                return Ok(());
            }
            if self.closed {
                bail!(
                    "session closed while waiting for {what}; screen:\n{}",
                    self.contents()
                );
            }
            if !self.pump_until(deadline).await && tokio::time::Instant::now() >= deadline {
                bail!("timed out waiting for {what}; screen:\n{}", self.contents());
            }
        }
    }

    /// Waits until the screen shows `text`.
    pub async fn wait_for_text(&mut self, text: &str, within: Duration) -> anyhow::Result<()> {
        let text = text.to_owned();
        self.wait_until(&format!("{text:?}"), within, move |s| {
            s.contents().contains(&text)
        })
        .await
    }

    /// Waits for the server to close the channel; returns the exit status.
    pub async fn wait_closed(&mut self, within: Duration) -> anyhow::Result<Option<u32>> {
        let deadline = tokio::time::Instant::now() + within;
        while !self.closed {
            if !self.pump_until(deadline).await && tokio::time::Instant::now() >= deadline {
                bail!("session did not close; screen:\n{}", self.contents());
            }
        }
        Ok(self.exit_status)
    }

    /// Handles the messages that have already arrived, without waiting.
    pub async fn drain(&mut self) {
        while self.pump_until(tokio::time::Instant::now()).await {}
    }

    /// Sends `bytes` and waits for a data packet that contains `needle` (e.g. the ghost piece
    /// glyph, which only a horizontal move or a new piece redraws); returns the time in between,
    /// or `None` when nothing like it arrived in time. Messages already queued are handled first
    /// so that an old packet is never taken for the answer.
    pub async fn send_and_wait_for(
        &mut self,
        bytes: &[u8],
        needle: &[u8],
        within: Duration,
    ) -> anyhow::Result<Option<Duration>> {
        self.drain().await;
        self.watch = Some(needle.to_vec());
        self.watch_hit = false;
        let start = Instant::now();
        let sent = self.send(bytes).await;
        let deadline = tokio::time::Instant::now() + within;
        while sent.is_ok() && !self.watch_hit {
            if !self.pump_until(deadline).await {
                break;
            }
        }
        self.watch = None;
        sent?;
        Ok(self.watch_hit.then(|| start.elapsed()))
    }

    /// Sends `bytes` and waits for the next data packet; returns the time in between.
    pub async fn send_and_time(
        &mut self,
        bytes: &[u8],
        within: Duration,
    ) -> anyhow::Result<Option<Duration>> {
        let before = self.packets_received;
        let start = Instant::now();
        self.send(bytes).await?;
        let deadline = tokio::time::Instant::now() + within;
        while self.packets_received == before {
            if !self.pump_until(deadline).await {
                return Ok(None);
            }
        }
        Ok(Some(start.elapsed()))
    }

    /// Waits for the main menu; a new key's welcome screen on the way is left with Esc (play
    /// as a guest this time).
    pub async fn skip_welcome(&mut self) -> anyhow::Result<()> {
        self.wait_until("the welcome screen or the menu", WAIT, |s| {
            let text = s.contents();
            text.contains(WELCOME) || text.contains("Leaderboards")
        })
        .await?;
        if self.contents().contains(WELCOME) {
            self.send(keys::ESC).await?;
        }
        self.wait_for_text("Leaderboards", WAIT).await
    }

    /// From the main menu into a 40 Lines game, reading the screen like a player: Enter on
    /// "Play", then Enter on "40 Lines" (the first mode), until the board is drawn. A new key's
    /// welcome screen is skipped first.
    pub async fn start_40_lines(&mut self) -> anyhow::Result<()> {
        self.skip_welcome().await?;
        self.send(keys::ENTER).await?;
        self.wait_for_text("40 Lines", WAIT).await?;
        self.send(keys::ENTER).await?;
        self.wait_until("the board with a piece", WAIT, |s| {
            board::find(s).is_some_and(|b| b.has_piece)
        })
        .await
    }

    /// Quits like a player: Ctrl+C (anywhere, also in a game), then confirms if asked.
    pub async fn quit(&mut self) -> anyhow::Result<Option<u32>> {
        self.send(keys::CTRL_C).await?;
        self.wait_until("the quit dialog or the end", WAIT, |s| {
            s.contents().contains("Quit minotty?")
        })
        .await
        .ok();
        if !self.closed {
            self.send(b"y").await?;
        }
        self.wait_closed(WAIT).await
    }
}
