//! What instances say to each other over NATS, and its encoding (JSON through serde; every
//! message is checked against [`MAX_MESSAGE`] before it is decoded, and one that does not
//! decode is logged and dropped by the caller, never a panic).

use minotty_engine::versus::Targeting;
use minotty_ui::online::{MatchResult, MatchStart, OpponentView, Report, Response, RoomView};
use serde::{Deserialize, Serialize};
use serde::de::DeserializeOwned;

use crate::versus::{MemberId, RoomMsg};

/// The largest message an instance sends or reads (NATS' own default payload limit is 1 MiB).
/// A larger one (only a very long game's replay can be) is dropped: the match is then stored
/// without that replay, as when a replay does not arrive in time.
pub const MAX_MESSAGE: usize = 1 << 20;

/// The subject every instance publishes its heartbeat on.
pub const HEARTBEAT: &str = "minotty.heartbeat";

/// The subject of a join by room code (answered only by the room's owner).
pub fn join_subject(code: &str) -> String {
    format!("minotty.room.{code}.join")
}

/// The wildcard every instance listens on for joins.
pub const JOIN_ANY: &str = "minotty.room.*.join";

/// Everything addressed to the instance `inst`.
pub fn inst_any(inst: &str) -> String {
    format!("minotty.inst.{inst}.>")
}

/// The proxy `pid` on the owner `inst` (what a remote member's session sends its room).
pub fn proxy_subject(inst: &str, pid: MemberId) -> String {
    format!("minotty.inst.{inst}.p.{}", pid.0)
}

/// A session `mid` of the instance `inst` (what its room sends it).
pub fn member_subject(inst: &str, mid: MemberId) -> String {
    format!("minotty.inst.{inst}.m.{}", mid.0)
}

/// The ranked queue on the leader `inst`.
pub fn queue_subject(inst: &str) -> String {
    format!("minotty.inst.{inst}.queue")
}

/// An instance is alive (sent every [`super::HEARTBEAT_EVERY`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Heartbeat {
    pub id: String,
    /// When the instance started (ms since the epoch): the oldest live instance leads the queue.
    pub started: i64,
    /// It drains (SIGTERM): no new rooms nor queue leadership.
    pub draining: bool,
    /// The first character of its room codes.
    pub prefix: u8,
}

/// A session of another instance asks to join a room (or the queue) here.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinReq {
    pub inst: String,
    pub mid: u64,
    pub name: String,
    /// The registered account (id, name), the same on every instance (one database).
    pub account: Option<(i64, String)>,
    pub spectate: bool,
}

/// The answer to a [`JoinReq`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JoinRep {
    /// Admitted: the owner's proxy for the session is `pid`.
    Ok { pid: u64 },
    Refused { message: String },
}

/// What a session sends to its proxy on the room's owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToProxy {
    Room(WireRoom),
    QueueCancel,
    AcceptBot,
    DeclineBot,
}

/// The part of [`RoomMsg`] a session sends (the member is the proxy, named by the subject).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum WireRoom {
    Leave { disconnected: bool },
    Ready { ready: bool },
    Start,
    Rematch,
    Targeting { targeting: Targeting },
    Report { reports: Vec<Report> },
    AddBot { level: u8 },
    AddTbpBot { name: String },
    RemoveBot { seat: usize },
}

impl WireRoom {
    /// The message for the wire; `None` for what only an instance's own sessions send (joins,
    /// rejoins, shutdown).
    pub fn from_msg(msg: RoomMsg) -> Option<WireRoom> {
        Some(match msg {
            RoomMsg::Leave { disconnected, .. } => WireRoom::Leave { disconnected },
            RoomMsg::Ready { ready, .. } => WireRoom::Ready { ready },
            RoomMsg::Start { .. } => WireRoom::Start,
            RoomMsg::Rematch { .. } => WireRoom::Rematch,
            RoomMsg::Targeting { targeting, .. } => WireRoom::Targeting { targeting },
            RoomMsg::Report { reports, .. } => WireRoom::Report { reports },
            RoomMsg::AddBot { level, .. } => WireRoom::AddBot { level },
            RoomMsg::AddTbpBot { name, .. } => WireRoom::AddTbpBot { name },
            RoomMsg::RemoveBot { seat, .. } => WireRoom::RemoveBot { seat },
            _ => return None,
        })
    }

