//! The ranked queue's timed rules on tokio's paused clock (`start_paused`): the rating range
//! widening with the wait, a pairing that waits for the range to cover the gap, and the bot
//! offer after its wait. The queue ticks once a second, so a rule due at second `s` happens
//! at the first tick at or after it: within `[s, s + 1 s)`.

use std::time::Duration;

use minotty_engine::rating::Rating;
use minotty_ui::{Request, Response};
use tokio::time::{Instant, sleep};

use super::Client;
use crate::services::versus::SharedVersus;
use crate::versus::queue::{BASE_RANGE, MAX_RANGE, WIDEN_PER_SEC};
use minotty_domain::PlayerId;

const TICK: Duration = Duration::from_secs(1);

/// The latest range `c` was told since the last look.
fn latest_range(c: &mut Client) -> Option<i32> {
    c.drain().into_iter().rev().find_map(|r| match r {
        Response::Queued { range, .. } => Some(range),
        _ => None,
    })
}

fn offered(c: &mut Client) -> bool {
    c.drain()
        .iter()
        .any(|r| matches!(r, Response::BotOffer { .. }))
}

#[tokio::test(start_paused = true)]
async fn the_range_widens_ten_points_a_second_up_to_its_cap() {
    let shared = SharedVersus::default();
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::QuickMatch);
    let range = ann
        .wait(|r| match r {
            Response::Queued { range, .. } => Some(range),
            _ => None,
        })
        .await;
    assert_eq!(range, BASE_RANGE);
    // Looks half-way between the queue's ticks (once a second from the queue's start, which is
    // when ann queued).
    sleep(TICK / 2).await;
    let mut seen = Vec::new();
    for _ in 0..10 {
        sleep(TICK).await;
        seen.push(latest_range(&mut ann).expect("told every tick"));
    }
    let expected: Vec<i32> = (1..=10).map(|s| BASE_RANGE + s * WIDEN_PER_SEC).collect();
    assert_eq!(seen, expected);
    // (1000 - 100) / 10 = 90 s to the cap, then no wider.
    sleep(Duration::from_secs(200)).await;
    assert_eq!(latest_range(&mut ann), Some(MAX_RANGE));
}

#[tokio::test(start_paused = true)]
async fn players_300_points_apart_are_paired_once_the_range_covers_the_gap() {
    let shared = SharedVersus::default();
    let strong = Rating {
        rating: 1800.0,
        ..Rating::default()
    };
    shared.hub().set_rating(PlayerId(2), strong);
    let mut ann = Client::new(&shared, "ann", Some(1));
    let mut bob = Client::new(&shared, "bob", Some(2));
    ann.send(Request::QuickMatch);
    bob.send(Request::QuickMatch);
    let rating = bob
        .wait(|r| match r {
            Response::Queued { rating, .. } => Some(rating),
            _ => None,
        })
        .await;
    assert_eq!(rating, 1800);
    let queued = Instant::now();
    // 300 points need a range of 300: (300 - 100) / 10 = 20 s of waiting.
    let due = Duration::from_secs(((300 - BASE_RANGE) / WIDEN_PER_SEC) as u64);
    sleep(due - Duration::from_millis(500)).await;
    assert!(
        !ann.drain()
            .iter()
            .any(|r| matches!(r, Response::MatchStart(_))),
        "paired before the range covered the gap"
    );
    let start = ann
        .wait(|r| match r {
            Response::MatchStart(s) => Some(s),
            _ => None,
        })
        .await;
    let waited = queued.elapsed();
    assert!(
        waited >= due && waited < due + TICK,
        "paired after {waited:?} (paused clock)"
    );
    assert!(start.ranked);
    assert_eq!(start.players, ["ann", "bob"]);
}

#[tokio::test(start_paused = true)]
async fn a_bot_match_is_offered_after_the_wait_and_again_a_wait_after_a_decline() {
    let shared = SharedVersus::default();
    let wait = shared.hub().bots.limits.offer_after;
    let mut ann = Client::new(&shared, "ann", Some(1));
    ann.send(Request::QuickMatch);
    ann.wait(|r| matches!(r, Response::Queued { .. }).then_some(()))
        .await;
    let mut since = Instant::now();
    for round in 0..2 {
        sleep(wait - Duration::from_millis(500)).await;
        assert!(!offered(&mut ann), "offered early (round {round})");
        let level = ann
            .wait(|r| match r {
                Response::BotOffer { level } => Some(level),
                _ => None,
            })
            .await;
        let waited = since.elapsed();
        assert!(
            waited >= wait && waited < wait + TICK,
            "offered after {waited:?} (round {round})"
        );
        assert_eq!(level, 3, "1500 gets level 3");
        ann.send(Request::DeclineBotMatch);
        since = Instant::now();
    }
    // Declining starts no bot.
    assert_eq!(shared.hub().bots.active(), 0);
}

/// The latest `same_address` word `c` was told since the last look.
fn latest_same_address(c: &mut Client) -> Option<bool> {
    c.drain().into_iter().rev().find_map(|r| match r {
        Response::Queued { same_address, .. } => Some(same_address),
        _ => None,
    })
}

#[tokio::test(start_paused = true)]
async fn a_player_kept_waiting_only_by_the_one_address_rule_is_told_after_a_while() {
    use crate::versus::queue::SAME_ADDRESS_HINT_AFTER;
    let shared = SharedVersus::default();
    let mut main = Client::connected_from(&shared, "main", Some(1), "203.0.113.5");
    let mut alt = Client::connected_from(&shared, "alt", Some(2), "203.0.113.5");
    main.send(Request::QuickMatch);
    let told = main
        .wait(|r| match r {
            Response::Queued { same_address, .. } => Some(same_address),
            _ => None,
        })
        .await;
    assert!(!told, "just queued");
    // Alone: nobody is kept from main, nothing to say however long.
    sleep(TICK / 2 + SAME_ADDRESS_HINT_AFTER + 2 * TICK).await;
    assert_eq!(latest_same_address(&mut main), Some(false));
    alt.send(Request::QuickMatch);
    alt.wait(|r| matches!(r, Response::Queued { .. }).then_some(()))
        .await;
    // main has waited past the hint's time: told at the next tick. alt, just queued, only
    // after its own wait.
    sleep(TICK).await;
    assert_eq!(latest_same_address(&mut main), Some(true));
    assert_eq!(latest_same_address(&mut alt), Some(false));
    sleep(SAME_ADDRESS_HINT_AFTER - 2 * TICK).await;
    assert_eq!(latest_same_address(&mut alt), Some(false), "not yet");
    sleep(2 * TICK).await;
    assert_eq!(latest_same_address(&mut alt), Some(true));
    // Someone from elsewhere queues: paired with main, the longest waiting; alt, alone again,
    // is no longer told of an address.
    let mut other = Client::connected_from(&shared, "other", Some(3), "198.51.100.20");
    other.send(Request::QuickMatch);
    for c in [&mut other, &mut main] {
        c.wait(|r| matches!(r, Response::MatchStart(_)).then_some(()))
            .await;
    }
    alt.drain();
    sleep(TICK).await;
    assert_eq!(latest_same_address(&mut alt), Some(false));
}
