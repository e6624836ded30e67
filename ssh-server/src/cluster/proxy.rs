//! Sessions of other instances seated here: a join by code to one of this instance's rooms
//! or a queue request (on the leader) makes a proxy, a [`Member`] whose `SessionTx` feeds a
//! task publishing each response to the session's instance; what that instance sends for it
//! (`ToProxy`) goes to its room or the queue.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use minotty_ui::Response;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::proxy_pace::{self, ProxyPace, Step};
use super::wire::{self, JoinRep, JoinReq, Relay, ToMember, ToProxy, WireRoom};
use super::{Cluster, Proxy, bounded_name, checks, lock};
use crate::versus::{Hub, Member, MemberId, QueueMsg, RESPONSE_QUEUE, RoomMsg, SessionTx};
use minotty_domain::{AccountRef, PlayerId, RoomCode};

/// Responses queued for a proxy's publishing task (as for a local session).
const PROXY_QUEUE: usize = RESPONSE_QUEUE;

impl Cluster {
    /// On the owner: a session elsewhere asks to join one of this instance's rooms.
    pub(super) async fn on_join(self: &Arc<Self>, hub: &Arc<Hub>, msg: async_nats::Message) {
        let Some(reply) = msg.reply.clone() else {
            return;
        };
        let part = msg.subject.as_str().split('.').nth(2).unwrap_or_default();
        // Only a room code, as this server writes one, is looked up.
        let Some(code) = RoomCode::canonical(part) else {
            checks::dropped(checks::DropReason::BadSubjectPart, &msg.subject);
            return;
        };
        // Only the owner answers; the others stay silent.
        let Some(room) = hub.room(&code) else { return };
        let Some((sender, body)) = self.open(&msg) else {
            return;
        };
        let Some(req) = self.join_from(&sender, &msg.subject, &body) else {
            return;
        };
        let spectate = req.spectate;
        let rep = match self.new_proxy(hub, req, false) {
            None => JoinRep::Refused {
                message: "That server is full right now: try again.".into(),
            },
            Some(proxy) => {
                if room.send(RoomMsg::Join {
                    member: proxy.member.clone(),
                    spectate,
                }) {
                    JoinRep::Ok {
                        pid: proxy.member.id.0,
                    }
                } else {
                    proxy.done.store(true, Ordering::Relaxed);
                    JoinRep::Refused {
                        message: format!("Room {code} is closed or busy: try again."),
                    }
                }
            }
        };
        self.send(reply.to_string(), &rep).await;
    }

    /// A proxy for the session `req` describes; `None` when there are too many.
    fn new_proxy(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        req: JoinReq,
        queued: bool,
    ) -> Option<Arc<Proxy>> {
        let mut proxies = lock(&self.proxies);
        if proxies.len() >= self.max_proxies {
            tracing::warn!("too many members of other instances: a join is refused");
            return None;
        }
        let of_peer = proxies.values().filter(|p| p.inst == req.inst).count();
        if of_peer >= self.max_proxies_per_peer {
            checks::dropped(checks::DropReason::OverCap, &req.inst);
            tracing::warn!(instance = %req.inst, "too many members of one instance: a join is refused");
            return None;
        }
        let (tx, rx) = mpsc::channel(PROXY_QUEUE);
        let member = Member {
            id: hub.next_member(),
            name: bounded_name(&req.name),
            account: req.account.map(|(id, name)| AccountRef {
                id: PlayerId(id),
                name: bounded_name(&name),
            }),
            owner: None,
            address: req.address.map(minotty_domain::ClientAddr::new),
            tx: SessionTx::new(tx),
            link: Arc::new(Mutex::new(None)),
        };
        let proxy = Arc::new(Proxy {
            inst: req.inst,
            mid: MemberId(req.mid),
            member,
            queued: AtomicBool::new(queued),
            done: AtomicBool::new(false),
            born: Instant::now(),
        });
        // What the session's own instance said of its player's setting (the owner's Live list).
        hub.set_watchable(proxy.member.id, req.watchable);
        proxies.insert(proxy.member.id, Arc::clone(&proxy));
        checks::set_sizes(lock(&self.peers).len(), proxies.len());
        let task = Arc::clone(self).run_proxy(Arc::clone(hub), Arc::clone(&proxy), rx);
        self.spawn(task);
        Some(proxy)
    }