    /// The room message of the proxy `id`.
    pub fn into_msg(self, id: MemberId) -> RoomMsg {
        match self {
            WireRoom::Leave { disconnected } => RoomMsg::Leave { id, disconnected },
            WireRoom::Ready { ready } => RoomMsg::Ready { id, ready },
            WireRoom::Start => RoomMsg::Start { id },
            WireRoom::Rematch => RoomMsg::Rematch { id },
            WireRoom::Targeting { targeting } => RoomMsg::Targeting { id, targeting },
            WireRoom::Report { reports } => RoomMsg::Report { id, reports },
            WireRoom::AddBot { level } => RoomMsg::AddBot { id, level },
            WireRoom::AddTbpBot { name } => RoomMsg::AddTbpBot { id, name },
            WireRoom::RemoveBot { seat } => RoomMsg::RemoveBot { id, seat },
        }
    }
}

/// What a proxy sends to its session's instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToMember {
    /// The session is now in room `code` of instance `inst`, through the proxy `pid`.
    Linked { code: String, inst: String, pid: u64 },
    /// The session is no longer in room `code`.
    Unlinked { code: String },
    Response(Relay),
}

/// The responses rooms and the queue send, as they cross between instances.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Relay {
    Queued { rating: i32, range: i32 },
    BotOffer { level: u8 },
    Room(RoomView),
    RoomFailed { message: String },
    RoomClosed { message: String },
    MatchStart(MatchStart),
    Garbage { lines: u8, from: usize },
    Opponents(Vec<OpponentView>),
    MatchOver(MatchResult),
    Notice { message: String },
}

impl Relay {
    /// The relayed form of `r`; `None` for a response no room or queue sends.
    pub fn from_response(r: Response) -> Option<Relay> {
        Some(match r {
            Response::Queued { rating, range } => Relay::Queued { rating, range },
            Response::BotOffer { level } => Relay::BotOffer { level },
            Response::Room(v) => Relay::Room(v),
            Response::RoomFailed { message } => Relay::RoomFailed { message },
            Response::RoomClosed { message } => Relay::RoomClosed { message },
            Response::MatchStart(s) => Relay::MatchStart(s),
            Response::Garbage { lines, from } => Relay::Garbage { lines, from },
            Response::Opponents(o) => Relay::Opponents(o),
            Response::MatchOver(m) => Relay::MatchOver(m),
            Response::Notice { message } => Relay::Notice { message },
            _ => return None,
        })
    }

    pub fn into_response(self) -> Response {
        match self {
            Relay::Queued { rating, range } => Response::Queued { rating, range },
            Relay::BotOffer { level } => Response::BotOffer { level },
            Relay::Room(v) => Response::Room(v),
            Relay::RoomFailed { message } => Response::RoomFailed { message },
            Relay::RoomClosed { message } => Response::RoomClosed { message },
            Relay::MatchStart(s) => Response::MatchStart(s),
            Relay::Garbage { lines, from } => Response::Garbage { lines, from },
            Relay::Opponents(o) => Response::Opponents(o),
            Relay::MatchOver(m) => Response::MatchOver(m),
            Relay::Notice { message } => Response::Notice { message },
        }
    }
}

/// Encodes `value`; `None` (logged) when it does not fit in [`MAX_MESSAGE`].
pub fn encode<T: Serialize>(value: &T) -> Option<Vec<u8>> {
    match serde_json::to_vec(value) {
        Ok(bytes) if bytes.len() <= MAX_MESSAGE => Some(bytes),
        Ok(bytes) => {
            tracing::warn!(bytes = bytes.len(), "a cluster message is too large: dropped");
            None
        }
        Err(e) => {
            tracing::warn!(error = %e, "encoding a cluster message");
            None
        }
    }
}

/// Decodes a message; `None` (logged) when it is too large or malformed.
pub fn decode<T: DeserializeOwned>(subject: &str, bytes: &[u8]) -> Option<T> {
    if bytes.len() > MAX_MESSAGE {
        tracing::warn!(subject, bytes = bytes.len(), "a cluster message is too large: dropped");
        return None;
    }
    match serde_json::from_slice(bytes) {
        Ok(v) => Some(v),
        Err(e) => {
            tracing::warn!(subject, error = %e, "a malformed cluster message: dropped");
            None
        }
    }
}
