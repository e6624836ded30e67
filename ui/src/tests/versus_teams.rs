//! Teams on screen: the settings' Teams row, the lobby's team of each seat and its keys
//! (`g` your team, the host's 1-8 a seat's), teammates marked in a match, results per team.

use minotty_engine::versus::MatchKind;
use minotty_protocol::{
    MatchResult, MatchStart, ResultRow, RoomCommand, RoomSettings, SeriesScore,
};

use super::versus::{battle_mode, online, opponent, room, seat, versus_menu};
use super::*;
use crate::screens::room_settings::ROWS;
use crate::{Request, Response};

fn teams_room(you: usize, host: bool) -> minotty_protocol::RoomView {
    let mut seats = vec![
        seat("ada", false, true),
        seat("bob", false, false),
        seat("cy", false, false),
    ];
    for (s, t) in seats.iter_mut().zip([0, 1, 0]) {
        s.team = Some(t);
    }
    let mut view = room(seats, Some(you), host);
    view.options = view.options.with_teams(2);
    view
}

fn in_lobby(you: usize, host: bool) -> App {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    a.deliver(Response::Room(teams_room(you, host)), 0);
    a.take_requests();
    a
}

#[test]
fn the_teams_row_cycles_free_for_all_and_two_to_four_teams_within_the_seats() {
    let row = ROWS
        .iter()
        .find(|r| r.label == "Teams")
        .expect("a Teams row");
    let mut s = RoomSettings::new(MatchKind::Battle, 3, minotty_protocol::RoomLimit::None);
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push((row.show)(&s));
        s = (row.step)(&s, 1);
    }
    assert_eq!(seen, ["free-for-all", "2 teams", "3 teams", "free-for-all"]);
    assert_eq!((row.step)(&s, -1).teams(), 0, "left from 2 teams");
    let ffa = RoomSettings::new(MatchKind::Battle, 8, minotty_protocol::RoomLimit::None);
    assert_eq!(
        (row.step)(&ffa, -1).teams(),
        4,
        "left from free-for-all: the most"
    );
}

#[test]
fn the_lobby_shows_each_seats_team_and_g_moves_you_to_the_next() {
    let mut a = in_lobby(1, false);
    let s = screen(&a);
    assert!(s.contains("[A] ada"), "{s}");
    assert!(s.contains("[B] bob"), "{s}");
    assert!(s.contains("[A] cy"), "{s}");
    assert!(s.contains("2 teams"), "the settings line says so\n{s}");
    assert!(s.contains("g change team"), "{s}");
    press(&mut a, Key::Char('g'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Team { seat: 1, team: 0 })]
    );
    // Not the host: no moving the others.
    press(&mut a, Key::Char('3'), 0);
    assert!(a.take_requests().is_empty());
}

#[test]
fn the_host_moves_a_seat_by_its_number() {
    let mut a = in_lobby(0, true);
    assert!(screen(&a).contains("1-8 move a seat"), "{}", screen(&a));
    press(&mut a, Key::Char('3'), 0);
    assert_eq!(
        a.take_requests(),
        [Request::Room(RoomCommand::Team { seat: 2, team: 1 })]
    );
    // No such seat, nothing sent.
    press(&mut a, Key::Char('8'), 0);
    assert!(a.take_requests().is_empty());
}

#[test]
fn a_free_for_all_lobby_shows_no_teams() {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    let seats = vec![seat("ada", false, true), seat("bob", false, false)];
    a.deliver(Response::Room(room(seats, Some(0), true)), 0);
    a.take_requests();
    assert!(!screen(&a).contains("[A]"), "{}", screen(&a));
    press(&mut a, Key::Char('g'), 0);
    press(&mut a, Key::Char('2'), 0);
    assert!(a.take_requests().is_empty());
}

#[test]
fn in_a_match_teammates_are_marked_and_the_others_carry_their_team() {
    let mut a = online();
    versus_menu(&mut a);
    a.deliver(
        Response::MatchStart(MatchStart {
            kind: MatchKind::Battle,
            mode: battle_mode(),
            seed: 3,
            players: vec!["ada".into(), "bob".into(), "cy".into(), "dee".into()],
            you: Some(0),
            countdown_ms: 3000,
            ranked: false,
            teams: vec![0, 1, 0, 1],
            game: Default::default(),
        }),
        0,
    );
    a.tick(3000);
    a.deliver(
        Response::Opponents(vec![
            opponent(1, "bob", true),
            opponent(2, "cy", true),
            opponent(3, "dee", true),
        ]),
        3000,
    );
    let s = super::versus::text(&a, 120, 40);
    assert!(s.contains("+cy"), "the teammate\n{s}");
    assert!(s.contains("B bob"), "{s}");
    assert!(s.contains("B dee"), "{s}");
    assert!(s.contains("team A"), "{s}");
}

fn row(seat: usize, name: &str, place: u8) -> ResultRow {
    ResultRow {
        seat,
        name: name.into(),
        place,
        kos: 0,
        attack_per_minute: 0.0,
        pieces_per_second: 0.0,
        lines: 0,
        attack_sent: 0,
        garbage_received: 0,
        forfeited: false,
        rating: None,
        time_ms: 1000,
        pieces: 1,
    }
}

#[test]
fn the_results_are_per_team_with_the_series_by_team() {
    let mut a = in_lobby(1, false);
    let result = MatchResult {
        kind: MatchKind::Battle,
        rows: vec![
            row(1, "bob", 1),
            row(3, "dee", 1),
            row(0, "ada", 2),
            row(2, "cy", 2),
        ],
        you: Some(0),
        ranked: false,
        series: Some(SeriesScore {
            wins: vec![1, 2],
            games: 3,
            first_to: 3,
            win_by: 1,
            over: false,
            winner: None,
        }),
        teams: vec![0, 1, 0, 1],
    };
    a.deliver(Response::MatchOver(result.clone()), 0);
    let s = screen(&a);
    assert!(s.contains("Defeat: team B wins"), "{s}");
    assert!(s.contains(" 1B bob"), "{s}");
    assert!(s.contains(" 1B dee"), "{s}");
    assert!(s.contains(" 2A ada"), "{s}");
    assert!(
        s.contains("Series: Team A 1 - Team B 2 (game 3, first to 3)"),
        "{s}"
    );
    let mut won = result;
    won.you = Some(3);
    a.deliver(Response::MatchOver(won), 0);
    assert!(screen(&a).contains("Your team wins!"), "{}", screen(&a));
}
