use super::*;
use crate::versus::over::{self, Decisive};
use crate::versus::{MatchKind, PlayerView, RoomLimit, RoomSettings, Router, Targeting};

use Decisive::{Finished, Out, Progress};
use MatchKind::{Battle, Race};

/// (each seat's pick, teams) -> the match's teams.
type AssignRow = (&'static [u8], u8, Option<&'static [u8]>);

#[test]
fn assign_clamps_the_picks_and_needs_two_teams() {
    let rows: &[AssignRow] = &[
        (&[0, 0, 1, 1], 2, Some(&[0, 0, 1, 1])),
        (&[0, 1, 2], 3, Some(&[0, 1, 2])),
        // A pick past the last team is the last team.
        (&[0, 9, 0, 200], 2, Some(&[0, 1, 0, 1])),
        (&[0, 5, 6, 7], 4, Some(&[0, 3, 3, 3])),
        // Everyone on one team: no match of teams.
        (&[1, 1, 1], 2, None),
        (&[7, 9], 2, None),
        // Teams off, or too few players.
        (&[0, 1], 0, None),
        (&[0, 1], 1, None),
        (&[0], 2, None),
        (&[], 2, None),
        // More teams than the most: clamped to four.
        (&[0, 1, 2, 3, 4, 5], 9, Some(&[0, 1, 2, 3, 3, 3])),
        // An empty team among several is no team of the match: nobody is on it.
        (&[0, 0, 2, 2], 3, Some(&[0, 0, 2, 2])),
    ];
    for &(picks, teams, want) in rows {
        assert_eq!(
            assign(picks, teams).as_deref(),
            want,
            "{picks:?} in {teams} teams"
        );
    }
}

#[test]
fn seats_are_dealt_out_newcomers_join_the_smallest_team_and_picks_cycle() {
    assert_eq!(balanced(4, 2), [0, 1, 0, 1]);
    assert_eq!(balanced(8, 4), [0, 1, 2, 3, 0, 1, 2, 3]);
    assert_eq!(balanced(5, 3), [0, 1, 2, 0, 1]);
    assert_eq!(balanced(3, 0), [] as [u8; 0]);
    assert_eq!(balanced(3, 9), [0, 1, 2]);
    assert_eq!(smallest(&[], 2), 0);
    assert_eq!(smallest(&[0], 2), 1);
    assert_eq!(smallest(&[0, 1], 2), 0);
    assert_eq!(smallest(&[0, 0, 2], 3), 1);
    assert_eq!(smallest(&[1, 1, 0, 0, 2], 3), 2);
    assert_eq!(next_team(0, 2), 1);
    assert_eq!(next_team(1, 2), 0);
    assert_eq!(next_team(2, 4), 3);
    assert_eq!(next_team(3, 4), 0);
    // A pick past the teams (the setting went down) moves on from the last team.
    assert_eq!(next_team(3, 2), 0);
    assert_eq!(letter(0), 'A');
    assert_eq!(letter(3), 'D');
    assert_eq!(letter(200), 'D');
}

#[test]
fn the_setting_is_clamped_to_the_seats_and_read_from_older_forms() {
    let rows: &[(u8, u8, u8)] = &[
        // (seats, teams asked, teams)
        (4, 0, 0),
        (4, 1, 0),
        (4, 2, 2),
        (4, 3, 3),
        (4, 4, 4),
        (4, 5, 4),
        (8, 4, 4),
        (8, 200, 4),
        (2, 3, 2),
        (3, 4, 3),
    ];
    for &(seats, asked, want) in rows {
        let s = RoomSettings::new(Battle, seats, RoomLimit::None).with_teams(asked);
        assert_eq!(s.teams(), want, "{seats} seats, {asked} teams");
    }
    // Fewer seats keep the teams within them.
    let s = RoomSettings::new(Battle, 8, RoomLimit::None).with_teams(4);
    assert_eq!(s.with_shape(Battle, 3, RoomLimit::None).teams(), 3);
    assert_eq!(s.with_shape(Race, 8, RoomLimit::None).teams(), 4);
}

#[cfg(feature = "serde")]
#[test]
fn free_for_all_keeps_todays_bytes_and_a_peers_teams_are_clamped() {
    let old = r#"{"kind":"Battle","max_players":4,"limit":"None"}"#;
    let s: RoomSettings = serde_json::from_str(old).expect("old form");
    assert_eq!(s.teams(), 0);
    assert_eq!(serde_json::to_string(&s).unwrap(), old);
    let teams = r#"{"kind":"Battle","max_players":4,"limit":"None","teams":2}"#;
    let s: RoomSettings = serde_json::from_str(teams).expect("teams");
    assert_eq!(s.teams(), 2);
    assert_eq!(serde_json::to_string(&s).unwrap(), teams);
    let wild = r#"{"kind":"Battle","max_players":3,"limit":"None","teams":250}"#;
    let s: RoomSettings = serde_json::from_str(wild).expect("wild");
    assert_eq!(s.teams(), 3);
}

