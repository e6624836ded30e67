//! The account screens' keys on their own, without an App: what they change of the account's
//! state, what they ask of the front end and what they ask of the App.

use super::keys::Outcome;
use super::{AccountState, Sub};
use crate::Request;
use crate::app::Screen;
use crate::keys::{Key, KeyEvent};
use crate::screens::account_board::BoardScreen;
use crate::screens::account_keys::KeysScreen;

fn press(a: &mut AccountState, key: Key, requests: &mut Vec<Request>) -> Outcome {
    a.handle_key(KeyEvent::press(key), 0, requests)
}

#[test]
fn the_welcome_registers_the_name_typed_or_makes_the_player_a_guest() {
    let mut a = AccountState::default();
    let mut requests = Vec::new();
    a.show_welcome("ada");
    assert_eq!(press(&mut a, Key::Enter, &mut requests), Outcome::Changed);
    assert_eq!(requests, [Request::Register { name: "ada".into() }]);
    requests.clear();

    let mut a = AccountState::default();
    a.show_welcome("ada");
    assert_eq!(press(&mut a, Key::Esc, &mut requests), Outcome::Guest);
    assert!(a.chose_guest);
    assert!(a.sub.is_none(), "the account screens are closed");
    assert!(requests.is_empty());
}

#[test]
fn leaving_a_leaderboard_closes_the_account_screens_and_forgets_a_replay_asked_for() {
    let mut a = AccountState::default();
    let mut requests = Vec::new();
    a.sub = Some(Sub::Board(BoardScreen::default()));
    a.waiting_replay = Some(12);
    assert_eq!(
        press(&mut a, Key::Esc, &mut requests),
        Outcome::Show(Screen::Menu)
    );
    assert!(a.sub.is_none());
    assert_eq!(a.waiting_replay, None);
    // Nothing shown: any key goes back to the menu.
    assert_eq!(
        press(&mut a, Key::Char('x'), &mut requests),
        Outcome::Show(Screen::Menu)
    );
    assert!(requests.is_empty());
}

#[test]
fn the_keys_screen_goes_back_to_the_settings_and_its_quit_question_is_the_apps() {
    let mut a = AccountState::default();
    let mut requests = Vec::new();
    a.sub = Some(Sub::Keys(KeysScreen::default()));
    assert_eq!(
        a.handle_key(crate::tests::ctrl('c'), 0, &mut requests),
        Outcome::AskQuitFromKeys
    );
    assert!(matches!(a.sub, Some(Sub::Keys(_))));
    assert_eq!(
        press(&mut a, Key::Esc, &mut requests),
        Outcome::Show(Screen::Settings)
    );
    assert!(a.sub.is_none());
    assert!(requests.is_empty());
}

#[test]
fn a_key_on_the_unreachable_screen_is_handed_to_the_app() {
    let mut a = AccountState::default();
    let mut requests = Vec::new();
    a.show_unreachable();
    assert!(matches!(
        press(&mut a, Key::Char('r'), &mut requests),
        Outcome::Unreachable(_)
    ));
    assert!(a.shows_unreachable());
    assert!(requests.is_empty());
}

#[test]
fn the_account_draws_the_sub_screen_shown_and_nothing_without_one() {
    use crate::settings::Settings;
    use crate::testutil::lines;
    use crate::theme::Theme;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    let settings = Settings::default();
    let theme = Theme::new(&settings);
    let area = Rect::new(0, 0, 80, 24);
    let draw = |a: &AccountState| {
        let mut buf = Buffer::empty(area);
        let who = super::Who {
            player: "ada",
            address: None,
            web: None,
        };
        a.draw(area, &mut buf, theme, &settings, who);
        lines(&buf)
    };
    let mut a = AccountState::default();
    let blank = lines(&Buffer::empty(area));
    assert_eq!(draw(&a), blank);
    a.show_welcome("bo");
    let welcome = draw(&a);
    assert_ne!(welcome, blank);
    assert!(welcome.iter().any(|l| l.contains("bo")), "{welcome:#?}");
    a.close();
    assert_eq!(draw(&a), blank);
}

fn ctx(here: bool) -> super::responses::Ctx {
    super::responses::Ctx {
        here,
        results_shown: !here,
        keeps_records: true,
        game_over: true,
        games: 3,
    }
}

#[test]
fn signing_in_closes_the_welcome_only_when_it_shows() {
    use super::responses::Taken;
    use crate::Response;
    let signed_in = Response::SignedIn {
        name: "ada".into(),
        has_password: false,
        settings: None,
    };
    let mut a = AccountState::default();
    a.show_welcome("ada");
    assert_eq!(
        a.on_response(&signed_in, 0, &ctx(true)),
        Taken::SignedIn { welcome: true }
    );
    // Another screen shows: the welcome is not the one being answered.
    assert_eq!(
        a.on_response(&signed_in, 0, &ctx(false)),
        Taken::SignedIn { welcome: false }
    );
}

