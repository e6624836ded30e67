//! The looks: palettes (every piece's colour in each colour mode), the grid off, grey locked
//! tiles and the blindfold, drawn on the game screen at 80x24 and 200x60.

use minotty_engine::{Cell, ModeKind, Piece};
use ratatui::buffer::Buffer;
use ratatui::style::Color;

use super::*;
use crate::settings::Palette;
use crate::theme::{Theme, xterm_index};
use crate::{ColorMode, Settings};

/// A marathon game with a few pieces locked and one in play, in `settings`.
fn game_with(settings: Settings) -> App {
    let (mut a, now) = playing(ModeKind::Marathon);
    a.set_settings(settings);
    for (i, key) in [
        Key::Left,
        Key::Char(' '),
        Key::Right,
        Key::Char(' '),
        Key::Char(' '),
    ]
    .into_iter()
    .enumerate()
    {
        tap(&mut a, key, now + 100 + 100 * i as u64);
    }
    // Past the lock flash and the drop trail.
    a.tick(now + 2_000);
    a
}

/// The board's cells as drawn: for each board cell (x, visible y), the style of its left
/// column, found from the frame's top-left corner.
fn cell_colours(buf: &Buffer) -> Vec<((usize, usize), Option<Color>, String)> {
    let area = buf.area;
    let mut top = None;
    'find: for y in 0..area.height {
        for x in 0..area.width {
            if buf[(x, y)].symbol() == "┌"
                && buf[(x + 1, y)].symbol() == "─"
                && (x + 22 < area.width)
                && buf[(x + 21, y)].symbol() == "┐"
            {
                top = Some((x, y));
                break 'find;
            }
        }
    }
    let Some((x0, y0)) = top else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for vy in 0..20u16 {
        for x in 0..10u16 {
            let c = &buf[(x0 + 1 + 2 * x, y0 + 1 + vy)];
            out.push((
                (x as usize, vy as usize),
                c.fg.into(),
                c.symbol().to_string(),
            ));
        }
    }
    out
}

#[test]
fn every_palette_colours_every_piece_in_every_colour_mode() {
    for palette in Palette::ALL {
        for colors in [ColorMode::TrueColor, ColorMode::Ansi256, ColorMode::Ansi16] {
            let settings = Settings {
                palette,
                colors,
                ..Settings::default()
            };
            let theme = Theme::new(&settings);
            let a = game_with(settings.clone());
            let game = a.game().expect("a game").clone();
            let active = game.active().map(|p| p.placed).expect("a piece in play");
            // 80x24 draws each cell 2x1; the test reads the 1x board.
            let buf = draw(&a, 80, 24);
            let cells = cell_colours(&buf);
            assert_eq!(cells.len(), 200, "{palette:?} {colors:?}: the board");
            let mut blocks = 0;
            for ((x, vy), fg, symbol) in cells {
                let y = minotty_engine::board::BUFFER_HEIGHT + vy;
                let want = match game.board().cell(x, y) {
                    Cell::Block(p) => Some(theme.piece_color(p)),
                    _ if active.cells().contains(&(x as i8, y as i8)) => {
                        Some(theme.piece_color(active.piece))
                    }
                    _ => None,
                };
                if let Some(want) = want {
                    blocks += 1;
                    assert_eq!(symbol, "█", "{palette:?} {colors:?} ({x}, {vy})");
                    assert_eq!(fg, Some(want), "{palette:?} {colors:?} ({x}, {vy})");
                }
            }
            assert!(blocks >= 16, "{palette:?}: {blocks} blocks");
            // In truecolour the palette's own RGB; in 256 colours its nearest xterm colour.
            for p in Piece::ALL {
                let (r, g, b) = palette.rgb()[p as usize];
                let got = theme.piece_color(p);
                match colors {
                    ColorMode::TrueColor => assert_eq!(got, Color::Rgb(r, g, b)),
                    ColorMode::Ansi256 => {
                        let want = palette
                            .xterm()
                            .map_or(xterm_index(r, g, b), |t| t[p as usize]);
                        assert_eq!(got, Color::Indexed(want))
                    }
                    _ => {}
                }
            }
            // Seven distinct colours but where 16 colours cannot (The Matrix's two greens).
            let mut seen: Vec<Color> = Piece::ALL.map(|p| theme.piece_color(p)).to_vec();
            seen.sort_by_key(|c| format!("{c:?}"));
            seen.dedup();
            let distinct = if palette == Palette::Matrix && colors == ColorMode::Ansi16 {
                2
            } else {
                7
            };
            assert_eq!(seen.len(), distinct, "{palette:?} {colors:?}");
        }
    }
}

#[test]
fn xterm_colours_are_the_nearest_of_the_cube_and_the_greys() {
    for (rgb, index) in [
        ((255, 0, 0), 196),
        ((0, 0, 0), 16),
        ((255, 255, 255), 231),
        ((128, 128, 128), 244),
        ((0, 255, 65), 47),
        ((250, 189, 47), 214),
        ((38, 139, 210), 32),
    ] {
        assert_eq!(xterm_index(rgb.0, rgb.1, rgb.2), index, "{rgb:?}");
    }
}

