//! What a player reads when the server ends the session as it restarts (issue 35 item 4): the
//! fate of their match, and the versus menu's status line whole at 80x24.

use minotty_engine::versus::MatchKind;
use minotty_protocol::{MatchResult, SeatView};

use super::versus::{in_match_pub, online, result_row, room, seat, text};
use super::*;
use crate::Response;

#[test]
fn a_running_match_is_said_abandoned_not_rated() {
    let a = in_match_pub(3);
    assert!(a.in_game());
    assert_eq!(a.farewell(), Some("Your match is abandoned, not rated."));
}

#[test]
fn a_decided_match_is_said_to_stand() {
    let mut a = in_match_pub(4);
    a.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            rows: vec![
                result_row(0, "ada", 1, (1500.0, 1510.0)),
                result_row(1, "bob", 2, (1500.0, 1490.0)),
            ],
            you: Some(0),
            ranked: true,
            series: None,
        }),
        9000,
    );
    assert_eq!(a.farewell(), Some("Your match's result stands."));
}

#[test]
fn nothing_at_stake_says_nothing() {
    let a = online();
    assert_eq!(a.farewell(), None);
}

/// The longest words a room closes with when a match is abandoned (as the room's owner and a
/// draining instance send them, `ContactLoss::message` with a name of the longest length).
const DRAINED: [&str; 3] = [
    "Room K7PQ3M closed: the server is restarting; the match is abandoned, not rated.",
    "This server is restarting and the match in room K7PQ3M outlasted its drain time: the \
     match is abandoned, not rated.",
    "This server lost its cluster link (NATS), and with it bobbybobbybobbyb's server: the \
     result shown does not count: the match is abandoned, not rated (no win or loss). Room \
     K7PQ3M closed.",
];

#[test]
fn the_rooms_last_word_is_repeated_and_shown_whole_at_80x24() {
    for message in DRAINED {
        let mut a = online();
        press(&mut a, Key::Down, 0);
        press(&mut a, Key::Enter, 0);
        let seats: Vec<SeatView> = vec![seat("ada", true, true), seat("bob", true, false)];
        a.deliver(Response::Room(room(seats, Some(0), true)), 0);
        a.deliver(
            Response::RoomClosed {
                message: message.into(),
            },
            0,
        );
        assert_eq!(a.farewell(), Some(message));
        // Every word of it is on the 80x24 screen, "not rated" among them.
        let s = text(&a, 80, 24);
        let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
        let inside: Vec<&str> = flat.split('│').map(str::trim).collect();
        let shown = inside.join(" ");
        let shown: String = shown.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(shown.contains(message), "{message}\n{s}");
    }
}
