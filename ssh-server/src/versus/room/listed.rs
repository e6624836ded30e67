//! A room on the server's list of open rooms (`versus/open_rooms.rs`), with its host's consent:
//! the host lists or unlists it from the lobby; a ranked room is never listed. The entry is
//! there while the room is listed, in its lobby and has a free seat, and is updated as players
//! come and go ([`Room::sync_open_listing`] runs after every message, like the Live listing).

use minotty_protocol::RoomState;
use minotty_ui::Response;

use super::Room;
use crate::versus::MemberId;
use crate::versus::open_rooms;

impl Room {
    /// The host lists the room (`listed`) or makes it private again.
    pub(super) fn set_listed(&mut self, id: MemberId, listed: bool) {
        if self.host != Some(id) {
            self.tell(id, "Only the host lists the room.");
            return;
        }
        if self.ranked {
            self.tell(id, "A ranked room is never listed.");
            return;
        }
        if self.listed != listed {
            self.listed = listed;
            tracing::info!(room = %self.code, listed, "room listing changed");
            self.broadcast_view();
        }
    }

    fn tell(&self, id: MemberId, message: &str) {
        if let Some(i) = self.seat_of(id) {
            self.seats[i].member.send(Response::Notice {
                message: message.to_owned(),
            });
        }
    }

    /// Puts the room on the list of open rooms, updates its entry or takes it off.
    pub(super) fn sync_open_listing(&mut self) {
        let open = self.listed
            && !self.ranked
            && self.state == RoomState::Lobby
            && self.seats.len() < usize::from(self.options.max_players())
            && !self.hub.is_draining();
        let host = self
            .host
            .and_then(|h| self.seat_of(h))
            .map(|i| &self.seats[i].member);
        let (true, Some(host)) = (open, host) else {
            self.open_listing = None;
            return;
        };
        let (address, host) = (host.address, host.name.as_str());
        let entry = open_rooms::entry(&self.code, host, self.options, self.seats.len());
        match &self.open_listing {
            Some(listing) => listing.update(entry, address),
            None => self.open_listing = Some(self.hub.open_rooms.list(entry, address)),
        }
    }
}
