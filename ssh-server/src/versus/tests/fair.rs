//! Fair ranked play: two accounts from one address are never paired for a ranked match unless
//! the operator allows it (`--ranked-same-address`).

use std::time::Duration;

use minotty_ui::{Request, Response};

use super::Client;
use crate::services::versus::SharedVersus;
use crate::versus::bot::BotLimits;

fn started(c: &mut Client) -> bool {
    c.drain()
        .iter()
        .any(|r| matches!(r, Response::MatchStart(_)))
}

async fn queued(c: &mut Client) {
    c.wait(|r| matches!(r, Response::Queued { .. }).then_some(()))
        .await;
}

/// The attacker: one person, two accounts, one address, queueing both to feed one of them
/// wins. Before the fix they were paired at once (same rating, different accounts).
#[tokio::test(start_paused = true)]
async fn two_accounts_from_one_address_are_never_paired_for_ranked() {
    let shared = SharedVersus::default();
    // The second account comes from the same IPv4 address written v4-mapped.
    let mut main = Client::connected_from(&shared, "main", Some(1), "203.0.113.5");
    let mut alt = Client::connected_from(&shared, "alt", Some(2), "::ffff:203.0.113.5");
    main.send(Request::QuickMatch);
    queued(&mut main).await;
    alt.send(Request::QuickMatch);
    queued(&mut alt).await;
    // Equal ratings: allowed, they would be paired at once; a few ticks of the queue (one a
    // second) pass without it.
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert!(
        !started(&mut main) && !started(&mut alt),
        "one address, paired"
    );

    // A player from another address is paired with the one waiting longest.
    let mut other = Client::connected_from(&shared, "other", Some(3), "198.51.100.20");
    other.send(Request::QuickMatch);
    for c in [&mut main, &mut other] {
        c.wait(|r| matches!(r, Response::MatchStart(s) if s.ranked).then_some(()))
            .await;
    }
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert!(!started(&mut alt), "alt still waits");
}

/// An IPv6 client holds a whole /64: two accounts on two interface ids of one network are one
/// address.
#[tokio::test(start_paused = true)]
async fn two_accounts_from_one_ipv6_network_are_never_paired_for_ranked() {
    let shared = SharedVersus::default();
    let mut v6a = Client::connected_from(&shared, "v6a", Some(1), "2001:db8:7:1::10");
    let mut v6b = Client::connected_from(&shared, "v6b", Some(2), "2001:db8:7:1:abcd::99");
    v6a.send(Request::QuickMatch);
    queued(&mut v6a).await;
    v6b.send(Request::QuickMatch);
    queued(&mut v6b).await;
    tokio::time::sleep(Duration::from_millis(2_500)).await;
    assert!(!started(&mut v6a) && !started(&mut v6b), "one /64, paired");
    let mut other = Client::connected_from(&shared, "other", Some(3), "2001:db8:7:2::10");
    other.send(Request::QuickMatch);
    for c in [&mut v6a, &mut other] {
        c.wait(|r| matches!(r, Response::MatchStart(s) if s.ranked).then_some(()))
            .await;
    }
}

#[tokio::test(start_paused = true)]
async fn the_operator_may_allow_accounts_of_one_address_to_meet() {
    let shared = SharedVersus::with_bots(
        None,
        None,
        BotLimits {
            ranked_same_address: true,
            ..BotLimits::default()
        },
    );
    let mut main = Client::connected_from(&shared, "main", Some(1), "203.0.113.5");
    let mut alt = Client::connected_from(&shared, "alt", Some(2), "203.0.113.5");
    main.send(Request::QuickMatch);
    queued(&mut main).await;
    alt.send(Request::QuickMatch);
    for c in [&mut main, &mut alt] {
        c.wait(|r| matches!(r, Response::MatchStart(s) if s.ranked).then_some(()))
            .await;
    }
}
