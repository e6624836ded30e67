//! The Open rooms screen and the lobby's listing: whole 80x24 frames, the list asked for every
//! 2 s while it shows, Enter joining by the code through the ordinary join request.

use minotty_engine::versus::MatchKind;
use minotty_protocol::RoomCommand;

use super::versus::{online, room, seat};
use super::*;
use crate::{Request, Response};
use minotty_protocol::{OpenRoomEntry, RoomSettings};

/// From the main menu to the Open rooms screen (the versus menu's fifth entry).
pub(super) fn to_open_rooms(a: &mut App) {
    press(a, Key::Down, 0);
    press(a, Key::Enter, 0);
    for _ in 0..4 {
        press(a, Key::Down, 0);
    }
    press(a, Key::Enter, 0);
}

pub(super) fn entry(
    code: &str,
    host: &str,
    kind: MatchKind,
    players: u8,
    seats: u8,
) -> OpenRoomEntry {
    OpenRoomEntry {
        code: code.into(),
        host: host.into(),
        kind,
        players,
        seats,
    }
}

#[test]
fn open_rooms_at_80x24_says_so_when_empty_and_lists_rooms_with_host_mode_and_seats() {
    let mut a = online();
    to_open_rooms(&mut a);
    assert_eq!(a.take_requests(), [Request::OpenRooms]);
    a.deliver(Response::OpenRooms(Vec::new()), 10);
    let empty = screen(&a);
    assert_eq!(
        empty.lines().collect::<Vec<_>>(),
        [
            "    ┌───────────────────────────── OPEN ROOMS ─────────────────────────────┐    ",
            "    │                                                                      │    ",
            "    │    Code    Host              Mode              Players               │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │        No open rooms: create one and list it, or join by code        │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                Up/Down choose   Enter join   Esc back                │    ",
            "    └──────────────────────────────────────────────────────────────────────┘    ",
        ]
    );

    a.deliver(
        Response::OpenRooms(vec![
            entry("K7PQ3M", "bob", MatchKind::Battle, 2, 4),
            entry("ZX81AB", "cy\x1b[2J", MatchKind::Race, 1, 2),
        ]),
        20,
    );
    press(&mut a, Key::Down, 30);
    assert_eq!(
        screen(&a).lines().collect::<Vec<_>>(),
        [
            "    ┌───────────────────────────── OPEN ROOMS ─────────────────────────────┐    ",
            "    │                                                                      │    ",
            "    │    Code    Host              Mode              Players               │    ",
            "    │                                                                      │    ",
            "    │    K7PQ3M  bob               Battle            2/4                   │    ",
            "    │  > ZX81AB  cy[2J             Race to 40 lines  1/2                   │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                                                                      │    ",
            "    │                Up/Down choose   Enter join   Esc back                │    ",
            "    └──────────────────────────────────────────────────────────────────────┘    ",
        ]
    );
}

#[test]
fn open_rooms_refreshes_every_2_s_and_enter_joins_by_code() {
    let mut a = online();
    to_open_rooms(&mut a);
    assert_eq!(a.take_requests(), [Request::OpenRooms]);
    a.deliver(
        Response::OpenRooms(vec![
            entry("K7PQ3M", "bob", MatchKind::Battle, 2, 4),
            entry("ZX81AB", "cy", MatchKind::Race, 1, 2),
        ]),
        10,
    );
    a.tick(1_999);
    assert_eq!(a.take_requests(), [], "not before 2 s");
    assert_eq!(a.next_wakeup(), Some(2_000));
    a.tick(2_000);
    assert_eq!(a.take_requests(), [Request::OpenRooms]);

    press(&mut a, Key::Down, 2_100);
    press(&mut a, Key::Enter, 2_100);
    assert_eq!(
        a.take_requests(),
        [Request::JoinRoom {
            code: "ZX81AB".into(),
            spectate: false
        }]
    );
    // The room's answer opens its lobby as a typed code's does; no more lists asked for.
    let mut view = room(
        vec![seat("cy", false, true), seat("ada", false, false)],
        Some(1),
        false,
    );
    view.code = "ZX81AB".into();
    a.deliver(Response::Room(view), 2_200);
    assert!(screen(&a).contains("ROOM ZX81AB"), "{}", screen(&a));
    a.tick(10_000);
    assert_eq!(a.take_requests(), []);
}

/// The lobby at 80x24 says `listing` (row 5) and offers `keys` (row 22), exactly.
fn assert_lobby_says(a: &App, listing: &str, keys: &str) {
    let rows = lines(&draw(a, 80, 24));
    assert_eq!(rows[5], listing);
    assert_eq!(rows[22], keys);
}

#[test]
fn the_host_lists_the_room_with_l_and_the_lobby_says_whether_it_is_listed() {
    let mut a = online();
    let mut view = room(
        vec![seat("ada", false, true), seat("bob", false, false)],
        Some(0),
        true,
    );
    view.options = RoomSettings::new(view.options.kind(), 2, view.options.limit());
    a.deliver(Response::Room(view.clone()), 0);
    assert_lobby_says(
        &a,
        "    │                        Private: join by code                         │    ",
        "    │           l list room   r ready   Enter start   Esc leave            │    ",
    );
    press(&mut a, Key::Char('l'), 10);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::SetListed { listed: true })]
    );

    view.listed = true;
    a.deliver(Response::Room(view.clone()), 20);
    assert_lobby_says(
        &a,
        "    │               Listed: anyone can join from Open rooms                │    ",
        "    │             l unlist   r ready   Enter start   Esc leave             │    ",
    );
    press(&mut a, Key::Char('l'), 30);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::SetListed { listed: false })]
    );

    // Not the host: no key, no hint.
    let mut guest = room(
        vec![seat("bob", false, true), seat("ada", false, false)],
        Some(1),
        false,
    );
    guest.listed = true;
    a.deliver(Response::Room(guest), 40);
    press(&mut a, Key::Char('l'), 50);
    assert_eq!(a.take_requests(), []);
    let theirs = lines(&draw(&a, 80, 24));
    assert_eq!(
        theirs[22],
        "    │                  r ready   t targeting   Esc leave                   │    "
    );
}
