//! Versus for one session: the quick-match queue and rooms (see `crate::versus`). Requests go to
//! the room the session is in, or to the queue; the room and the queue answer on the session's
//! response channel. When the session ends (its `Services` are dropped) the client leaves its
//! room and the queue, so a disconnect during a match is a forfeit.
//!
//! Lobby-type requests (everything but a match's reports) are rate limited per session with a
//! token bucket; the excess is dropped with one notice. Wrong room codes back off per session
//! and per source address. An account queues or plays ranked on one connection at a time.

use std::sync::{Arc, Mutex};

use minotty_domain::{RoomCode, room_code};
use minotty_protocol::RoomCommand;
use minotty_ui::{Request, Response};
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::Who;
use crate::versus::bot::BotLimits;
use crate::versus::limits::{self, Failures};
use crate::versus::{
    Hub, Link, Member, MemberId, Owner, QueueAction, QueueMsg, RemoteJoin, RemoteRooms, RoomMsg,
    SessionTx,
};
use minotty_domain::TokenBucket;
use minotty_store::Store;

mod draining;
mod spectate;

/// Shared by every session: the room registry and the matchmaking queue.
#[derive(Debug, Default)]
pub struct SharedVersus {
    hub: Arc<Hub>,
}

impl SharedVersus {
    /// Versus over `store` (matches and ratings are stored there; without one nothing is
    /// stored). `seed`: every match is dealt this seed (tests), random otherwise.
    pub fn new(store: Option<Store>, seed: Option<u32>) -> SharedVersus {
        SharedVersus::with_bots(store, seed, BotLimits::default())
    }

    /// The same with these bot limits.
    pub fn with_bots(store: Option<Store>, seed: Option<u32>, bots: BotLimits) -> SharedVersus {
        SharedVersus::with_tbp(store, seed, bots, minotty_tbp::frontend::TbpBots::default())
    }

    /// The same with these bot limits and the operator's Tetris Bot Protocol bots.
    pub fn with_tbp(
        store: Option<Store>,
        seed: Option<u32>,
        bots: BotLimits,
        tbp: minotty_tbp::frontend::TbpBots,
    ) -> SharedVersus {
        SharedVersus {
            hub: Arc::new(Hub::with_bots(store, seed, bots).with_tbp(tbp)),
        }
    }

    /// The same, keeping a dropped player's lobby seat for `reconnect` (before any session
    /// shares the hub).
    pub fn with_reconnect(mut self, reconnect: std::time::Duration) -> SharedVersus {
        match Arc::get_mut(&mut self.hub) {
            Some(hub) => hub.set_reconnect(reconnect),
            None => tracing::warn!("the versus hub is shared already: lobby seats are not kept"),
        }
        self
    }

    /// The same, reaching the other instances through `remote` (`--nats`; before any session
    /// shares the hub).
    pub fn with_remote(mut self, remote: Option<Arc<dyn RemoteRooms>>) -> SharedVersus {
        if remote.is_none() {
            return self;
        }
        match Arc::get_mut(&mut self.hub) {
            Some(hub) => hub.set_remote(remote),
            None => tracing::warn!("the versus hub is shared already: it stays a single instance"),
        }
        self
    }

    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }
}

/// One session's side.
#[derive(Debug)]
pub struct VersusClient {
    hub: Arc<Hub>,
    id: MemberId,
    who: Who,
    tx: SessionTx,
    link: Link,
    queued: bool,
    /// Lobby-type requests.
    bucket: TokenBucket,
    /// The bucket's clock: milliseconds since the session's versus began (tokio's clock).
    born: Instant,
    /// Requests were dropped by the bucket and the player was told (once until it refills).
    limited: bool,
    /// Wrong room codes of this session.
    failures: Failures,
    /// The player lets others watch their games (their setting, as the session last said).
    watchable: bool,
}

impl VersusClient {
    pub fn new(shared: &SharedVersus, who: Who, tx: mpsc::Sender<Response>) -> VersusClient {
        let hub = Arc::clone(&shared.hub);
        // A registered player back after dropping out of a match hears how it went.
        let account = who.account.borrow().clone();
        let tx = SessionTx::new(tx);
        if let Some(account) = account
            && let Some(message) = hub.notice_for(account.id)
        {
            tx.send(Response::Notice { message });
        }
        let client = VersusClient {
            id: hub.next_member(),
            hub,
            who,
            tx,
            link: Arc::new(Mutex::new(None)),
            queued: false,
            bucket: limits::requests(0),
            born: Instant::now(),
            limited: false,
            failures: Failures::new(Instant::now()),
            watchable: true,
        };
        // The setting's default until the session says otherwise.
        client.hub.set_watchable(client.id, true);
        // Back within the reconnect time after a drop in a room's lobby: straight back into
        // the seat the room kept.
        client.hub.rejoin_kept(&client.member());
        client
    }

