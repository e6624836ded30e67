//! Exact frames of the online key screens at 80x24: the versus menu, a room's lobby, a versus
//! game in play, the profile and the Live list. Every cell's symbol is compared
//! (`Buffer::with_lines`); fixed seeds, times and dates.

use super::frames_solo::{assert_frame, selected};
use super::live::{solo, versus as live_match};
use super::records::ada_profile;
use super::versus::{in_match_pub, online, opponent, room, seat};
use super::*;
use crate::Response;

#[test]
fn the_versus_menu_at_80x24() {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    assert_frame(&a, &VERSUS_MENU);
    assert_eq!(selected(&a), ["Quick match"]);
}

#[test]
fn a_rooms_lobby_at_80x24_as_its_host_sees_it() {
    let mut a = online();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    a.deliver(
        Response::Room(room(
            vec![seat("ada", true, true), seat("bob", false, false)],
            Some(0),
            true,
        )),
        0,
    );
    assert_frame(&a, &LOBBY);
}

#[test]
fn a_versus_game_in_play_at_80x24_with_the_opponents_board_and_meter() {
    let mut a = in_match_pub(5);
    a.deliver(Response::Opponents(vec![opponent(1, "bob", true)]), 3_100);
    a.tick(4_000);
    assert_frame(&a, &MATCH);
}

#[test]
fn the_profile_at_80x24_with_bests_games_and_matches() {
    let mut a = registered();
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    a.deliver(Response::Profile(ada_profile()), 0);
    assert_frame(&a, &PROFILE);
}

#[test]
fn the_live_list_at_80x24_with_two_games_and_a_match() {
    let mut a = app();
    for _ in 0..6 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    a.deliver(
        Response::Live(vec![
            solo(1, "cy", 4_200),
            solo(2, "dee", 900),
            live_match(3),
        ]),
        0,
    );
    assert_frame(&a, &LIVE);
}

const VERSUS_MENU: [&str; 24] = [
    "",
    "                ┌─────────────────── VERSUS ───────────────────┐",
    "                │                                              │",
    "                │         ▄▄▄▄ ▄█▀ ▀█▄ ▄█▄ ▄▄█ █▄▄ ██          │",
    "                │                                              │",
    "                │             Play against others              │",
    "                │                                              │",
    "                │                 Quick match                  │",
    "                │                 Create room                  │",
    "                │                  Join room                   │",
    "                │                  Watch room                  │",
    "                │                  Open rooms                  │",
    "                │                    Climb                     │",
    "                │                     Back                     │",
    "                │                                              │",
    "                │                                              │",
    "                │                                              │",
    "                │                                              │",
    "                │                                              │",
    "                │                                              │",
    "                │                                              │",
    "                │   Up/Down choose   Enter select   Esc back   │",
    "                └──────────────────────────────────────────────┘",
    "",
];

const LOBBY: [&str; 24] = [
    "    ┌──────────────────────────── ROOM K7PQ3M ─────────────────────────────┐",
    "    │                    ┌────────────────────────────┐                    │",
    "    │                    │     Room  K 7 P Q 3 M      │                    │",
    "    │                    └────────────────────────────┘                    │",
    "    │                   Friends join with:  join K7PQ3M                    │",
    "    │                        Private: join by code                         │",
    "    │                         Battle · 2/4 players                         │",
    "    │                        One game   o settings                         │",
    "    │  >★ ada                      host  READY                       1500  │",
    "    │     bob                            not ready                   1500  │",
    "    │    b add a bot (level 3, steady)   +/- level                         │",
    "    │  1 watching                                                          │",
    "    │                                                                      │",
    "    │                                                                      │",
    "    │                                                                      │",
    "    │                                                                      │",
    "    │                                                                      │",
    "    │                                                                      │",
    "    │                                                                      │",
    "    │                           Targeting: even                            │",
    "    │                                                                      │",
    "    │                                                                      │",
    "    │    l list room   r ready   Enter start   t targeting   Esc leave     │",
    "    └──────────────────────────────────────────────────────────────────────┘",
];

const MATCH: [&str; 24] = [
    " VERSUS · Battle                                                            ada",
    "          ┌────────────────────┐ ┌── HOLD ──┐  ┌─────── bob ────────┐",
    "          │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · ·████ · · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · ·████ · · · ·│ └──────────┘  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ ┌── NEXT ──┐  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │      ██  │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │  ██████  │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │    ██    │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │          │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ │   █▄▄    │  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ └──────────┘  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│               │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ TIME  0:01.0  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ LINES      0  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ SENT       0  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ RECV       0  │ · · · · · · · · · ·│",
    "          │ · · · · · · · · · ·│ APM      0.0  │████████ ·██████████│",
    "          │ · · · · · · · · · ·│ PPS     0.00 █│████████ ·██████████│",
    "          │ · · ·░░░░ · · · · ·│              █│████████ ·██████████│",
    "          │ · · · ·░░░░ · · · ·│              █│████████ ·██████████│",
    "          └────────────────────┘               └────── sent 5 ──────┘",
    "                           Esc forfeit   Ctrl+C quit",
];

const PROFILE: [&str; 24] = [
    " ┌───────────────────────────────── PROFILE ──────────────────────────────────┐",
    " │  ada                                  Versus rating 1514 (+/-80, 1 games)  │",
    " │                                                                            │",
    " │  BESTS                                                        global rank  │",
    " │  40 Lines  standard    0:58.123                                        #3  │",
    " │                                                                            │",
    " │  RECENT GAMES                                                              │",
    " │  40 Lines  standard    0:58.123          finished      #9      2025-11-25  │",
    " │  Versus    race        2nd of 3          unranked      m12     2025-11-24  │",
    " │  Versus    battle      won vs bob[2J     +14 rating    m11     2025-11-23  │",
    " │  40 Lines  standard    0:58.123          finished      #8      2025-11-22  │",
    " │                                                                            │",
    " │                                                                            │",
    " │                                                                            │",
    " │                                                                            │",
    " │                                                                            │",
    " │                                                                            │",
    " │                                                                            │",
    " │                                                                            │",
    " │                                                                            │",
    " │                                                                            │",
    " │             game #9: replay 9 --cast, over ssh to this server              │",
    " │             Up/Down choose   Enter watch   c charts   Esc back             │",
    " └────────────────────────────────────────────────────────────────────────────┘",
];

const LIVE: [&str; 24] = [
    "┌──────────────────────────────────── LIVE ────────────────────────────────────┐",
    "│                    Being played now, most exciting first                     │",
    "│                                                                              │",
    "│  cy                   Marathon · standard          4,200   12 lines  1:01.5  │",
    "│  dee                  Marathon · standard            900   12 lines  1:01.5  │",
    "│  ann vs bo            Versus · battle          2 players                     │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                                                                              │",
    "│                        Enter watch   t TV   Esc back                         │",
    "└──────────────────────────────────────────────────────────────────────────────┘",
];
