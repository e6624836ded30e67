//! A login whose account cannot be reached (the server's database does not answer): the
//! "account unreachable" screen, its automatic and asked-for tries, playing as a guest for now
//! and trying again from the menu, and what each answer leads to.

use super::*;
use crate::screens::account_unreachable::{MENU_NOTICE, RETRY_EVERY_MS, SAYS, TITLE};
use crate::settings::Settings;
use crate::{Request, Response};
use minotty_protocol::Identity;

fn unreachable() -> App {
    App::new(AppContext {
        player_name: "cat".into(),
        seed: 7,
        identity: Identity::Unreachable {
            suggested: "cat".into(),
        },
        ..AppContext::default()
    })
}

fn retries(a: &mut App) -> usize {
    a.take_requests()
        .into_iter()
        .filter(|r| *r == Request::RetryAccount)
        .count()
}

fn signed_in(name: &str) -> Response {
    Response::SignedIn {
        name: name.into(),
        has_password: true,
        settings: Some(Box::new(Settings {
            show_fps: true,
            ..Settings::default()
        })),
    }
}

#[test]
fn the_login_says_the_account_cannot_be_reached_and_never_greets_a_guest() {
    let a = unreachable();
    let s = screen(&a);
    assert!(s.contains(TITLE), "{s}");
    assert!(
        s.contains("Your account cannot be reached right now"),
        "{s}"
    );
    assert!(s.contains("Wait for my account"), "{s}");
    assert!(s.contains("Play as a guest for now"), "{s}");
    assert!(!s.contains("Hello, cat"), "{s}");
    assert!(SAYS.starts_with("Your account cannot be reached right now"));
    assert!(!a.identity().keeps_records(), "nothing is stored meanwhile");
}

#[test]
fn waiting_tries_again_every_few_seconds_until_the_account_is_back() {
    let mut a = unreachable();
    assert_eq!(
        a.next_wakeup(),
        Some(RETRY_EVERY_MS),
        "the first try is due"
    );
    a.tick(RETRY_EVERY_MS - 1);
    assert_eq!(retries(&mut a), 0, "not yet");
    a.tick(RETRY_EVERY_MS);
    assert_eq!(retries(&mut a), 1);
    assert!(screen(&a).contains("Trying to reach your account"));
    a.deliver(Response::AccountUnreachable, RETRY_EVERY_MS + 100);
    let s = screen(&a);
    assert!(s.contains("Still unreachable (1 tries)"), "{s}");
    assert_eq!(a.next_wakeup(), Some(2 * RETRY_EVERY_MS));
    a.tick(2 * RETRY_EVERY_MS);
    assert_eq!(retries(&mut a), 1, "the second automatic try");
    // A key asks at once, once the try out is answered.
    press(&mut a, Key::Char('r'), 2 * RETRY_EVERY_MS + 10);
    assert_eq!(retries(&mut a), 0, "one try out at a time");
    a.deliver(Response::AccountUnreachable, 2 * RETRY_EVERY_MS + 20);
    press(&mut a, Key::Char('r'), 2 * RETRY_EVERY_MS + 30);
    assert_eq!(retries(&mut a), 1, "r tries now");
    // The database is back: the account, its name and its settings.
    a.deliver(signed_in("Cat"), 2 * RETRY_EVERY_MS + 500);
    assert_eq!(
        a.identity(),
        &Identity::Registered {
            name: "Cat".into(),
            has_password: true
        }
    );
    assert!(a.settings().show_fps, "the stored settings arrived");
    let s = screen(&a);
    assert!(s.contains("Hello, Cat!"), "{s}");
    assert!(!s.contains(MENU_NOTICE), "{s}");
    // No more tries once signed in.
    assert_eq!(a.next_wakeup(), None);
    a.tick(10 * RETRY_EVERY_MS);
    assert_eq!(retries(&mut a), 0);
}