    /// The session as rooms and the queue see it, with its current account.
    fn member(&self) -> Member {
        let account = self.who.account.borrow().clone();
        let name = match &account {
            Some(a) => a.name.clone(),
            None => self.who.ssh_user.clone(),
        };
        let owner = match (&account, self.who.identity.fingerprint()) {
            (Some(a), _) => Some(Owner::Account(a.id)),
            (None, Some(key)) => Some(Owner::Key(key.clone())),
            (None, None) => None,
        };
        Member {
            id: self.id,
            name: minotty_ui::sanitize(&name),
            owner,
            account,
            address: Some(self.who.peer),
            tx: self.tx.clone(),
            link: Arc::clone(&self.link),
        }
    }

    fn reply(&self, response: Response) {
        self.tx.send(response);
    }

    /// Sends `msg` to the session's room; `false` when it is in none.
    fn to_room(&self, msg: RoomMsg) -> bool {
        let room = self.member().room();
        match room {
            Some(room) => room.send(msg),
            None => false,
        }
    }

    /// Sends the member's `command` to the session's room (none: dropped, as the room would).
    fn command(&self, command: RoomCommand) {
        let id = self.id;
        self.to_room(RoomMsg::Command { id, command });
    }

    /// Takes a token for a lobby-type request; `false` (the player told once) when the
    /// session sends them faster than [`crate::versus::limits::REQUESTS_PER_SEC`].
    fn allowed(&mut self) -> bool {
        let now_ms = u64::try_from(self.born.elapsed().as_millis()).unwrap_or(u64::MAX);
        if self.bucket.try_take(now_ms) {
            self.limited = false;
            return true;
        }
        if !self.limited {
            self.limited = true;
            tracing::debug!(member = self.id.0, "versus requests are rate limited");
            self.reply(Response::Notice {
                message: "Too many requests: slow down (some were ignored).".into(),
            });
        }
        false
    }

    /// When this session may try another room code, if not now (its own wrong codes, or its
    /// address's).
    fn join_blocked_until(&self, now: Instant) -> Option<Instant> {
        let mine = self.failures.blocked_until(now);
        let address = self.hub.join_blocked_until(self.who.peer, now);
        mine.max(address)
    }

    fn join_failed(&mut self, now: Instant, message: String) {
        self.failures.fail(now);
        self.hub.join_failed(self.who.peer, now);
        self.reply(Response::RoomFailed { message });
    }

    fn leave_room(&self, disconnected: bool) {
        self.to_room(RoomMsg::Leave {
            id: self.id,
            disconnected,
        });
    }

    /// Into this instance's climb (out of the queue and any room first).
    fn join_climb(&mut self) {
        self.leave_queue();
        let in_climb = self.member().room().is_some_and(|r| self.hub.climbs.is(&r));
        if in_climb {
            return;
        }
        self.leave_room(false);
        if let Err(message) = self.hub.join_climb(self.member()) {
            self.reply(Response::RoomFailed { message });
        }
    }

    fn leave_queue(&mut self) {
        if self.queued {
            self.queued = false;
            if !self.to_cluster_queue(QueueAction::Cancel) {
                self.hub.to_queue(QueueMsg::Cancel { id: self.id });
            }
        }
    }

    /// Sends `action` to the queue leader elsewhere when the session waits there (`--nats`).
    fn to_cluster_queue(&self, action: QueueAction) -> bool {
        self.hub
            .remote()
            .is_some_and(|r| r.to_queue(self.id, action))
    }

    /// This session's member id (tests).
    #[cfg(test)]
    pub fn member_id(&self) -> crate::versus::MemberId {
        self.id
    }

