//! Teams across two instances over NATS: the room and its bots on A, bob on B. The teams
//! setting reaches B in the room's view, bob's team change (`RoomCommand::Team`) reaches A,
//! and the match's teams and results per team reach B (`minotty_tests::teams`).

use std::time::Duration;

use minotty_tests::cluster::two_instances;
use minotty_tests::teams::two_people_against_two_bots;
use minotty_tests::versus::guest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2v2_with_a_player_of_another_instance() {
    let Some((shared, mut a, mut b)) = two_instances(
        "a_2v2_with_a_player_of_another_instance",
        None,
        Duration::from_secs(5),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };
    let (_ca, mut ann) = guest(a.addr, "ann").await.expect("ann on A");
    let (_cb, mut bob) = guest(b.addr, "bob").await.expect("bob on B");
    two_people_against_two_bots(&mut ann, &mut bob).await;
    drop((ann, bob));
    a.stop().await.expect("A stops");
    b.stop().await.expect("B stops");
    shared.release().await.expect("the database goes");
}
