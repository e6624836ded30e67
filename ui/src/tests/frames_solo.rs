//! Exact frames of the solo player's key screens at 80x24: welcome (a new key), the main menu,
//! the mode list, a 40 lines game in play, the pause question and the pause menu. Every cell's
//! symbol is compared (`Buffer::with_lines`), and the selection's style where it is the only
//! thing that says what is selected. Fixed seed (7) and front-end times: the same every run.

use minotty_engine::ModeKind;
use ratatui::buffer::Buffer;
use ratatui::style::Modifier;

use super::*;
use crate::Damage;
use minotty_protocol::Identity;

/// The whole 80x24 frame, symbols only (every cell's style reset), for `Buffer::with_lines`.
fn symbols(a: &App) -> Buffer {
    let mut buf = draw(a, 80, 24);
    for cell in &mut buf.content {
        let symbol = cell.symbol().to_owned();
        cell.reset();
        cell.set_symbol(&symbol);
    }
    buf
}

/// Asserts every cell of `a`'s 80x24 frame against `expected` (lines written without their
/// trailing spaces).
pub(super) fn assert_frame(a: &App, expected: &[&str; 24]) {
    let padded: Vec<String> = expected.iter().map(|l| format!("{l:<80}")).collect();
    let want = Buffer::with_lines(padded);
    assert_eq!(want.area, ratatui::layout::Rect::new(0, 0, 80, 24));
    assert_eq!(symbols(a), want);
}

/// The text drawn selected (reversed), row by row, trimmed; rows without any left out.
pub(super) fn selected(a: &App) -> Vec<String> {
    let buf = draw(a, 80, 24);
    (0..24)
        .filter_map(|y| {
            let text: String = (0..80)
                .filter_map(|x| buf.cell((x, y)))
                .filter(|c| c.modifier.contains(Modifier::REVERSED))
                .map(|c| c.symbol().to_owned())
                .collect();
            let text = text.trim().to_owned();
            (!text.is_empty()).then_some(text)
        })
        .collect()
}

#[test]
fn welcome_at_80x24_for_a_new_key() {
    let a = App::new(AppContext {
        player_name: "ada".into(),
        seed: 7,
        identity: Identity::NewKey {
            suggested: "j.doe!".into(),
        },
        ..AppContext::default()
    });
    assert_frame(&a, &WELCOME);
}

#[test]
fn the_main_menu_at_80x24_with_play_selected() {
    let mut a = app();
    assert_frame(&a, &MAIN);
    assert_eq!(selected(&a), ["Play"]);
    press(&mut a, Key::Down, 0);
    assert_frame(&a, &MAIN);
    assert_eq!(selected(&a), ["Versus"]);
}

#[test]
fn the_mode_list_at_80x24_describes_the_selected_mode_and_its_ruleset() {
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    assert_frame(&a, &MODES);
    // The mode, and the ruleset it will be played under (Left/Right change it).
    assert_eq!(selected(&a), ["40 Lines", "< standard >"]);
}

/// 40 lines, one piece moved left and hard dropped, 1.5 s after the countdown.
fn sprint_in_play() -> (App, u64) {
    let (mut a, now) = playing(ModeKind::Sprint);
    tap(&mut a, Key::Left, now + 100);
    tap(&mut a, Key::Up, now + 200);
    a.tick(now + 1_500);
    (a, now + 1_500)
}

#[test]
fn a_40_lines_game_in_play_at_80x24() {
    let (a, _) = sprint_in_play();
    assert_frame(&a, &SPRINT);
}

/// A piece turned and moved in the air changes the board and the stats alone
/// ([`Damage::Board`]): drawing those two parts over the frame before gives this frame, cell
/// for cell and style for style.
#[test]
fn a_turned_and_moved_piece_at_80x24_redraws_the_board_and_the_stats() {
    let (mut a, now) = playing(ModeKind::Sprint);
    a.tick(now + 1_000);
    a.take_damage();
    let mut partial = draw(&a, 80, 24);
    tap(&mut a, Key::Char('x'), now + 1_100);
    tap(&mut a, Key::Right, now + 1_200);
    tap(&mut a, Key::Right, now + 1_300);
    assert_eq!(a.take_damage(), Damage::Board);
    let area = partial.area;
    let parts = a.parts(area).expect("the game runs with nothing over it");
    for &part in parts.of(Damage::Board) {
        let mut buf = Buffer::empty(part);
        if part == parts.time() {
            a.render_time(area, &mut buf);
        } else {
            a.render_board(area, &mut buf);
        }
        partial.merge(&buf);
    }
    assert_eq!(partial, draw(&a, 80, 24));
    assert_frame(&a, &TURNED);
}

/// The question beside the board, not over it: the game runs on while it is asked.
#[test]
fn pausing_a_ranked_40_lines_game_asks_first_at_80x24() {
    let (mut a, now) = sprint_in_play();
    press(&mut a, Key::Esc, now + 100);
    assert_frame(&a, &PAUSE);
}