fn two_v_two(targeting: Targeting) -> Router {
    Router::new(Battle, &[targeting; 4], 11).with_teams(&[0, 0, 1, 1])
}

/// A 2v2 (seats 0 and 1 are team A, 2 and 3 team B): whatever each player's targeting,
/// every attack of team A reaches team B and every one of team B reaches team A; nobody
/// ever receives a teammate's garbage.
#[test]
fn in_a_two_v_two_attacks_reach_only_the_other_team() {
    for targeting in Targeting::ALL {
        let mut r = two_v_two(targeting);
        let views = [
            PlayerView {
                stack_height: 19,
                pending_garbage: 0,
            },
            PlayerView {
                stack_height: 1,
                pending_garbage: 0,
            },
            PlayerView {
                stack_height: 3,
                pending_garbage: 0,
            },
            PlayerView {
                stack_height: 2,
                pending_garbage: 0,
            },
        ];
        for t in 0..200u64 {
            let from = (t % 4) as usize;
            let to = r
                .route(from, 1 + (t % 3) as u32, t, &views)
                .expect("a target");
            assert!(
                r.team(to) != r.team(from),
                "{targeting:?}: seat {from} sent to its teammate {to}"
            );
        }
        // Both of the other team's players get some (even and random spread it; the others
        // may focus one).
        assert!(r.received(2) + r.received(3) > 0 && r.received(0) + r.received(1) > 0);
        assert_eq!(
            r.sent(0) + r.sent(1),
            r.received(2) + r.received(3),
            "{targeting:?}: what A sent is what B received"
        );
    }
}

/// Targeting chooses among the other teams' players still in.
#[test]
fn targeting_chooses_within_the_other_teams() {
    let view = |h: u32| PlayerView {
        stack_height: h,
        pending_garbage: 0,
    };
    // KO hunting: the teammate (seat 1) is the most in danger, but the highest opponent is 3.
    let views = [view(2), view(18), view(5), view(9)];
    let mut r = two_v_two(Targeting::KoHunting);
    assert_eq!(r.route(0, 2, 0, &views), Some(3));
    // Even: the other team's player who received least (3 just got 2 lines).
    let mut r = two_v_two(Targeting::Even);
    r.route(0, 2, 0, &views); // to 2 (both at 0: the lower seat)
    assert_eq!(r.route(1, 1, 1, &views), Some(3));
    assert_eq!(r.route(1, 1, 2, &views), Some(3));
    assert_eq!(r.route(1, 1, 3, &views), Some(2));
    // Attackers: back at whoever attacked last, who is always on another team.
    let mut r = Router::new(Battle, &[Targeting::Attackers; 6], 3).with_teams(&[0, 0, 1, 1, 2, 2]);
    assert_eq!(r.route(5, 1, 0, &[]), Some(0));
    assert_eq!(r.route(0, 1, 1, &[]), Some(5));
    // Once a team is out, its players are no target: team B (2, 3) gone, A sends to C.
    let mut r = Router::new(Battle, &[Targeting::Random; 6], 3).with_teams(&[0, 0, 1, 1, 2, 2]);
    r.knock_out(2);
    r.knock_out(3);
    for t in 0..50 {
        let to = r.route(t % 2, 1, t as u64, &[]).expect("a target");
        assert!(to == 4 || to == 5, "sent to {to}");
    }
    // One opponent left: it takes everything.
    r.knock_out(4);
    assert_eq!(r.route(1, 1, 60, &[]), Some(5));
}

/// One match with teams: its seats' teams, the attacks, the decisive reports in order, then
/// the time limit (or not); after which report it is over and the places seat by seat.
struct Row {
    name: &'static str,
    settings: RoomSettings,
    teams: &'static [u8],
    lines: &'static [u32],
    attacks: &'static [(usize, u32)],
    reports: &'static [(usize, Decisive)],
    time_up: bool,
    over_after: Option<usize>,
    places: &'static [u8],
}

fn battle(players: u8, limit: RoomLimit) -> RoomSettings {
    RoomSettings::new(Battle, players, limit)
}

