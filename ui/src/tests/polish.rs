//! Small things a player notices: the game footer while paused, "1 line" (never "1 lines").

use minotty_engine::ModeKind;

use super::*;

/// The footer under the board says what Esc does now: pause while playing, resume while paused.
#[test]
fn the_footer_says_esc_resumes_while_paused() {
    let (mut a, now) = playing(ModeKind::Marathon);
    let s = screen(&a);
    assert!(s.contains("Esc pause"), "{s}");
    press(&mut a, Key::Esc, now + 10);
    let s = screen(&a);
    assert!(s.contains("PAUSED"), "{s}");
    assert!(!s.contains("Esc pause"), "{s}");
    assert!(s.contains("Esc resume   Ctrl+C quit"), "{s}");
    press(&mut a, Key::Esc, now + 1000);
    let s = screen(&a);
    assert!(!s.contains("PAUSED") && s.contains("Esc pause"), "{s}");
}

/// The streamed TV's hint names the server's own address when the front end knows it (the SSH
/// server passes the address the client connected to), and keeps `HOST` when it does not.
#[test]
fn the_streamed_tv_names_the_servers_address() {
    for (address, want) in [
        (
            Some("-p 2222 192.0.2.7".to_owned()),
            "minotty live TV: ssh -t -p 2222 192.0.2.7 watch for keys   Ctrl+C ends",
        ),
        (
            None,
            "minotty live TV: ssh -t HOST watch for keys   Ctrl+C ends",
        ),
    ] {
        let a = App::new(AppContext {
            tv_stream: true,
            server_address: address,
            ..AppContext::default()
        });
        let s = screen(&a);
        assert_eq!(s.lines().last().map(str::trim), Some(want), "{s}");
    }
}

/// One of a thing is never "1 lines": the leaderboard's results and the plural helper.
#[test]
fn one_line_one_piece_one_row_are_singular() {
    use crate::boards::{Figures, result};
    use crate::text::plural;
    assert_eq!(plural(1u32, "line", "lines"), "line");
    assert_eq!(plural(0u32, "line", "lines"), "lines");
    assert_eq!(plural(2u64, "line", "lines"), "lines");
    let f = |lines, pieces| Figures {
        lines,
        pieces,
        time_ms: 61_000,
        score: 0,
        max_combo: 0,
        level: 0,
    };
    assert!(result(ModeKind::Master, f(1, 0)).starts_with("1 line "));
    assert!(result(ModeKind::Master, f(2, 0)).starts_with("2 lines "));
    assert!(result(ModeKind::Custom, f(1, 0)).starts_with("1 line "));
    assert_eq!(result(ModeKind::Cheese, f(0, 1)), "1 piece");
    assert_eq!(result(ModeKind::Cheese, f(0, 12)), "12 pieces");
}
