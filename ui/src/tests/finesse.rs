//! The 40-line results' finesse faults, drawn as whole lines.

use minotty_engine::ModeKind;

use super::*;

/// A 40-lines game of `pieces` (each a list of keys tapped before its hard drop), given up,
/// on its results.
fn results_after(pieces: &[&[Key]]) -> App {
    let (mut a, mut t) = playing(ModeKind::Sprint);
    for keys in pieces {
        for &k in *keys {
            t += 20;
            tap(&mut a, k, t);
        }
        t += 20;
        tap(&mut a, Key::Char(' '), t);
        t += 400;
        a.tick(t);
    }
    a.handle_key(ctrl('d'), t + 10);
    press(&mut a, Key::Enter, t + 20);
    if let Some(wake) = a.next_wakeup() {
        a.tick(wake);
    }
    assert!(screen(&a).contains("RESULTS"), "{}", screen(&a));
    a
}

fn line(a: &App, label: &str) -> String {
    let s = screen(a);
    s.lines()
        .find(|l| l.contains(label))
        .unwrap_or_else(|| panic!("no {label}:\n{s}"))
        .trim_end()
        .to_owned()
}

#[test]
fn the_40_line_results_count_finesse_faults() {
    // (pieces' keys, the line the results show)
    let table: &[(&[&[Key]], &str)] = &[
        (
            &[&[], &[Key::Left]],
            "                  │    Finesse faults                   0    │",
        ),
        (
            &[&[Key::Left, Key::Right], &[]],
            "                  │    Finesse faults                   1    │",
        ),
        (
            &[
                &[Key::Left, Key::Right],
                &[Key::Right, Key::Left],
                &[Key::Left],
            ],
            "                  │    Finesse faults                   2    │",
        ),
    ];
    for &(pieces, expected) in table {
        let a = results_after(pieces);
        assert_eq!(line(&a, "Finesse faults"), expected, "{pieces:?}");
        // Next to keys per piece.
        let s = screen(&a);
        let rows: Vec<&str> = s.lines().collect();
        let kpp = rows.iter().position(|l| l.contains("Keys per piece"));
        let faults = rows.iter().position(|l| l.contains("Finesse faults"));
        assert_eq!(kpp.map(|k| k + 1), faults, "{s}");
    }
}

#[test]
fn other_modes_show_no_finesse_faults() {
    let (mut a, t) = playing(ModeKind::Marathon);
    tap(&mut a, Key::Char(' '), t + 20);
    a.handle_key(ctrl('d'), t + 30);
    press(&mut a, Key::Enter, t + 40);
    if let Some(wake) = a.next_wakeup() {
        a.tick(wake);
    }
    let s = screen(&a);
    assert!(s.contains("RESULTS"), "{s}");
    assert!(!s.contains("Finesse"), "{s}");
}
