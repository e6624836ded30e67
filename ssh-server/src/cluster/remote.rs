//! This instance's sessions in rooms (and the ranked queue) of other instances: the join
//! by code and the queue request, what the room's owner sends them (`ToMember`), and the link
//! task that publishes what the session sends its room (`RoomMsg` to the proxy there).

use std::sync::Arc;

use minotty_ui::Response;
use tokio::sync::mpsc;

use super::wire::{self, JoinRep, JoinReq, ToMember, ToProxy, WireRoom};
use super::{Cluster, REQUEST_TIMEOUT, Remote, contact, drain, lock, text};
use crate::versus::{Hub, Member, MemberId, QueueMsg, ROOM_INBOX, RemoteJoin, RoomLink, RoomMsg};

/// What `answer` gives, if it comes within [`REQUEST_TIMEOUT`] (`None` after that).
pub(super) async fn within_request_timeout<F: std::future::Future>(answer: F) -> Option<F::Output> {
    tokio::time::timeout(REQUEST_TIMEOUT, answer).await.ok()
}

impl Cluster {
    /// Registers `member` (a session of this instance) for what rooms elsewhere send it.
    pub(super) fn register(&self, member: &Member) {
        let mut remotes = lock(&self.remotes);
        let r = remotes.entry(member.id).or_insert_with(|| Remote {
            tx: member.tx.clone(),
            link: Arc::clone(&member.link),
            name: member.name.clone(),
            account: None,
            room: None,
            queue: None,
            queue_pending: false,
            cancelled: false,
            address: None,
            seen: contact::RemoteMatch::None,
            lost_from: None,
            playing: false,
        });
        r.name.clone_from(&member.name);
        r.account.clone_from(&member.account);
    }

    /// `watchable`: what the session's player lets others see (the hub's word for it).
    fn join_req(&self, member: &Member, spectate: bool, watchable: bool) -> JoinReq {
        let address = lock(&self.remotes)
            .get(&member.id)
            .and_then(|r| r.address)
            .or(member.address.map(minotty_domain::ClientAddr::ip));
        JoinReq {
            inst: self.id.clone(),
            mid: member.id.0,
            name: member.name.clone(),
            account: member.account.as_ref().map(|a| (a.id.0, a.name.clone())),
            spectate,
            address,
            watchable,
        }
    }

    async fn request(&self, subject: String, req: &JoinReq) -> Option<JoinRep> {
        let bytes = wire::encode(req)?;
        let sealed = self.seal(&subject, &bytes);
        match within_request_timeout(self.client.request(subject, sealed.into())).await {
            Some(Ok(msg)) => {
                let (_, body) = self.open(&msg)?;
                wire::decode(&msg.subject, &body)
            }
            Some(Err(e)) => {
                tracing::debug!(error = %e, "a cluster request found nobody");
                None
            }
            None => None,
        }
    }

    /// A session of this instance joins a room that is not here: asks its owner. `failed` is
    /// called when no instance has it.
    pub fn join_remote(self: &Arc<Self>, join: RemoteJoin, failed: impl FnOnce() + Send + 'static) {
        let RemoteJoin {
            member,
            code,
            spectate,
            watchable,
        } = join;
        self.register(&member);
        let c = Arc::clone(self);
        self.spawn(async move {
            let req = c.join_req(&member, spectate, watchable);
            match c.request(wire::join_subject(&code), &req).await {
                Some(JoinRep::Ok { .. }) => {}
                Some(JoinRep::Refused { message }) => {
                    member.send(Response::RoomFailed { message });
                }
                None => {
                    failed();
                    member.send(Response::RoomFailed {
                        message: format!("There is no room {code}."),
                    });
                }
            }
        });
    }

    /// A session of this instance, from `address`, asks for a quick match, led elsewhere.
    pub fn queue_join(
        self: &Arc<Self>,
        member: Member,
        address: Option<std::net::IpAddr>,
        watchable: bool,
    ) {
        self.register(&member);
        if let Some(r) = lock(&self.remotes).get_mut(&member.id) {
            r.queue_pending = true;
            r.cancelled = false;
            if address.is_some() {
                r.address = address;
            }
        }
        let c = Arc::clone(self);
        self.spawn(async move { c.submit(member, watchable).await });
    }

    async fn submit(&self, member: Member, watchable: bool) {
        let leader = self.leader();
        let req = self.join_req(&member, false, watchable);
        let rep = self.request(wire::queue_subject(&leader), &req).await;
        let cancelled = lock(&self.remotes).get_mut(&member.id).is_some_and(|r| {
            r.queue_pending = false;
            std::mem::take(&mut r.cancelled)
        });
        match rep {
            Some(JoinRep::Ok { pid }) if cancelled => {
                // The player left the queue while the leader was admitting them.
                let subject = wire::proxy_subject(&leader, MemberId(pid));
                self.send(subject, &ToProxy::QueueCancel).await;
            }
            Some(JoinRep::Ok { pid }) => {
                if let Some(r) = lock(&self.remotes).get_mut(&member.id) {
                    r.queue = Some((leader, MemberId(pid)));
                }
            }
            Some(JoinRep::Refused { .. }) | None if cancelled => {}
            Some(JoinRep::Refused { message }) => {
                member.send(Response::RoomFailed { message });
            }
            None => {
                member.send(Response::RoomFailed {
                    message: "Matchmaking is not answering right now: try again.".into(),
                });
            }
        }
    }

