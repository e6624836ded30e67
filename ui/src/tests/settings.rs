//! The settings screen: explained rows, confirmations before anything is lost, bindings that
//! say what they took, soft drop up to instant, the key presets.

use minotty_engine::Button;

use super::*;

/// The app on its settings screen (the fifth item of the main menu).
fn settings() -> App {
    let mut a = app();
    for _ in 0..4 {
        press(&mut a, Key::Down, 0);
    }
    press(&mut a, Key::Enter, 0);
    a
}

fn frame(a: &App) -> Vec<String> {
    lines(&draw(a, 80, 24))
}

fn down(a: &mut App, n: usize) {
    for _ in 0..n {
        press(a, Key::Down, 0);
    }
}

/// Whether the frame says `text`: its rows without frame edges, read as one text (so that
/// wrapped sentences are found whole).
fn shows(a: &App, text: &str) -> bool {
    let rows: Vec<String> = frame(a)
        .iter()
        .map(|l| l.trim_matches(|c| c == ' ' || c == '│').to_owned())
        .collect();
    let said = rows
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    said.contains(text)
}

#[test]
fn settings_at_80x24_show_every_row_and_explain_the_selected_one() {
    let mut a = settings();
    down(&mut a, 12); // Release timeout
    let row = |s: &str| format!("          │{s:<58}│          ");
    let expected: Vec<String> = [
        format!("          ┌{:─^58}┐          ", " SETTINGS "),
        row("  Controls"),
        row("  DAS (auto-shift delay)                          150 ms"),
        row("  ARR (auto-repeat rate)                           50 ms"),
        row("  Soft drop speed                                    10x"),
        row("  Ignore hard drop after clear                       off"),
        row("  DAS cut delay                                      off"),
        row("  Next pieces shown                                    5"),
        row("  Ghost piece                                         on"),
        row("  Graphics                                       Unicode"),
        row("  Colours                                    256 colours"),
        row("  Frame rate                                      60 fps"),
        row("  FPS counter                                     hidden"),
        row("  Release timeout                             < 150 ms >"),
        row("  Effects                                            all"),
        row("  Board size                                        auto"),
        row("  Ghost race view                                 beside"),
        row("  Let others watch my games                          yes"),
        row("  Palette                                        classic"),
        row("  For terminals without key releases: a key pressed once"),
        row("  counts as let go after this long (always below DAS, so"),
        row("  a tap moves once). Help says more."),
        row("       Left/Right change   Enter select   Esc back"),
        format!("          └{}┘          ", "─".repeat(58)),
    ]
    .into();
    assert_eq!(frame(&a), expected);
    // The handling rows say what their defaults are based on.
    press(&mut a, Key::Home, 0);
    for _ in 0..11 {
        press(&mut a, Key::Up, 0); // DAS
    }
    assert!(
        shows(
            &a,
            "DAS: how long a held Left or Right waits before the piece slides on its own. Default 150 ms, from the standard rules."
        ),
        "{}",
        frame(&a).join("\n")
    );
}

#[test]
fn reset_to_defaults_asks_first_and_says_what_is_lost() {
    let mut a = settings();
    // Own keys: V holds. DAS 140.
    press(&mut a, Key::Enter, 0); // Controls
    down(&mut a, 8); // Hold
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Char('v'), 0);
    press(&mut a, Key::Esc, 0);
    down(&mut a, 1);
    press(&mut a, Key::Left, 0); // DAS 140
    down(&mut a, 24); // Reset to defaults
    press(&mut a, Key::Enter, 0);
    let before = a.settings().clone();
    assert_eq!(before.handling.das, 140);
    assert!(
        shows(&a, "Reset every setting to its default?"),
        "{}",
        frame(&a).join("\n")
    );
    assert!(
        shows(
            &a,
            "Your own keys for Hold will be lost. Back to default: DAS."
        ),
        "{}",
        frame(&a).join("\n")
    );
    // Enter at once keeps everything ("Keep" is selected first).
    press(&mut a, Key::Enter, 0);
    assert_eq!(*a.settings(), before);
    assert!(!shows(&a, "Reset every setting to its default?"));
    // Esc keeps too.
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Esc, 0);
    assert_eq!(*a.settings(), before);
    assert!(
        screen(&a).contains("SETTINGS"),
        "Esc closed the dialog only"
    );
    // Choosing Reset resets.
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Enter, 0);
    assert_eq!(*a.settings(), crate::Settings::default());
}

