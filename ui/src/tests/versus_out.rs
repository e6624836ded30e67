//! Out of a match of three or more (knocked out or forfeited) while the others play on: the
//! player watches the rest and may leave at any time; the keys hammered from the game do not
//! leave by themselves. A spectator's results offer what a spectator can do (no rematch). The
//! quick match says why nobody comes when everyone else waiting shares the player's address.

use minotty_engine::Mode;
use minotty_engine::versus::MatchKind;
use minotty_protocol::RoomCommand;
use minotty_protocol::{MatchResult, Report, RoomState};

use super::versus::{online, opponent, result_row, room, seat, start, text};
use super::*;
use crate::{Request, Response};

/// ada's App in a three-player battle (bob, eve), its game running from front-end time 3000.
fn in_a_match_of_three() -> App {
    let mut a = online();
    let mut r = room(
        vec![
            seat("ada", true, true),
            seat("bob", true, false),
            seat("eve", true, false),
        ],
        Some(0),
        true,
    );
    r.state = RoomState::Playing;
    a.deliver(Response::Room(r), 0);
    a.deliver(
        start(
            Mode::custom(1, false, None),
            11,
            &["ada", "bob", "eve"],
            Some(0),
        ),
        0,
    );
    a.tick(3000);
    a.take_requests();
    assert!(a.in_game());
    a
}

fn asked_to_leave(a: &mut App) -> bool {
    a.take_requests().contains(&Request::LeaveRoom)
}

#[test]
fn after_a_forfeit_esc_leaves_the_match_the_others_play_on() {
    let mut a = in_a_match_of_three();
    press(&mut a, Key::Esc, 3100);
    press(&mut a, Key::Char('y'), 3200);
    assert!(!a.in_game());
    let r = a.take_requests();
    assert!(
        r.iter().any(|r| matches!(r, Request::Room(RoomCommand::Report { reports: l }) if l.iter().any(|r| matches!(r, Report::Forfeited { .. })))),
        "{r:?}"
    );
    let s = text(&a, 80, 24);
    assert!(
        s.contains("Esc leave"),
        "the screen says how to leave:\n{s}"
    );
    // Enter, game keys and a held key choose nothing: the player watches on.
    for key in [Key::Enter, Key::Up, Key::Char(' '), Key::Left] {
        press(&mut a, key, 3300);
    }
    assert!(!asked_to_leave(&mut a));
    // The others' boards go on.
    a.deliver(
        Response::Opponents(vec![opponent(1, "bob", true), opponent(2, "eve", true)]),
        3350,
    );
    let s = screen(&a);
    assert!(s.contains("bob") && s.contains("eve"), "{s}");
    // Esc leaves the room for the versus menu.
    press(&mut a, Key::Esc, 3400);
    assert!(asked_to_leave(&mut a));
    assert!(screen(&a).contains("VERSUS"), "{}", screen(&a));
    // The room's word arrives and shows.
    a.deliver(
        Response::RoomClosed {
            message: "You left room K7PQ3M: the match goes on without you.".into(),
        },
        3500,
    );
    assert!(screen(&a).contains("the match goes on"), "{}", screen(&a));
}

#[test]
fn after_a_knock_out_q_leaves_unless_it_is_a_game_key() {
    let mut a = in_a_match_of_three();
    // Hard drops in one column until the stack tops out.
    let mut t = 3000;
    while a.in_game() && t < 60_000 {
        t += 100;
        tap(&mut a, Key::Up, t);
    }
    assert!(!a.in_game(), "topped out");
    assert!(text(&a, 80, 24).contains("KO: watching the others   Esc leave"));
    a.take_requests();
    press(&mut a, Key::Char('q'), t + 100);
    assert!(asked_to_leave(&mut a), "q is no game key by default");

    // A player who plays with q (bound to a move) leaves with Esc only.
    let mut b = in_a_match_of_three();
    let mut settings = b.settings().clone();
    settings
        .keys
        .bind(minotty_engine::Button::Left, Key::Char('q'));
    b.set_settings(settings);
    press(&mut b, Key::Esc, 3100);
    press(&mut b, Key::Char('y'), 3200);
    b.take_requests();
    press(&mut b, Key::Char('q'), 3300);
    assert!(!asked_to_leave(&mut b));
    press(&mut b, Key::Esc, 3400);
    assert!(asked_to_leave(&mut b));
}

