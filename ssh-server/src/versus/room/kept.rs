//! Seats kept for players whose connection dropped in a room's lobby (no match running).
//!
//! The seat stays, shown to the others as "reconnecting..." (`SeatView::connected` false
//! outside a match), for the hub's reconnect time (`--reconnect-secs`); a new session of the
//! same account (or, unregistered, the same key) is put straight back into it
//! ([`super::Hub::rejoin_kept`], then [`RoomMsg::Rejoin`](super::RoomMsg::Rejoin)). After the
//! time the seat is freed as a leave frees it. No match starts while a seat is kept (the host
//! is told who the room waits for). Ranked rooms, bots and players without an account or key
//! keep nothing: their drop is a leave, as before. During a match a drop stays a forfeit.

use minotty_protocol::RoomState;
use minotty_ui::Response;
use tokio::time::Instant;

use super::{Member, Room};

impl Room {
    /// Keeps seat `i`, whose member's connection dropped, if the room keeps seats for it now.
    pub(super) fn keep_seat(&mut self, i: usize, now: Instant) -> bool {
        let ttl = self.hub.reconnect();
        let Some(seat) = self.seats.get_mut(i) else {
            return false;
        };
        let Some(owner) = seat.member.owner.clone() else {
            return false;
        };
        if ttl.is_zero()
            || self.ranked
            || seat.bot.is_some()
            || self.state == RoomState::Playing
            || self.hub.is_shutting_down()
        {
            return false;
        }
        seat.connected = false;
        seat.ready = false;
        seat.away_until = Some(now + ttl);
        self.hub.keep_seat(owner, self.link.clone());
        tracing::info!(room = %self.code, member = seat.member.id.0, "lobby seat kept");
        true
    }

    /// A new session of a kept seat's owner takes it back.
    pub(super) fn rejoin(&mut self, member: Member) {
        let found = self.seats.iter().position(|s| {
            s.away_until.is_some() && s.member.owner.is_some() && s.member.owner == member.owner
        });
        let Some(i) = found else {
            member.send(Response::Notice {
                message: format!("Your seat in room {} was given up.", self.code),
            });
            return;
        };
        member.set_room(self.link.clone());
        let seat = &mut self.seats[i];
        seat.member = member;
        seat.connected = true;
        seat.ready = false;
        seat.away_until = None;
        tracing::info!(room = %self.code, member = seat.member.id.0, "lobby seat taken back");
        self.fix_host();
        self.broadcast_view();
    }

    /// When the next kept seat is freed.
    pub(super) fn kept_wake(&self) -> Option<Instant> {
        self.seats.iter().filter_map(|s| s.away_until).min()
    }

    /// Frees the kept seats whose time is up, as a leave does.
    pub(super) fn expire_kept(&mut self, now: Instant) {
        if !self
            .seats
            .iter()
            .any(|s| s.away_until.is_some_and(|t| now >= t))
        {
            return;
        }
        let code = self.code.clone();
        let hub = std::sync::Arc::clone(&self.hub);
        self.seats.retain(|s| match s.away_until {
            Some(t) if now >= t => {
                if let Some(owner) = &s.member.owner {
                    hub.forget_kept(owner, &code);
                }
                tracing::info!(room = %code, member = s.member.id.0, "kept lobby seat freed");
                false
            }
            _ => true,
        });
        self.fix_host();
        self.broadcast_view();
    }

    /// The name of a player the room waits for, if any (no match starts meanwhile).
    pub(super) fn reconnecting(&self) -> Option<&str> {
        self.seats
            .iter()
            .find(|s| s.away_until.is_some())
            .map(|s| s.member.name.as_str())
    }

    /// The room closes: its kept seats are no longer anyone's to take back.
    pub(super) fn forget_kept_seats(&mut self) {
        for s in &mut self.seats {
            if s.away_until.take().is_some()
                && let Some(owner) = &s.member.owner
            {
                self.hub.forget_kept(owner, &self.code);
            }
        }
    }
}
