//! The help screen, drawn whole at 80x24: nothing is cut off, the text wraps and scrolls.

use super::*;

/// The app on its help screen, for a terminal with or without key releases.
fn help(releases: bool) -> App {
    let mut a = app();
    a.set_release_events(releases);
    for _ in 0..5 {
        press(&mut a, Key::Down, 0); // the sixth item: Help
    }
    press(&mut a, Key::Enter, 0);
    a
}

fn frame(a: &App) -> Vec<String> {
    lines(&draw(a, 80, 24))
}

/// A help frame's 22 inner rows between its top and bottom edges, padded as drawn.
fn framed(rows: &[&str]) -> Vec<String> {
    let mut out = vec![format!("        ┌{:─^62}┐        ", " HELP ")];
    out.extend(rows.iter().map(|r| format!("        │{r:<62}│        ")));
    out.push(format!("        └{}┘        ", "─".repeat(62)));
    out
}

#[test]
fn help_at_80x24_starts_with_the_keys_and_says_there_is_more() {
    let a = help(false);
    let expected = framed(&[
        "  Controls",
        "  Move left                                             Left  ",
        "  Move right                                           Right  ",
        "  Rotate clockwise                                      D, X  ",
        "  Rotate counter-clockwise                              A, Z  ",
        "  Rotate 180                                               S  ",
        "  Soft drop                                             Down  ",
        "  Hard drop                                        Up, Space  ",
        "  Sonic drop                                               -  ",
        "  Hold                                                     C  ",
        "  Teleport left                                            -  ",
        "  Teleport right                                           -  ",
        "",
        "  Retry (40 lines, ultra, cheese, combo, survival)         R  ",
        "  Pause / resume                                      Esc, P  ",
        "  Snapshot and savepoint (solo; also in Custom)       Ctrl+S  ",
        "  Load the savepoint back (unranks the game)          Ctrl+L  ",
        "  Undo the last placement (unranks the game)          Ctrl+Z  ",
        "  Blindfold: hide the stack / show it                 Ctrl+B  ",
        "  Keep the game's seed for Custom                     Ctrl+E  ",
        "                 rows 1-20 of 51   Down: more",
        "          Up/Down scroll   PgUp/PgDn page   Esc back",
    ]);
    assert_eq!(frame(&a), expected);
}

#[test]
fn help_at_80x24_scrolls_to_the_end_of_the_taps_text() {
    let mut a = help(false);
    frame(&a);
    press(&mut a, Key::End, 0);
    let expected = framed(&[
        "",
        "  A tap: a key pressed again before your terminal could",
        "  start repeating it is always a new tap, so two quick taps",
        "  move two cells. Two quick taps when a repeat could come",
        "  are told from one by waiting for the next repeat: the",
        "  second acts up to 80 ms late, never lost.",
        "",
        "  A hold: your terminal repeats a held key only after its",
        "  own repeat delay (often 0.25 to 0.6 s). From the first",
        "  repeat the key counts as held: the piece moves a cell,",
        "  then after DAS slides every ARR. minotty learns your",
        "  terminal's repeat delay and speed from your first holds.",
        "",
        "  Letting go: a key counts as released once its repeats",
        "  stop, or, after a single press that did not repeat, after",
        "  the release timeout (Settings, 150 ms by default; always",
        "  shorter than DAS, so a tap never slides).",
        "",
        "  Kitty, WezTerm, foot and Ghostty report releases: there",
        "  every hold is exact.",
        "                       rows 32-51 of 51",
        "          Up/Down scroll   PgUp/PgDn page   Esc back",
    ]);
    assert_eq!(frame(&a), expected);
    // At the end, Down does nothing; one Up shows the row before.
    press(&mut a, Key::Down, 0);
    assert_eq!(frame(&a), expected);
    press(&mut a, Key::Up, 0);
    let up = frame(&a);
    assert_eq!(
        up[1],
        "        │  minotty reads taps and holds from the presses it sends.     │        "
    );
    assert_eq!(up[2], expected[1]);
    // Esc leaves, and the help opens at its top again.
    press(&mut a, Key::Esc, 0);
    assert!(!screen(&a).contains("HELP"));
    press(&mut a, Key::Enter, 0);
    assert_eq!(frame(&a), frame(&help(false)));
}

/// Scrolling page by page shows every row once: the whole text can be read, at 80x24 and at
/// the smallest size the game takes, with and without key releases.
#[test]
fn every_row_of_help_can_be_reached_by_scrolling() {
    for releases in [false, true] {
        for (w, h) in [(80, 24), (60, 24), (200, 60)] {
            let mut a = help(releases);
            let mut seen = String::new();
            for _ in 0..20 {
                let f = lines(&draw(&a, w, h));
                let text: Vec<&str> = f
                    .iter()
                    .map(|l| l.trim_matches(|c| c == ' ' || c == '│'))
                    .collect();
                seen.push_str(&text.join(" "));
                seen.push(' ');
                press(&mut a, Key::PageDown, 0);
            }
            let seen = seen.split_whitespace().collect::<Vec<_>>().join(" ");
            let wanted: &[&str] = if releases {
                &[
                    "This terminal reports key releases: a tap moves once, and a held key moves on after DAS, exactly as long as you hold it.",
                ]
            } else {
                &[
                    "so two quick taps move two cells.",
                    "minotty learns your terminal's repeat delay and speed from your first holds.",
                    "shorter than DAS, so a tap never slides).",
                    "there every hold is exact.",
                ]
            };
            for s in wanted {
                assert!(
                    seen.contains(s),
                    "{releases} {w}x{h}: {s:?} never shown:\n{seen}"
                );
            }
            assert!(
                seen.contains("Menus (? lists a screen's keys) arrows, Enter, Esc"),
                "{seen}"
            );
        }
    }
}