#[test]
fn a_guest_for_now_plays_unstored_and_retries_from_the_menu() {
    let mut a = unreachable();
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    let s = screen(&a);
    assert!(s.contains("Leaderboards"), "the menu:\n{s}");
    assert!(s.contains(MENU_NOTICE), "{s}");
    assert!(!s.contains("Hello, cat"), "{s}");
    // No automatic tries on the menu.
    assert_eq!(a.next_wakeup(), None);
    a.tick(10 * RETRY_EVERY_MS);
    assert_eq!(retries(&mut a), 0);
    // Its games are not stored: the results say why.
    let mut a = {
        let mut g = unreachable();
        press(&mut g, Key::Esc, 0);
        g
    };
    assert_eq!(
        a.identity(),
        &Identity::Unreachable {
            suggested: "cat".into()
        }
    );
    press(&mut a, Key::Char('r'), 100);
    assert_eq!(retries(&mut a), 1, "r on the menu tries again");
    assert!(screen(&a).contains("Reaching your account"));
    a.deliver(Response::AccountUnreachable, 200);
    assert!(screen(&a).contains(MENU_NOTICE));
    press(&mut a, Key::Char('r'), 300);
    assert_eq!(retries(&mut a), 1);
    a.deliver(signed_in("Cat"), 400);
    assert!(a.identity().keeps_records());
    let s = screen(&a);
    assert!(s.contains("Hello, Cat!"), "{s}");
    // `r` is an ordinary key again.
    press(&mut a, Key::Char('r'), 500);
    assert_eq!(retries(&mut a), 0);
}

#[test]
fn a_new_key_gets_the_welcome_screen_once_the_database_answers() {
    let mut a = unreachable();
    a.tick(RETRY_EVERY_MS);
    assert_eq!(retries(&mut a), 1);
    a.deliver(Response::AccountNew, RETRY_EVERY_MS + 10);
    let s = screen(&a);
    assert!(s.contains("WELCOME TO MINOTTY"), "{s}");
    assert!(s.contains("cat_"), "the SSH user name offered:\n{s}");
    assert_eq!(
        a.identity(),
        &Identity::NewKey {
            suggested: "cat".into()
        }
    );
    assert_eq!(a.next_wakeup(), None, "no more tries");
    // The same from the menu.
    let mut b = unreachable();
    press(&mut b, Key::Esc, 0);
    press(&mut b, Key::Char('r'), 10);
    b.deliver(Response::AccountNew, 20);
    assert!(screen(&b).contains("WELCOME TO MINOTTY"));
}

#[test]
fn the_profile_is_a_guests_and_the_results_say_the_game_is_not_stored() {
    let mut a = unreachable();
    press(&mut a, Key::Esc, 0);
    // Profile: a guest's.
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    assert!(a.take_requests().iter().all(|r| *r != Request::Profile));
    press(&mut a, Key::Esc, 0);
    a.play(minotty_engine::ModeKind::Sprint, 0);
    a.tick(COUNTDOWN_MS);
    a.handle_key(ctrl('d'), COUNTDOWN_MS + 10);
    press(&mut a, Key::Enter, COUNTDOWN_MS + 20);
    let s = screen(&a);
    assert!(s.contains("RESULTS"), "{s}");
    assert!(s.contains("Account unreachable: not stored"), "{s}");
    assert!(
        a.take_finished_game().is_some(),
        "the front end decides: it stores nothing"
    );
}

#[test]
fn mashing_r_sends_one_try_at_a_time() {
    let mut a = unreachable();
    for i in 0..200 {
        press(&mut a, Key::Char('r'), i);
    }
    assert_eq!(retries(&mut a), 1, "one try while it is out");
    // Unanswered past the retry interval: it counts as lost, and the next goes out.
    for i in 0..200 {
        press(&mut a, Key::Char('r'), RETRY_EVERY_MS + i);
    }
    assert_eq!(retries(&mut a), 1);
    // The same on the menu.
    let mut b = unreachable();
    press(&mut b, Key::Esc, 0);
    for i in 0..200 {
        press(&mut b, Key::Char('r'), 10 + i);
    }
    assert_eq!(retries(&mut b), 1);
}
