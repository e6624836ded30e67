//! Text another instance sends for this instance's players: every name passes the server's one
//! name allowlist (`minotty_domain::text`), every message the same characters, bounded, before any
//! player sees it.

use minotty_domain::names::MAX_NAME_CHARS;
use minotty_domain::text::sanitize_display;
use minotty_protocol::{MatchResult, MatchStart, OpponentView, RoomView};

use super::checks::valid_part;
use super::wire::Relay;

/// The longest message (notice, refusal) of another instance shown to a player.
pub const MAX_MESSAGE_CHARS: usize = 300;

/// A name another instance sent, through the allowlist and cut to a name's length (a guest's
/// mark included).
pub fn name(raw: &str) -> String {
    sanitize_display(raw, MAX_NAME_CHARS + 1)
}

/// A message another instance sent: the allowlist's characters, at most
/// [`MAX_MESSAGE_CHARS`].
pub fn message(raw: &str) -> String {
    sanitize_display(raw, MAX_MESSAGE_CHARS)
}

/// A room code another instance sent: a subject part, or nothing.
pub fn code(raw: String) -> String {
    if valid_part(&raw) { raw } else { String::new() }
}

fn room(mut v: RoomView) -> RoomView {
    v.code = code(v.code);
    for s in &mut v.seats {
        s.name = name(&s.name);
    }
    for b in &mut v.tbp_bots {
        *b = name(b);
    }
    v
}

fn opponents(mut o: Vec<OpponentView>) -> Vec<OpponentView> {
    for v in &mut o {
        v.name = name(&v.name);
    }
    o
}

fn start(mut s: MatchStart) -> MatchStart {
    for p in &mut s.players {
        *p = name(p);
    }
    s
}

fn result(mut r: MatchResult) -> MatchResult {
    for row in &mut r.rows {
        row.name = name(&row.name);
    }
    r
}

/// `relay` with every text in it cleaned.
pub fn clean(relay: Relay) -> Relay {
    match relay {
        Relay::Room(v) => Relay::Room(room(v)),
        Relay::RoomFailed { message: m } => Relay::RoomFailed {
            message: message(&m),
        },
        Relay::RoomClosed { message: m } => Relay::RoomClosed {
            message: message(&m),
        },
        Relay::Notice { message: m } => Relay::Notice {
            message: message(&m),
        },
        Relay::MatchStart(s) => Relay::MatchStart(start(s)),
        Relay::Opponents(o) => Relay::Opponents(opponents(o)),
        Relay::MatchOver(r) => Relay::MatchOver(result(r)),
        other @ (Relay::Queued { .. } | Relay::BotOffer { .. } | Relay::Garbage { .. }) => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_messages_pass_the_allowlist() {
        let evil = "\u{1b}[2J\u{202e}ann\u{200b}\u{2800}";
        assert_eq!(name(evil), "[2Jann");
        assert_eq!(name("bob~"), "bob~");
        assert_eq!(name(&"x".repeat(100)).chars().count(), MAX_NAME_CHARS + 1);
        let m = message("hi\r\n\u{1b}]0;owned\u{7}there");
        assert!(!m.chars().any(char::is_control), "{m:?}");
        assert_eq!(
            message(&"y".repeat(10_000)).chars().count(),
            MAX_MESSAGE_CHARS
        );
        assert_eq!(code("K7PQ3M".into()), "K7PQ3M");
        assert_eq!(code("a.b\r\n".into()), "");
        let Relay::Notice { message: m } = clean(Relay::Notice {
            message: "\u{1b}[31mred".into(),
        }) else {
            panic!("a notice");
        };
        assert_eq!(m, "[31mred");
    }
}
