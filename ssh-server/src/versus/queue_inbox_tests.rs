//! The queue's bounded inbox against a flood (`queue_inbox.rs`): the bound holds, counted;
//! every refused player is told at once and loses no claim; a way out is never lost; and the
//! queue serves others once it has read what it took.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use minotty_ui::Response;
use tokio::sync::mpsc;

use super::{
    Hub, Member, QUEUE_BUSY, QUEUE_INBOX, QueueMsg, RESPONSE_QUEUE, RankedClaim, SessionTx,
};
use minotty_domain::{AccountRef, PlayerId};

fn member(hub: &Hub, account: i64) -> (Member, mpsc::Receiver<Response>) {
    let (tx, rx) = mpsc::channel(RESPONSE_QUEUE);
    let member = Member {
        id: hub.next_member(),
        name: format!("p{account}"),
        account: Some(AccountRef {
            id: PlayerId(account),
            name: format!("p{account}"),
        }),
        owner: None,
        address: None,
        tx: SessionTx::new(tx),
        link: Arc::new(Mutex::new(None)),
    };
    (member, rx)
}

/// The attacker: `n` joins of one account's sessions, sent at once (the queue's task gets no
/// turn in between, as when many arrive faster than it reads). Returns each join's receiver
/// and whether the queue took it.
fn flood(hub: &Arc<Hub>, n: usize) -> Vec<(mpsc::Receiver<Response>, bool)> {
    let claim: RankedClaim = hub.claim_ranked(PlayerId(666)).expect("a free claim");
    (0..n)
        .map(|_| {
            let (member, rx) = member(hub, 666);
            let taken = hub.to_queue(QueueMsg::Join { member, claim });
            (rx, taken)
        })
        .collect()
}

async fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..1000 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("still waiting for: {what}");
}

#[tokio::test(start_paused = true)]
async fn a_flood_of_joins_is_held_to_the_inbox_and_each_refused_player_is_told() {
    let hub = Arc::new(Hub::new(None, Some(1)));
    let sent = 3 * QUEUE_INBOX;
    let mut joins = flood(&hub, sent);

    let taken = joins.iter().filter(|(_, taken)| *taken).count();
    assert_eq!(taken, QUEUE_INBOX, "the inbox holds its bound, no more");
    assert_eq!(hub.queue().waiting(), QUEUE_INBOX);
    assert_eq!(hub.queue_refused(), (sent - QUEUE_INBOX) as u64);
    // The first come are taken; every other is told at once, exactly once.
    assert!(joins[..QUEUE_INBOX].iter().all(|(_, taken)| *taken));
    for (rx, _) in joins.iter_mut().skip(QUEUE_INBOX) {
        match rx.try_recv() {
            Ok(Response::RoomFailed { message }) => assert_eq!(message, QUEUE_BUSY),
            other => panic!("a refused join was not told: {other:?}"),
        }
        assert!(rx.try_recv().is_err(), "told once");
    }

    // The queue reads what it took; then an honest player is served as before.
    wait_for("the queue read its inbox", || hub.queue().waiting() == 0).await;
    let ann_claim = hub.claim_ranked(PlayerId(1)).expect("ann's claim");
    let (ann, mut ann_rx) = member(&hub, 1);
    assert!(hub.to_queue(QueueMsg::Join {
        member: ann,
        claim: ann_claim,
    }));
    let queued = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(r) = ann_rx.recv().await {
            if matches!(r, Response::Queued { .. }) {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(queued, Ok(true), "ann waits in the queue after the flood");
}

#[tokio::test(start_paused = true)]
async fn a_way_out_of_a_full_queue_is_never_lost() {
    let hub = Arc::new(Hub::new(None, Some(1)));
    // Bob is rated far from the flood's account, so that he is never paired with it.
    let mut far = minotty_engine::rating::Rating::default();
    far.rating += 2000.0;
    hub.set_rating(PlayerId(2), far);
    let bob_claim = hub.claim_ranked(PlayerId(2)).expect("bob's claim");
    let (bob, mut bob_rx) = member(&hub, 2);
    let bob_id = bob.id;
    assert!(hub.to_queue(QueueMsg::Join {
        member: bob,
        claim: bob_claim,
    }));
    loop {
        match bob_rx.recv().await {
            Some(Response::Queued { .. }) => break,
            Some(_) => {}
            None => panic!("bob's channel closed"),
        }
    }

    let joins = flood(&hub, QUEUE_INBOX + 10);
    assert_eq!(hub.queue().waiting(), QUEUE_INBOX, "full");
    assert_eq!(
        joins.iter().filter(|(_, taken)| *taken).count(),
        QUEUE_INBOX
    );
    // Bob leaves the queue while its inbox is full: his cancel waits its turn, not dropped.
    assert!(hub.to_queue(QueueMsg::Cancel { id: bob_id }));
    assert_eq!(hub.queue().waiting(), QUEUE_INBOX, "still bounded");
    assert_eq!(hub.queue_refused(), 10, "only joins were refused");
    wait_for("bob's claim released by his cancel", || {
        !hub.holds_ranked(bob_claim)
    })
    .await;
}