#[test]
fn the_pause_menu_at_80x24_hides_the_board_and_the_pieces() {
    let (mut a, now) = playing(ModeKind::Sprint);
    press(&mut a, Key::Esc, now + 100);
    press(&mut a, Key::Char('y'), now + 200);
    assert_frame(&a, &PAUSED);
    assert_eq!(selected(&a), ["Resume"]);
}

const WELCOME: [&str; 24] = [
    "",
    "",
    "           ┌────────────────── WELCOME TO MINOTTY ──────────────────┐",
    "           │                                                        │",
    "           │              ▄▄▄▄ ▄█▀ ▀█▄ ▄█▄ ▄▄█ █▄▄ ██               │",
    "           │                                                        │",
    "           │  Your SSH key is new here. Choose a player name: it    │",
    "           │  keeps your settings, your games and your places on    │",
    "           │  the leaderboards.                                     │",
    "           │                                                        │",
    "           │  Name       jdoe_                                      │",
    "           │                                                        │",
    "           │  Press Enter to register it, if no one has it yet      │",
    "           │                                                        │",
    "           │                                                        │",
    "           │                                                        │",
    "           │                                                        │",
    "           │                                                        │",
    "           │                                                        │",
    "           │     Enter register   Tab I already have an account     │",
    "           │             Esc play as a guest this time              │",
    "           └────────────────────────────────────────────────────────┘",
    "",
    "",
];

const MAIN: [&str; 24] = [
    "",
    "                  ┌──────────────────────────────────────────┐",
    "                  │                                          │",
    "                  │       ▄▄▄▄ ▄█▀ ▀█▄ ▄█▄ ▄▄█ █▄▄ ██        │",
    "                  │                                          │",
    "                  │              M I N O T T Y               │",
    "                  │         falling blocks over SSH          │",
    "                  │                                          │",
    "                  │                                          │",
    "                  │                   Play                   │",
    "                  │                  Versus                  │",
    "                  │               Leaderboards               │",
    "                  │                 Profile                  │",
    "                  │                 Settings                 │",
    "                  │                   Help                   │",
    "                  │                   Live                   │",
    "                  │                   Quit                   │",
    "                  │               Hello, ada!                │",
    "                  │                                          │",
    "                  │                                          │",
    "                  │  Up/Down choose   Enter select   q quit  │",
    "                  └──────────────────────────────────────────┘",
    "",
    "",
];

const MODES: [&str; 24] = [
    "",
    "  ┌───────────────────────────── CHOOSE A MODE ──────────────────────────────┐",
    "  │                                                                          │",
    "  │  40 Lines           40 Lines                                             │",
    "  │  Marathon                                                                │",
    "  │  Ultra              Clear 40 lines as fast as you can.                   │",
    "  │  Master                                                                  │",
    "  │  Cheese             Ruleset                                 < standard > │",
    "  │  Combo              The rules most players know: SRS and 180 turns, each │",
    "  │  Custom             piece once in every 7, T-spins, combos and           │",
    "  │  Endless            back-to-back. Versus and leaderboards use it.        │",
    "  │  Puzzle                                                                  │",
    "  │  Descent                                                                 │",
    "  │  Classic                                                                 │",
    "  │  Survival                                                                │",
    "  │  Ascent                                                                  │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │                     F race a friend's best                               │",
    "  │                                                                          │",
    "  │                                                                          │",
    "  │        Up/Down mode   Left/Right ruleset   Enter start   Esc back        │",
    "  └──────────────────────────────────────────────────────────────────────────┘",
    "",
];

const SPRINT: [&str; 24] = [
    "             MINOTTY · 40 Lines · standard                      ada",
    "                   ┌── HOLD ──┐ ┌────────────────────┐ ┌── NEXT ──┐",
    "                   │          │ │ · · · · · · · · · ·│ │ ████████ │",
    "                   │          │ │ · · · ·██ · · · · ·│ │          │",
    "                   └──────────┘ │ · · ·██████ · · · ·│ │          │",
    "                                │ · · · · · · · · · ·│ │   ▄█▀    │",
    "     I     0 LEVEL            0 │ · · · · · · · · · ·│ │          │",
    "     O     0 LINES         0/40 │ · · · · · · · · · ·│ │   █▄▄    │",
    "     T     0 SCORE           36 │ · · · · · · · · · ·│ │          │",
    "     S     0 TIME        0:01.5 │ · · · · · · · · · ·│ │    ██    │",
    "     Z     1 PIECES           1 │ · · · · · · · · · ·│ │          │",
    "     J     0 PPS           5.00 │ · · · · · · · · · ·│ │   ▄▄█    │",
    "     L     0                    │ · · · · · · · · · ·│ └──────────┘",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · ·░░ · · · · ·│",
    "                                │ · · ·░░░░░░ · · · ·│",
    "                                │ · ·████ · · · · · ·│",
    "                                │ · · ·████ · · · · ·│",
    "                                └────────────────────┘",
    "              R retry   Esc pause   Ctrl+S snapshot   Ctrl+C quit",
];

