//! Taps against holds, as a table of press timings against the cells the piece moves and the
//! pieces placed, for a terminal without key releases (every event a press, auto-repeat as
//! more presses) and one with them (kitty keyboard protocol: presses and releases).

use minotty_engine::{Handling, ModeKind, Placed, RulesetId};

use super::*;
use crate::keys::{Key, KeyKind};

/// Game start on the session's clock (the countdown ends at 13 000).
const START: u64 = 13_100;
const R: Key = Key::Right;
const L: Key = Key::Left;
const DROP: Key = Key::Char(' ');

/// What a row expects of the falling piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moved {
    /// It moved this many columns (negative: to the left).
    Cells(i8),
    /// It went all the way to the wall in the direction of the keys.
    Wall,
}

/// The outcome of `events` (game-relative ms, key, kind) in a fresh sprint with `das`/`arr`:
/// the columns the first piece moved, its distance to the wall it moved towards (3 on either
/// side: a held key reaches it only by auto-shift, after a press and a first repeat), and the
/// pieces placed, 600 ms after the last event.
fn play(das: u32, arr: u32, releases: bool, events: &[(u64, Key, KeyKind)]) -> (i8, i8, u32) {
    play_after(das, arr, releases, &[], events)
}

/// [`play`], after `warm` (events from game time 0, its outcome not counted) let the session
/// learn the terminal's key repeat.
fn play_after(
    das: u32,
    arr: u32,
    releases: bool,
    warm: &[(u64, Key, KeyKind)],
    events: &[(u64, Key, KeyKind)],
) -> (i8, i8, u32) {
    let settings = Settings::default();
    let setup = GameSetup {
        seed: Some(99),
        handling: Some(Handling {
            das,
            arr,
            sdf: 10,
            ..Handling::default()
        }),
        ..GameSetup::preset(ModeKind::Sprint, RulesetId::Standard)
    };
    let keys = settings.keys.clone();
    let mut s = GameSession::new(setup, 0, &settings, !releases, 10_000);
    s.tick(START, &keys);
    let mut start = START;
    for &(t, key, kind) in warm {
        s.key(key, kind, &keys, START + t);
        start = START + t + 600;
    }
    s.tick(start, &keys);
    let first = *s.game().active().expect("a falling piece");
    let xs = |p: &Placed| p.cells().map(|(x, _)| x);
    let (left, right) = (
        xs(&first.placed).into_iter().min().unwrap_or(0),
        xs(&first.placed).into_iter().max().unwrap_or(0),
    );
    let mut last = 0;
    for &(t, key, kind) in events {
        s.key(key, kind, &keys, start + t);
        last = t;
    }
    s.tick(start + last + 600, &keys);
    let pieces = s.game().stats().pieces;
    let dx = s.game().active().map_or(0, |a| a.placed.x - first.placed.x);
    let wall = if dx < 0 { left } else { 9 - right };
    (dx, wall, pieces)
}

use KeyKind::{Press as P, Release as U, Repeat as Rep};

