//! The drain (SIGTERM with `--nats`): the instance stops admitting, hands nothing new to its
//! players, and waits (at most `--drain-secs`) for every match its own players are in,
//! wherever the room lives, so that a rolling upgrade never cuts a match.
//!
//! What it waits for: the matches of this instance's rooms (whoever plays them), and the
//! matches its sessions play in rooms of other instances (a remote match: from the room's
//! `MatchStart` with a seat to its `MatchOver`, as relayed to the session).
//!
//! What it hands out no more: queue places (its players waiting in the queue, here or at the
//! leader elsewhere, are taken out and told to reconnect), room joins, new rooms, matches and
//! rematches (refused in `services/versus/draining.rs` and `versus/room/drained.rs`). Its
//! sessions in other instances' rooms that do not play there (a lobby, a spectator's seat)
//! leave them at once, told to reconnect and go back.
//!
//! When the time is up with remote matches still running, the owner of each is told the
//! player's instance drained away ([`MemberNews::DrainedAway`](wire::MemberNews::DrainedAway)): the match is abandoned,
//! unrated, on both sides (as when an instance is lost), not the draining side's forfeit.
//! This instance's own rooms then abandon theirs at shutdown (`Hub::shutdown`).

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use minotty_ui::Response;

use super::drain_wait::{DrainEnd, Running, wait_for_matches};
use super::wire::{self, Relay, ToMember, ToProxy, WireRoom};
use super::{Cluster, HEARTBEAT_EVERY, Proxy, Remote, lock};
use crate::versus::{Hub, MemberId, QueueMsg, RECONNECT};

/// How long the players told their match is abandoned have to see it before shutdown.
const TELL_GRACE: Duration = Duration::from_millis(500);

/// Follows what a room elsewhere tells the session `r`: whether it plays a match there.
pub(super) fn note(r: &mut Remote, relay: &Relay) {
    match relay {
        Relay::MatchStart(start) => r.playing = start.you.is_some(),
        // A ranked series goes on after a game (its next one starts by itself): the player
        // still plays it.
        Relay::MatchOver(m) => r.playing = m.series.as_ref().is_some_and(|s| !s.over),
        Relay::RoomClosed { .. } => r.playing = false,
        _ => {}
    }
}

impl Cluster {
    /// Running matches in this instance's rooms, ranked series between two games among
    /// them.
    pub fn running_matches(hub: &Hub) -> usize {
        hub.live
            .list()
            .iter()
            .filter(|e| matches!(e.kind, minotty_protocol::LiveKind::Match { .. }))
            .count()
            + hub.paused_series()
    }

    /// Matches this instance's players play now in rooms of other instances.
    pub fn remote_matches(&self) -> usize {
        lock(&self.remotes)
            .values()
            .filter(|r| r.playing && r.room.is_some() && !r.tx.is_closed())
            .count()
    }

    /// Everything the drain waits for now.
    pub fn running(&self, hub: &Hub) -> Running {
        Running {
            local_rooms: Cluster::running_matches(hub),
            remote_matches: self.remote_matches(),
        }
    }

    /// After SIGTERM: stops admitting and handing out, waits until every match of this
    /// instance's rooms and of its players ended (at most `cap`); what still runs then is
    /// abandoned, unrated, on every side. `hub`: the hub this cluster serves.
    pub async fn drain(&self, hub: &Arc<Hub>, cap: Duration) {
        self.begin_drain();
        self.beat().await;
        // This instance's own players waiting in its queue: out, told to reconnect.
        hub.to_queue(QueueMsg::Drain);
        self.release_remote_places().await;
        // Players of other instances waiting in this queue queue at the next leader (once it
        // has heard this instance drains).
        tokio::time::sleep(HEARTBEAT_EVERY).await;
        let waiting: Vec<Arc<Proxy>> = lock(&self.proxies)
            .values()
            .filter(|p| p.queued.load(Ordering::Relaxed))
            .cloned()
            .collect();
        for p in waiting {
            if p.queued.swap(false, Ordering::Relaxed) {
                hub.to_queue(QueueMsg::Cancel { id: p.member.id });
                self.send(wire::member_subject(&p.inst, p.mid), &ToMember::Requeue)
                    .await;
            }
        }
        if let DrainEnd::TimeUp(running) = wait_for_matches(cap, || self.running(hub)).await
            && running.total() > 0
        {
            tracing::warn!(
                local_rooms = running.local_rooms,
                remote_matches = running.remote_matches,
                "the drain time is up: stopping with matches running (abandoned, not rated)"
            );
            self.abandon_remote_matches().await;
        }
    }

