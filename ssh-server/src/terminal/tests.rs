use super::*;
use ratatui::buffer::Buffer;
use ratatui::style::Stylize;
use ratatui::widgets::{Paragraph, Widget};

/// What a real terminal emulator shows after `bytes`.
fn screen(term: &RemoteTerminal, bytes: &[u8]) -> Screen {
    let (cols, rows) = term.size();
    let nz = |v: u16| std::num::NonZeroU16::new(v).expect("not zero");
    let mut parser = vt100::Parser::new(nz(rows), nz(cols), 0);
    parser.process(bytes);
    Screen { parser, cols }
}

struct Screen {
    parser: vt100::Parser,
    cols: u16,
}

impl Screen {
    /// Row `y`, a blank for every empty cell (wide characters once).
    fn line(&self, y: u16) -> String {
        let s = self.parser.screen();
        (0..self.cols)
            .filter_map(|x| s.cell(y, x))
            .filter(|c| !c.is_wide_continuation())
            .map(|c| match c.contents() {
                "" => " ",
                t => t,
            })
            .collect()
    }
}

#[test]
fn draws_and_then_sends_only_changes() {
    let mut term = RemoteTerminal::new(20, 3);
    term.draw(|area, buf| Paragraph::new("hello █ world").render(area, buf));
    let first = term.take_output();
    assert_eq!(screen(&term, &first).line(0), "hello █ world       ");

    term.draw(|area, buf| Paragraph::new("hello █ World").render(area, buf));
    let second = term.take_output();
    assert!(second.len() < 40, "{:?}", String::from_utf8_lossy(&second));
    assert!(String::from_utf8_lossy(&second).contains('W'));
    assert_eq!(
        screen(&term, &[first, second].concat()).line(0),
        "hello █ World       "
    );
}

#[test]
fn changes_are_written_grouped_by_style() {
    let mut term = RemoteTerminal::new(12, 1);
    term.draw(|area, buf| {
        let line = ratatui::text::Line::from(vec!["a".red(), "b".blue(), "c".red(), "d".blue()]);
        Paragraph::new(line).render(area, buf)
    });
    let out = String::from_utf8(term.take_output()).unwrap();
    // The first switch resets everything; the second changes only the foreground.
    assert_eq!(out.matches("\x1b[0;31m").count(), 1, "{out:?}");
    assert_eq!(out.matches("\x1b[34m").count(), 1, "{out:?}");
    assert!(!out.contains("\x1b[0;34m"), "{out:?}");
    assert_eq!(screen(&term, out.as_bytes()).line(0), "abcd        ");
}

#[test]
fn further_along_a_row_the_cursor_moves_forward_not_absolutely() {
    let mut term = RemoteTerminal::new(20, 2);
    term.draw(|area, buf| Paragraph::new("a    b\nc").render(area, buf));
    let out = String::from_utf8(term.take_output()).unwrap();
    // "a", 4 unchanged blanks skipped forward, "b", then row 2 by the shortest move
    // (carriage return and down: 4 bytes against 4 for `CSI 2 H`, absolute wins ties).
    assert!(out.contains("a\x1b[4Cb"), "{out:?}");
    assert!(out.ends_with("\x1b[2Hc"), "{out:?}");
    assert_eq!(
        screen(&term, out.as_bytes()).line(0),
        "a    b              "
    );
    assert_eq!(
        screen(&term, out.as_bytes()).line(1),
        "c                   "
    );
}

#[test]
fn a_short_move_left_is_backspaces() {
    let mut term = RemoteTerminal::new(20, 3);
    term.draw(|area, buf| Paragraph::new("\n          ab").render(area, buf));
    let first = term.take_output();
    // The cursor is after "b" (column 12); "x" goes to column 10: two backspaces (2 bytes)
    // rather than `CSI 2 D` (4), `CR CSI 10 C` (6) or `CSI 2;11 H` (8).
    term.draw(|area, buf| Paragraph::new("\n          xb").render(area, buf));
    let out = String::from_utf8(term.take_output()).unwrap();
    assert_eq!(out, "\x08\x08x");
    let shown = screen(&term, &[first, out.into_bytes()].concat());
    assert_eq!(shown.line(1), "          xb        ");
}