#[test]
fn without_the_grid_empty_cells_are_blank_and_grey_locked_tiles_leave_the_piece_in_colour() {
    let settings = Settings {
        grid: false,
        color_locked: false,
        colors: ColorMode::TrueColor,
        ..Settings::default()
    };
    let theme = Theme::new(&settings);
    let a = game_with(settings);
    let game = a.game().expect("a game").clone();
    let active = game.active().map(|p| p.placed).expect("in play");
    let ghost = game.ghost().expect("a ghost");
    let grey = theme.garbage().fg;
    // No grid dot anywhere on the board (the title's two dots aside).
    assert!(!board_rows(&a).iter().any(|r| r.contains('·')));
    let at_200 = lines(&draw(&a, 200, 60)).join("\n");
    assert_eq!(at_200.matches('·').count(), 2, "{at_200}");
    {
        let buf = draw(&a, 80, 24);
        for ((x, vy), fg, symbol) in cell_colours(&buf) {
            let y = minotty_engine::board::BUFFER_HEIGHT + vy;
            let live = active.cells().contains(&(x as i8, y as i8));
            match game.board().cell(x, y) {
                Cell::Block(_) => assert_eq!(fg, grey, "locked ({x}, {vy})"),
                _ if live => assert_eq!(fg, Some(theme.piece_color(active.piece))),
                _ if ghost.cells().contains(&(x as i8, y as i8)) => assert_eq!(symbol, "░"),
                _ => assert_eq!(symbol, " ", "({x}, {vy}) blank"),
            }
        }
    }
}

#[test]
fn the_blindfold_hides_the_stack_and_ctrl_b_brings_it_back() {
    let mut a = game_with(Settings::default());
    let now = COUNTDOWN_MS + 2_000;
    let shown = board_rows(&a);
    let stack_rows = |rows: &[String]| rows.iter().filter(|r| r.contains('█')).count();
    assert!(stack_rows(&shown) >= 3, "a stack and the piece");
    a.handle_key(ctrl('b'), now + 10);
    let blind = board_rows(&a);
    // Only the piece in play is drawn (two rows of it at the top); the game goes on.
    let active = a
        .game()
        .and_then(|g| g.active())
        .map(|p| p.placed)
        .expect("in play");
    let piece_rows: std::collections::BTreeSet<i8> = active.cells().iter().map(|c| c.1).collect();
    assert_eq!(stack_rows(&blind), piece_rows.len(), "{}", blind.join("\n"));
    assert!(!blind.iter().any(|r| r.contains('░')), "no ghost either");
    assert!(screen(&a).contains("Blindfold: the stack is hidden (Ctrl+B shows it)"));
    let at_200 = lines(&draw(&a, 200, 60)).join("\n");
    assert!(
        at_200.matches('█').count() <= 4 * 4 * 2 + 200,
        "the board's blocks hidden at 2x too"
    );
    a.handle_key(ctrl('b'), now + 20);
    assert_eq!(board_rows(&a), shown);
    assert!(screen(&a).contains("Blindfold off"));
}

#[test]
fn blindfolded_without_the_grid_at_80x24() {
    let mut a = game_with(Settings {
        grid: false,
        ..Settings::default()
    });
    a.handle_key(ctrl('b'), COUNTDOWN_MS + 2_000);
    // Three pieces locked and one falling: the falling S alone shows, on a blank board.
    let expected = [
        "             MINOTTY · Marathon · standard                      ada             ",
        "                   ┌── HOLD ──┐ ┌────────────────────┐ ┌── NEXT ──┐             ",
        "                   │          │ │                    │ │  ██      │             ",
        "                   │          │ │        ████        │ │  ██████  │             ",
        "                   └──────────┘ │      ████          │ │          │             ",
        "                                │                    │ │    ██    │             ",
        "     I     1 LEVEL            0 │                    │ │          │             ",
        "     O     0 LINES        0/150 │                    │ │   ▄▄█    │             ",
        "     T     1 SCORE          100 │                    │ │          │             ",
        "     S     0 TIME          0:02 │                    │ │   ▀▀▀▀   │             ",
        "     Z     1 PIECES           3 │                    │ │          │             ",
        "     J     0 PPS           6.00 │                    │ │   ▄█▀    │             ",
        "     L     0                    │                    │ └──────────┘             ",
        "                                │                    │                          ",
        "                                │                    │                          ",
        "                                │                    │                          ",
        "                                │                    │                          ",
        "                                │                    │                          ",
        "                                │                    │                          ",
        "                                │                    │                          ",
        "                                │                    │                          ",
        "                                │                    │                          ",
        "                                └────────────────────┘                          ",
        "                Blindfold: the stack is hidden (Ctrl+B shows it)                ",
    ];
    assert_eq!(lines(&draw(&a, 80, 24)), expected);
}