    /// A proxy's task: publishes what the room (or queue) sends the member, with
    /// `Linked`/`Unlinked` whenever the member's room changed, in [`proxy_pace::order`].
    async fn run_proxy(
        self: Arc<Self>,
        hub: Arc<Hub>,
        proxy: Arc<Proxy>,
        mut rx: mpsc::Receiver<Response>,
    ) {
        let subject = wire::member_subject(&proxy.inst, proxy.mid);
        let mut linked: Option<RoomCode> = None;
        let mut pace = ProxyPace::new(proxy.born);
        loop {
            let Some(response) = pace.next(&mut rx).await else {
                break;
            };
            let mut relay = response.and_then(Relay::from_response);
            let in_room = proxy.member.room().is_some();
            for step in proxy_pace::order(linked.is_some(), in_room) {
                match step {
                    Step::Link => self.sync_link(&proxy, &subject, &mut linked).await,
                    Step::Relay => {
                        if let Some(relay) = relay.take() {
                            pace.answered();
                            self.send(subject.clone(), &ToMember::Response(relay)).await;
                        }
                    }
                }
            }
            // Out of its room and not waiting in the queue (after the room had its say, or
            // never admitted): the proxy's work is done.
            let queued = proxy.queued.load(Ordering::Relaxed);
            let idle = pace.idle(linked.is_some(), queued, Instant::now());
            if idle || proxy.done.load(Ordering::Relaxed) {
                break;
            }
        }
        proxy.done.store(true, Ordering::Relaxed);
        lock(&self.proxies).remove(&proxy.member.id);
        hub.set_watchable(proxy.member.id, false);
    }

    async fn sync_link(&self, proxy: &Proxy, subject: &str, linked: &mut Option<RoomCode>) {
        let now = proxy.member.room().map(|l| l.code);
        if now == *linked {
            return;
        }
        if let Some(code) = linked.take() {
            self.send(subject.to_owned(), &ToMember::Unlinked { code })
                .await;
        }
        if let Some(code) = &now {
            proxy.queued.store(false, Ordering::Relaxed);
            let msg = ToMember::Linked {
                code: code.clone(),
                inst: self.id.clone(),
                pid: proxy.member.id.0,
            };
            self.send(subject.to_owned(), &msg).await;
        }
        *linked = now;
    }

    /// On the leader: a player of another instance joins the ranked queue.
    pub(super) fn queue_request(self: &Arc<Self>, hub: &Arc<Hub>, req: JoinReq) -> JoinRep {
        let Some((account, _)) = &req.account else {
            return JoinRep::Refused {
                message: "Quick match is ranked, for registered players.".into(),
            };
        };
        let Some(claim) = hub.claim_ranked(PlayerId(*account)) else {
            return JoinRep::Refused {
                message: "You are already queued or in a ranked match (on this or another \
                          connection): one ranked match at a time."
                    .into(),
            };
        };
        let address = req.address.map(minotty_domain::ClientAddr::new);
        let Some(proxy) = self.new_proxy(hub, req, true) else {
            hub.release_ranked(claim);
            return JoinRep::Refused {
                message: "Matchmaking is full right now: try again.".into(),
            };
        };
        let queued = hub.to_queue(QueueMsg::JoinFrom {
            member: proxy.member.clone(),
            claim,
            address,
        });
        if !queued {
            // Told (relayed) that matchmaking is busy: the proxy is done once it relayed it.
            proxy.queued.store(false, Ordering::Relaxed);
        }
        JoinRep::Ok {
            pid: proxy.member.id.0,
        }
    }

    pub(super) fn to_proxy(&self, hub: &Arc<Hub>, sender: &str, pid: MemberId, msg: ToProxy) {
        let Some(proxy) = lock(&self.proxies).get(&pid).cloned() else {
            return;
        };
        // Only the member's own instance speaks for it.
        if proxy.inst != sender {
            checks::dropped(checks::DropReason::Malformed, &proxy.inst);
            return;
        }
        match msg {
            ToProxy::Room(w) => {
                if let Some(room) = proxy.member.room() {
                    room.send(w.into_msg(pid));
                } else if matches!(w, WireRoom::News(wire::MemberNews::Leave { .. }))
                    && proxy.queued.swap(false, Ordering::Relaxed)
                {
                    hub.to_queue(QueueMsg::Cancel { id: pid });
                }
            }
            ToProxy::QueueCancel => {
                if proxy.queued.swap(false, Ordering::Relaxed) {
                    hub.to_queue(QueueMsg::Cancel { id: pid });
                }
            }
            ToProxy::AcceptBot => {
                hub.to_queue(QueueMsg::AcceptBot {
                    member: proxy.member.clone(),
                });
            }
            ToProxy::DeclineBot => {
                if !hub.to_queue(QueueMsg::DeclineBot { id: pid }) {
                    proxy.member.send(Response::Notice {
                        message: crate::versus::QUEUE_BUSY.into(),
                    });
                }
            }
            ToProxy::LostContact => {
                // The member's instance lost contact with this one (only it may have).
                if let Some(room) = proxy.member.room() {
                    room.send(RoomMsg::LostContact {
                        id: pid,
                        cause: crate::versus::ContactLoss::Peer,
                    });
                }
            }
        }
    }
}
