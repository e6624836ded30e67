//! The board scales by whole cells, and hold, next and stats scale with it where the screen
//! has room: exact frames at 200x60 (2x) and 100x40 (1x).

use minotty_engine::ModeKind;

use super::draw;
use crate::session::COUNTDOWN_MS;
use crate::testutil::lines;
use crate::{App, AppContext};

/// A game of `kind` (fixed seed) just after its countdown, drawn at `w` x `h`.
fn frame(kind: ModeKind, w: u16, h: u16) -> Vec<String> {
    let mut a = App::new(AppContext {
        player_name: "ada".into(),
        seed: 239,
        ..AppContext::default()
    });
    a.play(kind, 0);
    a.tick(COUNTDOWN_MS + 700);
    a.set_size(w, h, COUNTDOWN_MS + 700);
    lines(&draw(&a, w, h))
}

/// The game's columns of a frame (from two columns left of its title).
fn game_area(rows: &[String], width: usize) -> Vec<String> {
    let Some(top) = rows.iter().position(|r| r.contains("MINOTTY")) else {
        return Vec::new();
    };
    let byte = rows[top].find("MINOTTY").unwrap_or(0);
    let x = rows[top][..byte].chars().count().saturating_sub(2);
    rows[top..]
        .iter()
        .take_while(|r| !r.trim().is_empty())
        .map(|r| {
            r.chars()
                .skip(x)
                .take(width)
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect()
}

#[test]
fn at_200x60_cheese_holes_are_whole_cells_and_hold_next_stats_scale_with_the_board() {
    // A 2x board (cells of 4 columns by 2 rows: each hole a clean gap), the hold and next
    // boxes drawing their pieces at 2x, the stats a row apart along the board.
    let want = [
        "  MINOTTY · Cheese · standard                                                      ada",
        "  ┌────── HOLD ──────┐ ┌────────────────────────────────────────┐ ┌────── NEXT ──────┐",
        "  │                  │ │                                        │ │       ████████   │",
        "  │                  │ │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │       ████████   │",
        "  │                  │ │            ████████████████            │ │   ████████       │",
        "  │                  │ │   ·   ·   ·████████████████   ·   ·   ·│ │   ████████       │",
        "0 └──────────────────┘ │                                        │ │                  │",
        "0                      │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │       ████       │",
        "0 LEVEL              0 │                                        │ │       ████       │",
        "0                      │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │   ████████████   │",
        "0 LINES              0 │                                        │ │   ████████████   │",
        "0                      │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │                  │",
        "0 SCORE              0 │                                        │ │   ████████       │",
        "                       │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │   ████████       │",
        "  TIME          0:00.7 │                                        │ │       ████████   │",
        "                       │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │       ████████   │",
        "  PIECES             0 │                                        │ │                  │",
        "                       │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │   ████           │",
        "  PPS             0.00 │                                        │ │   ████           │",
        "                       │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │   ████████████   │",
        "  DUG             0/20 │            ░░░░░░░░░░░░░░░░            │ │   ████████████   │",
        "                       │   ·   ·   ·░░░░░░░░░░░░░░░░   ·   ·   ·│ │                  │",
        "                       │████████████████████████    ████████████│ │     ████████     │",
        "                       │████████████████████████   ·████████████│ │     ████████     │",
        "                       │████████████████████████████████    ████│ │     ████████     │",
        "                       │████████████████████████████████   ·████│ │     ████████     │",
        "                       │████████████    ████████████████████████│ └──────────────────┘",
        "                       │████████████   ·████████████████████████│",
        "                       │████    ████████████████████████████████│",
        "                       │████   ·████████████████████████████████│",
        "                       │    ████████████████████████████████████│",
        "                       │   ·████████████████████████████████████│",
        "                       │████████    ████████████████████████████│",
        "                       │████████   ·████████████████████████████│",
        "                       │    ████████████████████████████████████│",
        "                       │   ·████████████████████████████████████│",
        "                       │████████████████████████████████    ████│",
        "                       │████████████████████████████████   ·████│",
        "                       │████████████████████████    ████████████│",
        "                       │████████████████████████   ·████████████│",
        "                       │████████████████    ████████████████████│",
        "                       │████████████████   ·████████████████████│",
        "                       └────────────────────────────────────────┘",
        "                  R retry   Esc pause   Ctrl+S snapshot   Ctrl+C quit",
    ];
    assert_eq!(game_area(&frame(ModeKind::Cheese, 200, 60), 86), want);
}

#[test]
fn the_sides_stay_1x_where_only_the_board_has_room_for_2x() {
    // 80x44: a 2x board (42 columns) fits with 1x sides (74 columns), not with 2x ones (84).
    let rows = frame(ModeKind::Marathon, 80, 44);
    let area = game_area(&rows, 80);
    assert_eq!(
        area[1],
        "        ┌── HOLD ──┐ ┌────────────────────────────────────────┐ ┌── NEXT ──┐"
    );
    assert_eq!(
        area[2..8],
        [
            "        │          │ │                                        │ │    ████  │",
            "        │          │ │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │  ████    │",
            "        └──────────┘ │            ████████████████            │ │          │",
            "                     │   ·   ·   ·████████████████   ·   ·   ·│ │    ██    │",
            "  LEVEL            0 │                                        │ │  ██████  │",
            "  LINES        0/150 │   ·   ·   ·   ·   ·   ·   ·   ·   ·   ·│ │          │",
        ]
    );
}
