//! The release synthesizer's tables: events at times against what is forwarded.

use super::*;
use Forward::*;
use KeyKind::{Press as P, Release as R, Repeat as Rep};

const L: Key = Key::Left;

/// Runs `(time, kind, expected forward, expected next deadline)` rows, popping due
/// releases before each event and checking they happen at `releases`.
fn run(synth: &mut ReleaseSynth, rows: &[(u64, KeyKind, Forward, Option<u64>)], releases: &[u64]) {
    let mut released = Vec::new();
    for &(t, kind, fwd, next) in rows {
        while let Some((_, at, due)) = synth.pop_due(t) {
            assert_eq!(due, Due::Release, "due at {at}");
            released.push(at);
        }
        assert_eq!(synth.on_event(L, kind, t), fwd, "forward at {t}");
        assert_eq!(synth.next_deadline(), next, "deadline after {t}");
    }
    while let Some((_, at, due)) = synth.pop_due(u64::MAX) {
        assert_eq!(due, Due::Release, "due at {at}");
        released.push(at);
    }
    assert_eq!(released, releases);
}

#[test]
fn initial_timeout_table() {
    for (setting, das, expected) in [
        (150, 150, 149),
        (150, 200, 150),
        (100, 150, 100),
        (300, 167, 166),
        (150, 0, 150),
        (150, 1, 150),
        (0, 150, 1),
    ] {
        assert_eq!(initial_timeout(setting, das), expected, "{setting} {das}");
    }
}

#[test]
fn repeat_timeout_table() {
    for (cadence, expected) in [
        (None, 80),
        (Some(20), 80),
        (Some(40), 80),
        (Some(50), 100),
        (Some(100), 200),
        (Some(150), 300),
        (Some(400), 300),
    ] {
        assert_eq!(repeat_timeout(cadence), expected, "{cadence:?}");
    }
}

#[test]
fn a_tap_is_released_before_das() {
    let mut s = ReleaseSynth::new(true, initial_timeout(150, 150));
    run(&mut s, &[(1000, P, Press, Some(1149))], &[1149]);
}

#[test]
fn a_hold_with_os_repeats_follows_the_cadence() {
    let mut s = ReleaseSynth::new(true, 149);
    // Press, OS repeat delay of 400 ms, then repeats every 40 ms, then the key goes up.
    run(
        &mut s,
        &[
            (0, P, Press, Some(149)),
            (400, P, Press, Some(549)),
            // Held back until 519 at the latest (a double tap looks the same so far).
            (440, P, Nothing, Some(519)),
            (480, P, Nothing, Some(560)),
            (520, P, Nothing, Some(600)),
        ],
        &[149, 600],
    );
    assert_eq!((s.cadence(), s.delay()), (Some(40), Some(400)));
}

#[test]
fn slow_explicit_repeats_stretch_the_timeout() {
    let mut s = ReleaseSynth::new(true, 149);
    run(
        &mut s,
        &[
            (0, P, Press, Some(149)),
            (500, Rep, Press, Some(580)),
            (560, Rep, Nothing, Some(680)),
            (670, Rep, Nothing, Some(814)),
            (770, Rep, Nothing, Some(928)),
        ],
        &[149, 928],
    );
    // 60, then (3*60 + 110) / 4 = 72, then (3*72 + 100) / 4 = 79.
    assert_eq!(s.cadence(), Some(79));
}

#[test]
fn a_quick_second_tap_is_a_fresh_press() {
    let mut s = ReleaseSynth::new(true, 149);
    run(
        &mut s,
        &[(0, P, Press, Some(149)), (110, P, Repress, Some(259))],
        &[259],
    );
    // After a 40 ms cadence is known, 90 ms is still too slow to be a repeat.
    let mut s = ReleaseSynth::new(true, 149);
    s.cadence = Some(40);
    run(
        &mut s,
        &[
            (0, P, Press, Some(149)),
            (90, P, Repress, Some(239)),
            (120, P, Repress, Some(269)),
        ],
        &[269],
    );
}

#[test]
fn presses_in_one_millisecond_collapse_into_one() {
    // These were separate taps (a release and a press each) until a flood of one key in
    // one packet turned out to double the engine inputs it caused: now the repeats in the
    // same millisecond do nothing, and the key stays held with its first deadline.
    let mut s = ReleaseSynth::new(true, 149);
    run(
        &mut s,
        &[
            (0, P, Press, Some(149)),
            (0, P, Nothing, Some(149)),
            (0, P, Nothing, Some(149)),
        ],
        &[149],
    );
    // A thousand presses of one key in one millisecond: one press, no repeat cadence
    // learnt from them, one release.
    let mut s = ReleaseSynth::new(true, 149);
    assert_eq!(s.on_event(L, P, 0), Press);
    for _ in 0..1000 {
        assert_eq!(s.on_event(L, P, 0), Nothing);
    }
    assert_eq!(s.cadence(), None);
    assert_eq!(s.next_deadline(), Some(149));
}

