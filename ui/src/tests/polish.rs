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
