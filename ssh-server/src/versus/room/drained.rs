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

use minotty_ui::online::{Response, RoomState};
use tokio::time::Instant;

use super::Room;
use crate::versus::MemberId;

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
        let players: Vec<String> = self
            .live
            .as_ref()
            .map(|l| l.players.iter().map(|p| p.member.name.clone()).collect())
            .unwrap_or_default();
        tracing::warn!(
            room = %self.code,
            ranked = self.ranked,
            ?players,
            gone = %name,
            "a player's server stopped (its drain time ran out) mid-match: the match is \
             abandoned (not stored, not rated)"
        );
        self.live = None;
        self.state = RoomState::Lobby;
        self.release_claims();
        let message = format!(
            "{name}'s server restarted before the match in room {} ended: the match is \
             abandoned, not rated.",
            self.code
        );
        for s in &mut self.seats {
            s.member.clear_room(&self.code);
            if s.connected && s.member.id != id {
                s.member.send(Response::RoomClosed {
                    message: message.clone(),
                });
            }
            s.connected = false;
        }
        for s in self.spectators.drain(..) {
            s.clear_room(&self.code);
            s.send(Response::RoomClosed {
                message: message.clone(),
            });
        }
        self.by_live.clear();
        // No person is left: the room's task closes it.
    }
}
