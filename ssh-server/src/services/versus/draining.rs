//! While this instance drains (SIGTERM with `--nats`, see `cluster/drain.rs`) it hands its
//! players nothing new: no queue place, no room to create or join, no match to watch, no start
//! or rematch (local or in a room elsewhere). The player is told the server is restarting and
//! to reconnect: the balancer sends the new connection to another instance. A way out (leaving
//! a room or the queue) and a running match's reports are never refused.

use minotty_protocol::RoomCommand;
use minotty_ui::{Request, Response};

use super::VersusClient;

impl VersusClient {
    /// Whether `request` asks for something new while this instance drains; the player is
    /// told so (nothing else happens).
    pub(super) fn refused_while_draining(&self, request: &Request) -> bool {
        let new = matches!(
            request,
            Request::QuickMatch
                | Request::CreateRoom(_)
                | Request::JoinRoom { .. }
                | Request::SpectateLive { .. }
                | Request::Room(RoomCommand::Start | RoomCommand::Rematch)
                | Request::AcceptBotMatch
                | Request::JoinClimb
        );
        if !new || !self.hub.is_draining() {
            return false;
        }
        self.reply(Response::RoomFailed {
            message: crate::versus::RECONNECT.to_owned(),
        });
        true
    }
}
