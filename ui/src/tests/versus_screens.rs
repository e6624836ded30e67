//! Versus screens as a player of races, a spectator and a host sees them: race results and
//! the race's own numbers, the results at 80x24, the lobby's bot keys. Whole frames or whole
//! lines compared.

use minotty_engine::Mode;
use minotty_engine::versus::MatchKind;
use minotty_protocol::RoomCommand;

use super::versus::{bot_seat, online, room, seat, text};
use super::*;
use crate::Response;
use minotty_protocol::{MatchResult, MatchStart, OpponentView, ResultRow, RoomSettings};

fn race_start(seed: u32, players: &[&str], you: Option<usize>) -> Response {
    Response::MatchStart(MatchStart {
        teams: Vec::new(),
        kind: MatchKind::Race,
        mode: Mode::sprint(),
        seed,
        players: players.iter().map(|p| p.to_string()).collect(),
        you,
        countdown_ms: 3000,
        ranked: false,
        game: Default::default(),
    })
}

fn to_versus_menu(a: &mut App) {
    press(a, Key::Down, 0);
    press(a, Key::Enter, 0);
}

fn row(seat: usize, name: &str, place: u8, lines: u32, time_ms: u64, pieces: u32) -> ResultRow {
    ResultRow {
        seat,
        name: name.into(),
        place,
        kos: 2,
        attack_per_minute: 12.5,
        pieces_per_second: 9.99,
        lines,
        attack_sent: 7,
        garbage_received: 3,
        forfeited: false,
        rating: None,
        time_ms,
        pieces,
    }
}

/// Whole lines of a frame, trailing spaces cut (the expected frames are written that way).
fn frame(a: &App, w: u16, h: u16) -> Vec<String> {
    lines(&draw(a, w, h))
        .into_iter()
        .map(|l| l.trim_end().to_string())
        .collect()
}

/// A race of three: ada wins in 41.63 s, bob stops at 31 lines, cy leaves at 12.
fn race_over(a: &mut App) {
    let mut cy = row(2, "cy", 3, 12, 20_000, 30);
    cy.forfeited = true;
    a.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Race,
            rows: vec![
                row(0, "ada", 1, 40, 41_630, 101),
                row(1, "bob", 2, 31, 41_630, 80),
                cy,
            ],
            you: Some(0),
            ranked: false,
            series: None,
        }),
        50_000,
    );
}

#[test]
fn race_results_show_finish_times_or_lines_place_and_pps_and_no_attack() {
    let mut a = online();
    to_versus_menu(&mut a);
    a.deliver(race_start(3, &["ada", "bob", "cy"], Some(0)), 0);
    a.tick(3000);
    race_over(&mut a);
    let got = frame(&a, 80, 24);
    assert_eq!(got, RACE_80X24, "\n{}", got.join("\n"));
}

const RACE_80X24: [&str; 24] = [
    "  ┌───────────────────────────── MATCH RESULTS ──────────────────────────────┐",
    "  │                                 You win!                                 │",
    "  │                                                                          │",
    "  │                   # Player           Finish    PPS                       │",
    "  │                   1 ada            0:41.630   2.43                       │",
    "  │                   2 bob            31 lines   1.92                       │",
    "  │                   3 cy             12 lines   1.50 left                  │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                                 Rematch                                  │",
    "  │                               Back to room                               │",
    "  │                                  Leave                                   │",
    "  │                                                                          │",
    "  │              Enter select   r rematch   v replay   Esc room              │",
    "  └──────────────────────────────────────────────────────────────────────────┘",
];

fn quiet_board() -> minotty_protocol::BoardSnapshot {
    minotty_protocol::BoardSnapshot {
        rows: vec![[0u8; 10]; 20],
    }
}

/// A battle of four over a minute where each opponent sends one line at the end (attack per
/// minute from 0 to 1: axis labels that could repeat), then its results at 80x24.
fn battle_of_four() -> App {
    battle_of_four_named(["ada", "bob", "cy", "dee"])
}