#[test]
fn binding_a_key_of_another_action_says_so() {
    let mut a = settings();
    press(&mut a, Key::Enter, 0); // Controls
    down(&mut a, 8); // Hold
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Char(' '), 0);
    assert!(
        shows(&a, "Space was Hard drop's key: Hard drop keeps Up."),
        "{}",
        frame(&a).join("\n")
    );
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Up, 0); // captured: the Up arrow is bound to Hold too
    assert!(
        shows(&a, "Up was Hard drop's key: Hard drop has no key now!"),
        "{}",
        frame(&a).join("\n")
    );
    assert_eq!(a.settings().keys.keys(Button::HardDrop).count(), 0);
    // The notice goes with the next key.
    press(&mut a, Key::Down, 0);
    assert!(!frame(&a).join("\n").contains("has no key now"));
    // A fourth key pushes one out, and says which.
    press(&mut a, Key::Up, 0);
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Char('v'), 0);
    assert!(
        shows(&a, "Hold has 3 keys at most: V replaced Up."),
        "{}",
        frame(&a).join("\n")
    );
}

#[test]
fn soft_drop_goes_up_to_instant_and_arr_down_to_zero() {
    let mut a = settings();
    down(&mut a, 3);
    for _ in 0..30 {
        press(&mut a, Key::Right, 0);
    }
    assert!(frame(&a).join("\n").contains("< 40x >"));
    press(&mut a, Key::Right, 0);
    assert_eq!(
        a.settings().handling.sdf,
        0,
        "0 is the engine's instant soft drop"
    );
    assert!(
        frame(&a).join("\n").contains("< ∞ (instant) >"),
        "{}",
        frame(&a).join("\n")
    );
    press(&mut a, Key::Right, 0);
    assert_eq!(a.settings().handling.sdf, 0);
    press(&mut a, Key::Left, 0);
    assert_eq!(a.settings().handling.sdf, 40);
    press(&mut a, Key::Up, 0); // ARR
    for _ in 0..10 {
        press(&mut a, Key::Left, 0);
    }
    assert_eq!(a.settings().handling.arr, 0);
    assert!(frame(&a).join("\n").contains("< 0 ms (instant) >"));
}

#[test]
fn key_presets_tetrio_like_and_back_asking_before_own_keys_are_lost() {
    let mut a = settings();
    press(&mut a, Key::Enter, 0); // Controls
    let preset_row = Button::ALL.len() + 2; // after the buttons, Retry and Up arrow
    down(&mut a, preset_row);
    assert!(frame(&a).join("\n").contains("< minotty >"));
    press(&mut a, Key::Right, 0); // from a preset: at once, nothing of the player's is lost
    let keys = &a.settings().keys;
    assert_eq!(keys.lookup(Key::Up), Some((Button::RotateCw, 0)));
    assert_eq!(keys.lookup(Key::Char('a')), Some((Button::Rotate180, 0)));
    assert!(frame(&a).join("\n").contains("< TETR.IO-like >"));
    // Own keys: replacing them asks.
    press(&mut a, Key::Home, 0);
    for _ in 0..preset_row {
        press(&mut a, Key::Up, 0);
    }
    press(&mut a, Key::Enter, 0);
    press(&mut a, Key::Char('v'), 0); // Move left: Left, V
    down(&mut a, preset_row);
    assert!(frame(&a).join("\n").contains("< your own >"));
    press(&mut a, Key::Left, 0);
    assert!(
        shows(&a, "Replace your keys with the minotty keys?"),
        "{}",
        frame(&a).join("\n")
    );
    assert!(
        shows(
            &a,
            "Your own keys for Move left, Rotate clockwise, Rotate counter-clockwise, Rotate 180, Hard drop will be lost."
        ),
        "{}",
        frame(&a).join("\n")
    );
    press(&mut a, Key::Esc, 0);
    assert_eq!(
        a.settings().keys.lookup(Key::Char('v')),
        Some((Button::Left, 1))
    );
    press(&mut a, Key::Left, 0);
    press(&mut a, Key::Char('y'), 0);
    assert_eq!(a.settings().keys, crate::keymap::Keymap::default());
}

