//! The menus on their own, without an App: their keys, the quit question, and the responses
//! they take.

use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::ModeBest;

use super::{Menus, Outcome};
use crate::app::Screen;
use crate::keys::{Key, KeyEvent};
use crate::screens::menu::MenuAction;
use crate::screens::quit::QuitAction;
use crate::settings::Settings;
use crate::{Request, Response};

fn menus() -> Menus {
    Menus::new(RulesetId::default(), false)
}

fn press(m: &mut Menus, screen: Screen, key: Key, settings: &mut Settings) -> Outcome {
    m.handle_key(screen, KeyEvent::press(key), settings)
}

#[test]
fn the_main_menu_opens_settings_and_help_itself_and_hands_play_to_the_app() {
    let mut m = menus();
    let mut settings = Settings::default();
    assert!(matches!(
        press(&mut m, Screen::Menu, Key::Enter, &mut settings),
        Outcome::Open(MenuAction::Play)
    ));
    for _ in 0..4 {
        assert!(matches!(
            press(&mut m, Screen::Menu, Key::Down, &mut settings),
            Outcome::Changed
        ));
    }
    assert!(matches!(
        press(&mut m, Screen::Menu, Key::Enter, &mut settings),
        Outcome::Show(Screen::Settings)
    ));
    assert_eq!(m.settings_back(), Screen::Menu);
    assert!(matches!(
        press(&mut m, Screen::Settings, Key::Esc, &mut settings),
        Outcome::SettingsLeft(Screen::Menu)
    ));
}

#[test]
fn help_opened_from_the_game_goes_back_to_it_and_asks_to_quit_with_stay_selected() {
    let mut m = menus();
    let mut settings = Settings::default();
    m.open_help(Screen::Game);
    assert!(matches!(
        press(&mut m, Screen::Help, Key::Esc, &mut settings),
        Outcome::Show(Screen::Game)
    ));
    assert!(!m.quit_open());
    assert!(matches!(
        m.handle_key(Screen::Help, crate::tests::ctrl('c'), &mut settings),
        Outcome::Changed
    ));
    assert_eq!(m.quit_dialog, Some(false));
}

#[test]
fn the_quit_question_takes_keys_only_while_open() {
    let mut m = menus();
    assert_eq!(m.key_quit(KeyEvent::press(Key::Char('y'))), None);
    m.ask_quit(true);
    assert_eq!(
        m.key_quit(KeyEvent::press(Key::Char('n'))),
        Some(QuitAction::Stay)
    );
    assert!(!m.quit_open());
    m.ask_quit(false);
    assert_eq!(
        m.key_quit(KeyEvent::press(Key::Char('y'))),
        Some(QuitAction::Quit)
    );
}

#[test]
fn signing_in_reports_the_progress_made_before_and_asks_for_the_accounts() {
    let mut m = menus();
    let mut requests = Vec::new();
    m.modes_mut().note_puzzle_cleared(3);
    let signed_in = || Response::SignedIn {
        name: "ada".into(),
        has_password: false,
        settings: None,
    };
    // Not asked yet: only the progress is reported; the response goes on to other features.
    assert!(m.on_response(signed_in(), &mut requests).is_some());
    assert_eq!(requests, [Request::PuzzleCleared { stage: 3 }]);
    requests.clear();
    assert!(m.ask_puzzle());
    assert!(!m.ask_puzzle(), "asked once");
    assert!(m.on_response(signed_in(), &mut requests).is_some());
    assert_eq!(
        requests,
        [Request::PuzzleCleared { stage: 3 }, Request::PuzzleProgress]
    );
}

#[test]
fn bests_and_puzzle_progress_are_taken_and_bests_cleaned() {
    let mut m = menus();
    let mut requests = Vec::new();
    let best = ModeBest {
        mode: ModeKind::Sprint,
        ruleset: RulesetId::default(),
        best: "0:59.1\x1b[2J".into(),
    };
    assert!(
        m.on_response(Response::Bests(vec![best]), &mut requests)
            .is_none()
    );
    assert_eq!(m.modes().bests.len(), 1);
    assert!(!m.modes().bests[0].best.contains('\x1b'));
    let progress = Response::PuzzleProgress {
        cleared: 4,
        completed: false,
    };
    assert!(m.on_response(progress, &mut requests).is_none());
    assert_eq!(m.modes().puzzle_cleared, 4);
    assert!(requests.is_empty());
}