/// The same with other names (seat 0 is the player's).
fn battle_of_four_named(names: [&str; 4]) -> App {
    let mut a = online();
    to_versus_menu(&mut a);
    a.deliver(
        Response::MatchStart(MatchStart {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            mode: Mode::custom(1, false, None),
            seed: 3,
            players: names.iter().map(|n| n.to_string()).collect(),
            you: Some(0),
            countdown_ms: 3000,
            ranked: false,
            game: Default::default(),
        }),
        0,
    );
    for t in (0..=60_000u64).step_by(500) {
        a.tick(3000 + t);
        let list = [(1, names[1]), (2, names[2]), (3, names[3])]
            .into_iter()
            .map(|(seat, name)| OpponentView {
                seat,
                name: name.into(),
                board: quiet_board(),
                progress: minotty_protocol::Progress {
                    attack_sent: u32::from(t >= 60_000),
                    time_ms: t,
                    ..Default::default()
                },
                alive: true,
                place: None,
                kos: 0,
                target: Some(0),
            })
            .collect();
        a.deliver(Response::Opponents(list), 3000 + t);
    }
    a.deliver(
        Response::MatchOver(MatchResult {
            teams: Vec::new(),
            kind: MatchKind::Battle,
            rows: vec![
                row(1, names[1], 1, 20, 60_000, 90),
                row(2, names[2], 2, 18, 60_000, 80),
                row(3, names[3], 3, 15, 60_000, 70),
                row(0, names[0], 4, 10, 60_000, 60),
            ],
            you: Some(0),
            ranked: false,
            series: None,
        }),
        64_000,
    );
    a
}

#[test]
fn battle_results_at_80x24_chart_every_player_with_distinct_axis_labels() {
    let a = battle_of_four();
    let got = frame(&a, 80, 24);
    assert_eq!(got, BATTLE_80X24, "\n{}", got.join("\n"));
}

#[test]
fn the_results_chart_names_every_player_even_with_long_names() {
    let names = [
        "adalovelace1",
        "bobbytables2",
        "cyrilfigures",
        "deedeeramone",
    ];
    let a = battle_of_four_named(names);
    let got = frame(&a, 80, 24);
    let title = got
        .iter()
        .find(|l| l.contains("ATTACK PER MINUTE"))
        .expect("the chart");
    for glyph in ["⣿ bobb", "• cyri", "█ deed", "▄ adal"] {
        assert!(title.contains(glyph), "{glyph} missing: {title}");
    }
    assert_eq!(
        title,
        "  │ ATTACK PER MINUTE   ⣿ bobbytabl  • cyrilfigu  █ deedeeram  ▄ adalovela   │"
    );
}

const BATTLE_80X24: [&str; 24] = [
    "  ┌───────────────────────────── MATCH RESULTS ──────────────────────────────┐",
    "  │                                  Defeat                                  │",
    "  │                                                                          │",
    "  │   # Player       KOs   APM  PPS Lines Sent Recv                          │",
    "  │   1 bob            2  12.5 9.99    20    7    3                          │",
    "  │   2 cy             2  12.5 9.99    18    7    3                          │",
    "  │   3 dee            2  12.5 9.99    15    7    3                          │",
    "  │   4 ada            2  12.5 9.99    10    7    3                          │",
    "  │                                                                          │",
    "  │ ATTACK PER MINUTE                            ⣿ bob  • cy  █ dee  ▄ ada   │",
    "  │ 1  │                                                                  ⢀█ │",
    "  │    │                                                                 ██  │",
    "  │    │                                                                █⠁   │",
    "  │    │                                                              ██     │",
    "  │ 0  │▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄▄ │",
    "  │    └──────────────────────────────────────────────────────────────────── │",
    "  │ 0:05                               0:33                             1:00 │",
    "  │                                                                          │",
    "  │                                 Rematch                                  │",
    "  │                               Back to room                               │",
    "  │                                  Leave                                   │",
    "  │                                                                          │",
    "  │              Enter select   r rematch   v replay   Esc room              │",
    "  └──────────────────────────────────────────────────────────────────────────┘",
];