fn rows() -> Vec<Row> {
    vec![
        Row {
            name: "2v2: one of a team out is not the team out",
            settings: battle(4, RoomLimit::None),
            teams: &[0, 0, 1, 1],
            lines: &[0; 4],
            attacks: &[],
            reports: &[(0, Out), (2, Out), (1, Out)],
            time_up: false,
            over_after: Some(2),
            places: &[2, 2, 1, 1],
        },
        Row {
            name: "3 teams (2v2v2): the first team out is third, the last in wins",
            settings: battle(6, RoomLimit::None),
            teams: &[0, 0, 1, 1, 2, 2],
            lines: &[0; 6],
            attacks: &[],
            reports: &[(2, Out), (0, Out), (3, Out), (4, Out), (1, Out)],
            time_up: false,
            over_after: Some(4),
            places: &[2, 2, 3, 3, 1, 1],
        },
        Row {
            name: "3 teams of different sizes (3v2v1): the lone player outlasts both",
            settings: battle(6, RoomLimit::None),
            teams: &[0, 0, 0, 1, 1, 2],
            lines: &[0; 6],
            attacks: &[],
            reports: &[(0, Out), (3, Out), (1, Out), (4, Out), (2, Out)],
            time_up: false,
            over_after: Some(4),
            places: &[2, 2, 2, 3, 3, 1],
        },
        Row {
            name: "3 teams: a report after the end changes nothing",
            settings: battle(6, RoomLimit::None),
            teams: &[0, 1, 2, 0, 1, 2],
            lines: &[0; 6],
            attacks: &[],
            reports: &[(1, Out), (4, Out), (0, Out), (3, Out), (2, Out)],
            time_up: false,
            over_after: Some(3),
            places: &[2, 3, 1, 2, 3, 1],
        },
        Row {
            name: "2v2 lines goal: the first to it wins for the team",
            settings: battle(4, RoomLimit::Lines(20)),
            teams: &[0, 1, 0, 1],
            lines: &[3, 20, 19, 0],
            attacks: &[],
            reports: &[(2, Progress { lines: 19 }), (1, Progress { lines: 20 })],
            time_up: false,
            over_after: Some(1),
            places: &[2, 1, 2, 1],
        },
        Row {
            name: "2v2 time limit: the team that sent the most together wins",
            settings: battle(4, RoomLimit::Seconds(60)),
            teams: &[0, 0, 1, 1],
            lines: &[0; 4],
            // Seat 2 sent most alone, but A sent 9 together to B's 8.
            attacks: &[(0, 5), (1, 4), (2, 7), (3, 1)],
            reports: &[],
            time_up: true,
            over_after: None,
            places: &[1, 1, 2, 2],
        },
        Row {
            name: "3 teams time limit after a team is out: the teams in take the best places",
            settings: battle(6, RoomLimit::Seconds(60)),
            teams: &[0, 0, 1, 1, 2, 2],
            lines: &[0; 6],
            attacks: &[(0, 9), (2, 1), (4, 2)],
            reports: &[(0, Out), (1, Out)],
            time_up: true,
            over_after: None,
            places: &[3, 3, 2, 2, 1, 1],
        },
    ]
}

#[test]
fn every_team_row_places_as_the_rules_say() {
    for row in rows() {
        let n = row.lines.len();
        assert_eq!(n, usize::from(row.settings.max_players()), "{}", row.name);
        let mut router =
            Router::new(row.settings.kind(), &vec![Targeting::Even; n], 7).with_teams(row.teams);
        for &(from, lines) in row.attacks {
            router.route(from, lines, 0, &[]);
        }
        let mut over_after = None;
        for (i, &(p, what)) in row.reports.iter().enumerate() {
            if over::decide(&mut router, &row.settings, p, what, row.lines) && over_after.is_none()
            {
                over_after = Some(i);
            }
        }
        assert_eq!(over_after, row.over_after, "{}: over after", row.name);
        if row.time_up {
            over::time_up(&mut router, row.lines);
        }
        over::settle(&mut router, row.lines);
        let places: Vec<u8> = (0..n).map(|p| router.place(p).unwrap_or(0)).collect();
        assert_eq!(places, row.places, "{}: places", row.name);
        assert!(router.is_over(), "{}: settled", row.name);
        let winner = router.winning_team();
        assert_eq!(
            winner,
            (0..n).find(|&p| row.places[p] == 1).map(|p| row.teams[p]),
            "{}",
            row.name
        );
    }
}

#[test]
fn a_race_of_teams_is_won_by_the_first_finishers_team() {
    let settings = RoomSettings::new(Race, 4, RoomLimit::None);
    let mut r = Router::new(Race, &[Targeting::Even; 4], 1).with_teams(&[0, 1, 1, 0]);
    let lines = [12, 40, 30, 31];
    let won = Finished {
        won: true,
        lines: 40,
    };
    assert!(over::decide(&mut r, &settings, 1, won, &lines));
    over::settle(&mut r, &lines);
    let places: Vec<_> = (0..4).map(|p| r.place(p)).collect();
    assert_eq!(places, [Some(2), Some(1), Some(1), Some(2)]);
    assert_eq!(r.winning_team(), Some(1));
}

/// Teams naming one team only, or not every seat, are no teams: the match is free-for-all.
#[test]
fn teams_that_are_no_split_leave_the_match_free_for_all() {
    for teams in [&[0u8, 0, 0][..], &[0, 1], &[]] {
        let mut r = Router::new(Battle, &[Targeting::Even; 3], 1).with_teams(teams);
        assert!(!r.has_teams(), "{teams:?}");
        r.knock_out(0);
        r.knock_out(1);
        assert_eq!(r.place(0), Some(3));
        assert_eq!(r.place(2), Some(1));
    }
}
