use super::*;
use proptest::prelude::*;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};
use unicode_width::UnicodeWidthStr;

const SYMBOLS: [&str; 8] = [" ", "·", "█", "░", "a", "7", "▮", "漢"];
const COLORS: [Color; 5] = [
    Color::Reset,
    Color::Indexed(238),
    Color::Indexed(46),
    Color::Red,
    Color::Rgb(1, 2, 3),
];

fn vt_color(c: Color) -> vt100::Color {
    match c {
        Color::Reset => vt100::Color::Default,
        Color::Indexed(i) => vt100::Color::Idx(i),
        Color::Red => vt100::Color::Idx(1),
        Color::Rgb(r, g, b) => vt100::Color::Rgb(r, g, b),
        other => panic!("not in the palette: {other:?}"),
    }
}

/// A frame: per row, runs of (symbol, fg, bg, bold, reversed, length).
type Frame = Vec<Vec<(usize, usize, usize, bool, bool, u16)>>;

fn frames(cols: u16, rows: u16) -> impl Strategy<Value = Vec<Frame>> {
    let run = (
        0..SYMBOLS.len(),
        0..COLORS.len(),
        0..2usize,
        any::<bool>(),
        any::<bool>(),
        1..4u16,
    );
    let row = proptest::collection::vec(run, 0..(cols as usize));
    proptest::collection::vec(proptest::collection::vec(row, rows as usize), 1..6)
}

fn draw(buf: &mut Buffer, frame: &Frame, keep: &[bool]) {
    for (y, runs) in frame.iter().enumerate() {
        if keep.get(y).copied().unwrap_or(false) {
            continue;
        }
        let mut x = 0u16;
        for &(sym, fg, bg, bold, rev, len) in runs {
            let mut style = Style::default().fg(COLORS[fg]).bg(COLORS[bg * 2]);
            if bold {
                style = style.add_modifier(Modifier::BOLD);
            }
            if rev {
                style = style.add_modifier(Modifier::REVERSED);
            }
            let text = SYMBOLS[sym].repeat(usize::from(len));
            let width = buf.area.width;
            if x >= width {
                break;
            }
            let (nx, _) = buf.set_stringn(x, y as u16, &text, usize::from(width - x), style);
            x = nx;
        }
    }
}

fn check(term: &RemoteTerminal, parser: &vt100::Parser) -> Result<(), TestCaseError> {
    let screen = parser.screen();
    let shown = &term.shown;
    let mut kept = ratatui::buffer::Buffer::empty(shown.area);
    for (i, cell) in kept.content.iter_mut().enumerate() {
        cell.set_symbol(shown.symbol(i));
        let (fg, bg, modifier) = shown.style(i).expect("a known style");
        cell.set_fg(fg).set_bg(bg);
        cell.modifier = modifier;
    }
    for y in 0..shown.area.height {
        let mut x = 0;
        while x < shown.area.width {
            let want = &kept[(shown.area.x + x, shown.area.y + y)];
            let got = screen.cell(y, x).expect("in the screen");
            fn blank(t: &str) -> &str {
                if t == " " { "" } else { t }
            }
            prop_assert_eq!(
                blank(got.contents()),
                blank(want.symbol()),
                "symbol at ({}, {})",
                x,
                y
            );
            let rev = want.modifier.contains(Modifier::REVERSED);
            prop_assert_eq!(got.inverse(), rev, "reverse at ({}, {})", x, y);
            prop_assert_eq!(got.bgcolor(), vt_color(want.bg), "bg at ({}, {})", x, y);
            // A blank's foreground and bold do not show (unless reversed).
            if want.symbol() != " " || rev {
                prop_assert_eq!(got.fgcolor(), vt_color(want.fg), "fg at ({}, {})", x, y);
                prop_assert_eq!(
                    got.bold(),
                    want.modifier.contains(Modifier::BOLD),
                    "bold at ({}, {})",
                    x,
                    y
                );
            }
            x += u16::try_from(want.symbol().width().max(1)).unwrap_or(1);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn the_emulated_screen_shows_every_frame_exactly(
        frames in frames(23, 6),
        keep in proptest::collection::vec(proptest::collection::vec(any::<bool>(), 6), 6),
    ) {
        let (cols, rows) = (23u16, 6u16);
        let mut term = RemoteTerminal::new(cols, rows);
        let nz = |v: u16| std::num::NonZeroU16::new(v).expect("not zero");
        let mut parser = vt100::Parser::new(nz(rows), nz(cols), 0);
        parser.process(ENTER);
        let mut last: Option<&Frame> = None;
        for (i, frame) in frames.iter().enumerate() {
            // Some rows keep the previous frame's content: small changes between frames.
            let keep_rows = keep.get(i).cloned().unwrap_or_default();
            term.draw(|_, buf| {
                if let Some(prev) = last {
                    draw(buf, prev, &[]);
                }
                draw(buf, frame, &keep_rows);
            });
            last = Some(frame);
            parser.process(&frame_bytes(&[], &term.take_output()));
            check(&term, &parser)?;
        }
    }
}

/// Every pair of frames of three cells (blank, narrow, wide; plain or reversed) on a
/// 4-column screen: wide characters that half overlap old ones, and their covered cells.
#[test]
fn every_pair_of_small_frames_with_wide_characters_shows_exactly() {
    let symbols = [" ", "a", "漢"];
    let styles = [
        Style::default(),
        Style::default().add_modifier(Modifier::REVERSED),
    ];
    let nz = |v: u16| std::num::NonZeroU16::new(v).expect("not zero");
    let frames: Vec<Vec<(usize, usize)>> = (0..6usize.pow(3))
        .map(|mut n| {
            (0..3)
                .map(|_| {
                    let v = n % 6;
                    n /= 6;
                    (v / 2, v % 2)
                })
                .collect()
        })
        .collect();
    for a in &frames {
        for b in &frames {
            let mut term = RemoteTerminal::new(4, 1);
            let mut parser = vt100::Parser::new(nz(1), nz(4), 0);
            parser.process(ENTER);
            for frame in [a, b] {
                term.draw(|_, buf| {
                    let mut x = 0u16;
                    for &(sym, style) in frame {
                        if x >= 4 {
                            break;
                        }
                        let n = usize::from(4 - x);
                        x = buf.set_stringn(x, 0, symbols[sym], n, styles[style]).0;
                    }
                });
                parser.process(&frame_bytes(&[], &term.take_output()));
            }
            if let Err(e) = check(&term, &parser) {
                panic!("{a:?} then {b:?}: {e}");
            }
        }
    }
}
