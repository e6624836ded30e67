//! A room and drains (SIGTERM with `--nats`, see `cluster/drain.rs`).
//!
//! A draining instance starts nothing new: its rooms start no match and no rematch (its own
//! players and players of other instances seated there are told why), so that the drain
//! waits only for the matches that were running.
//!
//! A player's instance whose drain ran out of time (`--drain-secs`) while its player still
//! played in a room here says so with [`RoomMsg::DrainedAway`](super::RoomMsg::DrainedAway):
//! that is not the player leaving (a forfeit) but the same as losing their instance, so the
//! match is abandoned, unrated, on every side: nothing is stored, no rating changes, and
//! everyone in the room is told so, then the room closes.

use minotty_ui::Response;
use tokio::time::Instant;

use super::Room;
use crate::versus::{ContactLoss, MemberId};

impl Room {
    /// While this instance drains, a start or rematch request of `id` is refused (told why);
    /// `false`: not draining, the request goes on.
    pub(super) fn refused_while_draining(&self, id: MemberId) -> bool {
        if !self.hub.is_draining() {
            return false;
        }
        if let Some(i) = self.seat_of(id) {
            self.seats[i].member.send(Response::RoomFailed {
                message: format!(
                    "The server running room {} is restarting: no new match starts in it.",
                    self.code
                ),
            });
        }
        true
    }

    /// The instance of member `id` drained away: a match it plays in is abandoned (unrated)
    /// and the room closes with everyone told; out of a match it is a plain disconnect.
    pub(super) fn drained_away(&mut self, id: MemberId, now: Instant) {
        let playing = self
            .live
            .as_ref()
            .is_some_and(|l| !l.over && l.index_of(id).is_some());
        if !playing {
            self.leave(id, true, now);
            return;
        }
        let name = self
            .seat_of(id)
            .map(|i| self.seats[i].member.name.clone())
            .unwrap_or_default();
        self.abandon_lost(id, &name, ContactLoss::Drained);
    }
}