    /// At the drain's start: this instance's players waiting at the queue's leader elsewhere
    /// leave it, and those in rooms elsewhere without playing there leave them; each told to
    /// reconnect.
    async fn release_remote_places(&self) {
        let mut cancels = Vec::new();
        let mut leaves = Vec::new();
        {
            let mut remotes = lock(&self.remotes);
            for r in remotes.values_mut().filter(|r| !r.tx.is_closed()) {
                let mut told = false;
                if let Some((leader, pid)) = r.queue.take() {
                    cancels.push(wire::proxy_subject(&leader, pid));
                    told = true;
                }
                if r.queue_pending {
                    // Cancelled when the leader answers.
                    r.cancelled = true;
                    told = true;
                }
                if !r.playing
                    && let Some((owner, pid, code)) = r.room.take()
                {
                    let mut link = lock(&r.link);
                    if link.as_ref().is_some_and(|l| l.code == code) {
                        *link = None;
                    }
                    leaves.push(wire::proxy_subject(&owner, pid));
                    r.tx.send(Response::RoomClosed {
                        message: format!("{RECONNECT} You left room {code}."),
                    });
                    told = false;
                }
                if told {
                    r.tx.send(Response::RoomFailed {
                        message: RECONNECT.to_owned(),
                    });
                }
            }
        }
        let (queued, left) = (cancels.len(), leaves.len());
        for subject in cancels {
            self.send(subject, &ToProxy::QueueCancel).await;
        }
        let leave = ToProxy::Room(WireRoom::leave(true));
        for subject in leaves {
            self.send(subject, &leave).await;
        }
        if queued + left > 0 {
            tracing::info!(
                queued,
                rooms = left,
                "draining: players out of queues and rooms elsewhere"
            );
        }
    }

    /// The drain's time is up: each match a player of this instance still plays elsewhere is
    /// abandoned, unrated, on both sides. The owner is told the player's instance drained
    /// away (not that the player left: a forfeit); the player is told here.
    async fn abandon_remote_matches(&self) {
        let mut owners: Vec<(String, MemberId)> = Vec::new();
        {
            let mut remotes = lock(&self.remotes);
            for r in remotes.values_mut().filter(|r| r.playing) {
                r.playing = false;
                let Some((owner, pid, code)) = r.room.take() else {
                    continue;
                };
                let mut link = lock(&r.link);
                if link.as_ref().is_some_and(|l| l.code == code) {
                    *link = None;
                }
                r.tx.send(Response::RoomClosed {
                    message: format!(
                        "This server is restarting and the match in room {code} outlasted \
                         its drain time: the match is abandoned, not rated."
                    ),
                });
                owners.push((owner, pid));
            }
        }
        let abandoned = owners.len();
        for (owner, pid) in owners {
            self.send(
                wire::proxy_subject(&owner, pid),
                &ToProxy::Room(WireRoom::News(wire::MemberNews::DrainedAway)),
            )
            .await;
        }
        if abandoned > 0 {
            if let Err(e) = self.client.flush().await {
                tracing::warn!(error = %e, "flushing to NATS");
            }
            tracing::warn!(
                abandoned,
                "matches of this instance's players elsewhere are abandoned (not rated)"
            );
            // The sessions draw what they were told before shutdown ends them.
            tokio::time::sleep(TELL_GRACE).await;
        }
    }

    /// At the end of shutdown, once this instance's rooms closed: the proxies relay what the
    /// rooms last said to their members' instances (each ends once out of its room), then
    /// what is published is flushed; at most `patience`, so a peer that stopped reading
    /// cannot hold the exit.
    pub async fn finish(&self, patience: Duration) {
        let deadline = tokio::time::Instant::now() + patience;
        while !lock(&self.proxies).is_empty() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let left = lock(&self.proxies).len();
        if left > 0 {
            tracing::info!(proxies = left, "stopping with proxies still relaying");
        }
        match tokio::time::timeout_at(deadline, self.client.flush()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::debug!(error = %e, "flushing to NATS at the exit"),
            Err(_) => tracing::debug!("flushing to NATS at the exit: out of time"),
        }
    }
}
