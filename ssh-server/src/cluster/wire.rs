//! What instances say to each other over NATS, and its encoding (JSON through serde; every
//! message is checked against [`MAX_MESSAGE`] before it is decoded, and one that does not
//! decode is logged and dropped by the caller, never a panic).

use minotty_domain::RoomCode;
use minotty_protocol::{MatchResult, MatchStart, OpponentView, RoomCommand, RoomView};
use minotty_ui::Response;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::versus::{MemberId, RoomMsg};

/// The largest message an instance sends or reads: NATS' own default payload limit (1 MiB)
/// less room for the seal (`super::auth`, under 100 bytes). A larger one (only a very long
/// game's replay can be) is dropped: the match is then stored without that replay, as when a
/// replay does not arrive in time.
pub const MAX_MESSAGE: usize = (1 << 20) - 256;

/// The subject every instance publishes its heartbeat on.
pub const HEARTBEAT: &str = "minotty.heartbeat";

/// The subject of a join by room code (answered only by the room's owner).
pub fn join_subject(code: &RoomCode) -> String {
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
    /// The player's address, so that the leader's queue never pairs two accounts of one
    /// address for ranked across instances either (`--ranked-same-address`). Parsed as an
    /// address, never kept as text; absent from an older instance: unknown, blocks nothing.
    #[serde(default)]
    pub address: Option<std::net::IpAddr>,
    /// The player lets others watch their games (the owner's Live list lists a match only when
    /// everyone seated does); absent from an older instance: not watchable.
    #[serde(default)]
    pub watchable: bool,
}

/// The answer to a [`JoinReq`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum JoinRep {
    /// Admitted: the owner's proxy for the session is `pid`.
    Ok {
        pid: u64,
    },
    Refused {
        message: String,
    },
}

/// What a session sends to its proxy on the room's owner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToProxy {
    Room(WireRoom),
    QueueCancel,
    AcceptBot,
    DeclineBot,
    /// The member's instance lost contact with this one while the member was in a room here:
    /// an unsettled match is abandoned (`versus/room/contact.rs`).
    LostContact,
}

/// What a member's instance sends the member's proxy on the room's owner: a [`RoomCommand`]
/// as it is (its serde form is the one these messages always had, so instances of every
/// version read each other), or what only a member's instance can say of it.
///
/// Untagged: a message is read as a command first, then as a [`MemberNews`]; one that is
/// neither is malformed and dropped. What a command carries is checked by the room as any
/// session's is (a peer's word is never believed): only the proxy's own instance may speak
/// for it (`proxy.rs`), its reports and replays go through the room's checks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum WireRoom {
    Command(RoomCommand),
    News(MemberNews),
}

/// What a member's instance says of the member that is no command of theirs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MemberNews {
    Leave {
        disconnected: bool,
    },
    /// The session's instance drained away while it played (not a leave: the match is
    /// abandoned, unrated; see `versus/room/drained.rs`). An older owner drops it as malformed.
    DrainedAway,
}

impl WireRoom {
    /// The leave of a member whose instance lost it (`disconnected`) or whose session left.
    pub fn leave(disconnected: bool) -> WireRoom {
        WireRoom::News(MemberNews::Leave { disconnected })
    }

    /// The message for the wire; `None` for what only an instance's own sessions send (joins,
    /// rejoins, shutdown).
    pub fn from_msg(msg: RoomMsg) -> Option<WireRoom> {
        Some(match msg {
            RoomMsg::Command { command, .. } => WireRoom::Command(command),
            RoomMsg::Leave { disconnected, .. } => WireRoom::leave(disconnected),
            RoomMsg::DrainedAway { .. } => WireRoom::News(MemberNews::DrainedAway),
            _ => return None,
        })
    }

    /// The room message of the proxy `id`.
    pub fn into_msg(self, id: MemberId) -> RoomMsg {
        match self {
            WireRoom::Command(command) => RoomMsg::Command { id, command },
            WireRoom::News(MemberNews::Leave { disconnected }) => {
                RoomMsg::Leave { id, disconnected }
            }
            WireRoom::News(MemberNews::DrainedAway) => RoomMsg::DrainedAway { id },
        }
    }
}

/// What a proxy sends to its session's instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToMember {
    /// The session is now in room `code` of instance `inst`, through the proxy `pid`.
    Linked {
        code: RoomCode,
        inst: String,
        pid: u64,
    },
    /// The session is no longer in room `code`.
    Unlinked {
        code: RoomCode,
    },
    /// The queue the session waited in stops (its leader drains): queue at the new leader.
    Requeue,
    Response(Relay),
}

