//! A peer holding the cluster key that is no minotty instance: a raw NATS client that seals
//! what it sends as an instance does and beats as the youngest instance (so it never leads),
//! for tests that speak the cluster's wire forms to real instances themselves (seat a made-up
//! member in a room or a queue, forge a report, say contact was lost).

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use minotty_server::cluster::auth::{Auth, ClusterKey};
use minotty_server::cluster::wire::{self, Heartbeat};

use crate::cluster::CLUSTER_KEY;

/// Milliseconds since the Unix epoch: the time a seal carries and is opened at.
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(0))
}

/// A reply opened with the cluster key.
#[derive(Debug)]
pub struct Opened {
    /// The instance that sealed it.
    pub sender: String,
    pub body: Vec<u8>,
}

/// A NATS client named `id` that holds the cluster key. Its heartbeats (once
/// [`KeyedPeer::beat`] started them) stop when it is dropped.
pub struct KeyedPeer {
    pub nats: async_nats::Client,
    /// One seal for everything the peer sends: its sequence numbers are one series.
    seal: Arc<Auth>,
    id: String,
    beats: Option<tokio::task::JoinHandle<()>>,
}

impl KeyedPeer {
    /// Connects to the NATS server at `url` as `id`; it does not beat yet.
    pub async fn connect(url: &str, id: &str) -> anyhow::Result<KeyedPeer> {
        let nats = minotty_server::cluster::connect::connect(url, None, None, id)
            .await
            .context("NATS")?;
        let key = ClusterKey::new(CLUSTER_KEY).context("the tests' cluster key")?;
        Ok(KeyedPeer {
            nats,
            seal: Arc::new(Auth::new(key, id)),
            id: id.to_owned(),
            beats: None,
        })
    }

    /// Beats every 500 ms as an instance started last (`i64::MAX`: the youngest, it does not
    /// lead), then waits 1.5 s so that the instances have heard it.
    pub async fn beat(&mut self) {
        let (nats, seal, id) = (self.nats.clone(), Arc::clone(&self.seal), self.id.clone());
        self.beats = Some(tokio::spawn(async move {
            loop {
                let beat = wire::encode(&Heartbeat {
                    id: id.clone(),
                    started: i64::MAX,
                    draining: false,
                    prefix: b'Z',
                })
                .expect("encodes");
                let sealed = seal.seal(wire::HEARTBEAT, &beat, now_ms());
                let _ = nats.publish(wire::HEARTBEAT, sealed.into()).await;
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        }));
        tokio::time::sleep(Duration::from_millis(1500)).await;
    }

    /// `body` sealed for `subject`.
    pub fn seal(&self, subject: &str, body: &[u8]) -> Vec<u8> {
        self.seal.seal(subject, body, now_ms())
    }

    /// Publishes `body` sealed on `subject`.
    pub async fn publish(&self, subject: String, body: &[u8]) -> anyhow::Result<()> {
        let sealed = self.seal(&subject, body);
        self.nats
            .publish(subject, sealed.into())
            .await
            .context("publish")
    }

    /// Sends `body` sealed as a request on `subject` and opens the reply, which must come
    /// `within` and be sealed with the cluster key.
    pub async fn request(
        &self,
        subject: String,
        body: &[u8],
        within: Duration,
    ) -> anyhow::Result<Opened> {
        let sealed = self.seal(&subject, body);
        let reply = tokio::time::timeout(within, self.nats.request(subject, sealed.into()))
            .await
            .context("an answer")?
            .context("a reply")?;
        self.open(&reply)
    }

    /// Opens `msg` with the cluster key (what an instance sent: its payload is encrypted).
    pub fn open(&self, msg: &async_nats::Message) -> anyhow::Result<Opened> {
        let opened = self
            .seal
            .open(
                &msg.subject,
                &msg.payload,
                now_ms(),
                tokio::time::Instant::now(),
            )
            .map_err(|why| anyhow::anyhow!("not sealed with the key: {why:?}"))?;
        Ok(Opened {
            sender: opened.sender.to_owned(),
            body: opened.body,
        })
    }
}

impl std::fmt::Debug for KeyedPeer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyedPeer")
            .field("id", &self.id)
            .field("beating", &self.beats.is_some())
            .finish_non_exhaustive()
    }
}

impl Drop for KeyedPeer {
    fn drop(&mut self) {
        if let Some(beats) = self.beats.take() {
            beats.abort();
        }
    }
}
