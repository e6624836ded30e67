//! The terminal doctor: opened from Settings or at the start, its request, its report drawn at
//! 80x24 and 200x60 (and tiny sizes), `r` again, Esc back or out.

use minotty_engine::ModeKind;

use super::*;
use crate::doctor::{DoctorReport, GLYPHS, Probe, Rtt};
use crate::{Request, Response};

fn report() -> DoctorReport {
    let mut widths = vec![Some(1); GLYPHS.len()];
    widths[6] = Some(2);
    DoctorReport {
        pty: true,
        term: Some("tmux-256color".into()),
        colorterm: None,
        term_program: Some("tmux".into()),
        lang: Some("en_US.UTF-8".into()),
        ssh_client: Some("SSH-2.0-OpenSSH_9.6".into()),
        kitty_flags: Probe::NoAnswer,
        sync: Probe::NoAnswer,
        rgb: Probe::NoAnswer,
        version: Probe::Answer("tmux 3.3a".into()),
        widths: Probe::Answer(widths),
        rtt: Probe::Answer(Rtt {
            median_ms: 4,
            max_ms: 9,
            samples: 5,
        }),
        keys_on_grid: false,
    }
}

/// Main menu, Settings, up to "Terminal doctor", Enter.
fn open_from_settings() -> App {
    open_from_settings_of(app())
}

/// [`open_from_settings`] from `a` on its main menu.
fn open_from_settings_of(mut a: App) -> App {
    for _ in 0..4 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    for _ in 0..4 {
        press(&mut a, Key::Up, 0);
    }
    assert!(screen(&a).contains("Terminal doctor"));
    a.take_requests();
    press(&mut a, Key::Enter, 0);
    a
}

#[test]
fn settings_opens_the_doctor_which_asks_and_shows_the_report() {
    let mut a = open_from_settings();
    assert_eq!(a.take_requests(), [Request::RunDoctor]);
    assert!(a.doctor_running());
    let s = screen(&a);
    assert!(s.contains("TERMINAL DOCTOR"), "{s}");
    assert!(s.contains("Asking your terminal"), "{s}");
    assert!(s.contains("asking your terminal..."), "{s}");
    // `r` while it runs asks nothing more.
    press(&mut a, Key::Char('r'), 0);
    assert_eq!(a.take_requests(), []);

    a.deliver(Response::Doctor(Box::new(report())), 10);
    assert!(!a.doctor_running());
    let s = screen(&a);
    for want in [
        "[..] Terminal",
        "tmux 3.3a (TERM=tmux-256color)",
        "[!!] Keyboard",
        "no kitty keyboard protocol",
        "[!!] Sync output",
        "[!!] Multiplexer",
        "inside tmux 3.3a",
        "[no] Glyph widths",
        "1 wrong: ◆ is 2",
        "[ok] Round trip",
        "median 4 ms, max 9 ms",
        "What to change",
        "set -s extended-keys on",
        "r check again",
    ] {
        assert!(s.contains(want), "{want:?} missing in\n{s}");
    }
    // r asks again; Esc goes back to the settings.
    press(&mut a, Key::Char('r'), 20);
    assert_eq!(a.take_requests(), [Request::RunDoctor]);
    a.deliver(Response::Doctor(Box::new(report())), 30);
    press(&mut a, Key::Esc, 40);
    assert!(screen(&a).contains("SETTINGS"));
    assert!(!a.should_quit());
}

#[test]
fn the_advice_scrolls_at_80x24_and_all_shows_at_200x60() {
    let mut a = open_from_settings();
    let busy = DoctorReport {
        lang: Some("C".into()),
        rtt: Probe::Answer(Rtt {
            median_ms: 150,
            max_ms: 300,
            samples: 5,
        }),
        ..report()
    };
    a.deliver(Response::Doctor(Box::new(busy)), 10);
    let small = screen(&a);
    // More advice than fits in 24 rows: the heading says which lines show.
    assert!(small.contains("What to change (1-"), "{small}");
    assert!(!small.contains("a nearer server"), "{small}");
    for _ in 0..20 {
        press(&mut a, Key::Down, 0);
    }
    let scrolled = screen(&a);
    assert!(scrolled.contains("a nearer server"), "{scrolled}");
    assert!(!scrolled.contains("extended-keys"), "{scrolled}");
    let big = lines(&draw(&a, 200, 60)).join("\n");
    for want in [
        "set -s extended-keys on",
        "',*:sync'",
        "',*:RGB'",
        "Graphics: ASCII",
        "SendEnv COLORTERM",
        "Slow round trip",
        "LANG is not UTF-8",
    ] {
        assert!(big.contains(want), "{want:?} missing at 200x60\n{big}");
    }
    // Tiny terminals never panic.
    for (w, h) in [(1, 1), (10, 3), (59, 23), (60, 24), (80, 5)] {
        draw(&a, w, h);
    }
}

