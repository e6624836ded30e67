//! Versus over SSH with real russh clients: rooms by code (menu and `ssh -t HOST join CODE`),
//! garbage from a tetris rising on the opponent's board after the delay, a disconnect in a
//! ranked 1v1, a race to 40 lines, spectators.

use std::time::Duration;

use minotty_domain::Period;
use minotty_engine::Mode;
use minotty_server::Limits;
use minotty_store::Page;
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::versus::{
    bot_plan, create_room, drop_piece, exec_join, exec_output, fields, guest, join_room, meter,
    play, ranked_pair, start_match, tetris_seed, wait_for_play, wait_for_sent,
};
use minotty_tests::{Connection, Login, TestServer, WAIT};

async fn server(seed: u32) -> TestServer {
    TestServer::start_with(Limits {
        versus_seed: Some(seed),
        // Every test player connects from loopback: one address.
        bots: minotty_server::versus::bot::BotLimits {
            ranked_same_address: true,
            ..Default::default()
        },
        ..Limits::default()
    })
    .await
    .expect("server starts")
}

/// `n` guests in one battle room (the first creates it, the second joins with `ssh -t HOST
/// join CODE`, the others from the menu), a spectator, and a tetris by the host: the garbage
/// goes to the second player (even targeting) and rises there on their next lock after the
/// garbage delay; everyone else stays clean.
async fn tetris_sends_four_garbage_rows(n: usize) {
    let (seed, plan) = tetris_seed();
    let server = server(seed).await;
    let names = ["ann", "bob", "cid", "dan"];
    let (_c0, mut host) = guest(server.addr, names[0]).await.expect("ann");
    let code = create_room(&mut host, false, n as u8).await.expect("room");
    let mut conns = Vec::new();
    let mut players = Vec::new();
    for (i, name) in names.iter().enumerate().take(n).skip(1) {
        if i == 1 {
            let conn = Connection::open(server.addr, name, Login::Guest)
                .await
                .expect("connects");
            let s = exec_join(&conn, &code).await.expect("join by exec");
            conns.push(conn);
            players.push(s);
        } else {
            let (conn, mut s) = guest(server.addr, name).await.expect("guest");
            join_room(&mut s, &code, false).await.expect("joins");
            conns.push(conn);
            players.push(s);
        }
    }
    let (_cw, mut watcher) = guest(server.addr, "eve").await.expect("eve");
    join_room(&mut watcher, &code, true).await.expect("watches");
    for name in &names[1..n] {
        host.wait_for_text(name, WAIT).await.expect("seated");
    }
    for p in &mut players {
        p.send(&kitty_tap(KittyKey::Char('r')))
            .await
            .expect("ready");
    }
    host.wait_until("everyone ready", WAIT, |s| {
        s.contents().matches("READY").count() >= n - 1
    })
    .await
    .expect("ready shown");
    host.send(&kitty_tap(K_ENTER)).await.expect("start");

    wait_for_play(&mut host).await.expect("host plays");
    for p in &mut players {
        wait_for_play(p).await.expect("players play");
    }
    watcher
        .wait_until("both boards", WAIT, |s| fields(s).len() >= 2)
        .await
        .expect("the spectator sees the boards");

    play(&mut host, &plan).await.expect("the tetris");
    wait_for_sent(&mut host, 4).await.expect("a tetris sent");
    // The target's meter shows 4 lines waiting; nothing has risen yet: garbage waits for the
    // delay and the receiver's next lock.
    players[0]
        .wait_until("the garbage meter", WAIT, |s| meter(s) == 4)
        .await
        .expect("bob's meter shows 4");
    for p in &mut players {
        p.pump_for(Duration::from_millis(50)).await;
        assert_eq!(fields(p.screen())[0].garbage_rows(), 0, "{}", p.contents());
    }
    for p in players.iter().skip(1) {
        assert_eq!(meter(p.screen()), 0, "{}", p.contents());
    }
    tokio::time::sleep(Duration::from_millis(700)).await;
    for p in &mut players {
        drop_piece(p).await;
    }
    players[0]
        .wait_until("4 garbage rows", WAIT, |s| {
            fields(s).first().is_some_and(|f| f.garbage_rows() == 4)
        })
        .await
        .expect("garbage rose on bob's board");
    for p in players.iter_mut().skip(1) {
        p.pump_for(Duration::from_millis(300)).await;
        assert_eq!(fields(p.screen())[0].garbage_rows(), 0, "{}", p.contents());
    }
    // The host and the spectator see it on bob's board too.
    host.wait_until("bob's garbage", WAIT, |s| {
        fields(s).iter().skip(1).any(|f| f.garbage_rows() == 4)
    })
    .await
    .expect("the host sees bob's garbage");
    watcher
        .wait_until("bob's garbage", WAIT, |s| {
            fields(s).iter().any(|f| f.garbage_rows() == 4)
        })
        .await
        .expect("the spectator sees bob's garbage");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_players_a_tetris_sends_four_garbage_rows() {
    tetris_sends_four_garbage_rows(2).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_players_a_tetris_sends_four_garbage_rows_to_one() {
    tetris_sends_four_garbage_rows(4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_disconnect_ends_a_ranked_1v1_with_ratings() {
    let mut server = server(7).await;
    let ((_ca, mut ann), (cb, _bob)) = ranked_pair(server.addr, server.addr)
        .await
        .expect("ann and bob paired for ranked");
    cb.close().await;
    ann.wait_for_text("You win!", WAIT).await.expect("ann wins");
    ann.wait_for_text("1662", WAIT)
        .await
        .expect("the new rating");
    let text = ann.contents();
    assert!(text.contains("1500") && text.contains("+162"), "{text}");

    // Stored: both ratings and the match.
    let store = server.store().await.expect("store");
    let deadline = tokio::time::Instant::now() + WAIT;
    let board = loop {
        let board = store
            .rating_board(Period::AllTime, i64::MAX / 2, Page::top(10))
            .await
            .expect("board");
        if board.len() == 2 || tokio::time::Instant::now() > deadline {
            break board;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let rows: Vec<(String, i64)> = board
        .iter()
        .map(|e| (e.name.to_string(), e.rating.round() as i64))
        .collect();
    assert_eq!(rows, [("ann".to_string(), 1662), ("bob".to_string(), 1338)]);
    let matches = store
        .recent_matches(board[0].player, 5)
        .await
        .expect("matches");
    let seats = store.match_players(matches[0]).await.expect("seats");
    assert!(seats[1].forfeited && seats[0].place == 1);
    assert!(seats[0].replay.is_some(), "ann's replay is stored");
    server.stop(Duration::from_secs(10)).await.expect("stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_race_ends_when_one_player_reaches_40_lines() {
    let seed = 11;
    let plan = bot_plan(Mode::sprint(), seed, 200).expect("the bot finishes 40 lines");
    let server = server(seed).await;
    let (_ca, mut ann) = guest(server.addr, "ann").await.expect("ann");
    let (_cb, mut bob) = guest(server.addr, "bob").await.expect("bob");
    let code = create_room(&mut ann, true, 2).await.expect("room");
    start_match(&mut ann, &mut bob, &code)
        .await
        .expect("bob joins, readies, ann starts, both play");
    let last = plan.len() - 1;
    play(&mut ann, &plan[..last])
        .await
        .expect("39 lines and some");
    assert!(!ann.contents().contains("MATCH RESULTS"));
    // The 39th line may have just been cleared (it is with this seed's plan since the fair
    // bag): keys pressed during the line-clear pause are not taken, so let it pass first.
    ann.pump_for(Duration::from_millis(600)).await;
    ann.send(&minotty_tests::versus::taps(&plan[last]))
        .await
        .expect("last piece");
    ann.wait_for_text("You win!", WAIT)
        .await
        .expect("ann wins the race");
    bob.wait_for_text("MATCH RESULTS", WAIT)
        .await
        .expect("bob's results");
    assert!(
        bob.contents().contains("Place 2 of 2"),
        "{}",
        bob.contents()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn join_needs_a_terminal_and_a_room() {
    let server = server(1).await;
    let conn = Connection::open(server.addr, "ann", Login::Guest)
        .await
        .expect("connects");
    let out = exec_output(&conn, "join K7PQ3M").await.expect("runs");
    assert!(out.contains("needs a terminal"), "{out}");
    let out = exec_output(&conn, "join").await.expect("runs");
    assert!(out.contains("usage: join CODE"), "{out}");
}

/// A ranked match still running when the server stops: both players get their terminal back
/// with the restart note, the server stops in time, and the match is abandoned (neither
/// player wins by the other's session happening to end first: no match, no ratings stored).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_in_progress_at_shutdown_is_abandoned_and_terminals_restored() {
    let mut server = server(7).await;
    let ((_ca, mut ann), (_cb, mut bob)) = ranked_pair(server.addr, server.addr)
        .await
        .expect("ann and bob paired for ranked");
    let (stopped, a, b) = tokio::join!(
        server.stop(Duration::from_secs(20)),
        ann.wait_closed(WAIT),
        bob.wait_closed(WAIT)
    );
    stopped.expect("the server stops");
    for (closed, p) in [(a, &ann), (b, &bob)] {
        assert_eq!(closed.expect("closed"), Some(0));
        assert!(p.contents().contains("restarting"), "{}", p.contents());
        assert!(!p.screen().alternate_screen(), "the terminal is restored");
    }
    let store = server.store().await.expect("store");
    let board = store
        .rating_board(Period::AllTime, i64::MAX / 2, Page::top(10))
        .await
        .expect("board");
    assert!(board.is_empty(), "no ratings changed: {board:?}");
}

/// The KOs column of `name`'s row on a results screen.
fn kos_of(text: &str, name: &str) -> Option<u32> {
    let table = &text[text.find("KOs")?..];
    let line = table.lines().find(|l| l.contains(&format!(" {name} ")))?;
    let after = &line[line.find(name)? + name.len()..];
    after.split_whitespace().next()?.parse().ok()
}

/// A 1v1 where the loser tops out (hard drops only) after the winner's tetris rose on their
/// board: the winner is credited the KO on both results screens.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_top_out_after_garbage_is_the_attackers_ko() {
    let (seed, plan) = tetris_seed();
    let server = server(seed).await;
    let (_ca, mut ann) = guest(server.addr, "ann").await.expect("ann");
    let (_cb, mut bob) = guest(server.addr, "bob").await.expect("bob");
    let code = create_room(&mut ann, false, 2).await.expect("room");
    start_match(&mut ann, &mut bob, &code)
        .await
        .expect("bob joins, readies, ann starts, both play");
    play(&mut ann, &plan).await.expect("the tetris");
    bob.wait_until("the garbage meter", WAIT, |s| meter(s) == 4)
        .await
        .expect("bob's meter shows 4");
    tokio::time::sleep(Duration::from_millis(600)).await;
    // bob hard-drops until he tops out.
    let deadline = tokio::time::Instant::now() + WAIT;
    while !bob.contents().contains("MATCH RESULTS") {
        assert!(tokio::time::Instant::now() < deadline, "{}", bob.contents());
        drop_piece(&mut bob).await;
        bob.pump_for(Duration::from_millis(40)).await;
    }
    for s in [&mut ann, &mut bob] {
        s.wait_until("the results table", WAIT, |sc| {
            kos_of(&sc.contents(), "~bob").is_some()
        })
        .await
        .expect("results");
        // Guests are shown to others with their mark.
        let text = s.contents();
        assert_eq!(kos_of(&text, "~ann"), Some(1), "{text}");
        assert_eq!(kos_of(&text, "~bob"), Some(0), "{text}");
        assert!(!text.contains("left"), "a top-out is not a forfeit: {text}");
    }
}
