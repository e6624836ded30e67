//! Two instances over NATS, end to end with real SSH clients: one `nats-server` (the
//! distribution's), one shared database (`minotty_tests::cluster::database_url`: PostgreSQL,
//! required in CI), instances A and B, each a `minotty serve` process. Quick match pairs a player of A with one of B and both instances show the same
//! leaderboard after it; a room owned by B is joined by code from A, a tetris on A raises the
//! meter on B, a spectator on A watches; then A is killed: the match in B's room, with a player
//! of A out of reach, is abandoned (not stored, not rated) and B's players are told so.

use std::time::Duration;

use minotty_tests::across::match_across;
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::cluster::{Instance, two_instances};
use minotty_tests::versus::{
    create_room, drop_piece, fields, guest, join_room, meter, play, ranked_pair, registered,
    start_match, tetris_seed, versus_item, wait_for_play, wait_for_sent,
};
use minotty_tests::{Connection, Login, PtySession, WAIT};

/// The versus leaderboard as an instance prints it (`ssh HOST leaderboard versus`), once it
/// lists `name`.
async fn versus_board(addr: std::net::SocketAddr, name: &str) -> String {
    let conn = Connection::open(addr, "reader", Login::Guest)
        .await
        .expect("connects");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let out = conn
            .exec("leaderboard versus", false)
            .await
            .expect("leaderboard");
        if out.stdout.contains(name) || tokio::time::Instant::now() > deadline {
            return out.stdout;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// The screen's text with line breaks and runs of spaces as one space (a message wraps).
fn flat(s: &vt100::Screen) -> String {
    s.contents()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A player with the connection that carries it (kept open while the test needs the player).
type Player = (Connection, PtySession);

/// ann (on A) and dan (on B) play a match in ann's room on A, and bob (registered, on B) waits
/// in the ranked queue, which A leads; and the room's code.
async fn match_on_a_and_bob_queued(a: &Instance, b: &Instance) -> (Player, Player, Player, String) {
    let ((ca, ann), (cd, dan), code) = match_across(a.addr, b.addr, "ann", "dan").await;
    let (cb, mut bob) = registered(b.addr, "bob").await.expect("bob on B");
    versus_item(&mut bob, 0).await.expect("bob queues");
    bob.wait_for_text("1500", WAIT).await.expect("bob waits");
    ((ca, ann), (cd, dan), (cb, bob), code)
}

/// cat (registered, on B) joins the ranked queue, now led by B, and is paired with bob there.
async fn cat_meets_bob(b: &Instance, bob: &mut PtySession) -> Player {
    let (cc, mut cat) = registered(b.addr, "cat").await.expect("cat on B");
    versus_item(&mut cat, 0).await.expect("cat queues");
    wait_for_play(&mut cat).await.expect("cat plays");
    wait_for_play(bob).await.expect("bob plays, paired on B");
    assert!(cat.contents().contains("bob"), "{}", cat.contents());
    (cc, cat)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rooms_and_quick_match_across_two_instances_and_one_dies() {
    let (seed, plan) = tetris_seed();
    let Some((shared, mut a, mut b)) = two_instances(
        "rooms_and_quick_match_across_two_instances_and_one_dies",
        Some(seed),
        Duration::from_secs(30),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };

    // ---- quick match: ann on A, bob on B, paired by the one queue (led by A, the oldest) ----
    let ((_ca, mut ann), (cb, bob)) = ranked_pair(a.addr, b.addr)
        .await
        .expect("ann on A and bob on B, paired for ranked");
    assert!(bob.contents().contains("ann"), "{}", bob.contents());
    cb.close().await;
    ann.wait_for_text("You win!", WAIT).await.expect("ann wins");
    ann.wait_for_text("1662", WAIT)
        .await
        .expect("the new rating");
    let board_a = versus_board(a.addr, "ann").await;
    let board_b = versus_board(b.addr, "ann").await;
    assert!(
        board_a.contains("ann") && board_a.contains("bob"),
        "{board_a}"
    );
    assert_eq!(board_a, board_b, "both instances show the same leaderboard");

    // ---- a room owned by B: dan and fay on B, cid joins from A by code, eve watches from A ----
    let (_cd, mut dan) = guest(b.addr, "dan").await.expect("dan on B");
    let (_cf, mut fay) = guest(b.addr, "fay").await.expect("fay on B");
    let (_cc, mut cid) = guest(a.addr, "cid").await.expect("cid on A");
    let (_ce, mut eve) = guest(a.addr, "eve").await.expect("eve on A");
    let code = create_room(&mut dan, false, 3).await.expect("a room on B");
    join_room(&mut cid, &code, false)
        .await
        .expect("cid joins B's room from A");
    join_room(&mut fay, &code, false).await.expect("fay joins");
    join_room(&mut eve, &code, true)
        .await
        .expect("eve watches from A");
    for name in ["~cid", "~fay"] {
        dan.wait_for_text(name, WAIT).await.expect("seated");
    }
    for p in [&mut cid, &mut fay] {
        p.send(&kitty_tap(KittyKey::Char('r')))
            .await
            .expect("ready");
    }
    dan.wait_until("everyone ready", WAIT, |s| {
        s.contents().matches("READY").count() >= 2
    })
    .await
    .expect("ready shown");
    dan.send(&kitty_tap(K_ENTER)).await.expect("start");
    for p in [&mut dan, &mut fay, &mut cid] {
        wait_for_play(p).await.expect("playing");
    }
    eve.wait_until("three boards", WAIT, |s| fields(s).len() >= 3)
        .await
        .expect("the spectator on A sees the boards");

    // A tetris on A: 4 lines on the meter of one of B's players.
    play(&mut cid, &plan).await.expect("cid's tetris");
    wait_for_sent(&mut cid, 4).await.expect("a tetris sent");
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        dan.pump_for(Duration::from_millis(20)).await;
        fay.pump_for(Duration::from_millis(20)).await;
        let meters = (meter(dan.screen()), meter(fay.screen()));
        if meters == (4, 0) || meters == (0, 4) {
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no meter on B shows 4: {meters:?}\n{}\n{}",
            dan.contents(),
            fay.contents()
        );
    }
    // It rises on the target's next lock after the delay; the spectator on A sees it.
    tokio::time::sleep(Duration::from_millis(700)).await;
    drop_piece(&mut dan).await;
    drop_piece(&mut fay).await;
    eve.wait_until("garbage on a board", WAIT, |s| {
        fields(s).iter().any(|f| f.garbage_rows() == 4)
    })
    .await
    .expect("the spectator on A sees the garbage rise on B's player");

    // ---- A dies: nobody can tell what cid did, so B's match is abandoned (one truth) ----
    a.kill();
    for p in [&mut dan, &mut fay] {
        p.wait_until(
            "told the match is abandoned",
            Duration::from_secs(10),
            |s| {
                let text = flat(s);
                text.contains("Lost contact with ~cid's server") && text.contains("not rated")
            },
        )
        .await
        .unwrap_or_else(|e| panic!("{e}\n{}", p.contents()));
    }
    assert!(b.is_running());
    drop((a, b));
    shared.release().await.expect("drops the database");
}

/// SIGTERM on an instance drains it: new rooms are refused there, its running match goes on to
/// its end (a player on the other instance in it), and only then does it stop.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_instance_lets_its_match_finish_then_stops() {
    let Some((shared, mut a, mut b)) = two_instances(
        "a_draining_instance_lets_its_match_finish_then_stops",
        None,
        Duration::from_secs(60),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };

    let (_cd, mut dan) = guest(b.addr, "dan").await.expect("dan on B");
    let (cc, mut cid) = guest(a.addr, "cid").await.expect("cid on A");
    let (_cg, mut gil) = guest(b.addr, "gil").await.expect("gil on B");
    let code = create_room(&mut dan, false, 2).await.expect("a room on B");
    start_match(&mut dan, &mut cid, &code)
        .await
        .expect("cid joins, readies, dan starts, both play");

    // SIGTERM on B: it drains.
    let stopping = tokio::spawn(async move {
        b.stop().await.expect("B stops");
        b
    });
    tokio::time::sleep(Duration::from_millis(500)).await;
    versus_item(&mut gil, 1)
        .await
        .expect("gil opens create room");
    gil.wait_for_text("CREATE ROOM", WAIT)
        .await
        .expect("create room");
    gil.send(&kitty_tap(K_ENTER)).await.expect("create");
    gil.wait_for_text("restarting", WAIT)
        .await
        .expect("a draining instance opens no new room");
    // The match goes on while B drains.
    dan.pump_for(Duration::from_secs(2)).await;
    assert!(!stopping.is_finished(), "B waits for its match");
    drop_piece(&mut dan).await;
    drop_piece(&mut cid).await;
    dan.pump_for(Duration::from_millis(300)).await;
    assert!(
        !dan.contents().contains("MATCH RESULTS") && !dan.contents().contains("closed"),
        "{}",
        dan.contents()
    );
    // cid leaves (a forfeit): the match ends, and B stops.
    cc.close().await;
    dan.wait_for_text("You win!", WAIT)
        .await
        .expect("dan wins the match B let finish");
    let mut b = tokio::time::timeout(Duration::from_secs(30), stopping)
        .await
        .expect("B stops once its match ended")
        .expect("the stopping task");
    assert!(!b.is_running());
    assert!(a.is_running());
    drop(a);
    shared.release().await.expect("drops the database");
}

/// A dies: a player of B in A's room is told the match is abandoned (not rated) and is back in the
/// versus menu; a player of B who waited in A's queue (A led it) waits on in B's, which pairs
/// them with the next player of B.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_instance_takes_only_its_rooms_and_the_queue_moves_on() {
    let Some((shared, mut a, mut b)) = two_instances(
        "a_dead_instance_takes_only_its_rooms_and_the_queue_moves_on",
        None,
        Duration::from_secs(5),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };

    // dan (B) plays in ann's room on A; bob (B) waits in the queue, which A leads.
    let ((_ca, _ann), (_cd, mut dan), (_cb, mut bob), code) =
        match_on_a_and_bob_queued(&a, &b).await;

    a.kill();
    dan.wait_until("told the match is abandoned", Duration::from_secs(8), |s| {
        flat(s).contains("abandoned, not rated")
    })
    .await
    .expect("dan is told A's match is abandoned");
    let text = flat(dan.screen());
    assert!(
        text.contains(&code) && text.contains("Lost contact") && text.contains("Quick match"),
        "back in the versus menu: {text}"
    );
    // B leads the queue now; bob still waits there and meets cat.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let _cat = cat_meets_bob(&b, &mut bob).await;
    assert!(b.is_running());
    drop((a, b));
    shared.release().await.expect("drops the database");
}

/// The queue's leader drains: a player of another instance who waited in its queue is handed
/// to the next leader at once (while the drained instance still finishes its match).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_leader_hands_its_queue_over() {
    let Some((shared, mut a, mut b)) = two_instances(
        "a_draining_leader_hands_its_queue_over",
        None,
        Duration::from_secs(60),
    )
    .await
    .expect("nats-server, a database and two instances") else {
        return;
    };

    // A runs a match (so it stays up while draining) and leads the queue, where bob waits.
    let ((_ca, mut ann), (cd, _dan), (_cb, mut bob), _) = match_on_a_and_bob_queued(&a, &b).await;

    let stopping = tokio::spawn(async move {
        a.stop().await.expect("A stops");
        a
    });
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let _cat = cat_meets_bob(&b, &mut bob).await;
    assert!(!stopping.is_finished(), "A still finishes its match");
    // dan leaves A's match: it ends and A stops.
    cd.close().await;
    ann.wait_for_text("You win!", WAIT).await.expect("ann wins");
    let mut a = tokio::time::timeout(Duration::from_secs(30), stopping)
        .await
        .expect("A stops once its match ended")
        .expect("the stopping task");
    assert!(!a.is_running() && b.is_running());
    drop(b);
    shared.release().await.expect("drops the database");
}