#[test]
fn a_good_terminal_needs_nothing() {
    let mut a = open_from_settings();
    let good = DoctorReport {
        term: Some("xterm-kitty".into()),
        colorterm: Some("truecolor".into()),
        term_program: None,
        kitty_flags: Probe::Answer(0),
        sync: Probe::Answer(2),
        rgb: Probe::Answer(true),
        version: Probe::Answer("kitty(0.32.2)".into()),
        widths: Probe::Answer(vec![Some(1); GLYPHS.len()]),
        // An OpenSSH from before the keystroke timer.
        ssh_client: Some("SSH-2.0-OpenSSH_9.4".into()),
        ..report()
    };
    a.deliver(Response::Doctor(Box::new(good)), 10);
    let s = screen(&a);
    assert!(s.contains("Nothing to change"), "{s}");
    assert!(s.contains("[ok] Sync output"), "{s}");
    assert!(s.contains("[ok] True colour"), "{s}");
}

#[test]
fn opened_by_the_doctor_command_leaving_ends_the_session() {
    let mut a = App::new(AppContext {
        player_name: "ada".into(),
        start_doctor: true,
        ..AppContext::default()
    });
    assert!(a.take_requests().contains(&Request::RunDoctor));
    a.deliver(Response::Doctor(Box::new(report())), 10);
    assert!(screen(&a).contains("q/Esc end"));
    press(&mut a, Key::Char('q'), 20);
    assert!(a.should_quit());
}

#[test]
fn without_a_server_the_doctor_says_how_to_run_it() {
    let mut a = open_from_settings();
    assert_eq!(a.take_requests(), [Request::RunDoctor]);
    a.deliver(Response::Offline, 10);
    let s = screen(&a);
    assert!(s.contains("ssh -t -p PORT HOST doctor"), "{s}");
    press(&mut a, Key::Char('r'), 20);
    assert_eq!(a.take_requests(), []);
}

/// Issue 41: keys that arrive on OpenSSH's 20 ms keystroke grid. The game's footer says so
/// once the detector is sure (the 48th packet), with the option that turns it off; the doctor
/// then gives the advice whatever the client's version string says.
#[test]
fn keys_on_the_openssh_grid_are_told_in_the_game_and_by_the_doctor() {
    let (mut a, now) = playing(ModeKind::Endless);
    let notice = crate::keygrid::NOTICE;
    // Taps every 140 ms, each arriving 7 ms past a tick of the 20 ms grid.
    let at = |i: u64| (now / 20 + 1 + 7 * i) * 20 + 7;
    for i in 0..crate::keygrid::WINDOW as u64 - 1 {
        let key = if i % 2 == 0 { Key::Left } else { Key::Right };
        tap(&mut a, key, at(i));
        assert!(
            !screen(&a).contains(notice),
            "not before the window is full ({i})"
        );
    }
    tap(&mut a, Key::Left, at(47));
    let s = screen(&a);
    assert!(s.contains(notice), "{s}");
    // The doctor, opened later, knows: here the keys (unbound ones, on the main menu) came on
    // the grid before it opened.
    let report = DoctorReport {
        ssh_client: Some("SSH-2.0-OpenSSH_9.4".into()),
        ..report()
    };
    let mut d = app();
    for i in 0..crate::keygrid::WINDOW as u64 {
        d.handle_key(crate::keys::KeyEvent::press(Key::F(9)), i * 100 + 13);
    }
    let mut d = open_from_settings_of(d);
    d.deliver(Response::Doctor(Box::new(report.clone())), 5_000);
    assert!(
        screen(&d).contains("Your keys arrive on a 20 ms grid"),
        "{}",
        screen(&d)
    );
    // Keys at a player's own times: no word of it.
    let mut plain = open_from_settings();
    plain.deliver(Response::Doctor(Box::new(report)), 10);
    assert!(!screen(&plain).contains("20 ms grid"), "{}", screen(&plain));
}
