//! The seal's time windows on tokio's paused clock (`start_paused`): a timestamp exactly
//! [`MAX_SKEW`] away passes and one millisecond more is stale; a silent sender's replay window
//! is kept until exactly twice [`MAX_SKEW`] of silence (a replay refused just inside it), after
//! which a replay is stale by its timestamp; a full sender map makes room only for senders
//! silent [`MAX_SKEW`] or more.

use std::time::Duration;

use tokio::time::{Instant, advance};

use super::auth::{Auth, ClusterKey, MAX_SENDERS, MAX_SKEW};
use super::checks::DropReason;

const KEY: &str = "0123456789abcdef0123456789abcdef";
const NOW: i64 = 1_800_000_000_000;
const MS: Duration = Duration::from_millis(1);

fn skew_ms() -> i64 {
    i64::try_from(MAX_SKEW.as_millis()).expect("small")
}

fn pair() -> (Auth, Auth) {
    let key = ClusterKey::new(KEY).expect("long enough");
    (
        Auth::new(key.clone(), "a-00000001"),
        Auth::new(key, "b-00000002"),
    )
}

#[tokio::test(start_paused = true)]
async fn a_timestamp_max_skew_away_passes_and_one_millisecond_more_is_stale() {
    let (a, b) = pair();
    let now = Instant::now();
    for ts in [NOW - skew_ms(), NOW + skew_ms()] {
        assert!(b.open("s", &a.seal("s", b"", ts), NOW, now).is_ok(), "{ts}");
    }
    for ts in [NOW - skew_ms() - 1, NOW + skew_ms() + 1] {
        assert_eq!(
            b.open("s", &a.seal("s", b"", ts), NOW, now),
            Err(DropReason::Stale),
            "{ts}"
        );
    }
}

#[tokio::test(start_paused = true)]
async fn a_silent_senders_window_is_kept_until_twice_max_skew_then_its_replays_are_stale() {
    let (a, b) = pair();
    let sealed = a.seal("s", b"1", NOW);
    assert!(b.open("s", &sealed, NOW, Instant::now()).is_ok());
    advance(2 * MAX_SKEW - MS).await;
    b.forget_silent(Instant::now());
    assert_eq!(b.senders(), 1);
    // Just inside: the window still knows the message (its timestamp alone would pass).
    assert_eq!(
        b.open("s", &sealed, NOW, Instant::now()),
        Err(DropReason::Stale)
    );
    // That refusal was a hearing: silence counts again from it.
    advance(2 * MAX_SKEW - MS).await;
    b.forget_silent(Instant::now());
    assert_eq!(b.senders(), 1);
    advance(MS).await;
    b.forget_silent(Instant::now());
    assert_eq!(b.senders(), 0);
    // Forgotten, so a replay is caught by its timestamp: this instance's clock moved as much.
    let later = NOW + i64::try_from((4 * MAX_SKEW).as_millis()).expect("small");
    assert_eq!(
        b.open("s", &sealed, later, Instant::now()),
        Err(DropReason::Stale)
    );
}

#[tokio::test(start_paused = true)]
async fn a_full_sender_map_takes_a_newcomer_only_once_the_others_were_silent_max_skew() {
    let key = ClusterKey::new(KEY).expect("long enough");
    let b = Auth::new(key.clone(), "b");
    for i in 0..MAX_SENDERS {
        let a = Auth::new(key.clone(), &format!("s{i}"));
        assert!(
            b.open("s", &a.seal("s", b"", NOW), NOW, Instant::now())
                .is_ok()
        );
    }
    let late = Auth::new(key, "late");
    advance(MAX_SKEW - MS).await;
    assert_eq!(
        b.open("s", &late.seal("s", b"", NOW), NOW, Instant::now()),
        Err(DropReason::OverCap)
    );
    assert_eq!(b.senders(), MAX_SENDERS);
    advance(MS).await;
    assert!(
        b.open("s", &late.seal("s", b"", NOW), NOW, Instant::now())
            .is_ok()
    );
    assert_eq!(b.senders(), 1);
}
