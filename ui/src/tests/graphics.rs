//! The graphics styles (Unicode, ASCII, Electronika 60, monochrome), the hard drop's trail and
//! the board's scales, drawn into a TestBackend.

use minotty_engine::ModeKind;
use ratatui::buffer::Buffer;
use ratatui::style::Color;

use super::{app, draw, menu_item, press, tap, wakeups};
use crate::session::COUNTDOWN_MS;
use crate::settings::{BoardSize, ColorMode, Graphics};
use crate::testutil::lines;
use crate::{App, Key, Settings};

/// The styles drawn differently: Unicode, ASCII, Electronika 60 in colour, Unicode monochrome.
const STYLES: [(Graphics, ColorMode); 4] = [
    (Graphics::Unicode, ColorMode::Ansi256),
    (Graphics::Ascii, ColorMode::Ansi256),
    (Graphics::Electronika, ColorMode::Ansi256),
    (Graphics::Unicode, ColorMode::Monochrome),
];

fn style(graphics: Graphics, colors: ColorMode) -> Settings {
    Settings {
        graphics,
        colors,
        ..Settings::default()
    }
}

/// A marathon game (the App's seed is fixed, so always the same pieces) just after its
/// countdown, with `settings`.
fn game_with(settings: Settings) -> (App, u64) {
    // App seed 239: the first bag is I S T Z J O L under the uniformly shuffled bag of
    // `standard` version 2, as the usual app seed 7 dealt under version 1 (the pictures below
    // were drawn with those pieces).
    let mut a = App::new(crate::AppContext {
        player_name: "ada".into(),
        seed: 239,
        ..crate::AppContext::default()
    });
    a.set_settings(settings);
    a.play(ModeKind::Marathon, 0);
    a.tick(COUNTDOWN_MS);
    (a, COUNTDOWN_MS)
}

/// Where the board is in a drawn frame: its bottom edge's row, first and last column (the
/// frame's corners or the well's `<!` and `!>`).
fn board_bottom(buf: &Buffer) -> Option<(u16, u16, u16)> {
    let rows = lines(buf);
    for (y, row) in rows.iter().enumerate().rev() {
        let chars: Vec<char> = row.chars().collect();
        for (open, fill, close) in [('└', '─', '┘'), ('+', '-', '+'), ('!', '=', '!')] {
            let mut x = 0;
            while x < chars.len() {
                let run = chars[x + 1..].iter().take_while(|&&c| c == fill).count();
                if chars[x] == open && run >= 20 && chars.get(x + 1 + run) == Some(&close) {
                    let (left, right) = if open == '!' {
                        (x - 1, x + run + 2)
                    } else {
                        (x, x + run + 1)
                    };
                    return Some((y as u16, left as u16, right as u16));
                }
                x += 1;
            }
        }
    }
    None
}

/// The last `n` rows of the board above its bottom edge, walls or frame included.
fn board_tail(buf: &Buffer, n: u16) -> Vec<String> {
    let (bottom, left, right) = board_bottom(buf).expect("a board");
    let rows = lines(buf);
    (bottom - n..bottom)
        .map(|y| {
            rows[usize::from(y)]
                .chars()
                .skip(usize::from(left))
                .take(usize::from(right - left + 1))
                .collect()
        })
        .collect()
}

/// The board's width on screen, frame or walls included.
fn board_width(buf: &Buffer) -> u16 {
    let (_, left, right) = board_bottom(buf).expect("a board");
    right - left + 1
}

/// The first piece hard-dropped, then the screen after the lock flash and trail are gone.
fn after_one_drop(settings: Settings, w: u16, h: u16) -> Buffer {
    let (mut a, now) = game_with(settings);
    tap(&mut a, Key::Char(' '), now + 10);
    a.tick(now + 700);
    draw(&a, w, h)
}

