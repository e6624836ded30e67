//! One truth per match when instances lose contact (`crate::cluster`): the room's owner is the
//! only judge of its match. A player who leaves forfeits (their instance says so with a
//! `Leave`); but when the owner loses contact with a player's instance (its heartbeats stop,
//! or the owner's own NATS link is down) while the match is not settled, nobody can tell what
//! that player did, so the match is **abandoned on both sides**: nothing is stored, no rating
//! changes, and everyone in the room is told so (the player's own instance tells them the
//! same, see `cluster/peers.rs`).
//!
//! "Settled" is: already handed to the recorder, or over with the lost player's replay in
//! hand. A replay comes only once the player's game ended, so their instance knew the match
//! was ending; a match decided while that instance was already deaf has no replay of theirs
//! and is abandoned, even though this room showed its result (the room then says that the
//! result shown does not count).

use tokio::time::Instant;

use minotty_ui::Response;

use super::Room;
use super::upkeep::capitalized;
use crate::versus::MemberId;

/// Why a member's instance is out of reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContactLoss {
    /// Its heartbeats stopped (it died, or its own NATS link is down), or it says it lost
    /// contact with this instance.
    Peer,
    /// This instance's own connection to NATS is down: every other instance is out of reach.
    OwnLink,
    /// Its drain time ran out while the match went on (`RoomMsg::DrainedAway`): it stopped.
    Drained,
}

impl ContactLoss {
    /// What the room tells its members when it abandons its match because of the loss of
    /// `name`'s instance; `shown`: a result was shown already (and does not count).
    pub fn message(self, name: &str, room: &str, shown: bool) -> String {
        let cause = match self {
            ContactLoss::Peer => format!("Lost contact with {name}'s server"),
            ContactLoss::OwnLink => {
                format!("This server lost its cluster link (NATS), and with it {name}'s server")
            }
            ContactLoss::Drained => format!("{name}'s server restarted before the match ended"),
        };
        let what = if shown {
            "the result shown does not count: the match is abandoned, not rated (no win or \
             loss)"
        } else {
            "the match is abandoned, not rated (no win or loss)"
        };
        format!("{cause}: {what}. {} closed.", capitalized(room))
    }
}

impl Room {
    /// The instance of member `id` is out of reach (`cause`). An unsettled match with them
    /// in it is abandoned and the room closes; otherwise they leave as a disconnect would.
    pub(super) fn lost_contact(&mut self, id: MemberId, cause: ContactLoss, now: Instant) {
        let unsettled = self.live.as_ref().is_some_and(|l| {
            !l.recorded
                && l.index_of(id)
                    .is_some_and(|p| !l.over || l.players[p].replay.is_none())
        });
        let name = self.seat_of(id).map(|i| self.seats[i].member.name.clone());
        match name {
            Some(name) if unsettled => self.abandon_lost(id, &name, cause),
            _ => self.leave(id, true, now),
        }
    }

    /// Drops the match unstored and unrated, tells everyone but the lost member `id` (whose
    /// own instance tells them) why, and empties the room (its task then closes it).
    pub(super) fn abandon_lost(&mut self, id: MemberId, name: &str, cause: ContactLoss) {
        let Some(live) = self.live.take() else {
            return;
        };
        let players = live.names();
        tracing::warn!(
            room = %self.code,
            ranked = self.ranked,
            ?players,
            lost = name,
            ?cause,
            decided = live.over,
            "a player's server is out of reach: the match is abandoned (not stored, not rated)"
        );
        self.hub.unregister(&self.code, &self.link.tx);
        let seated = self
            .seats
            .iter()
            .filter(|s| s.connected && s.bot.is_none() && s.member.id != id)
            .map(|s| &s.member);
        for m in seated.chain(self.spectators.iter()) {
            m.clear_room(&self.code);
            m.send(Response::RoomClosed {
                message: cause.message(name, &self.room_name(m.id), live.over),
            });
        }
        self.seats.clear();
        self.spectators.clear();
        self.by_live.clear();
        self.sent_views.clear();
        self.state = minotty_protocol::RoomState::Lobby;
        self.host = None;
        self.release_claims();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_messages_say_abandoned_and_not_rated() {
        let m = ContactLoss::Peer.message("bob", "room K7PQ3M", false);
        assert_eq!(
            m,
            "Lost contact with bob's server: the match is abandoned, not rated (no win or \
             loss). Room K7PQ3M closed."
        );
        let m = ContactLoss::OwnLink.message("bob", "the match's room", true);
        assert!(
            m.starts_with("This server lost its cluster link (NATS)"),
            "{m}"
        );
        assert!(m.contains("the result shown does not count"), "{m}");
        assert!(m.ends_with("The match's room closed."), "{m}");
    }
}
