//! A session in a huge window: it holds no more cells than the largest screen the UI lays out
//! (`terminal::DRAW_COLS` x `DRAW_ROWS`), and the player still sees the App's screen, whole
//! and exact, centred in the window (read back with a terminal emulator, `vt100`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use tokio::time::Instant;
use unicode_width::UnicodeWidthStr;

use super::SessionEvent;
use super::core::{Event, Session, Start};
use super::tests::{limits, services};
use crate::terminal::{DRAW_COLS, DRAW_ROWS};

fn session(t0: Instant, size: (u32, u32)) -> Session {
    let (services, _responses) = services();
    let app = minotty_ui::App::new(minotty_ui::AppContext::default());
    Session::new(
        t0,
        app,
        Start {
            services,
            size,
            stream: false,
            limits: limits(),
            client: crate::doctor::ClientInfo::default(),
            public_name: "~ada".into(),
            unix_start: 1_700_000_000,
        },
    )
}

/// Draws what is due at `now` into `parser` (the client's terminal).
fn frame(s: &mut Session, now: Instant, parser: &mut vt100::Parser) {
    assert_eq!(s.begin(now), Ok(()));
    if let Some(bytes) = s.plan(now).write {
        parser.process(&bytes);
        assert_eq!(s.on_event(now, Event::Written(Ok(()))), None);
    }
}

/// The client's screen is the App's screen at the drawn size, centred, and blank around it.
fn assert_shows_the_app(s: &mut Session, parser: &vt100::Parser) {
    let (cols, rows) = s.term_size();
    let (w, h) = s.term().drawn_size();
    let mut app_screen = Buffer::empty(Rect::new(0, 0, w, h));
    s.app_mut().render_into(app_screen.area, &mut app_screen);
    let (x0, y0) = ((cols - w) / 2, (rows - h) / 2);
    let screen = parser.screen();
    let blank = |t: &str| {
        if t == " " {
            String::new()
        } else {
            t.to_owned()
        }
    };
    let mut drawn = 0;
    for y in 0..rows {
        let mut x = 0;
        while x < cols {
            let inside = (x0..x0 + w).contains(&x) && (y0..y0 + h).contains(&y);
            let want = if inside {
                app_screen[(x - x0, y - y0)].symbol()
            } else {
                " "
            };
            let got = screen.cell(y, x).expect("in the screen").contents();
            assert_eq!(blank(got), blank(want), "at ({x}, {y}) of {cols}x{rows}");
            drawn += usize::from(want != " ");
            x += u16::try_from(want.width().max(1)).unwrap_or(1);
        }
    }
    assert!(drawn > 100, "the screen shows something: {drawn} cells");
}

#[tokio::test(start_paused = true)]
async fn a_500x200_window_holds_at_most_the_drawn_cells_and_shows_the_whole_screen() {
    let t0 = Instant::now();
    let mut s = session(t0, (500, 200));
    let cap = usize::from(DRAW_COLS) * usize::from(DRAW_ROWS);
    assert_eq!(s.term_size(), (500, 200));
    assert_eq!(s.term().drawn_size(), (DRAW_COLS, DRAW_ROWS));
    assert!(s.term().cells() <= cap, "{} cells", s.term().cells());
    assert!(
        s.term().capacity().0 <= cap,
        "room for {} cells",
        s.term().capacity().0
    );
    let nz = |v: u16| std::num::NonZeroU16::new(v).expect("not zero");
    let mut parser = vt100::Parser::new(nz(200), nz(500), 0);
    frame(&mut s, t0, &mut parser);
    assert_shows_the_app(&mut s, &parser);
    // Into a game (the menu's first entry, its first mode), a few seconds in: still exact.
    let mut t = t0;
    for key in [b"\r".as_slice(), b"\r", b"\r"] {
        t += std::time::Duration::from_millis(200);
        assert_eq!(
            s.on_event(t, Event::Client(SessionEvent::Input(key.to_vec()))),
            None
        );
        s.after_event(t);
        frame(&mut s, t, &mut parser);
    }
    for _ in 0..30 {
        t += std::time::Duration::from_millis(100);
        frame(&mut s, t, &mut parser);
    }
    assert_shows_the_app(&mut s, &parser);
    assert!(s.term().cells() <= cap);
    // Back to 80x24: everything drawn, and only 80x24's cells held.
    let t = t + crate::resize::RESIZE_QUIET;
    assert_eq!(s.on_event(t, Event::WindowChanged), None);
    let t = t + crate::resize::RESIZE_QUIET;
    s.on_resize(t, (80, 24), false);
    assert_eq!(s.term().cells(), 80 * 24);
    let mut parser = vt100::Parser::new(nz(24), nz(80), 0);
    frame(&mut s, t, &mut parser);
    assert_shows_the_app(&mut s, &parser);
}