/// A style, a terminal size and the board's last rows drawn there.
type Expected = (Graphics, ColorMode, (u16, u16), [&'static str; 5]);

#[test]
fn every_style_draws_its_board_exactly_at_each_size() {
    // The first piece (an I) lies on the floor, the next piece's ghost (an S) on it: 1x at
    // 80x24 and 100x40 (2x needs 44 rows), 2x at 200x60, by whole cells in every style (half
    // blocks drew cells one and two rows tall by turns).
    let expected: [Expected; 12] = [
        (
            Graphics::Unicode,
            ColorMode::Ansi256,
            (80, 24),
            [
                "│ · · · · · · · · · ·│",
                "│ · · · · · · · · · ·│",
                "│ · · · ·░░░░ · · · ·│",
                "│ · · ·░░░░ · · · · ·│",
                "│ · · ·████████ · · ·│",
            ],
        ),
        (
            Graphics::Unicode,
            ColorMode::Ansi256,
            (100, 40),
            [
                "│ · · · · · · · · · ·│",
                "│ · · · · · · · · · ·│",
                "│ · · · ·░░░░ · · · ·│",
                "│ · · ·░░░░ · · · · ·│",
                "│ · · ·████████ · · ·│",
            ],
        ),
        (
            Graphics::Unicode,
            ColorMode::Ansi256,
            (200, 60),
            [
                "│   ·   ·   ·   ·░░░░░░░░   ·   ·   ·   ·│",
                "│            ░░░░░░░░                    │",
                "│   ·   ·   ·░░░░░░░░   ·   ·   ·   ·   ·│",
                "│            ████████████████            │",
                "│   ·   ·   ·████████████████   ·   ·   ·│",
            ],
        ),
        (
            Graphics::Ascii,
            ColorMode::Ansi256,
            (80, 24),
            [
                "| . . . . . . . . . .|",
                "| . . . . . . . . . .|",
                "| . . . .:::: . . . .|",
                "| . . .:::: . . . . .|",
                "| . . .[][][][] . . .|",
            ],
        ),
        (
            Graphics::Ascii,
            ColorMode::Ansi256,
            (100, 40),
            [
                "| . . . . . . . . . .|",
                "| . . . . . . . . . .|",
                "| . . . .:::: . . . .|",
                "| . . .:::: . . . . .|",
                "| . . .[][][][] . . .|",
            ],
        ),
        (
            Graphics::Ascii,
            ColorMode::Ansi256,
            (200, 60),
            [
                "|   .   .   .   .::::::::   .   .   .   .|",
                "|            ::::::::                    |",
                "|   .   .   .::::::::   .   .   .   .   .|",
                "|            [[]][[]][[]][[]]            |",
                "|   .   .   .[[]][[]][[]][[]]   .   .   .|",
            ],
        ),
        (
            Graphics::Electronika,
            ColorMode::Ansi256,
            (80, 24),
            [
                "<! . . . . . . . . . .!>",
                "<! . . . . . . . . . .!>",
                "<! . . . .:::: . . . .!>",
                "<! . . .:::: . . . . .!>",
                "<! . . .[][][][] . . .!>",
            ],
        ),
        (
            Graphics::Electronika,
            ColorMode::Ansi256,
            (100, 40),
            [
                "<! . . . . . . . . . .!>",
                "<! . . . . . . . . . .!>",
                "<! . . . .:::: . . . .!>",
                "<! . . .:::: . . . . .!>",
                "<! . . .[][][][] . . .!>",
            ],
        ),
        (
            Graphics::Electronika,
            ColorMode::Ansi256,
            (200, 60),
            [
                "<!   .   .   .   .::::::::   .   .   .   .!>",
                "<!            ::::::::                    !>",
                "<!   .   .   .::::::::   .   .   .   .   .!>",
                "<!            [[]][[]][[]][[]]            !>",
                "<!   .   .   .[[]][[]][[]][[]]   .   .   .!>",
            ],
        ),
        (
            Graphics::Unicode,
            ColorMode::Monochrome,
            (80, 24),
            [
                "│ · · · · · · · · · ·│",
                "│ · · · · · · · · · ·│",
                "│ · · · ·░░░░ · · · ·│",
                "│ · · ·░░░░ · · · · ·│",
                "│ · · ·████████ · · ·│",
            ],
        ),
        (
            Graphics::Unicode,
            ColorMode::Monochrome,
            (100, 40),
            [
                "│ · · · · · · · · · ·│",
                "│ · · · · · · · · · ·│",
                "│ · · · ·░░░░ · · · ·│",
                "│ · · ·░░░░ · · · · ·│",
                "│ · · ·████████ · · ·│",
            ],
        ),
        (
            Graphics::Unicode,
            ColorMode::Monochrome,
            (200, 60),
            [
                "│   ·   ·   ·   ·░░░░░░░░   ·   ·   ·   ·│",
                "│            ░░░░░░░░                    │",
                "│   ·   ·   ·░░░░░░░░   ·   ·   ·   ·   ·│",
                "│            ████████████████            │",
                "│   ·   ·   ·████████████████   ·   ·   ·│",
            ],
        ),
    ];
    for (graphics, colors, (w, h), rows) in expected {
        let buf = after_one_drop(style(graphics, colors), w, h);
        assert_eq!(board_tail(&buf, 5), rows, "{graphics:?} {colors:?} {w}x{h}");
    }
}

/// The cell of `buf` where `text` starts on the first row holding it.
fn find(buf: &Buffer, text: &str) -> Option<(u16, u16)> {
    lines(buf).iter().enumerate().find_map(|(y, row)| {
        let byte = row.find(text)?;
        Some((row[..byte].chars().count() as u16, y as u16))
    })
}

#[test]
fn electronika_is_green_on_black_everywhere_on_the_game_screen() {
    for colors in [ColorMode::Ansi256, ColorMode::Monochrome] {
        let buf = after_one_drop(style(Graphics::Electronika, colors), 80, 24);
        let mono = colors == ColorMode::Monochrome;
        let (bright, dim, bg) = if mono {
            (Color::Reset, Color::Reset, Color::Reset)
        } else {
            (Color::Indexed(83), Color::Indexed(28), Color::Black)
        };
        let block = find(&buf, "[][][][]").expect("the I on the floor");
        let wall = find(&buf, "<!====").expect("the floor");
        let level = find(&buf, "LEVEL").expect("stats");
        let next = find(&buf, "NEXT").expect("next box");
        // Labels and frames dim, values, blocks and titles bright.
        for ((x, y), fg) in [(block, bright), (wall, dim), (level, dim), (next, bright)] {
            let cell = &buf[(x, y)];
            assert_eq!((cell.fg, cell.bg), (fg, bg), "{colors:?} at {x},{y}");
        }
        // The whole screen is painted black, not only the board.
        assert_eq!(buf[(0, 0)].bg, bg);
        assert_eq!(buf[(79, 23)].bg, bg);
        assert!(
            lines(&buf)
                .join("")
                .contains("\\/\\/\\/\\/\\/\\/\\/\\/\\/\\/")
        );
    }
}

#[test]
fn larger_terminals_draw_larger_boards() {
    for (graphics, colors) in STYLES {
        let settings = style(graphics, colors);
        let small = board_width(&after_one_drop(settings.clone(), 80, 24));
        let medium = board_width(&after_one_drop(settings.clone(), 100, 40));
        let large = board_width(&after_one_drop(settings.clone(), 200, 60));
        let well = if graphics == Graphics::Electronika {
            4
        } else {
            2
        };
        assert_eq!(small, 20 + well, "{graphics:?} {colors:?}");
        // Whole cells in every style: 2x needs 44 rows, so 100x40 keeps 1x.
        assert_eq!(
            (medium, large),
            (20 + well, 40 + well),
            "{graphics:?} {colors:?}"
        );
        // "Board size: 1x" keeps the small board.
        let one = Settings {
            board_size: BoardSize::One,
            ..settings
        };
        assert_eq!(board_width(&after_one_drop(one, 200, 60)), small);
    }
}

/// The board's columns of a frame, from the top of the screen to its bottom edge.
fn board_region(buf: &Buffer) -> String {
    let (bottom, left, right) = board_bottom(buf).expect("board");
    lines(buf)[..usize::from(bottom)]
        .iter()
        .map(|r| {
            r.chars()
                .skip(usize::from(left))
                .take(usize::from(right - left + 1))
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_hard_drop_leaves_a_fading_trail_that_ends_with_its_wakeups() {
    let trail_glyphs = |a: &App| {
        let buf = draw(a, 80, 24);
        let rows = lines(&buf);
        let (bottom, left, right) = board_bottom(&buf).expect("board");
        let board: Vec<String> = rows[usize::from(bottom) - 20..usize::from(bottom)]
            .iter()
            .map(|r| {
                r.chars()
                    .skip(usize::from(left))
                    .take(usize::from(right - left))
                    .collect()
            })
            .collect();
        let count = |g: char| board.iter().map(|r| r.matches(g).count()).sum::<usize>();
        (count('▓'), count('▒'), count('░'))
    };
    let (mut a, now) = game_with(Settings::default());
    let (_, _, ghost) = trail_glyphs(&a);
    let drop = now + 700;
    a.tick(drop);
    tap(&mut a, Key::Char(' '), drop);
    // At once: the I's four columns from its spawn row down to the floor, but for the upper
    // third, drawn with the drop's own frame.
    let (dark, medium, light) = trail_glyphs(&a);
    assert_eq!(dark, 0, "{dark} {medium} {light}");
    assert!(medium >= 4 * 2 * 10, "{dark} {medium} {light}");
    // The trail asks for no frame of its own: it ends with the lock flash, 120 ms later (a
    // marathon's clock shows whole seconds, so no tick of it comes first).
    assert_eq!(a.next_wakeup(), Some(drop + 120));
    let seen = wakeups(&mut a, drop + 120);
    assert_eq!(seen, [drop + 120], "{seen:?}");
    // Gone after 120 ms: only the new piece's ghost shades the board, and no wakeup is
    // asked for before the next second of the clock or gravity.
    assert_eq!(trail_glyphs(&a), (0, 0, ghost));
    assert!(
        a.next_wakeup().is_some_and(|w| w >= drop + 300),
        "{:?}",
        a.next_wakeup()
    );

    // Still whole at 119 ms.
    let (mut b, now) = game_with(Settings::default());
    b.tick(now + 700);
    tap(&mut b, Key::Char(' '), now + 700);
    b.tick(now + 819);
    let (_, medium, _) = trail_glyphs(&b);
    assert!(medium >= 4 * 2 * 10, "{medium}");

    // Turned off: no trail and no wakeups for it.
    let off = Settings {
        drop_trail: false,
        ..Settings::default()
    };
    let (mut c, now) = game_with(off);
    c.tick(now + 700);
    tap(&mut c, Key::Char(' '), now + 700);
    assert_eq!(trail_glyphs(&c), (0, 0, ghost));
    let seen = wakeups(&mut c, now + 820);
    assert_eq!(seen, [now + 820], "only the lock flash's end");
}

#[test]
fn the_trail_shows_at_every_scale_and_style() {
    for (graphics, colors) in STYLES {
        for (w, h) in [(80, 24), (100, 40), (200, 60)] {
            let (mut a, now) = game_with(style(graphics, colors));
            a.tick(now + 700);
            tap(&mut a, Key::Char(' '), now + 700);
            let during = board_region(&draw(&a, w, h));
            a.tick(now + 820);
            let after = board_region(&draw(&a, w, h));
            let glyph = if graphics == Graphics::Unicode {
                "▒"
            } else {
                "''"
            };
            assert!(
                during.contains(glyph),
                "{graphics:?} {colors:?} {w}x{h}\n{during}"
            );
            assert!(
                !after.contains(glyph),
                "{graphics:?} {colors:?} {w}x{h}\n{after}"
            );
        }
    }
}

#[test]
fn any_size_draws_without_panic_and_the_game_screen_never_overlaps() {
    let mut sizes: Vec<(u16, u16)> = Vec::new();
    for w in (1..=300).step_by(13) {
        for h in (1..=100).step_by(7) {
            sizes.push((w, h));
        }
    }
    // Around each scale's threshold.
    for (w, h) in [
        (54, 24),
        (56, 24),
        (60, 24),
        (66, 34),
        (65, 34),
        (66, 33),
        (76, 44),
    ] {
        sizes.extend([(w, h), (w + 1, h + 1), (w - 1, h), (w, h - 1)]);
    }
    sizes.extend([(1, 1), (300, 100), (59, 23), (60, 23), (86, 54), (96, 64)]);
    for (graphics, colors) in STYLES {
        let (mut a, now) = game_with(style(graphics, colors));
        a.tick(now + 700);
        tap(&mut a, Key::Char(' '), now + 700);
        for &(w, h) in &sizes {
            let buf = draw(&a, w, h);
            if w < 60 || h < 24 {
                assert!(board_bottom(&buf).is_none(), "{w}x{h}: please enlarge");
                continue;
            }
            let rows = lines(&buf);
            let (bottom, _, _) = board_bottom(&buf).expect("the board");
            let title = rows.iter().position(|r| r.contains("MINOTTY"));
            let footer = rows.iter().position(|r| r.contains("Esc pause"));
            let (Some(title), Some(footer)) = (title, footer) else {
                panic!("{graphics:?} {w}x{h}\n{}", rows.join("\n"));
            };
            assert!(title < usize::from(bottom) && usize::from(bottom) < footer);
            // The board's top row follows the title row, the footer its bottom edge
            // (the well's `\/` row in the Electronika 60 style).
            let under = if graphics == Graphics::Electronika {
                2
            } else {
                1
            };
            assert_eq!(footer, usize::from(bottom) + under, "{graphics:?} {w}x{h}");
            assert!(rows[title].contains("ada"), "{w}x{h}: {}", rows[title]);
        }
    }
}

#[test]
fn the_settings_screen_offers_electronika_trail_and_board_size() {
    let mut a = app();
    menu_item(&mut a, 4); // Settings
    for _ in 0..8 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Left, 0); // Unicode -> Electronika 60 (wrapping back)
    assert_eq!(a.settings().graphics, Graphics::Electronika);
    let shown = lines(&draw(&a, 80, 24)).join("\n");
    assert!(shown.contains("< Electronika 60 >"), "{shown}");
    for _ in 0..5 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Right, 0);
    assert!(!a.settings().drop_trail);
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Right, 0);
    assert_eq!(a.settings().board_size, BoardSize::One);
    let shown = lines(&draw(&a, 80, 24)).join("\n");
    assert!(
        shown.contains("Effects") && shown.contains("no trail"),
        "{shown}"
    );
    assert!(shown.contains("< 1x >"), "{shown}");
    assert!(a.take_settings_changed());
}

#[test]
fn electronika_paints_the_menus_black_too() {
    let mut a = app();
    a.set_settings(style(Graphics::Electronika, ColorMode::Ansi256));
    let buf = draw(&a, 80, 24);
    let play = find(&buf, "Play").expect("menu");
    assert_eq!(buf[play].bg, Color::Black);
    assert_eq!(buf[(0, 0)].bg, Color::Black);
    assert_eq!(buf[play].fg, Color::Indexed(83));
    a.set_settings(style(Graphics::Electronika, ColorMode::Monochrome));
    let buf = draw(&a, 80, 24);
    assert_eq!(buf[(0, 0)].bg, Color::Reset);
}