#[test]
fn real_releases_win_and_clear_forgets() {
    let mut s = ReleaseSynth::new(true, 149);
    run(
        &mut s,
        &[
            (0, P, Press, Some(149)),
            (50, R, Release, None),
            (60, R, Nothing, None),
        ],
        &[],
    );
    s.on_event(L, P, 100);
    s.clear();
    assert_eq!(s.next_deadline(), None);
    assert_eq!(s.pop_due(u64::MAX), None);
}

#[test]
fn without_synthesis_events_pass_through() {
    let mut s = ReleaseSynth::new(false, 149);
    run(
        &mut s,
        &[
            (0, P, Press, None),
            (30, Rep, Nothing, None),
            (200, R, Release, None),
        ],
        &[],
    );
}

#[test]
fn many_keys_never_overflow() {
    let mut s = ReleaseSynth::new(true, 149);
    for (i, c) in ('a'..='z').enumerate() {
        assert_eq!(s.on_event(Key::Char(c), P, i as u64), Press);
    }
    let mut n = 0;
    while s.pop_due(u64::MAX).is_some() {
        n += 1;
    }
    assert_eq!(n, MAX_HELD);
}

#[test]
fn presses_before_the_repeat_delay_are_taps() {
    // However fast, a second press before any terminal could repeat the key is a new tap:
    // a release and a press (these were read as repeats of a held key below 80 ms).
    for gap in [1, 20, 50, 60, 90, 149] {
        let mut s = ReleaseSynth::new(true, 149);
        assert_eq!(s.on_event(L, P, 0), Press, "{gap}");
        assert_eq!(s.on_event(L, P, gap), Repress, "{gap}");
        assert_eq!(s.next_deadline(), Some(gap + 149), "{gap}");
    }
    assert_eq!(delay_floor(None), DEFAULT_DELAY_FLOOR_MS);
    assert_eq!(delay_floor(Some(100)), MIN_DELAY_FLOOR_MS);
    assert_eq!(delay_floor(Some(600)), 450);
}

#[test]
fn the_repeat_delay_is_learnt_from_a_hold_and_moves_the_floor() {
    // A long release timeout (a player who set it high, with a DAS to match): the key is
    // still down 300 ms after its press.
    let mut s = ReleaseSynth::new(true, 400);
    // Before anything is learnt, 300 ms may be the terminal's first repeat.
    run(
        &mut s,
        &[(0, P, Press, Some(400)), (300, P, Nothing, Some(700))],
        &[700],
    );
    assert_eq!(s.delay(), None, "one event is no proof of a repeat");
    // A hold as this terminal sends it: press, 600 ms, then every 40 ms.
    let mut s = ReleaseSynth::new(true, 400);
    run(
        &mut s,
        &[
            (0, P, Press, Some(400)),
            (600, P, Press, Some(1000)),
            (640, P, Nothing, Some(719)),
            (680, P, Nothing, Some(760)),
        ],
        &[400, 760],
    );
    assert_eq!((s.delay(), s.cadence()), (Some(600), Some(40)));
    // Now a second press 300 ms after the first is a tap: the terminal repeats at 600.
    run(
        &mut s,
        &[(2000, P, Press, Some(2400)), (2300, P, Repress, Some(2700))],
        &[2700],
    );
}

#[test]
fn a_stream_held_up_by_the_network_goes_on_repeating() {
    let mut s = ReleaseSynth::new(true, 149);
    run(
        &mut s,
        &[
            (0, P, Press, Some(149)),
            (400, P, Press, Some(549)),
            (430, P, Nothing, Some(509)),
            (460, P, Nothing, Some(540)),
            // A 100 ms hole: the release was made up at 540; the stream goes on.
            (560, P, Press, Some(640)),
            (590, P, Nothing, Some(670)),
        ],
        &[149, 540, 670],
    );
}

/// Every synthetic event due by `now`, with the time it is due.
fn due(s: &mut ReleaseSynth, now: u64) -> Vec<(u64, Due)> {
    std::iter::from_fn(|| s.pop_due(now).map(|(_, at, d)| (at, d))).collect()
}

