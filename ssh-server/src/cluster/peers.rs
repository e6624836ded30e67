//! The other instances, as their heartbeats tell: who is alive (and who leads the ranked
//! queue: the oldest that is not draining), each instance's room code character, and what
//! happens when one falls silent (its rooms and proxies go, its queue moves on). Only an
//! authenticated heartbeat, sent by the instance it names, counts; the peer map holds at most
//! [`MAX_PEERS`].

use std::sync::Arc;
use std::sync::atomic::Ordering;

use minotty_domain::room_code::ALPHABET;
use tokio::time::Instant;

use super::liveness::{self, Heard};
use super::wire::{self, Heartbeat};
use super::{Cluster, Proxy, checks, lock};
use crate::versus::{ContactLoss, Hub, MemberId, QueueMsg, RoomMsg};

impl Cluster {
    /// The live instances known now (this one included).
    pub fn instances(&self) -> usize {
        lock(&self.peers).len() + 1
    }

    /// The instance leading the ranked queue: the oldest live one that is not draining (this
    /// one when every instance drains).
    pub fn leader(&self) -> String {
        let peers = lock(&self.peers);
        let mut best: Option<(i64, &str)> =
            (!self.is_draining()).then_some((self.started, self.id.as_str()));
        for (id, p) in peers.iter().filter(|(_, p)| !p.draining) {
            let cand = (p.started, id.as_str());
            if best.is_none_or(|b| cand < b) {
                best = Some(cand);
            }
        }
        best.map_or_else(|| self.id.clone(), |(_, id)| id.to_owned())
    }

    /// Whether this instance leads the queue.
    pub fn is_leader(&self) -> bool {
        self.leader() == self.id
    }

    /// Takes a first character for room codes that no live peer uses (any, past 31 instances).
    pub(super) fn pick_prefix(&self) {
        let used: Vec<u8> = lock(&self.peers).values().map(|p| p.prefix).collect();
        let free: Vec<u8> = ALPHABET
            .iter()
            .copied()
            .filter(|c| !used.contains(c))
            .collect();
        let pool = if free.is_empty() { ALPHABET } else { &free[..] };
        let first = pool[rand::random_range(0..pool.len())];
        // The hub reads it for each new room code (`RemoteRooms::code_prefix`).
        self.prefix.store(first, Ordering::Relaxed);
    }

    pub(super) async fn beat(&self) {
        let beat = Heartbeat {
            id: self.id.clone(),
            started: self.started,
            draining: self.is_draining(),
            prefix: self.prefix.load(Ordering::Relaxed),
        };
        *lock(&self.beat_sent) = Some(Instant::now());
        self.send(wire::HEARTBEAT.to_owned(), &beat).await;
    }

    pub(super) fn on_heartbeat(&self, sender: &str, subject: &str, payload: &[u8]) {
        let Some(beat) = wire::decode::<Heartbeat>(subject, payload) else {
            checks::dropped(checks::DropReason::Malformed, subject);
            return;
        };
        // Only an instance's own heartbeat counts (the sender is authenticated).
        if beat.id != sender {
            checks::dropped(checks::DropReason::Malformed, subject);
            return;
        }
        if beat.id == self.id {
            // Our own heartbeat back from the server: the link is up; the NATS round trip.
            self.link.echoed(Instant::now());
            if let Some(sent) = lock(&self.beat_sent).take() {
                let rtt = sent.elapsed();
                let us = u64::try_from(rtt.as_micros()).unwrap_or(u64::MAX);
                self.rtt_us.store(us.max(1), Ordering::Relaxed);
                crate::metrics::nats_rtt(rtt);
            }
            return;
        }
        // Two instances that chose the same code character (started together): the younger
        // chooses again.
        let clash = beat.prefix == self.prefix.load(Ordering::Relaxed)
            && (beat.started, beat.id.as_str()) < (self.started, self.id.as_str());
        let id = beat.id.clone();
        let heard = liveness::heard(&mut lock(&self.peers), beat, Instant::now());
        match heard {
            Heard::OverCap => {
                checks::dropped(checks::DropReason::OverCap, subject);
                return;
            }
            Heard::Joined => tracing::info!(instance = %id, "an instance joined the cluster"),
            Heard::Again => {}
        }
        if clash {
            self.pick_prefix();
            tracing::info!(
                codes = %char::from(self.prefix.load(Ordering::Relaxed)),
                "another instance uses the same room code character: changed"
            );
        }
    }

    pub(super) fn is_alive(&self, inst: &str) -> bool {
        inst == self.id || lock(&self.peers).contains_key(inst)
    }

    /// Forgets instances not heard from for [`super::DEAD_AFTER`] ([`liveness::forget_dead`]);
    /// tells this instance's sessions in their rooms, takes their members out of this
    /// instance's rooms and queue (an unsettled match with them is abandoned), and hands
    /// players waiting in a dead leader's queue to the next. This instance's own NATS link is
    /// looked at first: when it is down, that is the cause named.
    pub(super) fn sweep(self: &Arc<Self>, hub: &Arc<Hub>, now: Instant) {
        let own_link = self.link.check(&self.client.connection_state(), now);
        let dead = liveness::forget_dead(&mut lock(&self.peers), now);
        for inst in &dead {
            if own_link {
                tracing::info!(
                    instance = %inst,
                    "no word from an instance while the NATS link is down: its rooms are out of reach"
                );
            } else {
                tracing::warn!(
                    instance = %inst,
                    "an instance stopped answering: its rooms are out of reach"
                );
            }
        }
        let mut requeue = Vec::new();
        {
            let mut remotes = lock(&self.remotes);
            for (mid, r) in remotes.iter_mut() {
                if let Some((owner, pid, code)) = r.room.take_if(|(o, ..)| !self.is_alive(o)) {
                    tracing::debug!(room = %code, owner = %owner, "a room of a dead instance");
                    self.lose_room(r, owner, pid, &code, own_link);
                }
                if let Some((leader, _)) = &r.queue
                    && !self.is_alive(leader)
                {
                    r.queue = None;
                    requeue.push(*mid);
                }
            }
            remotes.retain(|_, r| !r.tx.is_closed() || r.room.is_some() || r.queue.is_some());
        }
        for mid in requeue {
            self.requeue(hub, mid);
        }
        self.auth.forget_silent(now);
        let gone: Vec<Arc<Proxy>> = {
            let mut proxies = lock(&self.proxies);
            let gone: Vec<MemberId> = proxies
                .iter()
                .filter(|(_, p)| !self.is_alive(&p.inst) || p.done.load(Ordering::Relaxed))
                .map(|(id, _)| *id)
                .collect();
            let gone = gone.iter().filter_map(|id| proxies.remove(id)).collect();
            checks::set_sizes(lock(&self.peers).len(), proxies.len());
            gone
        };
        let cause = if own_link {
            ContactLoss::OwnLink
        } else {
            ContactLoss::Peer
        };
        for p in gone.into_iter().filter(|p| !p.done.load(Ordering::Relaxed)) {
            // The proxy's task ends once the room let the member go (after relaying what the
            // room said, in case only this side lost contact); at once when there is no room.
            let told = p.member.room().is_some_and(|room| {
                room.send(RoomMsg::LostContact {
                    id: p.member.id,
                    cause,
                })
            });
            if !told {
                p.done.store(true, Ordering::Relaxed);
            }
            if p.queued.swap(false, Ordering::Relaxed) {
                hub.to_queue(QueueMsg::Cancel { id: p.member.id });
            }
        }
    }
}
