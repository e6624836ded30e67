//! A proxy task's pace on tokio's paused clock (`start_paused`): its tick every
//! [`HEARTBEAT_EVERY`], the first one a heartbeat after it starts; a response wakes it at
//! once; never admitted, it is done exactly [`PROXY_ADMISSION`] after it was made (at the
//! fifth tick, not the fourth); queued or in a room, never.

use std::time::Duration;

use tokio::sync::mpsc;
use tokio::time::Instant;

use super::HEARTBEAT_EVERY;
use super::proxy_pace::{PROXY_ADMISSION, ProxyPace};

#[tokio::test(start_paused = true)]
async fn a_silent_proxy_ticks_every_heartbeat_from_one_heartbeat_after_its_start() {
    let (tx, mut rx) = mpsc::channel::<u32>(4);
    let t0 = Instant::now();
    let mut pace = ProxyPace::new(t0);
    let mut ticks = Vec::new();
    for _ in 0..3 {
        assert_eq!(pace.next(&mut rx).await, Some(None));
        ticks.push(t0.elapsed());
    }
    assert_eq!(ticks, [1, 2, 3].map(|n| n * HEARTBEAT_EVERY));
    // A response wakes it at once; a closed channel ends it.
    tx.send(7).await.expect("open");
    assert_eq!(pace.next(&mut rx).await, Some(Some(7)));
    drop(tx);
    assert_eq!(pace.next(&mut rx).await, None);
    assert_eq!(t0.elapsed(), 3 * HEARTBEAT_EVERY);
}

/// Ticks `pace` until it is idle (at most 20 ticks) with the proxy `linked` and `queued`;
/// how many ticks that took.
async fn ticks_until_idle(pace: &mut ProxyPace, linked: bool, queued: bool) -> Option<u32> {
    let (_tx, mut rx) = mpsc::channel::<u32>(1);
    for n in 1..=20 {
        assert_eq!(pace.next(&mut rx).await, Some(None));
        if pace.idle(linked, queued, Instant::now()) {
            return Some(n);
        }
    }
    None
}

#[tokio::test(start_paused = true)]
async fn a_proxy_never_admitted_is_done_at_its_admission_time_not_a_tick_before() {
    let t0 = Instant::now();
    let mut pace = ProxyPace::new(t0);
    assert!(!pace.idle(false, false, t0));
    assert_eq!(ticks_until_idle(&mut pace, false, false).await, Some(5));
    assert_eq!(t0.elapsed(), PROXY_ADMISSION);
    assert_eq!(PROXY_ADMISSION, 5 * HEARTBEAT_EVERY);
    // Made a little before its task started: done at the first tick at or after its time.
    let born = Instant::now();
    tokio::time::advance(Duration::from_millis(300)).await;
    let mut pace = ProxyPace::new(born);
    assert_eq!(ticks_until_idle(&mut pace, false, false).await, Some(5));
    assert_eq!(born.elapsed(), PROXY_ADMISSION + Duration::from_millis(300));
}

#[tokio::test(start_paused = true)]
async fn a_queued_or_linked_proxy_is_never_idle_an_answered_one_out_of_its_room_at_once() {
    for (linked, queued) in [(true, false), (false, true), (true, true)] {
        let mut pace = ProxyPace::new(Instant::now());
        assert_eq!(ticks_until_idle(&mut pace, linked, queued).await, None);
        pace.answered();
        assert!(!pace.idle(linked, queued, Instant::now()));
    }
    let t0 = Instant::now();
    let mut pace = ProxyPace::new(t0);
    pace.answered();
    assert!(pace.idle(false, false, t0));
}

#[test]
fn the_link_goes_first_except_out_of_the_room_where_the_rooms_last_word_does() {
    use super::proxy_pace::{Step, order};
    // (linked before, linked now) -> what is published first.
    let table = [
        ((false, false), [Step::Link, Step::Relay]),
        // Joined: `Linked` before the room's first word.
        ((false, true), [Step::Link, Step::Relay]),
        // Same room, or moved to another: the link (if changed) first.
        ((true, true), [Step::Link, Step::Relay]),
        // Out of the room: its `RoomClosed` before `Unlinked`.
        ((true, false), [Step::Relay, Step::Link]),
    ];
    for ((was, now), steps) in table {
        assert_eq!(order(was, now), steps, "linked {was} -> {now}");
    }
}
