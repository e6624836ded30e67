//! The board renderers (issue 40, item 4: tetro-tui's half-cell and Braille boards): every
//! character of a compact board read back against the game's cells, exact frames at 80x24,
//! the same board at 200x60, blocks kept under ASCII and Electronika 60.

use minotty_engine::board::{BUFFER_HEIGHT, VISIBLE_HEIGHT, WIDTH};
use minotty_engine::{Cell, Game, ModeKind};
use ratatui::buffer::Buffer;

use super::*;
use crate::Settings;
use crate::settings::{Graphics, Renderer};

/// A marathon game with a few pieces locked and one in play, in `settings` (no ghost, so that
/// every drawn cell is the stack or the piece).
fn game_with(renderer: Renderer, graphics: Graphics) -> App {
    let (mut a, now) = playing(ModeKind::Marathon);
    a.set_settings(Settings {
        renderer,
        graphics,
        ghost: false,
        ..Settings::default()
    });
    for (i, key) in [
        Key::Left,
        Key::Char(' '),
        Key::Right,
        Key::Right,
        Key::Char(' '),
        Key::Char('d'),
        Key::Char(' '),
    ]
    .into_iter()
    .enumerate()
    {
        tap(&mut a, key, now + 100 + 100 * i as u64);
    }
    a.tick(now + 2_000);
    a
}

/// Whether board cell `(x, visible y)` shows something: the stack or the piece in play.
fn filled(game: &Game, x: usize, vy: usize) -> bool {
    let y = BUFFER_HEIGHT + vy;
    let active = game.active().is_some_and(|a| {
        a.placed
            .cells()
            .iter()
            .any(|&(cx, cy)| cx as usize == x && cy as usize == y)
    });
    active || game.board().cell(x, y) != Cell::Empty
}

/// The top-left corner of the board's frame `w` columns wide (its `┌`, then `┐` at `w - 1`).
fn frame_at(buf: &Buffer, w: u16) -> (u16, u16) {
    let area = buf.area;
    for y in 0..area.height {
        for x in 0..area.width.saturating_sub(w) {
            if buf[(x, y)].symbol() == "┌"
                && buf[(x + w - 1, y)].symbol() == "┐"
                && (1..w - 1).all(|i| buf[(x + i, y)].symbol() == "─")
            {
                return (x, y);
            }
        }
    }
    panic!("no board frame {w} wide");
}

#[test]
fn half_blocks_draw_two_cells_a_character_as_the_game_has_them() {
    let a = game_with(Renderer::HalfBlock, Graphics::Unicode);
    let game = a.game().expect("a game").clone();
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let (x0, y0) = frame_at(&buf, WIDTH as u16 + 2);
        assert_eq!(
            buf[(x0, y0 + 11)].symbol(),
            "└",
            "{w}x{h}: ten rows of cells"
        );
        let mut shown = 0;
        for r in 0..VISIBLE_HEIGHT / 2 {
            for x in 0..WIDTH {
                let want = match (filled(&game, x, 2 * r), filled(&game, x, 2 * r + 1)) {
                    (false, false) => "·",
                    (true, false) => "▀",
                    (false, true) => "▄",
                    (true, true) => "█▀",
                };
                let got = buf[(x0 + 1 + x as u16, y0 + 1 + r as u16)].symbol();
                assert!(
                    want.contains(got),
                    "{w}x{h} cell ({x}, {r}): {got} for {want}"
                );
                shown += usize::from(got != "·");
            }
        }
        assert!(shown >= 6, "the stack and the piece show");
    }
}

#[test]
fn braille_draws_eight_cells_a_character_as_the_game_has_them() {
    let a = game_with(Renderer::Braille, Graphics::Unicode);
    let game = a.game().expect("a game").clone();
    let dot = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]];
    for (w, h) in [(80, 24), (200, 60)] {
        let buf = draw(&a, w, h);
        let (x0, y0) = frame_at(&buf, WIDTH as u16 / 2 + 2);
        assert_eq!(
            buf[(x0, y0 + 6)].symbol(),
            "└",
            "{w}x{h}: five rows of cells"
        );
        for r in 0..VISIBLE_HEIGHT / 4 {
            for c in 0..WIDTH / 2 {
                let mut bits = 0u32;
                for (dy, row) in dot.iter().enumerate() {
                    for (dx, &d) in row.iter().enumerate() {
                        if filled(&game, 2 * c + dx, 4 * r + dy) {
                            bits |= d;
                        }
                    }
                }
                let got = buf[(x0 + 1 + c as u16, y0 + 1 + r as u16)].symbol();
                let want = if bits == 0 {
                    "·".to_string()
                } else {
                    char::from_u32(0x2800 + bits).expect("braille").to_string()
                };
                assert_eq!(got, want, "{w}x{h} character ({c}, {r})");
            }
        }
    }
}

#[test]
fn a_half_block_game_at_80x24() {
    let a = game_with(Renderer::HalfBlock, Graphics::Unicode);
    // The board 12 by 12 on a screen as tall as ever: the piece in play at the top (two
    // cells a character), three locked pieces on the floor.
    let expected = [
        "                  MINOTTY · Marathon · standard            ada                  ",
        "                        ┌── HOLD ──┐ ┌──────────┐ ┌── NEXT ──┐                  ",
        "                        │          │ │····▄▄····│ │  ██      │                  ",
        "                        │          │ │···▀▀·····│ │  ██████  │                  ",
        "                        └──────────┘ │··········│ │          │                  ",
        "                                     │··········│ │    ██    │                  ",
        "          I     1 LEVEL            0 │··········│ │          │                  ",
        "          O     0 LINES        0/150 │··········│ │   ▄▄█    │                  ",
        "          T     1 SCORE          102 │··········│ │          │                  ",
        "          S     0 TIME          0:02 │·····▄····│ │   ▀▀▀▀   │                  ",
        "          Z     1 PIECES           3 │·····█····│ │          │                  ",
        "          J     0 PPS           4.29 │··▀█▄▀█▄··│ │   ▄█▀    │                  ",
        "          L     0                    └──────────┘ └──────────┘                  ",
        "                                                                                ",
        "                                                                                ",
        "                                                                                ",
        "                                                                                ",
        "                                                                                ",
        "                                                                                ",
        "                                                                                ",
        "                                                                                ",
        "                                                                                ",
        "                                                                                ",
        "                   Esc pause   Ctrl+S snapshot   Ctrl+C quit                    ",
    ];
    assert_eq!(lines(&draw(&a, 80, 24)), expected);
}

#[test]
fn ascii_and_electronika_keep_blocks() {
    for graphics in [Graphics::Ascii, Graphics::Electronika] {
        let a = game_with(Renderer::Braille, graphics);
        let blocks = game_with(Renderer::Blocks, graphics);
        assert_eq!(
            lines(&draw(&a, 80, 24)),
            lines(&draw(&blocks, 80, 24)),
            "{graphics:?}"
        );
    }
    let theme = crate::theme::Theme::new(&Settings {
        renderer: Renderer::HalfBlock,
        ..Settings::default()
    });
    assert_eq!(theme.renderer(), Renderer::HalfBlock);
    let ascii = crate::theme::Theme::new(&Settings {
        renderer: Renderer::HalfBlock,
        graphics: Graphics::Ascii,
        ..Settings::default()
    });
    assert_eq!(ascii.renderer(), Renderer::Blocks);
}
