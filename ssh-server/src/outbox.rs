//! The session's path to the client: at most one write in flight, so a slow client holds back
//! the next frame instead of queueing frames ("latest frame wins": the frame drawn when the
//! write completes shows the state at that moment).

use std::future::Future;
use std::pin::Pin;

use russh::ChannelId;
use russh::server::Handle;

type Write = Pin<Box<dyn Future<Output = Result<(), ()>> + Send>>;

/// The client's channel is gone; nothing more can be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelGone;

pub struct Outbox {
    handle: Handle,
    channel: ChannelId,
    in_flight: Option<Write>,
    /// Control sequences to send before the next frame.
    prefix: Vec<u8>,
    bytes_sent: u64,
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outbox")
            .field("channel", &self.channel)
            .field("busy", &self.in_flight.is_some())
            .field("prefix", &self.prefix.len())
            .field("bytes_sent", &self.bytes_sent)
            .finish()
    }
}

impl Outbox {
    pub fn new(handle: Handle, channel: ChannelId) -> Outbox {
        Outbox {
            handle,
            channel,
            in_flight: None,
            prefix: Vec::new(),
            bytes_sent: 0,
        }
    }

    /// Whether a write is still on its way.
    pub fn busy(&self) -> bool {
        self.in_flight.is_some()
    }

    /// Queues control bytes for the next write.
    pub fn push_prefix(&mut self, bytes: &[u8]) {
        self.prefix.extend_from_slice(bytes);
    }

    pub fn has_prefix(&self) -> bool {
        !self.prefix.is_empty()
    }

    /// Starts one write of the queued prefix followed by `frame` (already framed). Must not be
    /// called while [`Outbox::busy`].
    pub fn send(&mut self, frame: Vec<u8>) {
        debug_assert!(!self.busy());
        let mut bytes = std::mem::take(&mut self.prefix);
        if bytes.is_empty() {
            bytes = frame;
        } else {
            bytes.extend_from_slice(&frame);
        }
        if bytes.is_empty() {
            return;
        }
        self.bytes_sent += bytes.len() as u64;
        crate::metrics::frame_sent(bytes.len());
        let handle = self.handle.clone();
        let channel = self.channel;
        self.in_flight = Some(Box::pin(async move {
            handle.data(channel, bytes).await.map_err(|_| ())
        }));
    }

    /// Completes when the write in flight completes; never completes when idle (for `select!`).
    /// Cancel-safe: dropping this future keeps the write in flight.
    pub async fn wait(&mut self) -> Result<(), ChannelGone> {
        match self.in_flight.as_mut() {
            Some(write) => {
                let result = write.as_mut().await;
                self.in_flight = None;
                result.map_err(|()| ChannelGone)
            }
            None => std::future::pending().await,
        }
    }

    /// Waits for the write in flight, if any.
    pub async fn drain(&mut self) -> Result<(), ChannelGone> {
        if self.busy() {
            self.wait().await
        } else {
            Ok(())
        }
    }

    /// Takes the queued prefix (for the last write of a session).
    pub fn take_prefix(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.prefix)
    }

    pub fn bytes_sent(&self) -> u64 {
        self.bytes_sent
    }

    pub fn handle(&self) -> &Handle {
        &self.handle
    }

    pub fn channel(&self) -> ChannelId {
        self.channel
    }
}
