//! Guests are marked on the main menu, and a player who connected with a key and chose to play
//! as a guest is told how to get an account with that key (not to "connect with an SSH key").

use super::*;
use minotty_protocol::Identity;

/// The screen's text as one line (wrapped sentences whole).
fn said(a: &App) -> String {
    screen(a)
        .lines()
        .map(|l| l.trim_matches(|c| c == ' ' || c == '│'))
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

const MARK: &str = "Playing as a guest: nothing is stored.";

#[test]
fn a_key_holder_who_chose_guest_is_marked_and_told_how_to_get_an_account() {
    let mut a = app_as(Identity::NewKey {
        suggested: "ada".into(),
    });
    press(&mut a, Key::Esc, 0); // play as a guest this time
    assert_eq!(a.identity(), &Identity::Guest);
    assert!(said(&a).contains(MARK), "{}", screen(&a));
    menu_item(&mut a, 3); // Profile
    let s = said(&a);
    assert!(
        s.contains("You chose to play as a guest this time: nothing is stored. Connect again with your key and choose a player name on the welcome screen"),
        "{s}"
    );
    assert!(!s.contains("Connect with an SSH key"), "{s}");
    press(&mut a, Key::Esc, 0);
    // Settings, then Account (password, keys).
    press(&mut a, Key::Down, 0);
    press(&mut a, Key::Enter, 0);
    for _ in 0..3 {
        press(&mut a, Key::Up, 0);
    }
    press(&mut a, Key::Enter, 0);
    let s = said(&a);
    assert!(s.contains("You chose to play as a guest this time"), "{s}");
    assert!(!s.contains("Connect with an SSH key"), "{s}");
}

#[test]
fn a_guest_without_a_key_is_marked_and_told_to_connect_with_one() {
    let mut a = app_as(Identity::Guest);
    assert!(said(&a).contains(MARK), "{}", screen(&a));
    menu_item(&mut a, 3);
    assert!(
        said(&a).contains("Connect with an SSH key"),
        "{}",
        screen(&a)
    );
    // A registered player carries no mark.
    let r = app_as(Identity::Registered {
        name: "ada".into(),
        has_password: false,
    });
    assert!(!said(&r).contains(MARK));
}

#[test]
fn an_unreachable_account_is_told_to_try_again_not_to_connect_with_a_key() {
    let mut a = app_as(Identity::Unreachable {
        suggested: "ada".into(),
    });
    press(&mut a, Key::Esc, 0); // a guest for now
    menu_item(&mut a, 3);
    let s = said(&a);
    assert!(s.contains("Your account could not be reached"), "{s}");
    assert!(!s.contains("Connect with an SSH key"), "{s}");
}

/// A guest's game is never stored: leaving a marathon early says it ends there, not that it
/// "is stored as is" (which a player with an account is told).
#[test]
fn leaving_a_guests_marathon_early_does_not_say_it_is_stored() {
    let leave = |mut a: App| {
        a.play(minotty_engine::ModeKind::Marathon, 0);
        a.tick(COUNTDOWN_MS);
        let now = COUNTDOWN_MS;
        tap(&mut a, Key::Up, now + 100);
        press(&mut a, Key::Esc, now + 200);
        for _ in 0..5 {
            press(&mut a, Key::Down, now + 210);
        }
        press(&mut a, Key::Enter, now + 220); // Main menu
        screen(&a)
    };
    let s = leave(app_as(Identity::Guest));
    assert!(
        s.contains("End this game") && s.contains("│  not stored.   │"),
        "{s}"
    );
    assert!(!s.contains("stored as is"), "{s}");
    let s = leave(registered());
    assert!(
        s.contains("End this game") && s.contains("stored as is."),
        "{s}"
    );
}
