//! A player out of a match of three (knocked out or forfeited) while the others play on: they
//! may leave, which takes nothing from the others; their place stands, and what they are told
//! (at once, or coming back after a drop) is true.

use super::*;

fn out() -> Report {
    Report::Finished {
        won: false,
        progress: Progress::default(),
    }
}

async fn notice(c: &mut Client) -> String {
    c.wait(|r| match r {
        Response::Notice { message } => Some(message),
        _ => None,
    })
    .await
}

#[tokio::test(start_paused = true)]
async fn a_knocked_out_player_leaves_and_the_match_goes_on_for_the_others() {
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(3), &["ann", "bob", "cid"]).await;
    start(&mut c).await;
    c[1].report(vec![out()]);
    // The others see bob out; the match goes on.
    c[0].wait(|r| match r {
        Response::Opponents(list) => list
            .iter()
            .any(|o| o.name == "bob" && !o.alive)
            .then_some(()),
        _ => None,
    })
    .await;
    c[1].send(Request::LeaveRoom);
    let message = closed(&mut c[1]).await;
    assert!(
        message.contains("the match goes on without you"),
        "{message}"
    );
    assert!(
        !message.contains("loss"),
        "out already, leaving lost nothing: {message}"
    );
    // Still running for ann and cid: garbage flows, nobody is told it is over.
    c[0].report(vec![Report::Attack { lines: 2 }]);
    c[2].wait(|r| matches!(r, Response::Garbage { lines: 2, from: 0 }).then_some(()))
        .await;
    assert!(
        c[0].drain()
            .iter()
            .all(|r| !matches!(r, Response::MatchOver(_))),
        "not over"
    );
    c[2].report(vec![out()]);
    let result = result(&mut c[0]).await;
    let places: Vec<(&str, u8, bool)> = result
        .rows
        .iter()
        .map(|r| (r.name.as_str(), r.place, r.forfeited))
        .collect();
    assert_eq!(
        places,
        [("ann", 1, false), ("cid", 2, false), ("bob", 3, false)],
        "bob's knock-out stands: leaving after it is no forfeit"
    );
    result_of_cid(&mut c[2]).await;
    // bob, gone, is sent nothing more of the match.
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        c[1].drain()
            .iter()
            .all(|r| !matches!(r, Response::MatchOver(_) | Response::Opponents(_))),
        "nothing after leaving"
    );
    // The room goes on without his seat.
    let view = c[0].room().await;
    assert_eq!(view.seats.len(), 2, "{:?}", view.seats);
}

async fn result_of_cid(c: &mut Client) {
    let r = result(c).await;
    assert_eq!(r.you, Some(2));
}

#[tokio::test(start_paused = true)]
async fn a_player_who_drops_after_a_knock_out_is_told_the_truth_when_back() {
    let shared = SharedVersus::default();
    let mut ann = Client::new(&shared, "ann", Some(1));
    let mut bob = Client::new(&shared, "bob", Some(2));
    let mut cid = Client::new(&shared, "cid", None);
    ann.send(Request::CreateRoom(battle(3)));
    let code = ann.room().await.code;
    for c in [&mut bob, &mut cid] {
        c.send(Request::JoinRoom {
            code: code.clone(),
            spectate: false,
        });
        c.room().await;
    }
    let mut all = [ann, bob, cid];
    start(&mut all).await;
    let [mut ann, mut bob, mut cid] = all;
    bob.report(vec![out()]);
    ann.wait(|r| match r {
        Response::Opponents(list) => list
            .iter()
            .any(|o| o.name == "bob" && !o.alive)
            .then_some(()),
        _ => None,
    })
    .await;
    drop(bob.client.take());
    tokio::time::sleep(Duration::from_millis(10)).await;
    let mut back = Client::new(&shared, "bob", Some(2));
    let said = notice(&mut back).await;
    assert!(said.contains("still running"), "{said}");
    assert!(
        !said.contains("without you") && !said.contains("counts as a loss"),
        "bob was out before he left: {said}"
    );
    cid.report(vec![out()]);
    result(&mut ann).await;
    let mut again = Client::new(&shared, "bob", Some(2));
    let said = notice(&mut again).await;
    assert!(said.contains("placed 3 of 3"), "{said}");
    assert!(
        !said.contains("left early"),
        "a knock-out, not an early leave: {said}"
    );
}
