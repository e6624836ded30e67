//! The drain's wait on tokio's paused clock (`start_paused`): it ends at once when nothing
//! runs, waits up to its cap and not a look longer, and ends early, [`AFTER_LAST_MATCH`] after
//! the last match was seen running. It looks every [`LOOK_EVERY`]: a rule due at `t` happens
//! at the first look at or after `t`.

use std::time::Duration;

use tokio::time::Instant;

use super::Running;
use super::drain_wait::{AFTER_LAST_MATCH, DrainEnd, LOOK_EVERY, wait_for_matches};

const CAP: Duration = Duration::from_secs(60);

fn running(local_rooms: usize, remote_matches: usize) -> Running {
    Running {
        local_rooms,
        remote_matches,
    }
}

/// Waits with `cap` while `runs(elapsed)` says what runs; how it ended, when, and how many
/// looks it took.
async fn wait(cap: Duration, runs: impl Fn(Duration) -> Running) -> (DrainEnd, Duration, u32) {
    let t0 = Instant::now();
    let mut looks = 0;
    let end = wait_for_matches(cap, || {
        looks += 1;
        runs(t0.elapsed())
    })
    .await;
    (end, t0.elapsed(), looks)
}

#[tokio::test(start_paused = true)]
async fn nothing_running_ends_the_drain_at_the_first_look() {
    let (end, took, looks) = wait(CAP, |_| running(0, 0)).await;
    assert_eq!((end, took, looks), (DrainEnd::Drained, Duration::ZERO, 1));
}

#[tokio::test(start_paused = true)]
async fn matches_that_never_end_hold_the_drain_up_to_its_cap_and_not_one_look_longer() {
    // A remote match counts as much as a local room's.
    for runs in [running(2, 0), running(0, 1), running(1, 3)] {
        let (end, took, looks) = wait(Duration::from_secs(7), |_| runs).await;
        assert_eq!(end, DrainEnd::TimeUp(runs));
        assert_eq!(took, Duration::from_secs(7));
        // A look every half second from 0 to 7 s.
        assert_eq!(looks, 15);
    }
    // A cap between two looks: the first look after it.
    let (end, took, _) = wait(Duration::from_millis(7_200), |_| running(1, 0)).await;
    assert_eq!(end, DrainEnd::TimeUp(running(1, 0)));
    assert_eq!(took, Duration::from_millis(7_500));
    // No cap: the first look.
    let (end, took, looks) = wait(Duration::ZERO, |_| running(1, 0)).await;
    assert_eq!(
        (end, took, looks),
        (DrainEnd::TimeUp(running(1, 0)), Duration::ZERO, 1)
    );
}

#[tokio::test(start_paused = true)]
async fn the_drain_ends_after_last_match_once_the_last_match_ended_before_its_cap() {
    // The last match ends at 2 s: last seen running at the look of 1.5 s.
    let ends = Duration::from_secs(2);
    let (end, took, looks) = wait(CAP, |t| running(usize::from(t < ends), 0)).await;
    assert_eq!(end, DrainEnd::Drained);
    assert_eq!(took, Duration::from_millis(1_500) + AFTER_LAST_MATCH);
    assert_eq!(looks, 10);
    // A match seen again within that time starts it over.
    let again =
        |t: Duration| t < ends || (t >= Duration::from_secs(4) && t < Duration::from_secs(5));
    let (end, took, _) = wait(CAP, |t| running(0, usize::from(again(t)))).await;
    assert_eq!(end, DrainEnd::Drained);
    assert_eq!(took, Duration::from_millis(4_500) + AFTER_LAST_MATCH);
}

#[tokio::test(start_paused = true)]
async fn a_cap_within_the_time_after_the_last_match_ends_the_drain_with_nothing_running() {
    let ends = Duration::from_secs(2);
    let (end, took, looks) = wait(Duration::from_secs(3), |t| {
        running(usize::from(t < ends), 0)
    })
    .await;
    // Nothing to abandon: the caller only abandons what still runs.
    assert_eq!(end, DrainEnd::TimeUp(running(0, 0)));
    assert_eq!(took, Duration::from_secs(3));
    assert_eq!(looks, 7);
    assert!(LOOK_EVERY < AFTER_LAST_MATCH);
}
