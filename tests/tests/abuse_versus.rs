//! Hostile versus players over SSH with real russh clients: a flood of ready presses in a room
//! of eight, and room-code guessing.

use std::time::Duration;

use minotty_server::Limits;
use minotty_tests::autoplay::{KittyKey, kitty_tap};
use minotty_tests::versus::{
    create_room, exec_pty, guest, join_room, pump_all, type_code, versus_item,
};
use minotty_tests::{Connection, Login, PtySession, TestServer, WAIT};

async fn server() -> TestServer {
    TestServer::start_with(Limits {
        versus_seed: Some(1),
        ..Limits::default()
    })
    .await
    .expect("server starts")
}

/// bob's seat in the lobby shows him ready.
fn bob_ready(s: &vt100::Screen) -> bool {
    s.contents()
        .lines()
        .any(|l| l.contains("~bob ") && l.contains("READY"))
}

/// Eight guests in a room; the last one sends 100,000 presses of `r` (ready, not ready, ...)
/// in large packets. Every other member gets a bounded number of frames and bytes meanwhile
/// (a few room views, not one per press), and stays responsive: a ready toggled afterwards
/// shows up at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ready_flood_in_a_room_of_eight_stays_with_the_flooder() {
    let test = async {
        let server = server().await;
        let names = ["ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal"];
        let mut conns: Vec<Connection> = Vec::new();
        let mut players: Vec<PtySession> = Vec::new();
        let (c0, mut host) = guest(server.addr, names[0]).await.expect("host");
        let code = create_room(&mut host, false, 8).await.expect("room");
        conns.push(c0);
        players.push(host);
        for name in &names[1..] {
            let (conn, mut s) = guest(server.addr, name).await.expect("guest");
            join_room(&mut s, &code, false).await.expect("joins");
            conns.push(conn);
            players.push(s);
        }
        players[0]
            .wait_until("eight seats", WAIT, |s| {
                names.iter().all(|n| s.contents().contains(n))
            })
            .await
            .expect("everyone seated");
        let mut players = pump_all(players, Duration::from_millis(300)).await;

        let before: Vec<(u64, u64)> = players
            .iter()
            .map(|p| (p.bytes_received, p.packets_received))
            .collect();
        let tap = kitty_tap(KittyKey::Char('r'));
        let presses = 100_000;
        let per_packet = 4096;
        let mut flooder = players.pop().expect("the flooder");
        let mut sent = 0;
        while sent < presses {
            let n = per_packet.min(presses - sent);
            flooder.send(&tap.repeat(n)).await.expect("flood");
            sent += n;
        }
        // Right behind the flood, bob gets ready: ann sees it (his request does not wait
        // behind the flooder's in the room, whose presses are held to the flooder's budget:
        // counted below, every other member gets a few views, not one per press). Waited for
        // generously: how soon is a matter of the machine's load.
        players[1]
            .send(&kitty_tap(KittyKey::Char('r')))
            .await
            .expect("ready");
        let seen = players[0].wait_until("bob ready", WAIT, bob_ready).await;
        let (flooder, others) = tokio::join!(
            async move {
                flooder.pump_for(Duration::from_secs(3)).await;
                flooder
            },
            pump_all(players, Duration::from_secs(3))
        );
        for (i, p) in others.iter().enumerate() {
            let bytes = p.bytes_received - before[i].0;
            let frames = p.packets_received - before[i].1;
            eprintln!(
                "{}: {bytes} bytes in {frames} packets during the flood",
                names[i]
            );
            assert!(
                frames <= 30 && bytes <= 16 * 1024,
                "{} got {bytes} bytes in {frames} packets",
                names[i]
            );
        }
        seen.expect("bob's ready seen by ann right after the flood");
        drop(flooder);
        drop(conns);
    };
    tokio::time::timeout(Duration::from_secs(90), test)
        .await
        .expect("the test ends in time");
}

/// Wrong room codes from the join screen: after five, the player waits (even for the right
/// code), and so does another connection from the same address (`ssh -t HOST join CODE`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn room_code_guessing_is_throttled() {
    let test = async {
        let server = server().await;
        let (_ch, mut host) = guest(server.addr, "ann").await.expect("host");
        let code = create_room(&mut host, false, 4).await.expect("room");
        let (_cg, mut mal) = guest(server.addr, "mal").await.expect("guesser");
        versus_item(&mut mal, 2).await.expect("join screen");
        mal.wait_for_text("Type the room's code", WAIT)
            .await
            .expect("join field");
        let guesses = ["ZZZZZ2", "ZZZZZ3", "ZZZZZ4", "ZZZZZ5", "ZZZZZ6"];
        for g in guesses {
            type_code(&mut mal, g).await.expect("types");
            mal.wait_for_text(&format!("There is no room {g}"), WAIT)
                .await
                .expect("no such room");
        }
        type_code(&mut mal, &code).await.expect("types");
        mal.wait_for_text("Too many wrong room codes", WAIT)
            .await
            .expect("throttled");
        assert!(!mal.contents().contains(&format!("ROOM {code}")));

        // A new connection from the same address, straight to the room by exec.
        let conn = Connection::open(server.addr, "mal2", Login::Guest)
            .await
            .expect("connects");
        let mut s = exec_pty(&conn, &format!("join {code}"))
            .await
            .expect("exec");
        s.wait_for_text("Too many wrong room codes", WAIT)
            .await
            .expect("throttled by address");
        assert!(!s.contents().contains(&format!("ROOM {code}")));
        // The host's room is unaffected.
        host.pump_for(Duration::from_millis(100)).await;
        assert!(host.contents().contains(&format!("ROOM {code}")));
    };
    tokio::time::timeout(Duration::from_secs(60), test)
        .await
        .expect("the test ends in time");
}
