//! Lobby seats kept for players whose connection dropped (`--reconnect`): at most one per
//! owner server-wide, the latest drop's; the room itself keeps the seat (`room/kept.rs`).

use minotty_domain::RoomCode;

use super::{Hub, Member, Owner, RoomLink, RoomMsg, lock};

impl Hub {
    /// A room keeps a seat for `owner` (replacing any other room's claim: the latest drop).
    pub(super) fn keep_seat(&self, owner: Owner, room: RoomLink) {
        lock(&self.kept).insert(owner, room);
    }

    /// The seat the room `code` kept for `owner` is gone (taken back, expired, room closed).
    pub(super) fn forget_kept(&self, owner: &Owner, code: &RoomCode) {
        let mut kept = lock(&self.kept);
        if kept.get(owner).is_some_and(|r| r.code == *code) {
            kept.remove(owner);
        }
    }

    /// Seats kept now, server-wide.
    pub fn kept_seats(&self) -> usize {
        lock(&self.kept).len()
    }

    /// A new session of `member`'s owner takes back the seat a room kept for them: the room
    /// seats them again and sends them the room. `false` when no seat is kept.
    pub fn rejoin_kept(&self, member: &Member) -> bool {
        let Some(owner) = &member.owner else {
            return false;
        };
        let Some(room) = lock(&self.kept).remove(owner) else {
            return false;
        };
        room.send(RoomMsg::Rejoin {
            member: member.clone(),
        })
    }
}