#[test]
fn a_race_shows_no_attack_while_played() {
    let mut a = online();
    to_versus_menu(&mut a);
    a.deliver(
        race_start(i_first_seed(Mode::sprint()), &["ada", "bob"], Some(0)),
        0,
    );
    a.tick(3000);
    a.take_requests();
    a.versus_game_mut().expect("game").set_board(tetris_well());
    tap(&mut a, Key::Char('x'), 3050);
    tap(&mut a, Key::Up, 3060);
    assert_eq!(a.versus_game().map(|g| g.stats().tetrises), Some(1));
    for (w, h) in [(60, 24), (80, 24), (120, 40)] {
        let got = frame(&a, w, h);
        let s = got.join("\n");
        let clear = got.iter().find(|l| l.contains("TETRIS")).expect(&s);
        assert!(
            !clear.contains('+'),
            "nothing is sent in a race: {clear}\n{s}"
        );
        for label in ["SENT", "RECV", "APM"] {
            assert!(!got.iter().any(|l| l.contains(label)), "{label}\n{s}");
        }
        for label in ["TIME", "LINES", "PIECES", "PPS"] {
            assert!(got.iter().any(|l| l.contains(label)), "{label}\n{s}");
        }
    }
}

#[test]
fn the_lobby_offers_remove_bot_only_when_a_bot_sits() {
    let mut a = online();
    to_versus_menu(&mut a);
    // A full room of people: nothing to add, nothing to remove.
    let mut full = room(
        vec![seat("ada", true, true), seat("bob", true, false)],
        Some(0),
        true,
    );
    full.options = RoomSettings::new(full.options.kind(), 2, full.options.limit());
    a.deliver(Response::Room(full), 0);
    let got = frame(&a, 80, 24);
    let bob = got.iter().position(|l| l.contains("bob")).expect("bob");
    assert_eq!(
        got[bob + 1],
        "    │                                                                      │",
        "\n{}",
        got.join("\n")
    );
    assert!(
        !got.iter().any(|l| l.contains("remove bot")),
        "{}",
        got.join("\n")
    );
    // A full room with a bot: its removal is offered, under the seats.
    let mut with_bot = room(
        vec![
            seat("ada", true, true),
            bot_seat(3),
            seat("bob", true, false),
            seat("cy", true, false),
        ],
        Some(0),
        true,
    );
    with_bot.options = RoomSettings::new(with_bot.options.kind(), 4, with_bot.options.limit());
    a.deliver(Response::Room(with_bot), 0);
    let got = frame(&a, 80, 24);
    let cy = got.iter().position(|l| l.contains("cy")).expect("cy");
    assert!(got[cy + 1].contains("x remove bot"), "{}", got.join("\n"));
    assert!(text(&a, 80, 24).contains("x remove bot"));
}

#[test]
fn every_opponents_board_has_an_incoming_garbage_meter_at_every_size() {
    // Each opponent has 3 lines coming: a cell and a half beside a half-block board, three
    // quarters of a cell beside a braille one.
    let names = ["bob", "eve", "kim", "lou", "max", "ned", "oz"];
    for (n, (w, h), want) in [
        (3, (80, 24), "│ ▄▀▀▀▀▀▀▀▀▀▀ ▄▀▀▀▀▀▀▀▀▀▀ ▄▀▀▀▀▀▀▀▀▀▀"),
        (7, (60, 24), "│ ▆⣿⣿⢸⣿⣿  ▆⣿⣿⢸⣿⣿  ▆⣿⣿⢸⣿⣿"),
    ] {
        let mut a = super::versus::in_match_pub(4);
        let list = (0..n)
            .map(|i| super::versus::opponent(i + 1, names[i], true))
            .collect();
        a.deliver(Response::Opponents(list), 3100);
        let got = frame(&a, w, h);
        let s = got.join("\n");
        assert!(
            got.iter().any(|l| l.ends_with(want)),
            "{n} at {w}x{h}:\n{s}"
        );
        let full: Vec<&String> = got
            .iter()
            .filter(|l| l.ends_with(&want.replace(['▄', '▆'], "█")))
            .collect();
        if n == 3 {
            assert_eq!(full.len(), 1, "one full cell under the half:\n{s}");
        }
    }
}

#[test]
fn a_spectator_at_80x24_sees_each_players_hold_next_numbers_and_meter() {
    let a = watched_pair();
    let got = frame(&a, 80, 24);
    assert_eq!(got, WATCHED_80X24, "\n{}", got.join("\n"));
}

