//! Versus for one session: the quick-match queue and rooms (see `crate::versus`). Requests go to
//! the room the session is in, or to the queue; the room and the queue answer on the session's
//! response channel. When the session ends (its `Services` are dropped) the client leaves its
//! room and the queue, so a disconnect during a match is a forfeit.

use std::sync::{Arc, Mutex};

use minotty_ui::online::{Request, Response};
use tokio::sync::mpsc;

use super::Who;
use crate::store::Store;
use crate::versus::{Hub, Link, Member, MemberId, QueueMsg, RoomMsg, SessionTx, code};

/// Shared by every session: the room registry and the matchmaking queue.
#[derive(Debug, Default)]
pub struct SharedVersus {
    hub: Arc<Hub>,
}

impl SharedVersus {
    /// Versus over `store` (matches and ratings are stored there; without one nothing is
    /// stored). `seed`: every match is dealt this seed (tests), random otherwise.
    pub fn new(store: Option<Store>, seed: Option<u32>) -> SharedVersus {
        SharedVersus {
            hub: Arc::new(Hub::new(store, seed)),
        }
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
        VersusClient {
            id: hub.next_member(),
            hub,
            who,
            tx,
            link: Arc::new(Mutex::new(None)),
            queued: false,
        }
    }

    /// The session as rooms and the queue see it, with its current account.
    fn member(&self) -> Member {
        let account = self.who.account.borrow().clone();
        let name = match &account {
            Some(a) => a.name.clone(),
            None => self.who.ssh_user.clone(),
        };
        Member {
            id: self.id,
            name: minotty_ui::sanitize(&name),
            account,
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
            Some(room) => room.tx.send(msg).is_ok(),
            None => false,
        }
    }

    fn leave_room(&self, disconnected: bool) {
        self.to_room(RoomMsg::Leave {
            id: self.id,
            disconnected,
        });
    }

    fn leave_queue(&mut self) {
        if self.queued {
            self.queued = false;
            let _ = self.hub.queue().send(QueueMsg::Cancel { id: self.id });
        }
    }

    pub fn handle(&mut self, request: Request) {
        let id = self.id;
        match request {
            Request::QuickMatch => {
                let member = self.member();
                if member.account.is_none() {
                    self.reply(Response::RoomFailed {
                        message: "Quick match is ranked, for registered players: connect with an \
                                  SSH key and choose a name. Private rooms are open to guests."
                            .into(),
                    });
                    return;
                }
                self.leave_room(false);
                self.queued = true;
                let _ = self.hub.queue().send(QueueMsg::Join { member });
            }
            Request::CancelQuickMatch => self.leave_queue(),
            Request::CreateRoom(options) => {
                self.leave_queue();
                self.leave_room(false);
                let member = self.member();
                if self
                    .hub
                    .create_room(options, false, vec![(member, None)])
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
                let Some(code) = code::normalize(&typed) else {
                    let shown: String = minotty_ui::sanitize(&typed).chars().take(16).collect();
                    self.reply(Response::RoomFailed {
                        message: format!(
                            "\"{shown}\" is not a room code: codes are 4 letters and digits, \
                             like K7PQ."
                        ),
                    });
                    return;
                };
                let Some(room) = self.hub.room(&code) else {
                    self.reply(Response::RoomFailed {
                        message: format!("There is no room {code}."),
                    });
                    return;
                };
                self.leave_queue();
                let current = self.member().room();
                if current.as_ref().is_some_and(|c| c.code != code) {
                    self.leave_room(false);
                }
                let member = self.member();
                if room.tx.send(RoomMsg::Join { member, spectate }).is_err() {
                    self.reply(Response::RoomFailed {
                        message: format!("Room {code} has just closed."),
                    });
                }
            }
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
            Request::SetReady(ready) => {
                self.to_room(RoomMsg::Ready { id, ready });
            }
            Request::StartMatch => {
                self.to_room(RoomMsg::Start { id });
            }
            Request::Rematch => {
                self.to_room(RoomMsg::Rematch { id });
            }
            Request::SetTargeting(targeting) => {
                self.to_room(RoomMsg::Targeting { id, targeting });
            }
            Request::Report(reports) => {
                self.to_room(RoomMsg::Report { id, reports });
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
        self.leave_queue();
        self.leave_room(true);
    }
}