#[test]
fn an_error_while_the_results_wait_is_noted_once_for_that_game() {
    use super::responses::Taken;
    use crate::Response;
    let error = Response::Error {
        message: "not stored".into(),
    };
    let mut a = AccountState::default();
    assert_eq!(a.on_response(&error, 0, &ctx(false)), Taken::Yes);
    let (games, rec) = a.recorded.clone().expect("noted");
    assert_eq!(games, 3);
    assert_eq!(rec.note.as_deref(), Some("not stored"));
    // That game's answer came: a second error is not the account's.
    assert_eq!(a.on_response(&error, 0, &ctx(false)), Taken::No);
    // The next game waits again.
    let next = super::responses::Ctx {
        games: 4,
        ..ctx(false)
    };
    assert_eq!(a.on_response(&error, 0, &next), Taken::Yes);
}

#[test]
fn a_password_set_shows_on_the_keys_screen_and_goes_to_the_app() {
    use super::responses::Taken;
    use crate::Response;
    let mut a = AccountState {
        sub: Some(Sub::Keys(KeysScreen::default())),
        ..AccountState::default()
    };
    assert_eq!(
        a.on_response(&Response::PasswordSet, 0, &ctx(true)),
        Taken::PasswordSet
    );
    let Some(Sub::Keys(k)) = &a.sub else {
        panic!("the keys screen shows")
    };
    assert!(k.has_password);
    assert_eq!(k.message, Some(("Password set.".into(), true)));
    // An answer that is not the account's.
    assert_eq!(
        a.on_response(&Response::LiveEnded { id: 1 }, 0, &ctx(true)),
        Taken::No
    );
}

#[test]
fn the_keys_screen_asks_for_a_registered_players_keys_and_tells_others_why_not() {
    use super::{KEY_NOT_REGISTERED, NOT_REGISTERED, OFFLINE};
    use minotty_protocol::Identity;
    let refused = |a: &AccountState| match &a.sub {
        Some(Sub::Keys(k)) => k.refused,
        _ => panic!("the keys screen shows"),
    };
    let mut requests = Vec::new();
    let mut a = AccountState::default();
    let registered = Identity::Registered {
        name: "ada".into(),
        has_password: true,
    };
    a.open_keys(&registered, &mut requests);
    assert_eq!(requests, [Request::ListKeys]);
    assert_eq!(refused(&a), None);
    requests.clear();
    a.open_keys(&Identity::Guest, &mut requests);
    assert_eq!(refused(&a), Some(NOT_REGISTERED));
    a.open_keys(&Identity::Offline, &mut requests);
    assert_eq!(refused(&a), Some(OFFLINE));
    // A key's owner who chose to play as a guest is told to connect with it again.
    a.chose_guest = true;
    a.open_keys(&Identity::Guest, &mut requests);
    assert_eq!(refused(&a), Some(KEY_NOT_REGISTERED));
    assert!(requests.is_empty());
}

#[test]
fn the_leaderboards_and_the_profile_ask_only_when_there_is_a_server_or_a_record() {
    use minotty_protocol::Identity;
    let mut requests = Vec::new();
    let mut a = AccountState::default();
    a.open_leaderboards(&Identity::Offline, &mut requests);
    assert!(requests.is_empty());
    a.open_leaderboards(&Identity::Guest, &mut requests);
    assert!(matches!(requests.as_slice(), [Request::Leaderboard { .. }]));
    requests.clear();
    a.open_profile(&Identity::Guest, &mut requests);
    assert!(requests.is_empty());
    assert!(matches!(&a.sub, Some(Sub::Profile(p)) if p.guest));
    a.open_profile(&Identity::Local { name: "ada".into() }, &mut requests);
    assert_eq!(requests, [Request::Profile]);
}

#[test]
fn the_results_note_is_the_answer_for_the_game_shown() {
    use crate::Response;
    use crate::screens::results::OnlineNote;
    use minotty_protocol::Identity;
    let registered = Identity::Registered {
        name: "ada".into(),
        has_password: false,
    };
    let mut a = AccountState::default();
    assert!(matches!(a.results_note(&registered, 3), OnlineNote::None));
    let error = Response::Error {
        message: "not stored".into(),
    };
    a.on_response(&error, 0, &ctx(false));
    assert!(matches!(
        a.results_note(&registered, 3),
        OnlineNote::Recorded(rec) if rec.note.as_deref() == Some("not stored")
    ));
    // The next game has no answer yet.
    assert!(matches!(a.results_note(&registered, 4), OnlineNote::None));
    assert!(matches!(
        a.results_note(&Identity::Guest, 3),
        OnlineNote::Guest
    ));
}

#[test]
fn a_settings_change_is_taken_once() {
    let mut a = AccountState::default();
    assert!(!a.take_settings_touched());
    a.touch_settings();
    assert!(a.take_settings_touched());
    assert!(!a.take_settings_touched(), "taken once");
}