    pub fn handle(&mut self, request: Request) {
        let id = self.id;
        // A match's reports flow at game speed; a way out of a room or the queue is never
        // refused.
        let lobby = match request {
            Request::Room(RoomCommand::Report { .. }) => false,
            Request::LeaveRoom => self.member().room().is_none(),
            Request::CancelQuickMatch => !self.queued,
            _ => true,
        };
        if lobby && !self.allowed() {
            return;
        }
        if self.refused_while_draining(&request) {
            return;
        }
        if matches!(
            request,
            Request::QuickMatch
                | Request::CreateRoom(_)
                | Request::JoinRoom { .. }
                | Request::SpectateLive { .. }
                | Request::JoinClimb
        ) {
            // Somewhere new: a session let go for falling behind starts over.
            self.tx.recover();
        }
        match request {
            Request::QuickMatch => {
                let member = self.member();
                let Some(account) = member.account.clone() else {
                    self.reply(Response::RoomFailed {
                        message: "Quick match is ranked, for registered players: connect with an \
                                  SSH key and choose a name. Private rooms are open to guests."
                            .into(),
                    });
                    return;
                };
                let Some(claim) = self.hub.claim_ranked(account.id) else {
                    if self.queued && member.room().is_none() {
                        // Already waiting in the queue.
                        return;
                    }
                    self.reply(Response::RoomFailed {
                        message: "You are already queued or in a ranked match (on this or \
                                  another connection): one ranked match at a time."
                            .into(),
                    });
                    return;
                };
                self.leave_room(false);
                self.queued = true;
                if let Some(remote) = self.hub.remote().cloned()
                    && !remote.leads_queue()
                {
                    // The queue is led by another instance, which holds the ranked claim.
                    self.hub.release_ranked(claim);
                    let watchable = self.hub.is_watchable(self.id);
                    remote.queue_join(member, Some(self.who.peer.ip()), watchable);
                    return;
                }
                // Refused when the queue's inbox is full: the player is told, the claim released.
                self.queued = self.hub.to_queue(QueueMsg::JoinFrom {
                    member,
                    claim,
                    address: Some(self.who.peer),
                });
            }
            Request::CancelQuickMatch => self.leave_queue(),
            Request::CreateRoom(options) => {
                self.leave_queue();
                self.leave_room(false);
                let member = self.member();
                if self
                    .hub
                    .create_room(options, false, vec![(member, None)], Vec::new())
                    .is_none()
                {
                    self.reply(Response::RoomFailed {
                        message: "The server has no free room code: try again.".into(),
                    });
                }
            }
            Request::JoinRoom {
                code: typed,
                spectate,
            } => {
                let now = Instant::now();
                if let Some(until) = self.join_blocked_until(now) {
                    let secs = until.saturating_duration_since(now).as_secs_f64().ceil();
                    self.reply(Response::RoomFailed {
                        message: format!("Too many wrong room codes: try again in {secs} s."),
                    });
                    return;
                }
                // The App's input: parsed here, once, into a `RoomCode`.
                let Some(code) = RoomCode::parse(&typed) else {
                    let shown: String = minotty_ui::sanitize(&typed).chars().take(16).collect();
                    self.join_failed(now, room_code::not_a_code(&shown));
                    return;
                };
                if code.as_str() == crate::versus::climb::CLIMB_CODE && !spectate {
                    // Every instance's first climb has this code: the player's own climbs.
                    self.join_climb();
                    return;
                }
                let Some(room) = self.hub.room(&code) else {
                    if let Some(remote) = self.hub.remote().cloned() {
                        // Perhaps another instance's room: its owner answers.
                        self.leave_queue();
                        self.leave_room(false);
                        let (hub, peer) = (Arc::clone(&self.hub), self.who.peer);
                        let failed = Box::new(move || hub.join_failed(peer, Instant::now()));
                        let watchable = self.hub.is_watchable(self.id);
                        let join = RemoteJoin {
                            member: self.member(),
                            code,
                            spectate,
                            watchable,
                        };
                        remote.join(join, failed);
                        return;
                    }
                    self.join_failed(now, format!("There is no room {code}."));
                    return;
                };
                self.leave_queue();
                let current = self.member().room();
                if current.as_ref().is_some_and(|c| c.code != code) {
                    self.leave_room(false);
                }
                let member = self.member();
                if !room.send(RoomMsg::Join { member, spectate }) {
                    self.reply(Response::RoomFailed {
                        message: format!("Room {code} is closed or busy: try again."),
                    });
                }
            }
            Request::SpectateLive { id: live } => self.spectate_live(live),
            Request::JoinClimb => self.join_climb(),
            Request::LeaveRoom => {
                if !self.to_room(RoomMsg::Leave {
                    id,
                    disconnected: false,
                }) {
                    self.reply(Response::RoomClosed {
                        message: "You are not in a room.".into(),
                    });
                }
            }
            Request::Room(command) => self.command(command),
            Request::OpenRooms => {
                // Only this instance's rooms (another instance's room is joined by its code).
                self.reply(Response::OpenRooms(self.hub.open_rooms.entries()));
            }
            Request::AcceptBotMatch => {
                if self.queued && !self.to_cluster_queue(QueueAction::AcceptBot) {
                    // The queue takes the player out (releasing the ranked claim) and starts
                    // the bot match, or keeps them waiting and says why.
                    self.hub.to_queue(QueueMsg::AcceptBot {
                        member: self.member(),
                    });
                }
            }
            Request::DeclineBotMatch => {
                if self.queued
                    && !self.to_cluster_queue(QueueAction::DeclineBot)
                    && !self.hub.to_queue(QueueMsg::DeclineBot { id })
                {
                    self.reply(Response::Notice {
                        message: crate::versus::QUEUE_BUSY.into(),
                    });
                }
            }
            other => {
                tracing::warn!(request = ?other, "not a versus request");
            }
        }
    }
}

impl Drop for VersusClient {
    /// The session ended: out of the queue, and out of the room (a forfeit during a match).
    fn drop(&mut self) {
        self.hub.set_watchable(self.id, false);
        self.leave_queue();
        self.leave_room(true);
    }
}
