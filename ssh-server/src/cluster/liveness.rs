//! The heartbeat's timed rules, with time coming in (tested on tokio's paused clock in
//! `liveness_tests.rs`): the beat's pace (a beat every [`HEARTBEAT_EVERY`], each followed by a
//! sweep; a beat the link does not take within [`HEARTBEAT_EVERY`] is skipped, never holding
//! up the sweep), and the peer map (a peer is heard at the instant its heartbeat arrived, and
//! forgotten at the first sweep [`DEAD_AFTER`] or more after that).

use std::collections::HashMap;
use std::future::Future;

use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::wire::Heartbeat;
use super::{DEAD_AFTER, HEARTBEAT_EVERY, MAX_PEERS, Peer};

/// What a heartbeat of another instance did to the peer map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Heard {
    /// A peer not known before.
    Joined,
    /// A known peer, seen again.
    Again,
    /// A peer not known before, while the map holds [`MAX_PEERS`]: not taken.
    OverCap,
}

/// Notes `beat` (of another instance) heard at `now`.
pub(super) fn heard(peers: &mut HashMap<String, Peer>, beat: Heartbeat, now: Instant) -> Heard {
    let known = peers.contains_key(&beat.id);
    if !known && peers.len() >= MAX_PEERS {
        return Heard::OverCap;
    }
    peers.insert(
        beat.id,
        Peer {
            started: beat.started,
            draining: beat.draining,
            prefix: beat.prefix,
            seen: now,
        },
    );
    if known { Heard::Again } else { Heard::Joined }
}

/// Whether a peer last heard at `seen` is dead at `now`.
pub(super) fn is_dead(seen: Instant, now: Instant) -> bool {
    now.duration_since(seen) >= DEAD_AFTER
}

/// Takes out of `peers` every peer dead at `now`; their ids.
pub(super) fn forget_dead(peers: &mut HashMap<String, Peer>, now: Instant) -> Vec<String> {
    let dead: Vec<String> = peers
        .iter()
        .filter(|(_, p)| is_dead(p.seen, now))
        .map(|(id, _)| id.clone())
        .collect();
    for id in &dead {
        peers.remove(id);
    }
    dead
}

/// The beat's loop, until `stop`: every [`HEARTBEAT_EVERY`] (the first at once) a `beat`,
/// given at most [`HEARTBEAT_EVERY`], then a `sweep` at the instant it ends.
pub(super) async fn pace<B>(
    stop: CancellationToken,
    mut beat: impl FnMut() -> B,
    mut sweep: impl FnMut(Instant),
) where
    B: Future<Output = ()>,
{
    let mut tick = tokio::time::interval(HEARTBEAT_EVERY);
    loop {
        tokio::select! {
            () = stop.cancelled() => return,
            _ = tick.tick() => {}
        }
        // A link that takes no more (its client's queue full during an outage) never
        // holds up the sweep: the heartbeat is skipped, the sweep finds the link down.
        let _ = tokio::time::timeout(HEARTBEAT_EVERY, beat()).await;
        sweep(Instant::now());
    }
}