    /// Hands a player who waited in a dead leader's queue to the next leader.
    pub(super) fn requeue(self: &Arc<Self>, hub: &Arc<Hub>, mid: MemberId) {
        let (member, address) = {
            let remotes = lock(&self.remotes);
            let Some(r) = remotes.get(&mid) else { return };
            let member = Member {
                id: mid,
                name: r.name.clone(),
                account: r.account.clone(),
                owner: None,
                address: r.address.map(minotty_domain::ClientAddr::new),
                tx: r.tx.clone(),
                link: Arc::clone(&r.link),
            };
            (member, r.address)
        };
        if self.is_leader() {
            let Some(account) = &member.account else {
                return;
            };
            let Some(claim) = hub.claim_ranked(account.id) else {
                return;
            };
            hub.to_queue(QueueMsg::JoinFrom {
                member,
                claim,
                address: address.map(minotty_domain::ClientAddr::new),
            });
        } else {
            let watchable = hub.is_watchable(mid);
            self.queue_join(member, address, watchable);
        }
    }

    /// Sends `msg` for the session `mid` to the leader's queue, if it waits there; `false`
    /// when it does not (the local queue handles it).
    pub fn to_queue(self: &Arc<Self>, mid: MemberId, msg: ToProxy) -> bool {
        let target = {
            let mut remotes = lock(&self.remotes);
            let Some(r) = remotes.get_mut(&mid) else {
                return false;
            };
            let target = r.queue.clone();
            if matches!(msg, ToProxy::QueueCancel) {
                r.queue = None;
                if r.queue_pending {
                    // Answered later: the proxy is cancelled then.
                    r.cancelled = true;
                    return true;
                }
            }
            target
        };
        let Some((inst, pid)) = target else {
            return false;
        };
        let c = Arc::clone(self);
        self.spawn(async move { c.send(wire::proxy_subject(&inst, pid), &msg).await });
        true
    }

    /// On the session's instance: what its room elsewhere sends it.
    pub(super) fn to_member(
        self: &Arc<Self>,
        hub: &Arc<Hub>,
        sender: &str,
        mid: MemberId,
        msg: ToMember,
    ) {
        let mut remotes = lock(&self.remotes);
        let Some(r) = remotes.get_mut(&mid) else {
            return;
        };
        if r.lost_from.as_deref() == Some(sender) {
            if !matches!(msg, ToMember::Linked { .. }) {
                // Held up while contact was lost: about a room the player was told is gone.
                return;
            }
            r.lost_from = None;
        }
        r.seen.seen(Some(&msg), None);
        match msg {
            ToMember::Response(relay) => {
                drain::note(r, &relay);
                r.tx.send(text::clean(relay).into_response());
            }
            ToMember::Linked { code, inst, pid } => {
                let pid = MemberId(pid);
                if r.tx.is_closed() {
                    // The session ended while its join was on its way: out of that room.
                    let c = Arc::clone(self);
                    let leave = ToProxy::Room(WireRoom::leave(true));
                    self.spawn(async move {
                        c.send(wire::proxy_subject(&inst, pid), &leave).await;
                    });
                    return;
                }
                r.room = Some((inst.clone(), pid, code.clone()));
                r.queue = None;
                r.playing = false;
                let (tx, rx) = mpsc::channel(ROOM_INBOX);
                self.spawn(Arc::clone(self).forward(mid, inst, pid, rx));
                let tasks = self.tasks.clone();
                *lock(&r.link) = Some(RoomLink { code, tx, tasks });
            }
            ToMember::Requeue => {
                if r.queue.take().is_some() {
                    drop(remotes);
                    self.requeue(hub, mid);
                }
            }
            ToMember::Unlinked { code } => {
                let mut link = lock(&r.link);
                if link.as_ref().is_some_and(|l| l.code == code) {
                    *link = None;
                    r.room = None;
                    r.playing = false;
                }
            }
        }
    }

    /// The session's side of a remote room link: publishes its messages to the proxy.
    async fn forward(
        self: Arc<Self>,
        mid: MemberId,
        inst: String,
        pid: MemberId,
        mut rx: mpsc::Receiver<RoomMsg>,
    ) {
        let subject = wire::proxy_subject(&inst, pid);
        while let Some(msg) = rx.recv().await {
            if let Some(w) = WireRoom::from_msg(msg) {
                if let Some(r) = lock(&self.remotes).get_mut(&mid) {
                    r.seen.seen(None, Some(&w));
                }
                self.send(subject.clone(), &ToProxy::Room(w)).await;
            }
        }
    }
}
