use super::*;
use crate::versus::Targeting;

use Decisive::{Finished, Out, Progress};
use MatchKind::{Battle, Race};

/// One match: its settings, the players' lines when the reports come, the attacks sent before
/// them (from, lines), the decisive reports in order, then the time limit (or not) and the
/// placements (seat by seat) once settled, and after which report it was over.
struct Row {
    name: &'static str,
    settings: RoomSettings,
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

fn race(players: u8) -> RoomSettings {
    RoomSettings::new(Race, players, RoomLimit::None)
}

fn rows() -> Vec<Row> {
    vec![
        Row {
            name: "two players, one KO",
            settings: battle(2, RoomLimit::None),
            lines: &[3, 8],
            attacks: &[(1, 4)],
            reports: &[(0, Out)],
            time_up: false,
            over_after: Some(0),
            places: &[2, 1],
        },
        Row {
            name: "three players, KOs in order",
            settings: battle(3, RoomLimit::None),
            lines: &[3, 8, 5],
            attacks: &[],
            reports: &[(2, Out), (0, Out)],
            time_up: false,
            over_after: Some(1),
            places: &[2, 1, 3],
        },
        Row {
            name: "four players, KOs in order; a topped-out game is out too",
            settings: battle(4, RoomLimit::None),
            lines: &[0, 0, 0, 0],
            attacks: &[],
            reports: &[
                (3, Out),
                (
                    1,
                    Finished {
                        won: false,
                        lines: 9,
                    },
                ),
                (0, Out),
            ],
            time_up: false,
            over_after: Some(2),
            places: &[2, 3, 1, 4],
        },
        Row {
            name: "race: the first to 40 wins, the rest by lines",
            settings: race(3),
            lines: &[10, 40, 25],
            attacks: &[],
            reports: &[(
                1,
                Finished {
                    won: true,
                    lines: 40,
                },
            )],
            time_up: false,
            over_after: Some(0),
            places: &[3, 1, 2],
        },
        Row {
            name: "race: a win without 40 lines is a top-out",
            settings: race(2),
            lines: &[39, 12],
            attacks: &[],
            reports: &[(
                0,
                Finished {
                    won: true,
                    lines: 39,
                },
            )],
            time_up: false,
            over_after: Some(0),
            places: &[2, 1],
        },
        Row {
            name: "race: progress past 40 is no finish",
            settings: race(2),
            lines: &[44, 12],
            attacks: &[],
            reports: &[(0, Progress { lines: 44 })],
            time_up: false,
            over_after: None,
            places: &[1, 2],
        },
        Row {
            name: "battle lines limit reached: the rest by lines",
            settings: battle(3, RoomLimit::Lines(20)),
            lines: &[5, 12, 20],
            attacks: &[],
            reports: &[(0, Progress { lines: 5 }), (2, Progress { lines: 20 })],
            time_up: false,
            over_after: Some(1),
            places: &[3, 2, 1],
        },
        Row {
            name: "battle lines limit not yet reached",
            settings: battle(2, RoomLimit::Lines(20)),
            lines: &[19, 2],
            attacks: &[],
            reports: &[(0, Progress { lines: 19 })],
            time_up: false,
            over_after: None,
            places: &[1, 2],
        },
        Row {
            name: "battle lines goal met by the game's own finish",
            settings: battle(2, RoomLimit::Lines(20)),
            lines: &[1, 20],
            attacks: &[],
            reports: &[(
                1,
                Finished {
                    won: true,
                    lines: 20,
                },
            )],
            time_up: false,
            over_after: Some(0),
            places: &[2, 1],
        },
        Row {
            name: "battle without a goal: lines and a won finish end nothing but the game",
            settings: battle(3, RoomLimit::Seconds(60)),
            lines: &[900, 0, 0],
            attacks: &[],
            reports: &[
                (0, Progress { lines: 900 }),
                (
                    0,
                    Finished {
                        won: true,
                        lines: 900,
                    },
                ),
            ],
            time_up: false,
            over_after: None,
            places: &[3, 1, 2],
        },
        Row {
            name: "time limit: most attack sent wins, then lines",
            settings: battle(3, RoomLimit::Seconds(60)),
            lines: &[10, 2, 5],
            attacks: &[(0, 3), (1, 7), (2, 7)],
            reports: &[],
            time_up: true,
            over_after: None,
            places: &[3, 2, 1],
        },
        Row {
            name: "time limit after a KO: the survivors take the best places",
            settings: battle(3, RoomLimit::Seconds(60)),
            lines: &[30, 2, 5],
            attacks: &[(0, 9), (2, 1)],
            reports: &[(0, Out)],
            time_up: true,
            over_after: None,
            places: &[3, 2, 1],
        },
        Row {
            name: "simultaneous KOs in one batch: the first decides, the second changes nothing",
            settings: battle(2, RoomLimit::None),
            lines: &[0, 0],
            attacks: &[],
            reports: &[(1, Out), (0, Out)],
            time_up: false,
            over_after: Some(0),
            places: &[1, 2],
        },
        Row {
            name: "simultaneous race finishes: the first report wins",
            settings: race(3),
            lines: &[40, 40, 31],
            attacks: &[],
            reports: &[
                (2, Out),
                (
                    1,
                    Finished {
                        won: true,
                        lines: 40,
                    },
                ),
                (
                    0,
                    Finished {
                        won: true,
                        lines: 40,
                    },
                ),
            ],
            time_up: false,
            over_after: Some(1),
            places: &[2, 1, 3],
        },
    ]
}

#[test]
fn every_row_places_as_the_rules_say() {
    for row in rows() {
        let n = row.lines.len();
        assert_eq!(n, usize::from(row.settings.max_players()), "{}", row.name);
        let mut router = Router::new(row.settings.kind(), &vec![Targeting::Even; n], 7);
        for &(from, lines) in row.attacks {
            router.route(from, lines, 0, &[]);
        }
        let mut over_after = None;
        for (i, &(p, what)) in row.reports.iter().enumerate() {
            if decide(&mut router, &row.settings, p, what, row.lines) && over_after.is_none() {
                over_after = Some(i);
            }
        }
        assert_eq!(over_after, row.over_after, "{}: over after", row.name);
        if row.time_up {
            time_up(&mut router, row.lines);
        }
        settle(&mut router, row.lines);
        let places: Vec<u8> = (0..n).map(|p| router.place(p).unwrap_or(0)).collect();
        assert_eq!(places, row.places, "{}: places", row.name);
        assert!(router.is_over(), "{}: settled", row.name);
    }
}

/// The same reports give the same placements, however often they are replayed.
#[test]
fn replaying_the_reports_gives_the_same_placements() {
    for row in rows() {
        let run = || {
            let n = row.lines.len();
            let mut router = Router::new(row.settings.kind(), &vec![Targeting::Random; n], 99);
            for &(from, lines) in row.attacks {
                router.route(from, lines, 0, &[]);
            }
            for &(p, what) in row.reports {
                decide(&mut router, &row.settings, p, what, row.lines);
            }
            settle(&mut router, row.lines);
            (0..n).map(|p| router.place(p)).collect::<Vec<_>>()
        };
        assert_eq!(run(), run(), "{}", row.name);
    }
}
