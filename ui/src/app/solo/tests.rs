//! The solo game on its own, without an App: what its keys and ticks do with the context they
//! are given, and what they ask of the App.

use minotty_engine::ModeKind;

use super::{Ctx, Outcome, Solo};
use crate::Request;
use crate::app::Screen;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::leave::LeaveTo;
use crate::screens::mode_select::ModeSelect;
use crate::session::{COUNTDOWN_MS, GameSetup};
use crate::settings::Settings;

/// What the App would hand the solo game.
struct Env {
    settings: Settings,
    fits: bool,
    modes: ModeSelect,
    requests: Vec<Request>,
}

impl Env {
    fn new() -> Env {
        Env {
            settings: Settings::default(),
            fits: true,
            modes: ModeSelect::default(),
            requests: Vec::new(),
        }
    }

    fn ctx(&mut self) -> Ctx<'_> {
        Ctx {
            settings: &self.settings,
            releases: true,
            fits: self.fits,
            modes: &mut self.modes,
            requests: &mut self.requests,
        }
    }
}

fn key(
    solo: &mut Solo,
    env: &mut Env,
    results: bool,
    key: Key,
    kind: KeyKind,
    now: u64,
) -> Outcome {
    let ev = KeyEvent {
        kind,
        ..KeyEvent::press(key)
    };
    solo.handle_key(results, ev, now, &mut env.ctx())
}

fn press(solo: &mut Solo, env: &mut Env, key_: Key, now: u64) -> Outcome {
    key(solo, env, false, key_, KeyKind::Press, now)
}

/// A Marathon started at 0, running once its countdown is over.
fn marathon(env: &mut Env) -> (Solo, u64) {
    let mut solo = Solo::new(7, None, None);
    let ruleset = crate::rules::preset_ruleset(ModeKind::Marathon, env.settings.ruleset);
    let setup = GameSetup::preset(ModeKind::Marathon, ruleset);
    solo.start(setup, 0, &env.settings, true);
    solo.tick(COUNTDOWN_MS, &env.ctx());
    (solo, COUNTDOWN_MS)
}

#[test]
fn without_a_game_a_key_shows_the_main_menu_and_retry_the_mode_select() {
    let mut env = Env::new();
    let mut solo = Solo::new(7, None, None);
    assert_eq!(
        press(&mut solo, &mut env, Key::Enter, 0),
        Outcome::Show(Screen::Menu)
    );
    assert_eq!(
        key(&mut solo, &mut env, true, Key::Char('r'), KeyKind::Press, 0),
        Outcome::Show(Screen::ModeSelect)
    );
    assert_eq!(solo.games(), 0);
}

#[test]
fn leaving_a_played_marathon_asks_then_hands_it_over_and_shows_the_main_menu() {
    let mut env = Env::new();
    let (mut solo, now) = marathon(&mut env);
    assert_eq!(solo.games(), 1);
    // One piece hard-dropped: the game was played.
    press(&mut solo, &mut env, Key::Up, now + 100);
    key(
        &mut solo,
        &mut env,
        false,
        Key::Up,
        KeyKind::Release,
        now + 100,
    );
    assert_eq!(
        press(&mut solo, &mut env, Key::Esc, now + 200),
        Outcome::Changed
    );
    assert!(solo.session().is_some_and(|s| s.is_paused()));
    for _ in 0..5 {
        assert_eq!(
            press(&mut solo, &mut env, Key::Down, now + 210),
            Outcome::Changed
        );
    }
    // "Main menu" asks first; nothing is handed over yet.
    assert_eq!(
        press(&mut solo, &mut env, Key::Enter, now + 220),
        Outcome::Changed
    );
    assert_eq!(solo.leave, Some(LeaveTo::MainMenu));
    assert!(solo.take_finished().is_none());
    let out = press(&mut solo, &mut env, Key::Char('y'), now + 230);
    assert_eq!(out, Outcome::Show(Screen::Menu));
    assert!(solo.session().is_none());
    let finished = solo
        .take_finished()
        .expect("the forfeited marathon is handed over");
    assert_eq!((finished.kind, finished.won), (ModeKind::Marathon, false));
    assert!(solo.take_finished().is_none(), "handed over once");
    // A Marathon reports no puzzle progress.
    assert!(env.requests.is_empty());
}

#[test]
fn a_terminal_too_small_pauses_the_game_and_resume_waits_until_it_fits() {
    let mut env = Env::new();
    let (mut solo, now) = marathon(&mut env);
    env.fits = false;
    assert_ne!(solo.tick(now + 10, &env.ctx()), crate::Damage::None);
    assert!(solo.session().is_some_and(|s| s.is_paused()));
    assert_eq!(solo.pause_cursor, 0);
    // "Resume" is selected: it does nothing while the game cannot be shown.
    assert_eq!(
        press(&mut solo, &mut env, Key::Enter, now + 20),
        Outcome::Ignored
    );
    assert!(solo.session().is_some_and(|s| s.is_paused()));
    env.fits = true;
    assert_eq!(
        press(&mut solo, &mut env, Key::Enter, now + 30),
        Outcome::Changed
    );
    assert!(solo.session().is_some_and(|s| !s.is_paused()));
}

#[test]
fn the_pause_menu_hands_settings_help_and_quit_to_the_app() {
    let mut env = Env::new();
    let (mut solo, now) = marathon(&mut env);
    assert_eq!(
        press(&mut solo, &mut env, Key::Esc, now + 10),
        Outcome::Changed
    );
    press(&mut solo, &mut env, Key::Down, now + 20);
    press(&mut solo, &mut env, Key::Down, now + 20);
    assert_eq!(
        press(&mut solo, &mut env, Key::Enter, now + 30),
        Outcome::Settings
    );
    press(&mut solo, &mut env, Key::Down, now + 40);
    assert_eq!(
        press(&mut solo, &mut env, Key::Enter, now + 50),
        Outcome::Help
    );
    let ctrl_c = KeyEvent {
        mods: crate::keys::Mods {
            ctrl: true,
            ..crate::keys::Mods::default()
        },
        ..KeyEvent::press(Key::Char('c'))
    };
    assert_eq!(
        solo.handle_key(false, ctrl_c, now + 60, &mut env.ctx()),
        Outcome::AskQuit(false)
    );
}
