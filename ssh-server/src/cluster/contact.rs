//! The session's side of one truth per match (the owner's side: `versus/room/contact.rs`).
//! When this instance loses contact with the owner of a room one of its sessions is in, the
//! owner abandons an unsettled match (nothing stored, nothing rated) and this side tells its
//! player the same; and it tells the owner so (best effort: [`ToProxy::LostContact`]), in case
//! only this side lost contact. What it says depends on what it saw of the match:
//!
//! - no match running: the player is out of the room;
//! - a match running and the player's game not over: abandoned, not rated. This is certain:
//!   the owner keeps a result only with the player's replay, which this side had not sent;
//! - the player's game over (its replay sent) or the result shown: the owner may have stored
//!   the result before contact was lost, or not; the player is told exactly that.
//!
//! After the loss, whatever that owner still sends the session about the old room (held up in
//! a stalled link) is dropped until the session joins a room of that owner again.

use minotty_domain::RoomCode;
use minotty_ui::Response;

use super::wire::{ToMember, ToProxy, WireRoom};
use super::{Cluster, Remote};

/// What the session's instance saw of the match in its remote room.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum RemoteMatch {
    /// No match (the room's lobby), or none seen yet.
    #[default]
    None,
    /// A match started and the player's game is running.
    Playing,
    /// The player's game ended (its replay went to the owner) or the result came.
    Ended,
}

impl RemoteMatch {
    /// What the room sends (`msg`) or the session sends its room (`wire`) changes.
    pub(super) fn seen(&mut self, msg: Option<&ToMember>, wire: Option<&WireRoom>) {
        use super::wire::Relay;
        use minotty_protocol::{Report, RoomCommand};
        match msg {
            Some(ToMember::Response(Relay::MatchStart(s))) if s.you.is_some() => {
                *self = RemoteMatch::Playing;
            }
            Some(ToMember::Response(Relay::MatchOver(_))) => *self = RemoteMatch::Ended,
            Some(ToMember::Linked { .. } | ToMember::Unlinked { .. }) => *self = RemoteMatch::None,
            _ => {}
        }
        if let Some(WireRoom::Command(RoomCommand::Report { reports })) = wire
            && *self == RemoteMatch::Playing
            && reports.iter().any(|r| matches!(r, Report::Replay(_)))
        {
            *self = RemoteMatch::Ended;
        }
    }
}

/// What the player of a session in room `code` is told when contact with its owner is lost
/// (`own_link`: this instance's NATS link is down).
pub(super) fn message(code: &RoomCode, own_link: bool, seen: RemoteMatch) -> String {
    let cause = if own_link {
        "This server lost its cluster link (NATS), and with it the server running room".to_owned()
    } else {
        "Lost contact with the server running room".to_owned()
    };
    match seen {
        RemoteMatch::None => format!("{cause} {code}: you are out of the room."),
        RemoteMatch::Playing => {
            format!("{cause} {code}: the match is abandoned, not rated (no win or loss).")
        }
        RemoteMatch::Ended => format!(
            "{cause} {code} as the match ended: if that server stored the result, it is in \
             your match history; if not, the match is not rated."
        ),
    }
}

impl Cluster {
    /// The session `r` is in a room of `owner`, out of reach: tells its player, clears its
    /// link and tells the owner's proxy `pid` (which may still be there).
    pub(super) fn lose_room(
        self: &std::sync::Arc<Self>,
        r: &mut Remote,
        owner: String,
        pid: crate::versus::MemberId,
        code: &RoomCode,
        own_link: bool,
    ) {
        let mut link = super::lock(&r.link);
        // Unless the session has moved on to another room meanwhile.
        if link.as_ref().is_some_and(|l| l.code == *code) {
            *link = None;
            r.tx.send(Response::RoomClosed {
                message: message(code, own_link, r.seen),
            });
        }
        drop(link);
        r.seen = RemoteMatch::None;
        r.lost_from = Some(owner.clone());
        let c = std::sync::Arc::clone(self);
        self.spawn(async move {
            c.send(
                super::wire::proxy_subject(&owner, pid),
                &ToProxy::LostContact,
            )
            .await;
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_protocol::Report;

    #[test]
    fn what_the_player_is_told_follows_what_was_seen() {
        let code = RoomCode::canonical("K7PQ3M").expect("a code");
        let mut seen = RemoteMatch::default();
        let replay = WireRoom::Command(minotty_protocol::RoomCommand::Report {
            reports: vec![Report::Attack { lines: 1 }],
        });
        seen.seen(None, Some(&replay));
        assert_eq!(seen, RemoteMatch::None);
        assert!(message(&code, false, seen).ends_with("you are out of the room."));
        seen = RemoteMatch::Playing;
        seen.seen(None, Some(&replay));
        assert_eq!(seen, RemoteMatch::Playing);
        let m = message(&code, true, seen);
        assert!(
            m.starts_with("This server lost its cluster link (NATS)"),
            "{m}"
        );
        assert!(m.contains("abandoned, not rated"), "{m}");
        seen.seen(Some(&ToMember::Unlinked { code: code.clone() }), None);
        assert_eq!(seen, RemoteMatch::None);
        let m = message(&code, false, RemoteMatch::Ended);
        assert!(m.contains("if that server stored the result"), "{m}");
        assert!(!m.contains("abandoned"), "{m}");
    }
}
