//! The session's path to the client: at most one write in flight, so a slow client holds back
//! the next frame instead of queueing frames ("latest frame wins": the frame drawn when the
//! write completes shows the state at that moment).

use std::sync::Arc;

use super::client::{Client, ClientFuture};

/// The client's channel is gone; nothing more can be sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChannelGone;

pub(crate) struct Outbox {
    client: Arc<dyn Client>,
    in_flight: Option<ClientFuture<Result<(), ()>>>,
    bytes_sent: u64,
}

impl std::fmt::Debug for Outbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Outbox")
            .field("client", &self.client)
            .field("busy", &self.in_flight.is_some())
            .field("bytes_sent", &self.bytes_sent)
            .finish()
    }
}

impl Outbox {
    pub(crate) fn new(client: Arc<dyn Client>) -> Outbox {
        Outbox {
            client,
            in_flight: None,
            bytes_sent: 0,
        }
    }

    /// Whether a write is still on its way.
    pub(crate) fn busy(&self) -> bool {
        self.in_flight.is_some()
    }

    /// Starts one write of `bytes` (the session's prefix and frame, already framed). Must not
    /// be called while [`Outbox::busy`].
    pub(crate) fn send(&mut self, bytes: Vec<u8>) {
        debug_assert!(!self.busy());
        if bytes.is_empty() {
            return;
        }
        self.bytes_sent += bytes.len() as u64;
        crate::metrics::frame_sent(bytes.len());
        self.in_flight = Some(self.client.data(bytes));
    }

    /// Completes when the write in flight completes; never completes when idle (for `select!`).
    /// Cancel-safe: dropping this future keeps the write in flight.
    pub(crate) async fn wait(&mut self) -> Result<(), ChannelGone> {
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
    pub(crate) async fn drain(&mut self) -> Result<(), ChannelGone> {
        if self.busy() {
            self.wait().await
        } else {
            Ok(())
        }
    }

    pub(crate) fn bytes_sent(&self) -> u64 {
        self.bytes_sent
    }

    pub(crate) fn client(&self) -> &Arc<dyn Client> {
        &self.client
    }
}