#[test]
fn a_pause_then_quick_taps_is_no_hold() {
    // Press, 500 ms, press (perhaps the first repeat), 70 ms, press, 70 ms, press: each press
    // near a repeat's pace is held back until the next repeat is overdue, then played as a
    // tap; none is lost, and nothing is learnt of the terminal's repeat.
    let mut s = ReleaseSynth::new(true, 149);
    assert_eq!(s.on_event(L, P, 0), Press);
    assert_eq!(due(&mut s, 500), [(149, Due::Release)]);
    assert_eq!(s.on_event(L, P, 500), Press);
    assert_eq!(s.on_event(L, P, 570), Nothing);
    // 570 + (2 * 59 - 70) + 20: the two intervals together slower than two repeats.
    assert_eq!(s.next_deadline(), Some(638));
    assert_eq!(due(&mut s, 640), [(638, Due::Tap)]);
    assert_eq!(s.on_event(L, P, 640), Nothing);
    assert_eq!(
        due(&mut s, u64::MAX),
        [(708, Due::Tap), (857, Due::Release)]
    );
    assert_eq!((s.cadence(), s.delay()), (None, None));
}

#[test]
fn a_quick_second_press_after_a_possible_first_repeat_is_a_late_tap_or_a_repeat() {
    // The case: a press, 500 ms, a press, 50 ms, a press (a double tap in the rhythm
    // of play). It was read as a repeat and lost; now it waits for the next repeat.
    let mut s = ReleaseSynth::new(true, 149);
    assert_eq!(s.on_event(L, P, 0), Press);
    assert_eq!(due(&mut s, 500), [(149, Due::Release)]);
    assert_eq!(s.on_event(L, P, 500), Press);
    assert_eq!(s.on_event(L, P, 550), Nothing);
    // 550 + 59 + 20, sooner than the release after 500 (at 649).
    assert_eq!(
        due(&mut s, u64::MAX),
        [(629, Due::Tap), (778, Due::Release)]
    );
    // A hold: the next repeat comes in time, and both presses were repeats.
    let mut s = ReleaseSynth::new(true, 149);
    s.on_event(L, P, 0);
    due(&mut s, 500);
    assert_eq!(s.on_event(L, P, 500), Press);
    assert_eq!(s.on_event(L, P, 550), Nothing);
    assert_eq!(s.on_event(L, P, 600), Nothing);
    assert_eq!((s.cadence(), s.delay()), (Some(50), Some(500)));
    assert_eq!(due(&mut s, u64::MAX), [(700, Due::Release)]);
    // Two presses in one millisecond after the held-back one: one keystroke packet, which no
    // tapping finger fills twice: repeats.
    let mut s = ReleaseSynth::new(true, 149);
    s.on_event(L, P, 0);
    due(&mut s, 500);
    s.on_event(L, P, 500);
    assert_eq!(s.on_event(L, P, 540), Nothing);
    assert_eq!(s.on_event(L, P, 540), Nothing);
    assert_eq!(s.on_event(L, P, 560), Nothing);
    assert_eq!(due(&mut s, u64::MAX), [(640, Due::Release)]);
    // A press held back never keeps the key down past its release (a tap must not charge
    // DAS): with a 60 ms timeout, it is played at 560, the release after 500.
    let mut s = ReleaseSynth::new(true, 60);
    s.on_event(L, P, 0);
    due(&mut s, 500);
    s.on_event(L, P, 500);
    assert_eq!(s.on_event(L, P, 530), Nothing);
    assert_eq!(s.next_deadline(), Some(560));
    assert_eq!(
        due(&mut s, u64::MAX),
        [(560, Due::Tap), (620, Due::Release)]
    );
    for (interval, cadence, wait) in [
        (50, None, 79),
        (70, None, 68),
        (118, None, 20),
        (30, Some(40), 80),
        (40, Some(20), 40),
    ] {
        assert_eq!(
            pending_wait(interval, cadence),
            wait,
            "{interval} {cadence:?}"
        );
    }
}

#[test]
fn once_the_repeat_delay_is_learnt_a_press_far_from_it_is_a_tap() {
    let mut s = ReleaseSynth::new(true, 149);
    for t in [0, 400, 440, 480] {
        s.on_event(L, P, t);
    }
    assert_eq!(s.delay(), Some(400));
    due(&mut s, u64::MAX);
    // 700 ms after a press is past five quarters of 400: no repeat, a tap, and so is the
    // double tap after it, at once.
    assert_eq!(s.on_event(L, P, 2000), Press);
    assert_eq!(due(&mut s, 2700), [(2149, Due::Release)]);
    assert_eq!(s.on_event(L, P, 2700), Press);
    assert_eq!(s.on_event(L, P, 2750), Repress);
    assert_eq!((delay_ceiling(None), delay_ceiling(Some(400))), (1000, 500));
}

#[test]
fn fits_cadence_table() {
    for (interval, cadence, fits) in [
        (59, None, true),
        (60, None, false),
        (40, Some(30), true),
        (46, Some(30), false),
        (135, Some(90), true),
        (136, Some(90), false),
        (15, Some(5), true),
    ] {
        assert_eq!(
            fits_cadence(interval, cadence),
            fits,
            "{interval} {cadence:?}"
        );
    }
}
