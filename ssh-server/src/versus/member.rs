//! A session as rooms and the queue know it: its [`MemberId`], its name and account, who may
//! take its seat back ([`Owner`]), the [`SessionTx`] rooms answer it through, and its
//! [`Link`] to the room it is in.

use std::sync::{Arc, Mutex};

use minotty_ui::Response;

use super::{RoomLink, SessionTx, lock};
use minotty_domain::{AccountRef, ClientAddr, KeyFingerprint, PlayerId, RoomCode};

/// A session's identity within versus (unique per session, not per account).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemberId(pub u64);

/// Which room a session is in, set by the room itself when it admits the session and cleared
/// when it lets it go; the session routes its requests through it.
pub type Link = Arc<Mutex<Option<RoomLink>>>;

/// Whose seat a room keeps for a player whose connection dropped in its lobby: the account,
/// or the key of an unregistered player (keyboard-interactive guests have neither).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Owner {
    Account(PlayerId),
    Key(KeyFingerprint),
}

/// A session, as rooms and the queue know it.
#[derive(Clone, Debug)]
pub struct Member {
    pub id: MemberId,
    /// The displayed name (account name, or the sanitised SSH user name of a guest).
    pub name: String,
    pub account: Option<AccountRef>,
    /// Who may take the member's seat back after a drop (`None`: bots, guests without a key).
    pub owner: Option<Owner>,
    /// The client's address, which the per-address shares of bots, spectator places and the
    /// open-rooms list count (`None`: a bot, or a player of another instance that sent none).
    pub address: Option<ClientAddr>,
    pub tx: SessionTx,
    pub link: Link,
}

impl Member {
    /// Queues `response` for the session without waiting (see [`SessionTx::send`]); `false`
    /// when it was dropped.
    pub fn send(&self, response: Response) -> bool {
        self.tx.send(response)
    }

    /// The room the session is in.
    pub fn room(&self) -> Option<RoomLink> {
        lock(&self.link).clone()
    }

    pub(super) fn set_room(&self, room: RoomLink) {
        *lock(&self.link) = Some(room);
    }

    /// Forgets the room `code`, unless the session has moved on to another room meanwhile.
    pub(super) fn clear_room(&self, code: &RoomCode) {
        let mut link = lock(&self.link);
        if link.as_ref().is_some_and(|l| l.code == *code) {
            *link = None;
        }
    }
}
