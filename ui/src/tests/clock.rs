//! The game clock ticks at its own resolution (tenths) with no keys pressed, and costs a frame
//! only when what it shows changes: frames counted on the injected clock, not timed.

use minotty_engine::ModeKind;

use super::{draw, playing};
use crate::testutil::lines;

/// The TIME row of the stats column of an 80 x 24 frame.
fn clock_row(rows: &[String]) -> String {
    rows.iter()
        .find(|r| r.contains("TIME"))
        .map(|r| r.split_whitespace().skip_while(|w| *w != "TIME").nth(1))
        .and_then(|w| w.map(str::to_owned))
        .unwrap_or_default()
}

/// Plays `ms` of an untouched 40-line game frame by frame, as a front end does (a frame drawn
/// at each wakeup that left the App dirty); returns each frame's lines.
fn idle_frames(ms: u64) -> Vec<Vec<String>> {
    idle_frames_of(ModeKind::Sprint, ms)
}

/// The same for a game of `kind`.
fn idle_frames_of(kind: ModeKind, ms: u64) -> Vec<Vec<String>> {
    let (mut a, start) = playing(kind);
    let mut frames = vec![lines(&draw(&a, 80, 24))];
    a.take_dirty();
    while let Some(w) = a.next_wakeup().filter(|&w| w <= start + ms) {
        a.tick(w);
        if a.take_dirty() {
            frames.push(lines(&draw(&a, 80, 24)));
        }
        assert!(frames.len() < 1000, "wakeups do not advance");
    }
    frames
}

#[test]
fn the_clock_shows_every_tenth_without_keys() {
    let frames = idle_frames(3000);
    let shown: Vec<String> = frames.iter().map(|f| clock_row(f)).collect();
    let mut distinct = shown.clone();
    distinct.dedup();
    let want: Vec<String> = (0..=30)
        .map(|t| format!("0:{:02}.{}", t / 10, t % 10))
        .collect();
    assert_eq!(distinct, want, "every tenth shown, in order, none skipped");
}

#[test]
fn the_clock_costs_a_frame_only_when_something_shown_changes() {
    let frames = idle_frames(3000);
    for pair in frames.windows(2) {
        assert_ne!(pair[0], pair[1], "a frame drawn that shows nothing new");
    }
    // Each tenth is drawn once: the clock adds 30 frames to 3 s, one a tenth, no more.
    let clock_changes = frames
        .windows(2)
        .filter(|p| clock_row(&p[0]) != clock_row(&p[1]))
        .count();
    assert_eq!(clock_changes, 30);
}

#[test]
fn where_time_is_not_the_measure_the_clock_shows_and_ticks_whole_seconds() {
    // Marathon's clock is information, not its measure: whole seconds, and a frame a second
    // for it (ten would double what an idle player costs the server).
    let frames = idle_frames_of(ModeKind::Marathon, 3000);
    let shown: Vec<String> = frames.iter().map(|f| clock_row(f)).collect();
    let mut distinct = shown.clone();
    distinct.dedup();
    assert_eq!(distinct, ["0:00", "0:01", "0:02", "0:03"]);
    for pair in frames.windows(2) {
        assert_ne!(pair[0], pair[1], "a frame drawn that shows nothing new");
    }
    assert!(
        frames.len() <= 8,
        "an untouched marathon drew {} frames in 3 s",
        frames.len()
    );
}