#[test]
fn a_frame_starts_in_the_style_the_client_has() {
    let mut term = RemoteTerminal::new(12, 1);
    let line = |a: &'static str, b: &'static str| {
        ratatui::text::Line::from(vec![a.red(), " ".into(), b.blue()])
    };
    term.draw(|area, buf| Paragraph::new(line("a", "b")).render(area, buf));
    let first = term.take_output();
    assert!(String::from_utf8_lossy(&first).ends_with("\x1b[34mb"));
    // Both change: the blue one is written first, with no switch, then the red one.
    term.draw(|area, buf| Paragraph::new(line("c", "d")).render(area, buf));
    let out = String::from_utf8(term.take_output()).unwrap();
    assert_eq!(out.matches("\x1b[").count(), 1, "{out:?}");
    assert!(out.starts_with("\x08d"), "{out:?}");
    assert!(out.contains("\x1b[31mc"), "{out:?}");
    assert_eq!(
        screen(&term, &[first, out.into_bytes()].concat()).line(0),
        "c d         "
    );
}

#[test]
fn colours_and_modifiers_become_sgr() {
    let mut term = RemoteTerminal::new(10, 1);
    term.draw(|area, buf| Paragraph::new("x".red().on_blue().bold()).render(area, buf));
    let out = String::from_utf8(term.take_output()).unwrap();
    assert!(out.contains("\x1b[0;1;31;44mx"), "{out:?}");
}

#[test]
fn resize_repaints_everything_at_the_new_size() {
    let mut term = RemoteTerminal::new(10, 2);
    term.draw(|area, buf| Paragraph::new("abc").render(area, buf));
    term.take_output();
    term.resize(30, 5);
    assert_eq!(term.size(), (30, 5));
    term.draw(|area, buf| Paragraph::new("abc").render(area, buf));
    let out = term.take_output();
    assert!(String::from_utf8_lossy(&out).contains("abc"));
    term.resize(5, 2);
    term.draw(|area, buf| Paragraph::new("abcdefgh").render(area, buf));
    let out = term.take_output();
    assert_eq!(screen(&term, &out).line(0), "abcde");
}

#[test]
fn wide_characters_are_replaced_cleanly() {
    let mut term = RemoteTerminal::new(10, 1);
    term.draw(|area, buf| Paragraph::new("a界b").render(area, buf));
    let out = String::from_utf8(term.take_output()).unwrap();
    assert!(out.contains("a界b"), "{out:?}");
    term.draw(|area, buf| Paragraph::new("axyb").render(area, buf));
    let out = String::from_utf8(term.take_output()).unwrap();
    assert!(out.contains('x') && out.contains('y'), "{out:?}");
    assert!(!out.contains('a') && !out.contains('b'), "{out:?}");
}

#[test]
fn terminals_of_different_sizes_share_the_thread_buffer_cleanly() {
    let mut wide = RemoteTerminal::new(30, 4);
    let mut small = RemoteTerminal::new(8, 2);
    let (mut wide_bytes, mut small_bytes) = (Vec::new(), Vec::new());
    for (w, s) in [
        ("first wide", "one"),
        ("second", "two"),
        ("third wide", "3"),
    ] {
        wide.draw(|area, buf| Paragraph::new(w).render(area, buf));
        wide_bytes.extend(wide.take_output());
        small.draw(|area, buf| Paragraph::new(s).render(area, buf));
        small_bytes.extend(small.take_output());
        assert_eq!(screen(&wide, &wide_bytes).line(0).trim_end(), w);
        assert_eq!(screen(&small, &small_bytes).line(0).trim_end(), s);
        assert_eq!(screen(&wide, &wide_bytes).line(1).trim_end(), "");
    }
    // Nothing changed: nothing written, whatever the other drew in between.
    small.draw(|area, buf| Paragraph::new("3").render(area, buf));
    wide.draw(|area, buf| Paragraph::new("third wide").render(area, buf));
    assert!(wide.take_output().is_empty());
    assert!(small.take_output().is_empty());
}

#[test]
fn an_unchanged_frame_writes_nothing() {
    let mut term = RemoteTerminal::new(30, 5);
    let draw = |area, buf: &mut Buffer| Paragraph::new("same".bold()).render(area, buf);
    term.draw(draw);
    assert!(!term.take_output().is_empty());
    term.draw(draw);
    assert!(term.take_output().is_empty());
}
