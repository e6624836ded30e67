//! A room's spectators: at most [`MAX_SPECTATORS`] at once and [`SPECTATORS_PER_ADDRESS`] of
//! one client address (its key: IPv4 address, IPv6 /64), the next refused with the reason;
//! those who came from the Live list (by the match's id) are never shown the room's code, in
//! its views or its messages. A match is listed on the Live screen as watchable only when every
//! person playing it lets others watch their games.

use minotty_ui::Response;
use tokio::time::Instant;

use super::{Member, MemberId, Room};
use crate::versus::{MAX_SPECTATORS, SPECTATORS_PER_ADDRESS};
use minotty_domain::ClientAddr;

impl Room {
    /// `member` watches (`by_live`: from the Live list), unless the room has as many
    /// spectators as it seats.
    pub(super) fn spectate(&mut self, member: Member, by_live: bool, now: Instant) {
        let whose = || {
            if by_live {
                "That match".to_owned()
            } else {
                format!("Room {}", self.code)
            }
        };
        if self.spectators.len() >= MAX_SPECTATORS {
            member.send(Response::RoomFailed {
                message: format!(
                    "{} has {MAX_SPECTATORS} spectators already, as many as a room seats: try \
                     again later.",
                    whose()
                ),
            });
            return;
        }
        let key = member.address.map(ClientAddr::key);
        let of_address = self
            .spectators
            .iter()
            .filter(|s| key.is_some() && s.address.map(ClientAddr::key) == key)
            .count();
        if of_address >= SPECTATORS_PER_ADDRESS {
            member.send(Response::RoomFailed {
                message: format!(
                    "{} has {SPECTATORS_PER_ADDRESS} spectators from your address already, the \
                     most one address may: try again later.",
                    whose()
                ),
            });
            return;
        }
        member.set_room(self.link.clone());
        if by_live {
            self.by_live.insert(member.id);
        }
        self.spectators.push(member.clone());
        self.broadcast_view();
        if let Some(live) = &self.live
            && !live.over
        {
            member.send(Response::MatchStart(self.match_start(live, None, now)));
            member.send(Response::Opponents(self.opponents(None)));
        }
    }

    /// A spectator from the Live list; someone already in the room is sent the room again.
    pub(super) fn watch_live(&mut self, member: Member, now: Instant) {
        let here =
            self.seat_of(member.id).is_some() || self.spectators.iter().any(|s| s.id == member.id);
        if here {
            self.join(member, true, now);
        } else {
            self.spectate(member, true, now);
        }
    }

    /// The room's code as `id` is shown it: nothing to a spectator from the Live list.
    pub(super) fn code_for(&self, id: MemberId) -> &str {
        if self.by_live.contains(&id) {
            ""
        } else {
            self.code.as_str()
        }
    }

    /// "room CODE", or "the match's room" to a spectator from the Live list.
    pub(super) fn room_name(&self, id: MemberId) -> String {
        match self.code_for(id) {
            "" => "the match's room".to_owned(),
            code => format!("room {code}"),
        }
    }

    /// Whether every person seated lets others watch their games (bots always do).
    pub(super) fn everyone_lets_others_watch(&self) -> bool {
        self.seats
            .iter()
            .all(|s| s.bot.is_some() || self.hub.is_watchable(s.member.id))
    }
}
