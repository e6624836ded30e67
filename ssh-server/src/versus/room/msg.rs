//! What a room's inbox takes: every message sessions, proxies of other instances, bot seats
//! and the hub send to a room task.

use minotty_protocol::RoomCommand;

use super::ContactLoss;
use crate::versus::{Member, MemberId};

/// What sessions tell their room.
#[derive(Debug)]
pub enum RoomMsg {
    Join {
        member: Member,
        spectate: bool,
    },
    /// A spectator from the Live list (who asked by the match's id, and is never shown the
    /// room's code).
    WatchLive {
        member: Member,
    },
    /// The member leaves (`disconnected`: their session ended).
    Leave {
        id: MemberId,
        disconnected: bool,
    },
    /// A member's command (a session's, or a proxy's for a member of another instance).
    Command {
        id: MemberId,
        command: RoomCommand,
    },
    /// A bot that can play no more (its TBP process forfeited) gives up its seat; the room
    /// says why (`room/bots.rs`).
    BotRetired {
        id: MemberId,
        reason: String,
    },
    /// A new session of the player whose lobby seat the room keeps (`room/kept.rs`).
    Rejoin {
        member: Member,
    },
    /// The member's instance is out of reach: an unsettled match is abandoned on both sides
    /// (`room/contact.rs`).
    LostContact {
        id: MemberId,
        cause: ContactLoss,
    },
    /// The server is shutting down (after its sessions ended): the room stores a decided
    /// match, abandons one still running, and closes.
    Shutdown,
    /// The member's instance drained away (its `--drain-secs` ran out) while the member
    /// played here: the match is abandoned, unrated, for everyone (`room/drained.rs`); not a
    /// leave, which would be the member's forfeit.
    DrainedAway {
        id: MemberId,
    },
    /// Tests: the room's task panics while handling this.
    #[cfg(test)]
    Panic,
    /// Tests: seats a bot played by this driver (another kind than the built-in one).
    #[cfg(test)]
    SeatDriver(Box<dyn crate::versus::bot::BotDriver>),
}
