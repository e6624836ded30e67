//! Teams over SSH with real russh clients: two people and two bots play a 2v2 in one room
//! (`minotty_tests::teams`: the settings screen, `g`, the marks, the results per team).

use minotty_tests::TestServer;
use minotty_tests::teams::two_people_against_two_bots;
use minotty_tests::versus::guest;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_and_two_bots_play_a_2v2_with_results_per_team() {
    let server = TestServer::start().await.expect("server starts");
    let (_ca, mut ann) = guest(server.addr, "ann").await.expect("ann");
    let (_cb, mut bob) = guest(server.addr, "bob").await.expect("bob");
    two_people_against_two_bots(&mut ann, &mut bob).await;
}