/// Issue 36: "Ignore hard drop after clear" and the DAS cut delay are handling rows, off by
/// default, stepped by 10 ms up to their caps; at 80x24 the list scrolls to its last rows.
#[test]
fn the_hard_drop_guard_and_the_das_cut_are_settings_off_by_default() {
    let mut a = settings();
    down(&mut a, 4);
    assert!(
        shows(&a, "Ignore hard drop after clear < off >"),
        "{}",
        frame(&a).join("\n")
    );
    assert!(shows(&a, "Prevent accidental hard drop"));
    press(&mut a, Key::Right, 0);
    press(&mut a, Key::Right, 0);
    assert!(shows(&a, "< 20 ms >"), "{}", frame(&a).join("\n"));
    down(&mut a, 1);
    press(&mut a, Key::Right, 0);
    assert!(
        shows(&a, "DAS cut delay < 10 ms >"),
        "{}",
        frame(&a).join("\n")
    );
    press(&mut a, Key::Left, 0);
    press(&mut a, Key::Left, 0);
    assert!(shows(&a, "DAS cut delay < off >"), "no lower than off");
    for _ in 0..40 {
        press(&mut a, Key::Right, 0);
    }
    let h = a.settings().handling;
    assert_eq!(
        (h.hard_drop_guard, h.das_cut),
        (20, crate::settings::MAX_DAS_CUT)
    );
    // The last rows scroll into view.
    down(&mut a, 9); // Board size
    assert!(!shows(&a, "Back"), "{}", frame(&a).join("\n"));
    down(&mut a, 12);
    assert!(shows(&a, "Reset to defaults"), "{}", frame(&a).join("\n"));
    assert!(shows(&a, "Back"), "{}", frame(&a).join("\n"));
}

/// Issue 40: the double tap that teleports and the move cap are handling rows, off by
/// default, under "Colour locked tiles".
#[test]
fn the_double_tap_and_the_move_cap_are_settings_off_by_default() {
    let mut a = settings();
    down(&mut a, 21);
    assert!(
        shows(&a, "Double tap teleports < off >"),
        "{}",
        frame(&a).join("\n")
    );
    assert!(shows(&a, "pressed twice within this long teleports"));
    for _ in 0..15 {
        press(&mut a, Key::Right, 0);
    }
    assert!(
        shows(&a, "Double tap teleports < within 150 ms >"),
        "{}",
        frame(&a).join("\n")
    );
    for _ in 0..40 {
        press(&mut a, Key::Right, 0);
    }
    assert_eq!(
        a.settings().handling.double_tap,
        crate::settings::MAX_DOUBLE_TAP
    );
    down(&mut a, 1);
    assert!(
        shows(&a, "Moves beat lock delay < off >"),
        "{}",
        frame(&a).join("\n")
    );
    press(&mut a, Key::Right, 0);
    assert!(shows(&a, "Moves beat lock delay < on >"));
    assert!(a.settings().handling.move_under_lock);
    // The next game plays them: the engine's handling is the settings'.
    let text = crate::stored_settings::to_json(a.settings());
    assert!(text.contains("\"double_tap\":300"), "{text}");
    assert!(text.contains("\"move_under_lock\":true"), "{text}");
}

/// tetro-tui's key sets come after minotty's two: Control+ (teleports on Q and E, sonic drop
/// on W), Guideline and Vim, each a step to the right.
#[test]
fn the_tetro_tui_key_presets_follow_the_two() {
    let mut a = settings();
    press(&mut a, Key::Enter, 0); // Controls
    down(&mut a, Button::ALL.len() + 2);
    press(&mut a, Key::Right, 0); // TETR.IO-like
    press(&mut a, Key::Right, 0);
    assert!(
        frame(&a).join("\n").contains("< Control+ >"),
        "{}",
        frame(&a).join("\n")
    );
    let keys = &a.settings().keys;
    assert_eq!(keys.lookup(Key::Char('q')), Some((Button::TeleportLeft, 0)));
    assert_eq!(
        keys.lookup(Key::Char('e')),
        Some((Button::TeleportRight, 0))
    );
    assert_eq!(keys.lookup(Key::Char('w')), Some((Button::SonicDrop, 0)));
    press(&mut a, Key::Right, 0);
    assert!(frame(&a).join("\n").contains("< Guideline >"));
    let keys = &a.settings().keys;
    assert_eq!(keys.lookup(Key::Up), Some((Button::RotateCw, 1)));
    assert_eq!(keys.lookup(Key::Char('y')), Some((Button::RotateCcw, 1)));
    assert_eq!(keys.keys(Button::Rotate180).count(), 0);
    press(&mut a, Key::Right, 0);
    assert!(frame(&a).join("\n").contains("< Vim >"));
    let keys = &a.settings().keys;
    for (key, button) in [
        ('h', Button::Left),
        ('l', Button::Right),
        ('j', Button::SoftDrop),
        ('k', Button::HardDrop),
        (' ', Button::Hold),
    ] {
        assert_eq!(keys.lookup(Key::Char(key)), Some((button, 0)), "{key}");
    }
    press(&mut a, Key::Right, 0);
    assert!(frame(&a).join("\n").contains("< minotty >"), "round again");
}
