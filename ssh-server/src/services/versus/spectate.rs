//! Watching from the Live screen: a session spectates a listed match by the list's id (the
//! list never tells a room's code, which is what lets players into a room), and says whether
//! its player lets others watch their games, so that their matches are listed or not.

use minotty_ui::Response;

use super::VersusClient;
use crate::versus::RoomMsg;

impl VersusClient {
    /// The player's setting "let others watch my games" (the session says it whenever it may
    /// have changed; the hub hears only of a change): their matches are listed on the Live
    /// screen only while it is on.
    pub fn set_watchable(&mut self, allowed: bool) {
        if allowed != self.watchable {
            self.watchable = allowed;
            self.hub.set_watchable(self.id, allowed);
        }
    }

    /// Takes a spectator's seat in the room of the match listed as `live`: the room is found
    /// by the id, and the spectator is never shown its code.
    pub(super) fn spectate_live(&mut self, live: u64) {
        let room = self
            .hub
            .live
            .room_of(live)
            .and_then(|code| self.hub.room(&code));
        let Some(room) = room else {
            self.reply(Response::RoomFailed {
                message: "That match has ended.".into(),
            });
            return;
        };
        self.leave_queue();
        let current = self.member().room();
        if current.as_ref().is_some_and(|c| c.code != room.code) {
            self.leave_room(false);
        }
        let member = self.member();
        if !room.send(RoomMsg::WatchLive { member }) {
            self.reply(Response::RoomFailed {
                message: "That match's room is busy: try again.".into(),
            });
        }
    }
}