/// The responses rooms and the queue send, as they cross between instances.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Relay {
    Queued {
        rating: i32,
        range: i32,
        /// Later than the first version: absent means `false`.
        #[serde(default)]
        same_address: bool,
    },
    BotOffer {
        level: u8,
    },
    Room(RoomView),
    RoomFailed {
        message: String,
    },
    RoomClosed {
        message: String,
    },
    MatchStart(MatchStart),
    Garbage {
        lines: u8,
        from: usize,
    },
    Opponents(Vec<OpponentView>),
    MatchOver(MatchResult),
    Notice {
        message: String,
    },
}

impl Relay {
    /// The relayed form of `r`; `None` for a response no room or queue sends.
    pub fn from_response(r: Response) -> Option<Relay> {
        Some(match r {
            Response::Queued {
                rating,
                range,
                same_address,
            } => Relay::Queued {
                rating,
                range,
                same_address,
            },
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
            Relay::Queued {
                rating,
                range,
                same_address,
            } => Response::Queued {
                rating,
                range,
                same_address,
            },
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
            tracing::warn!(
                bytes = bytes.len(),
                "a cluster message is too large: dropped"
            );
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
        tracing::warn!(
            subject,
            bytes = bytes.len(),
            "a cluster message is too large: dropped"
        );
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

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_engine::versus::MatchKind;
    use minotty_protocol::{BoardSnapshot, Progress, RoomLimit, RoomSettings, RoomState, SeatView};

    fn board() -> BoardSnapshot {
        let mut rows = vec![[0u8; 10]; 20];
        for (y, row) in rows.iter_mut().enumerate().skip(12) {
            for (x, c) in row.iter_mut().enumerate() {
                *c = if x == y % 10 { 0 } else { 8 };
            }
        }
        BoardSnapshot { rows }
    }

    fn opponent(seat: usize) -> OpponentView {
        OpponentView {
            seat,
            name: format!("p{seat}"),
            board: board(),
            progress: Progress {
                lines: 12,
                pieces: 40,
                attack_sent: 9,
                garbage_received: 4,
                time_ms: 61_000,
                pending_garbage: 2,
                hold: 3,
                next: [1, 2, 3, 4, 5],
                lives: 0,
            },
            alive: true,
            place: None,
            kos: 1,
            target: Some(0),
        }
    }

    /// Every relayed response comes back as itself; a response no room sends is not relayed.
    #[test]
    fn relayed_responses_round_trip() {
        let view = RoomView {
            code: "K7PQ3M".into(),
            options: RoomSettings::new(MatchKind::Battle, 4, RoomLimit::Lines(40)),
            seats: vec![SeatView {
                team: None,
                name: "ann".into(),
                ready: true,
                host: true,
                connected: true,
                rating: Some(1500),
                bot: None,
            }],
            spectators: 2,
            you: Some(0),
            host: true,
            state: RoomState::Lobby,
            ranked: false,
            listed: false,
            tbp_bots: vec!["cold".into()],
        };
        let all = [
            Response::Queued {
                rating: 1500,
                range: 100,
                same_address: true,
            },
            Response::BotOffer { level: 3 },
            Response::Room(view),
            Response::RoomFailed {
                message: "no".into(),
            },
            Response::RoomClosed {
                message: "bye".into(),
            },
            Response::Garbage { lines: 4, from: 1 },
            Response::Opponents(vec![opponent(1), opponent(2)]),
            Response::Notice {
                message: "hi".into(),
            },
        ];
        for r in all {
            let relay = Relay::from_response(r.clone()).expect("relayed");
            let bytes = encode(&ToMember::Response(relay)).expect("encodes");
            let Some(ToMember::Response(back)) = decode::<ToMember>("t", &bytes) else {
                panic!("does not decode: {r:?}");
            };
            assert_eq!(back.into_response(), r);
        }
        assert_eq!(Relay::from_response(Response::Offline), None);
        assert_eq!(Relay::from_response(Response::PasswordSet), None);
    }

    /// A `Queued` from an instance that predates `same_address` reads as `false`.
    #[test]
    fn an_older_queued_reads_without_the_address_word() {
        let old = br#"{"Response":{"Queued":{"rating":1500,"range":100}}}"#;
        let Some(ToMember::Response(relay)) = decode::<ToMember>("t", old) else {
            panic!("an older Queued decodes");
        };
        let want = Response::Queued {
            rating: 1500,
            range: 100,
            same_address: false,
        };
        assert_eq!(relay.into_response(), want);
    }

    /// Every message a session sends its room crosses with its content, in the bytes these had
    /// before `RoomCommand` (both versions read each other); the member becomes the proxy.
    #[test]
    fn room_messages_round_trip_in_the_old_bytes() {
        use minotty_engine::versus::Targeting;
        use minotty_engine::versus::{MatchKind, RoomLimit, RoomSettings, SeriesSettings};
        use minotty_protocol::Report;
        let me = MemberId(3);
        let league = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None)
            .with_series(SeriesSettings::new(7, 1, 2));
        let command = |command| RoomMsg::Command { id: me, command };
        let msgs = [
            (
                RoomMsg::Leave {
                    id: me,
                    disconnected: true,
                },
                r#"{"Room":{"Leave":{"disconnected":true}}}"#,
            ),
            (
                command(RoomCommand::Ready { ready: true }),
                r#"{"Room":{"Ready":{"ready":true}}}"#,
            ),
            (command(RoomCommand::Start), r#"{"Room":"Start"}"#),
            (command(RoomCommand::Rematch), r#"{"Room":"Rematch"}"#),
            (
                command(RoomCommand::Targeting {
                    targeting: Targeting::Attackers,
                }),
                r#"{"Room":{"Targeting":{"targeting":"Attackers"}}}"#,
            ),
            (
                command(RoomCommand::Report {
                    reports: vec![Report::Attack { lines: 4 }],
                }),
                r#"{"Room":{"Report":{"reports":[{"Attack":{"lines":4}}]}}}"#,
            ),
            (
                command(RoomCommand::AddBot { level: 5 }),
                r#"{"Room":{"AddBot":{"level":5}}}"#,
            ),
            (
                command(RoomCommand::AddTbpBot {
                    name: "cold".into(),
                }),
                r#"{"Room":{"AddTbpBot":{"name":"cold"}}}"#,
            ),
            (
                command(RoomCommand::RemoveBot { seat: 1 }),
                r#"{"Room":{"RemoveBot":{"seat":1}}}"#,
            ),
            (RoomMsg::DrainedAway { id: me }, r#"{"Room":"DrainedAway"}"#),
            (
                command(RoomCommand::SetListed { listed: true }),
                r#"{"Room":{"SetListed":{"listed":true}}}"#,
            ),
            (
                command(RoomCommand::Settings { settings: league }),
                r#"{"Room":{"Settings":{"settings":{"kind":"Battle","max_players":2,"limit":"None","series":{"first_to":7,"win_by":1,"stock":2}}}}}"#,
            ),
            (
                command(RoomCommand::Settings {
                    settings: RoomSettings::new(MatchKind::Battle, 4, RoomLimit::None)
                        .with_teams(2),
                }),
                r#"{"Room":{"Settings":{"settings":{"kind":"Battle","max_players":4,"limit":"None","teams":2}}}}"#,
            ),
            (
                command(RoomCommand::Team { seat: 2, team: 1 }),
                r#"{"Room":{"Team":{"seat":2,"team":1}}}"#,
            ),
        ];
        for (msg, golden) in msgs {
            let shown = format!("{msg:?}");
            let wire = WireRoom::from_msg(msg).expect("crosses");
            let bytes = encode(&ToProxy::Room(wire)).expect("encodes");
            assert_eq!(String::from_utf8_lossy(&bytes), golden);
            let Some(ToProxy::Room(back)) = decode::<ToProxy>("t", golden.as_bytes()) else {
                panic!("does not decode: {golden}");
            };
            let back = format!("{:?}", back.into_msg(MemberId(90)));
            assert_eq!(back, shown.replace("MemberId(3)", "MemberId(90)"));
        }
        assert!(WireRoom::from_msg(RoomMsg::Shutdown).is_none());
        // Neither a command nor news of a member: malformed, dropped.
        for bad in [
            r#"{"Room":"Kick"}"#,
            r#"{"Room":{"Ready":{"ready":"yes"}}}"#,
            r#"{"Room":{"AddBot":{"level":300}}}"#,
            r#"{"Room":{"Leave":{}}}"#,
            r#"{"Room":{"RemoveBot":{"seat":-1}}}"#,
            r#"{"Room":{"Team":{"seat":0,"team":256}}}"#,
            r#"{"Room":{"Team":{"seat":-1,"team":0}}}"#,
        ] {
            assert_eq!(decode::<ToProxy>("t", bad.as_bytes()), None, "{bad}");
        }
    }

    /// A board crosses as one digit per cell, and nothing else reads as one.
    #[test]
    fn boards_are_digits_and_bounded() {
        let b = board();
        let json = serde_json::to_string(&b).expect("encodes");
        assert_eq!(json.len(), 200 + 2);
        assert!(json.ends_with("8888888880\""), "{json}");
        assert_eq!(serde_json::from_str::<BoardSnapshot>(&json).ok(), Some(b));
        let bad = [
            "\"012345678\"".to_owned(),
            "\"0000000009\"".to_owned(),
            "\"000000000-\"".to_owned(),
            format!("\"{}\"", "0".repeat(410)),
            "[[0,0,0,0,0,0,0,0,0,0]]".to_owned(),
        ];
        for text in bad {
            assert!(
                serde_json::from_str::<BoardSnapshot>(&text).is_err(),
                "{text}"
            );
        }
        let empty: BoardSnapshot = serde_json::from_str("\"\"").expect("no rows");
        assert!(empty.rows.is_empty());
    }

    #[test]
    fn malformed_and_oversized_messages_are_dropped() {
        assert_eq!(decode::<ToProxy>("t", b"\xff\x00"), None);
        assert_eq!(decode::<ToProxy>("t", b"{\"Room\":{\"Ready\":{}}}"), None);
        assert_eq!(decode::<JoinReq>("t", b"[1,2,3]"), None);
        let huge = vec![b' '; MAX_MESSAGE + 1];
        assert_eq!(decode::<ToProxy>("t", &huge), None);
        let too_big = ToMember::Response(Relay::Notice {
            message: "x".repeat(MAX_MESSAGE),
        });
        assert_eq!(encode(&too_big), None);
    }

    /// A join from an instance that predates the address and the watch setting still reads,
    /// as "unknown address" and "not watchable"; an address must parse as one, or the whole
    /// message is dropped.
    #[test]
    fn a_joins_address_and_watch_setting_are_checked_and_default_safely() {
        let old = br#"{"inst":"b-1","mid":7,"name":"bob","account":[3,"bob"],"spectate":false}"#;
        let req = decode::<JoinReq>("t", old).expect("an older instance's join reads");
        assert_eq!((req.address, req.watchable), (None, false));
        let new = br#"{"inst":"b-1","mid":7,"name":"bob","account":[3,"bob"],"spectate":false,
            "address":"203.0.113.5","watchable":true}"#;
        let req = decode::<JoinReq>("t", new).expect("reads");
        assert_eq!(req.address, Some([203, 0, 113, 5].into()));
        assert!(req.watchable);
        let forged = br#"{"inst":"b-1","mid":7,"name":"bob","account":null,"spectate":false,
            "address":"203.0.113.5; DROP TABLE ratings","watchable":true}"#;
        assert_eq!(decode::<JoinReq>("t", forged), None);
        let back = decode::<JoinReq>("t", &encode(&req).expect("encodes")).expect("round trip");
        assert_eq!(back, req);
    }

    /// A room code crosses as its text, as when it was a `String` (the bytes are pinned), and
    /// reads back only when it is a code: a peer's malformed code makes the message malformed.
    #[test]
    fn room_codes_cross_as_text_and_read_back_only_as_codes() {
        let code = RoomCode::canonical("K7PQ3M").expect("a code");
        let linked = ToMember::Linked {
            code: code.clone(),
            inst: "b-1".into(),
            pid: 3,
        };
        let bytes = encode(&linked).expect("encodes");
        assert_eq!(
            bytes,
            br#"{"Linked":{"code":"K7PQ3M","inst":"b-1","pid":3}}"#
        );
        assert_eq!(decode::<ToMember>("t", &bytes), Some(linked));
        let unlinked = encode(&ToMember::Unlinked { code }).expect("encodes");
        assert_eq!(unlinked, br#"{"Unlinked":{"code":"K7PQ3M"}}"#);
        let long = "K".repeat(MAX_MESSAGE / 2);
        for bad in [
            "K7PQ3MK",
            "K7PQ3\r\n",
            "K0OIL1",
            "k7pq3m",
            "",
            long.as_str(),
        ] {
            let json = format!(r#"{{"Unlinked":{{"code":"{bad}"}}}}"#);
            assert_eq!(decode::<ToMember>("t", json.as_bytes()), None, "{bad}");
        }
    }

    /// What the relay costs per message, for the record (ARCHITECTURE.md cites these).
    #[test]
    fn message_sizes() {
        let garbage = encode(&ToMember::Response(Relay::Garbage { lines: 4, from: 1 }))
            .expect("encodes")
            .len();
        let one = encode(&ToMember::Response(Relay::Opponents(vec![opponent(1)])))
            .expect("encodes")
            .len();
        let report = encode(&ToProxy::Room(WireRoom::Command(RoomCommand::Report {
            reports: vec![minotty_protocol::Report::Board(board())],
        })))
        .expect("encodes")
        .len();
        assert!(garbage < 64, "{garbage}");
        assert!(one < 500, "{one}");
        assert!(report < 300, "{report}");
        eprintln!("garbage {garbage} B, one opponent {one} B, a board report {report} B");
    }
}
