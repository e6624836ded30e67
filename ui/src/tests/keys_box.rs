//! `?` shows the keys of the screen you are on (issue 40 item 7): a box over the screen, any
//! key closes it (and does nothing else); not where `?` is typed or may be a game button.

use minotty_engine::ModeKind;

use super::*;
use crate::screens::keys_help::Page;

fn question(a: &mut App) {
    press(a, Key::Char('?'), 0);
}

#[test]
fn question_mark_on_the_menu_shows_its_keys_and_any_key_closes_them() {
    let mut a = app();
    let before = screen(&a);
    question(&mut a);
    let s = screen(&a);
    assert!(s.contains("KEYS: MENU"), "{s}");
    assert!(s.contains("q, Ctrl+C    quit (asks first)"), "{s}");
    assert!(s.contains("any key closes"), "{s}");
    // Down closes the box and moves nothing.
    press(&mut a, Key::Down, 0);
    assert_eq!(screen(&a), before);
}

#[test]
fn every_screen_with_a_box_opens_its_own() {
    // Main menu -> Play (the mode select), Settings, Help.
    let mut a = app();
    press(&mut a, Key::Enter, 0);
    question(&mut a);
    assert!(screen(&a).contains("KEYS: CHOOSE A MODE"), "{}", screen(&a));
    assert!(screen(&a).contains("Classic: the lock delay on or off"));
    press(&mut a, Key::Esc, 0); // closes the box only
    assert!(screen(&a).contains("CHOOSE A MODE"));
    press(&mut a, Key::Esc, 0);
    for (downs, title) in [(4, "KEYS: SETTINGS"), (5, "KEYS: HELP")] {
        let mut a = app();
        for _ in 0..downs {
            press(&mut a, Key::Down, 0);
        }
        press(&mut a, Key::Enter, 0);
        question(&mut a);
        assert!(screen(&a).contains(title), "{title}: {}", screen(&a));
    }
}

#[test]
fn no_box_in_a_game_nor_while_a_key_is_captured() {
    let (mut a, now) = playing(ModeKind::Marathon);
    press(&mut a, Key::Char('?'), now + 10);
    assert!(!screen(&a).contains("KEYS:"), "{}", screen(&a));
    // Settings, Controls, Enter on Move left: the next key is bound, `?` too.
    let mut a = app();
    for _ in 0..4 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Enter, 0); // Controls
    press(&mut a, Key::Enter, 0); // capture Move left's key
    question(&mut a);
    assert!(!screen(&a).contains("KEYS:"));
    assert_eq!(
        a.settings().keys.lookup(Key::Char('?')),
        Some((minotty_engine::Button::Left, 1))
    );
}

/// Each box fits an 80x24 screen whole: every key and what it does on a row of its own.
#[test]
fn every_box_fits_at_80x24() {
    let theme = crate::theme::Theme::default();
    for page in Page::ALL {
        let mut buf = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 80, 24));
        let area = buf.area;
        crate::screens::keys_help::draw(&mut buf, area, page, theme);
        let text = lines(&buf).join("\n");
        assert!(text.contains(page.title()), "{page:?}");
        for (key, what) in page.keys() {
            let pair = format!("{key:<13}{what}");
            assert!(text.contains(&pair), "{page:?}: {pair:?} missing\n{text}");
        }
        assert!(text.contains("any key closes"), "{page:?}\n{text}");
    }
}