#[test]
fn a_spectator_is_offered_to_keep_watching_or_leave_not_a_rematch() {
    let mut a = online();
    let mut r = room(
        vec![seat("bob", true, true), seat("eve", true, false)],
        None,
        false,
    );
    r.state = RoomState::Playing;
    a.deliver(Response::Room(r.clone()), 0);
    a.deliver(
        start(Mode::custom(1, false, None), 5, &["bob", "eve"], None),
        0,
    );
    let over = |a: &mut App, at| {
        a.deliver(
            Response::MatchOver(MatchResult {
                teams: Vec::new(),
                kind: MatchKind::Battle,
                rows: vec![
                    result_row(0, "bob", 1, (1500.0, 1510.0)),
                    result_row(1, "eve", 2, (1500.0, 1490.0)),
                ],
                you: None,
                ranked: false,
                series: None,
            }),
            at,
        );
    };
    over(&mut a, 9_000);
    let s = text(&a, 80, 24);
    assert!(s.contains("Match over"), "{s}");
    assert!(
        s.contains("Keep watching") && s.contains("Leave"),
        "what a spectator can do:\n{s}"
    );
    assert!(
        !s.contains("Rematch") && !s.contains("r rematch"),
        "a spectator did not play: no rematch\n{s}"
    );
    // r asks nothing; Enter on the first entry is the room (its next match shows there).
    press(&mut a, Key::Char('r'), 10_000);
    assert!(a.take_requests().is_empty());
    press(&mut a, Key::Enter, 10_000);
    assert!(a.take_requests().is_empty());
    assert!(screen(&a).contains("K7PQ3M"), "{}", screen(&a));
    // Leave is the second (and last) entry; the menu wraps over two.
    a.deliver(
        start(Mode::custom(1, false, None), 6, &["bob", "eve"], None),
        11_000,
    );
    over(&mut a, 20_000);
    press(&mut a, Key::Down, 21_000);
    press(&mut a, Key::Enter, 21_000);
    assert_eq!(a.take_requests(), [Request::LeaveRoom]);
    // A player is still offered the rematch.
    let mut p = in_a_match_of_three();
    p.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            rows: vec![result_row(0, "ada", 1, (1500.0, 1510.0))],
            you: Some(0),
            ranked: false,
            series: None,
        }),
        9_000,
    );
    let s = text(&p, 80, 24);
    assert!(s.contains("Rematch") && s.contains("r rematch"), "{s}");
}

#[test]
fn the_queue_says_why_nobody_comes_when_the_others_share_the_address() {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Enter, 1000);
    assert_eq!(a.take_requests(), [Request::QuickMatch]);
    let queued = |a: &mut App, same_address, at| {
        a.deliver(
            Response::Queued {
                rating: 1500,
                range: 200,
                same_address,
            },
            at,
        );
    };
    queued(&mut a, false, 2_000);
    let s = text(&a, 80, 24);
    assert!(s.contains("Looking for an opponent"), "{s}");
    assert!(!s.contains("your address"), "{s}");
    queued(&mut a, true, 12_000);
    let s = text(&a, 80, 24);
    assert!(
        s.contains("Everyone else waiting connects from your")
            && s.contains("ranked never pairs one address")
            && s.contains("play them in a room instead"),
        "{s}"
    );
    assert!(s.contains("Esc cancel") && s.contains("0:11"), "{s}");
    // The others left (or someone from elsewhere came): the hint goes.
    queued(&mut a, false, 13_000);
    assert!(!text(&a, 80, 24).contains("your address"));
    // Every size draws.
    queued(&mut a, true, 14_000);
    for (w, h) in [(1, 1), (40, 12), (60, 24), (200, 60)] {
        let _ = draw(&a, w, h);
    }
}
