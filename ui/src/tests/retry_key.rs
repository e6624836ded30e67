//! The retry key as a binding: rebound in Settings -> Controls like a game button (default R),
//! the bound key retries and R no longer does, the hints name the bound key, and binding a key
//! that retry had (or retry a button's key) says what it took.

use minotty_engine::{Button, ModeKind};

use super::{app, draw, menu_item, press, screen, tap};
use crate::keys::Key;
use crate::settings::Settings;
use crate::testutil::lines;
use crate::{App, AppContext};

/// The app on the controls list of its settings (the fifth item of the main menu, then
/// Controls), the cursor on row `row`.
fn controls_at(row: usize) -> App {
    let mut a = app();
    menu_item(&mut a, 4); // Settings
    press(&mut a, Key::Enter, 0); // Controls
    for _ in 0..row {
        press(&mut a, Key::Down, 0);
    }
    a
}

const RETRY_ROW: usize = Button::ALL.len();

/// A row of the controls list at 80x24: the label left, the value right in the list's 54
/// columns, inside the 60-column frame.
fn row(label: &str, value: &str) -> String {
    let w = 54 - label.chars().count();
    format!("          │  {label}{value:>w$}  │          ")
}

/// A 40-line game started with `settings`, running, one piece dropped.
fn sprint_with(settings: Settings) -> (App, u64) {
    let mut a = App::with_settings(
        AppContext {
            player_name: "ada".into(),
            seed: 7,
            ..AppContext::default()
        },
        settings,
    );
    a.play(ModeKind::Sprint, 0);
    let now = crate::session::COUNTDOWN_MS;
    a.tick(now);
    tap(&mut a, Key::Up, now + 100);
    assert_eq!(a.game().map(|g| g.stats().pieces), Some(1));
    (a, now)
}

fn footer(a: &App) -> String {
    let rows = lines(&draw(a, 80, 24));
    rows.iter()
        .find(|r| r.contains("Esc pause"))
        .cloned()
        .unwrap_or_default()
}

#[test]
fn the_controls_list_at_80x24_shows_the_retry_row() {
    let a = controls_at(RETRY_ROW);
    let frame = lines(&draw(&a, 80, 24));
    assert_eq!(frame[RETRY_ROW], row("Teleport right", "-"));
    assert_eq!(frame[1 + RETRY_ROW], row("Retry", "< R >"));
    assert_eq!(frame[2 + RETRY_ROW], row("Up arrow", "hard drop"));
}

#[test]
fn rebinding_retry_to_f5_makes_f5_retry_40_lines_and_r_not() {
    let mut a = controls_at(RETRY_ROW);
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::F(5), 0);
    let frame = lines(&draw(&a, 80, 24));
    assert_eq!(frame[1 + RETRY_ROW], row("Retry", "< F5 >"));
    assert!(
        screen(&a).contains("Retry has one key: F5 replaced R."),
        "{}",
        screen(&a)
    );
    let settings = a.settings().clone();
    assert_eq!(settings.keys.retry_key(), Some(Key::F(5)));
    assert_eq!(
        settings.keys.which_preset(),
        None,
        "not the minotty keys now"
    );

    let (mut a, now) = sprint_with(settings);
    assert_eq!(
        footer(&a),
        "              F5 retry   Esc pause   Ctrl+S snapshot   Ctrl+C quit              ",
        "the footer names the bound key"
    );
    // R is nothing now: the same game goes on.
    tap(&mut a, Key::Char('r'), now + 200);
    let g = a.game().expect("a game");
    assert_eq!((g.stats().pieces, g.now()), (1, 200), "R did not retry");
    // F5 retries at once.
    press(&mut a, Key::F(5), now + 300);
    a.tick(now + 400);
    let g = a.game().expect("a game");
    assert_eq!(g.stats().pieces, 0, "a fresh game");
    assert_eq!(g.now(), 100, "its clock runs from F5");
    // The pause menu tells of F5 too.
    press(&mut a, Key::Esc, now + 500);
    press(&mut a, Key::Char('y'), now + 500);
    assert!(a.game_paused());
    assert!(screen(&a).contains("│  F5 retries  │"), "{}", screen(&a));
}

#[test]
fn binding_a_key_retry_had_says_so_and_leaves_no_retry_key() {
    let mut a = controls_at(Button::Hold as usize);
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Char('r'), 0);
    let said = screen(&a);
    assert!(
        said.contains("R was Retry's key: no key retries now!"),
        "{said}"
    );
    assert_eq!(a.settings().keys.retry_key(), None);
    assert_eq!(
        a.settings().keys.lookup(Key::Char('r')),
        Some((Button::Hold, 1))
    );
    // No retry key: the footer offers none, and R holds.
    let (mut a, now) = sprint_with(a.settings().clone());
    assert_eq!(
        footer(&a),
        "                   Esc pause   Ctrl+S snapshot   Ctrl+C quit                    "
    );
    tap(&mut a, Key::Char('r'), now + 200);
    assert!(a.game().is_some_and(|g| g.hold_piece().is_some()));
}

#[test]
fn binding_retry_to_a_buttons_key_says_what_it_took() {
    let mut a = controls_at(RETRY_ROW);
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Char(' '), 0);
    let said = screen(&a);
    assert!(
        said.contains("Space was Hard drop's key: Hard drop keeps Up."),
        "{said}"
    );
    assert_eq!(a.settings().keys.lookup(Key::Char(' ')), None);
    assert_eq!(a.settings().keys.retry_key(), Some(Key::Char(' ')));
    // Backspace on the row: no retry key.
    press(&mut a, Key::Backspace, 0);
    assert_eq!(a.settings().keys.retry_key(), None);
    // Reset controls (asks: these are the player's own) brings R back.
    for _ in 0..3 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    assert!(
        screen(&a).contains("Retry"),
        "the confirmation names Retry among what is lost: {}",
        screen(&a)
    );
}

/// The retry key is checked before the pause menu and the results: it cannot be a key they
/// are worked with, or Enter would retry instead of choosing.
#[test]
fn retry_cannot_take_the_keys_the_menus_are_worked_with() {
    let mut a = controls_at(RETRY_ROW);
    for key in [Key::Enter, Key::Up, Key::Down, Key::Tab, Key::Backspace] {
        press(&mut a, Key::Enter, 0);
        press(&mut a, key, 0);
        assert_eq!(
            a.settings().keys.retry_key(),
            Some(Key::Char('r')),
            "{key:?}"
        );
        assert!(
            screen(&a).contains("works the menus: Retry keeps R."),
            "{key:?}: {}",
            screen(&a)
        );
        // Buttons keep their keys.
        assert_eq!(*a.settings(), Settings::default(), "{key:?}");
    }
}
