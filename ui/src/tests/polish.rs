//! Small things a player notices: the game footer while paused.

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
