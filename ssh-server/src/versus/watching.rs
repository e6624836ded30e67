//! Who may watch a match: a match is listed on the Live screen only when every person playing
//! it lets others watch their games (the setting that also covers solo games), and a room
//! seats at most [`MAX_SPECTATORS`] spectators, [`SPECTATORS_PER_ADDRESS`] of one address.
//!
//! Each session says what its player's setting is ([`Hub::set_watchable`], whenever it
//! changes, and forgets it when the session ends); a player on another instance brings the
//! setting with the cluster's join (`JoinReq::watchable`); a member the hub has no word from
//! counts as not letting others watch, so nothing is ever listed
//! by default that a player did not allow.

use super::{Hub, MemberId, lock};

/// Spectators one room seats at once; the next is told the room is full of them.
pub const MAX_SPECTATORS: usize = 32;
/// Spectators of one client address (IPv4 address, IPv6 /64) in one room at once, so that one
/// client never takes every place while others wait.
pub const SPECTATORS_PER_ADDRESS: usize = 4;

impl Hub {
    /// The session `id`'s player lets others watch their games (`allowed`), or not.
    pub fn set_watchable(&self, id: MemberId, allowed: bool) {
        let mut watchable = lock(&self.watchable);
        if allowed {
            watchable.insert(id);
        } else {
            watchable.remove(&id);
        }
    }

    /// Whether the session `id`'s player lets others watch their games.
    pub fn is_watchable(&self, id: MemberId) -> bool {
        lock(&self.watchable).contains(&id)
    }
}