const WATCHED_80X24: [&str; 24] = [
    " VERSUS · Battle                                                     spectating",
    "    ┌─────── bob ────────┐ ┌── HOLD ──┐  ┌─────── eve ────────┐ ┌── HOLD ──┐",
    "    │ · · · · · · · · · ·│ │    ██    │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │  ██████  │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│ └──────────┘",
    "    │ · · · · · · · · · ·│ ┌── NEXT ──┐  │ · · · · · · · · · ·│ ┌── NEXT ──┐",
    "    │ · · · · · · · · · ·│ │   ▀▀▀▀   │  │ · · · · · · · · · ·│ │   ▀█▄    │",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │    ██    │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │   █▄▄    │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │   ▄█▀    │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ │   ▄▄█    │  │ · · · · · · · · · ·│ │          │",
    "    │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│ └──────────┘",
    "    │ · · · · · · · · · ·│               │ · · · · · · · · · ·│",
    "    │ · · · · · · · · · ·│ LINES      7  │ · · · · · · · · · ·│ LINES      7",
    "    │████████ ·██████████│ SENT       5  │████████ ·██████████│ SENT       5",
    "   █│████████ ·██████████│ RECV       4  │████████ ·██████████│ RECV       0",
    "   █│████████ ·██████████│ APM     15.0  │████████ ·██████████│ APM     15.0",
    "   █│████████ ·██████████│ PPS     1.50  │████████ ·██████████│ PPS     0.40",
    "    └────── sent 5 ──────┘               └────── sent 5 ──────┘",
    "                              Watching   Esc leave",
];

#[test]
fn a_players_hold_and_next_go_to_the_room_with_their_numbers() {
    let mut a = super::versus::in_match_pub(4);
    let hold = crate::Key::Char('c');
    tap(&mut a, hold, 3050);
    let game = a.versus_game().expect("game");
    let held = game.hold_piece().expect("a piece held");
    let next: Vec<u8> = game.preview().take(5).map(|p| p as u8 + 1).collect();
    let progress = a
        .take_requests()
        .into_iter()
        .flat_map(|r| match r {
            crate::Request::Room(RoomCommand::Report { reports: list }) => list,
            _ => Vec::new(),
        })
        .filter_map(|r| match r {
            minotty_protocol::Report::Progress(p) => Some(p),
            _ => None,
        })
        .next_back()
        .expect("the hold is reported");
    assert_eq!(progress.hold, held as u8 + 1);
    assert_eq!(progress.next.to_vec(), next);
}

/// A spectator of bob and eve, bob holding a T with I O J S L next, eve without a hold yet.
fn watched_pair() -> App {
    use super::versus::opponent;
    let mut a = online();
    to_versus_menu(&mut a);
    a.deliver(
        super::versus::start(super::versus::battle_mode(), 3, &["bob", "eve"], None),
        0,
    );
    a.tick(3000);
    let mut bob = opponent(0, "bob", true);
    bob.progress.hold = 3;
    bob.progress.next = [1, 2, 6, 4, 7];
    bob.progress.pieces = 30;
    bob.progress.time_ms = 20_000;
    bob.progress.garbage_received = 4;
    let mut eve = opponent(1, "eve", true);
    eve.progress.next = [5, 0, 0, 0, 0];
    eve.progress.pieces = 8;
    eve.progress.time_ms = 20_000;
    eve.progress.pending_garbage = 0;
    a.deliver(Response::Opponents(vec![bob, eve]), 3100);
    a
}

#[test]
fn the_new_views_draw_at_any_size() {
    let mut race = online();
    to_versus_menu(&mut race);
    race.deliver(race_start(3, &["ada", "bob", "cy"], Some(0)), 0);
    race.tick(3000);
    race_over(&mut race);
    let apps = [watched_pair(), race, battle_of_four()];
    for a in &apps {
        for (w, h) in [
            (1, 1),
            (20, 10),
            (60, 24),
            (72, 24),
            (73, 22),
            (74, 24),
            (80, 23),
            (300, 100),
        ] {
            draw(a, w, h);
        }
    }
    // Where the blocks do not fit beside each other, the boards alone (no panel).
    let s = frame(&apps[0], 72, 24).join("\n");
    assert!(
        !s.contains("HOLD") && s.contains("bob") && s.contains("eve"),
        "{s}"
    );
}