const TURNED: [&str; 24] = [
    "             MINOTTY · 40 Lines · standard                      ada",
    "                   ┌── HOLD ──┐ ┌────────────────────┐ ┌── NEXT ──┐",
    "                   │          │ │ · · · · · · · · · ·│ │    ██    │",
    "                   │          │ │ · · · · · · ·██ · ·│ │  ██████  │",
    "                   └──────────┘ │ · · · · · ·████ · ·│ │          │",
    "                                │ · · · · · ·██ · · ·│ │   ▀▀▀▀   │",
    "     I     0 LEVEL            0 │ · · · · · · · · · ·│ │          │",
    "     O     0 LINES         0/40 │ · · · · · · · · · ·│ │   ▄█▀    │",
    "     T     0 SCORE            0 │ · · · · · · · · · ·│ │          │",
    "     S     0 TIME        0:01.3 │ · · · · · · · · · ·│ │   █▄▄    │",
    "     Z     0 PIECES           0 │ · · · · · · · · · ·│ │          │",
    "     J     0 PPS           0.00 │ · · · · · · · · · ·│ │    ██    │",
    "     L     0                    │ · · · · · · · · · ·│ └──────────┘",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · ·░░ · ·│",
    "                                │ · · · · · ·░░░░ · ·│",
    "                                │ · · · · · ·░░ · · ·│",
    "                                └────────────────────┘",
    "              R retry   Esc pause   Ctrl+S snapshot   Ctrl+C quit",
];

const PAUSE: [&str; 24] = [
    "             MINOTTY · 40 Lines · standard                      ada",
    "                   ┌── HOLD ──┐ ┌────────────────────┐ ┌── NEXT ──┐",
    "                   │          │ │ · · · · · · · · · ·│ │ ████████ │",
    "                   │          │ │ · · · ·██ · · · · ·│ │          │",
    "                   └──────────┘ │ · · ·██████ · · · ·│ │          │",
    "                                │ · · · · · · · · · ·│ │   ▄█▀    │",
    "     I     0 LEVEL            0 │ · · · · · · · · · ·│ │          │",
    "     O     0 LINES         0/40 │ · · · · · · · · · ·│ │   █▄▄    │",
    "     T     0 SCORE           36 │ · · · · · · · · · ·│ │          │",
    "     S     0 TIME        0:01.5 │ · · · · · · · · · ·│ │    ██    │",
    "     Z     1 PIECES           1 │ · · · · · · · · · ·│ │          │",
    "     J     0 PPS           5.00 │ · · · · · · · · · ·│ │   ▄▄█    │",
    "     L     0                    │ · · · · · · · · · ·│ └──────────┘",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "             ┌──── PAUSE? ────┐ │ · · · · · · · · · ·│",
    "             │  Pausing ends  │ │ · · · · · · · · · ·│",
    "             │ranking for this│ │ · · · · · · · · · ·│",
    "             │     game.      │ │ · · · ·░░ · · · · ·│",
    "             │                │ │ · · ·░░░░░░ · · · ·│",
    "             │y pause  n play │ │ · ·████ · · · · · ·│",
    "             └────────────────┘ │ · · ·████ · · · · ·│",
    "                                └────────────────────┘",
    "              R retry   Esc pause   Ctrl+S snapshot   Ctrl+C quit",
];

const PAUSED: [&str; 24] = [
    "             MINOTTY · 40 Lines · standard                      ada",
    "                   ┌── HOLD ──┐ ┌────────────────────┐ ┌── NEXT ──┐",
    "                   │          │ │ · · · · · · · · · ·│ │          │",
    "                   │          │ │ · · · · · · · · · ·│ │          │",
    "                   └──────────┘ │ · · · · · · · · · ·│ │          │",
    "                                │ · · · · · · · · · ·│ │          │",
    "             LEVEL            0 │ ·┌─── PAUSED ───┐ ·│ │          │",
    "             LINES         0/40 │ ·│    Resume    │ ·│ │          │",
    "             SCORE            0 │ ·│   Restart    │ ·│ │          │",
    "             TIME        0:00.2 │ ·│   Settings   │ ·│ │          │",
    "             PIECES           0 │ ·│     Help     │ ·│ │          │",
    "             PPS           0.00 │ ·│   Forfeit    │ ·│ │          │",
    "                                │ ·│  Main menu   │ ·│ └──────────┘",
    "                                │ ·│              │ ·│",
    "                                │ ·│ Esc resumes  │ ·│",
    "                                │ ·│  R retries   │ ·│",
    "                                │ ·│  Not ranked  │ ·│",
    "                                │ ·└──────────────┘ ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                │ · · · · · · · · · ·│",
    "                                └────────────────────┘",
    "                            Esc resume   Ctrl+C quit",
];
