//! The results say once that a game is not ranked: the screen's own line, or the server's
//! note when the screen has none.

use minotty_engine::ModeKind;

use super::*;
use crate::Response;
use minotty_protocol::GameRecorded;

fn recorded(note: &str) -> Response {
    Response::GameRecorded(GameRecorded {
        game: 5,
        personal_best: false,
        rank: None,
        note: Some(note.into()),
        previous_best: None,
    })
}

#[test]
fn a_paused_timed_game_is_said_not_ranked_once() {
    let mut a = registered();
    a.play(ModeKind::Ultra, 0);
    a.tick(COUNTDOWN_MS);
    let now = COUNTDOWN_MS;
    press(&mut a, Key::Esc, now + 100);
    press(&mut a, Key::Char('y'), now + 100);
    press(&mut a, Key::Esc, now + 5_000); // resume
    wakeups(&mut a, now + 5_000 + 185_000);
    press(&mut a, Key::Enter, now + 5_000 + 185_000); // the final board waits for Enter
    a.deliver(recorded("not ranked: the game was paused"), now + 190_000);
    let s = screen(&a);
    assert!(s.contains("RESULTS: Ultra"), "{s}");
    assert_eq!(s.matches("not ranked").count(), 1, "{s}");
    assert!(s.contains("Paused: not ranked"), "{s}");
}

#[test]
fn the_servers_note_shows_when_the_screen_says_nothing_of_it() {
    let mut a = registered();
    a.play(ModeKind::Sprint, 0);
    a.tick(COUNTDOWN_MS);
    a.handle_key(ctrl('d'), COUNTDOWN_MS + 10);
    press(&mut a, Key::Enter, COUNTDOWN_MS + 20);
    a.deliver(
        recorded("not ranked: the game was forfeited"),
        COUNTDOWN_MS + 30,
    );
    let s = screen(&a);
    assert_eq!(s.matches("not ranked").count(), 1, "{s}");
    assert!(s.contains("not ranked: the game was forfeited"), "{s}");
}