/// Key events at game-relative ms.
type Events = Vec<(u64, Key, KeyKind)>;
/// A movement row: name, DAS, ARR, whether the terminal reports releases, events, outcome.
type MoveRow = (&'static str, u32, u32, bool, Events, Moved);
/// Events played before a row, to learn the terminal's key repeat.
type Warm<'a> = &'a [(u64, Key, KeyKind)];

/// A key held as a terminal without releases sends it: a press, then after its repeat delay
/// of `delay` ms, repeated presses every `rate` ms until `until`.
fn held(key: Key, delay: u64, rate: u64, until: u64) -> Vec<(u64, Key, KeyKind)> {
    let mut v = vec![(0, key, P)];
    v.extend((delay..=until).step_by(rate as usize).map(|t| (t, key, P)));
    v
}

fn taps(key: Key, times: &[u64]) -> Vec<(u64, Key, KeyKind)> {
    times.iter().map(|&t| (t, key, P)).collect()
}

/// Presses and releases at `(down, up)` times.
fn strokes(key: Key, times: &[(u64, u64)]) -> Vec<(u64, Key, KeyKind)> {
    times
        .iter()
        .flat_map(|&(d, u)| [(d, key, P), (u, key, U)])
        .collect()
}

#[test]
fn taps_and_holds_move_the_cells_they_should() {
    #[rustfmt::skip]
    let rows: Vec<MoveRow> = vec![
        // No key releases: every event is a press.
        ("right, 60 ms, right at 100/0", 100, 0, false, taps(R, &[0, 60]), Moved::Cells(2)),
        ("right, 90 ms, right at 100/0", 100, 0, false, taps(R, &[0, 90]), Moved::Cells(2)),
        ("left, 50 ms, left at 150/50", 150, 50, false, taps(L, &[0, 50]), Moved::Cells(-2)),
        ("left x3 at 60 ms at 150/50", 150, 50, false, taps(L, &[0, 60, 120]), Moved::Cells(-3)),
        ("one left tap at 150/50", 150, 50, false, taps(L, &[0]), Moved::Cells(-1)),
        ("one right tap at 100/0", 100, 0, false, taps(R, &[0]), Moved::Cells(1)),
        ("slow taps 250 ms apart", 150, 50, false, taps(L, &[0, 250]), Moved::Cells(-2)),
        ("right, 500 ms, right, 70 ms, right", 150, 50, false, taps(R, &[0, 500, 570]), Moved::Cells(3)),
        // A double tap in the rhythm of play (issue 36 item 2: the third press was lost).
        // (A DAS of 300 ms: the wall is 3 cells away, and no auto-shift may reach it.)
        ("right, 500 ms, right, 50 ms, right", 300, 50, false, taps(R, &[0, 500, 550]), Moved::Cells(3)),
        ("left, 300 ms, left, 40 ms, left", 300, 0, false, taps(L, &[0, 300, 340]), Moved::Cells(-3)),
        ("held right, 400 ms delay, 30 ms rate", 150, 50, false, held(R, 400, 30, 1200), Moved::Wall),
        ("held left, 300 ms delay, 40 ms rate", 100, 0, false, held(L, 300, 40, 700), Moved::Wall),
        // Key releases: DAS is exact.
        ("right 0-40, 60-100 at 100/0", 100, 0, true, strokes(R, &[(0, 40), (60, 100)]), Moved::Cells(2)),
        ("left 0-30, 50-80 at 150/50", 150, 50, true, strokes(L, &[(0, 30), (50, 80)]), Moved::Cells(-2)),
        ("left held 149 ms at 150/50", 150, 50, true, strokes(L, &[(0, 149)]), Moved::Cells(-1)),
        ("left held 150 ms at 150/50", 150, 50, true, strokes(L, &[(0, 150)]), Moved::Cells(-2)),
        ("left held 199 ms at 150/50", 150, 50, true, strokes(L, &[(0, 199)]), Moved::Cells(-2)),
        ("left held 200 ms at 150/50", 150, 50, true, strokes(L, &[(0, 200)]), Moved::Cells(-3)),
        ("right held 100 ms at 100/0", 100, 0, true, strokes(R, &[(0, 100)]), Moved::Wall),
    ];
    // The same taps once the session has seen a held Left repeat every 30 ms (fast) or every
    // 50 ms (slow) after the terminal's repeat delay.
    let fast = held(L, 400, 30, 1000);
    let slow = held(L, 500, 50, 1000);
    #[rustfmt::skip]
    let learnt: Vec<(MoveRow, Warm)> = vec![
        (("fast: right, 50 ms, right at 150/50", 150, 50, false, taps(R, &[0, 50]), Moved::Cells(2)), &fast),
        (("fast: right, 60 ms, right at 100/0", 100, 0, false, taps(R, &[0, 60]), Moved::Cells(2)), &fast),
        (("fast: right, 90 ms, right at 100/0", 100, 0, false, taps(R, &[0, 90]), Moved::Cells(2)), &fast),
        (("fast: held right", 150, 50, false, held(R, 400, 30, 1000), Moved::Wall), &fast),
        (("slow: right, 90 ms, right at 100/0", 100, 0, false, taps(R, &[0, 90]), Moved::Cells(2)), &slow),
        (("slow: right, 50 ms, right at 150/50", 150, 50, false, taps(R, &[0, 50]), Moved::Cells(2)), &slow),
        (("slow: held right", 150, 50, false, held(R, 500, 50, 1200), Moved::Wall), &slow),
    ];
    let mut wrong = Vec::new();
    let none: Warm = &[];
    let all = rows.into_iter().map(|r| (r, none)).chain(learnt);
    for ((name, das, arr, releases, events, expected), warm) in all {
        let (dx, wall, _) = play_after(das, arr, releases, warm, &events);
        let ok = match expected {
            Moved::Cells(n) => dx == n,
            Moved::Wall => dx != 0 && dx.abs() == wall,
        };
        if !ok {
            let got = if dx != 0 && dx.abs() == wall {
                Moved::Wall
            } else {
                Moved::Cells(dx)
            };
            wrong.push(format!("{name}: {got:?}, expected {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn every_hard_drop_press_places_a_piece_and_a_held_key_does_not_machine_gun() {
    let stream: Vec<u64> = (0..8).map(|i| i * 70).collect();
    #[rustfmt::skip]
    let rows: Vec<(&str, bool, Events, u32)> = vec![
        // No key releases.
        ("two drops 50 ms apart", false, taps(DROP, &[0, 50]), 2),
        ("two drops 70 ms apart", false, taps(DROP, &[0, 70]), 2),
        ("eight drops 70 ms apart", false, taps(DROP, &stream), 8),
        ("two drops 400 ms apart", false, taps(DROP, &[0, 400]), 2),
        ("drops at 0, 500, 570, 640", false, taps(DROP, &[0, 500, 570, 640]), 4),
        // Issue 36 item 2: a double tap after a drop in the rhythm of play.
        ("drops at 0, 500, 550", false, taps(DROP, &[0, 500, 550]), 3),
        ("drops at 0, 700, 760", false, taps(DROP, &[0, 700, 760]), 3),
        ("drops at 0, 250, 300", false, taps(DROP, &[0, 250, 300]), 3),
        ("drop held 1.2 s (400 ms delay, 30 ms rate)", false, held(DROP, 400, 30, 1200), 2),
        // Key releases.
        ("two strokes 50 ms apart", true, strokes(DROP, &[(0, 30), (50, 80)]), 2),
        ("drop held with repeats", true,
            [(0, DROP, P)].into_iter().chain((400..1200).step_by(30).map(|t| (t, DROP, Rep)))
                .chain([(1200, DROP, U)]).collect(), 1),
    ];
    let mut wrong = Vec::new();
    for (name, releases, events, expected) in rows {
        let (_, _, pieces) = play(150, 50, releases, &events);
        if pieces != expected {
            wrong.push(format!("{name}: {pieces} pieces, expected {expected}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn rotation_double_taps_turn_twice_and_a_held_rotation_key_does_not_spin() {
    use minotty_engine::Rotation;
    const CW: Key = Key::Char('x');
    // (name, events, the first piece's rotation 600 ms after the last).
    #[rustfmt::skip]
    let rows: Vec<(&str, Events, Rotation)> = vec![
        ("one tap", taps(CW, &[0]), Rotation::East),
        ("a double tap 55 ms apart", taps(CW, &[0, 55]), Rotation::South),
        ("a tap, 500 ms, a double tap 55 ms apart", taps(CW, &[0, 500, 555]), Rotation::West),
        ("a tap, 800 ms, a double tap 60 ms apart", taps(CW, &[0, 800, 860]), Rotation::West),
        // The press and the terminal's first repeat, which nothing can tell from a tap.
        ("held 1 s (400 ms delay, 30 ms rate)", held(CW, 400, 30, 1000), Rotation::South),
        ("held 1 s (250 ms delay, 40 ms rate)", held(CW, 250, 40, 1000), Rotation::South),
    ];
    let keys = Settings::default().keys;
    let mut wrong = Vec::new();
    for (name, events, expected) in rows {
        let setup = GameSetup {
            seed: Some(99),
            ..GameSetup::preset(ModeKind::Sprint, RulesetId::Standard)
        };
        let mut s = GameSession::new(setup, 0, &Settings::default(), true, 10_000);
        s.tick(START, &keys);
        let mut last = 0;
        for &(t, key, kind) in &events {
            s.key(key, kind, &keys, START + t);
            last = t;
        }
        s.tick(START + last + 600, &keys);
        let got = s.game().active().map(|a| a.placed.rotation);
        if got != Some(expected) {
            wrong.push(format!("{name}: {got:?}, expected {expected:?}"));
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn the_minotty_keys_turn_a_piece_half_round_with_s_where_the_ruleset_has_half_turns() {
    use minotty_engine::Rotation;
    let settings = Settings::default();
    let keys = settings.keys.clone();
    assert_eq!(keys.which_preset(), Some(crate::keymap::KeyPreset::Minotty));
    for (ruleset, expected) in [
        (RulesetId::Standard, Rotation::South),
        (RulesetId::Tetrs, Rotation::South),
        // No 180° rotation in tui-tetris: the key does nothing.
        (RulesetId::TuiTetris, Rotation::North),
    ] {
        let setup = GameSetup {
            seed: Some(99),
            ..GameSetup::preset(ModeKind::Marathon, ruleset)
        };
        let mut s = GameSession::new(setup, 0, &settings, true, 10_000);
        s.tick(START, &keys);
        let before = s.game().active().map(|a| a.placed.rotation);
        assert_eq!(before, Some(Rotation::North), "{ruleset:?}");
        s.key(Key::Char('s'), KeyKind::Press, &keys, START + 10);
        s.tick(START + 300, &keys);
        let got = s.game().active().map(|a| a.placed.rotation);
        assert_eq!(got, Some(expected), "{ruleset:?}");
    }
}
