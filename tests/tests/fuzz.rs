//! Hostile input: random bytes, escape sequences cut anywhere, NULs and huge pastes must not
//! hurt the session, the server or anyone else playing.

use std::time::{Duration, Instant};

use minotty_tests::{Connection, Login, TestServer, WAIT, board, keys};
use rand::{Rng, RngExt};

fn garbage(rng: &mut impl Rng) -> Vec<u8> {
    const PIECES: &[&[u8]] = &[
        b"\x1b",
        b"\x1b[",
        b"\x1b[1;5",
        b"\x1b[?",
        b"\x1b]0;",
        b"\x1bP",
        b"\x1b[200~",
        b"\x1b[97;1:3u",
        b"\x1b[<0;10;10M",
        b"\x1bO",
        b"\x00\x00\x00",
        b"\xff\xfe\xc3",
        b"\x1b[999999999999999999999A",
        b"\x1b[;;;;;;;;;;;;;;;;;;;;;;;;;;;u",
    ];
    let mut out = Vec::new();
    let parts = rng.random_range(1..20);
    for _ in 0..parts {
        match rng.random_range(0..4) {
            0 => out.extend_from_slice(PIECES[rng.random_range(0..PIECES.len())]),
            1 => {
                let n = rng.random_range(1..64);
                out.extend((0..n).map(|_| rng.random::<u8>()));
            }
            2 => out.extend_from_slice(b"\x1b[A\x1b[B\x1b[C\x1b[D"),
            _ => {
                let n = rng.random_range(1..32);
                out.extend((0..n).map(|_| rng.random_range(b' '..=b'~')));
            }
        }
    }
    // Keep the player in: no quit keys, no confirmations (a quit would end the test early).
    for b in &mut out {
        if matches!(*b, b'q' | b'Q' | b'y' | b'Y' | b'\r' | b'\n' | 0x03 | 0x04) {
            *b = b'x';
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_bytes_harm_nobody() -> anyhow::Result<()> {
    let server = TestServer::start().await?;
    let conn = Connection::open(server.addr, "fuzzer", Login::Key).await?;
    let mut s = conn.play(100, 40).await?;
    s.start_40_lines().await?;

    let mut rng = rand::rng();
    let started = Instant::now();
    let mut sent = 0usize;
    while started.elapsed() < Duration::from_secs(3) && !s.closed {
        let bytes = garbage(&mut rng);
        sent += bytes.len();
        if s.send(&bytes).await.is_err() {
            break;
        }
        s.pump_for(Duration::from_millis(2)).await;
    }
    // Huge pastes: 256 KiB of text and 64 KiB of an unterminated escape string.
    for paste in [
        vec![b'x'; 256 * 1024],
        [b"\x1b]".as_slice(), &[b'a'; 64 * 1024]].concat(),
    ] {
        if s.closed {
            break;
        }
        sent += paste.len();
        let _ = s.send(&paste).await;
        s.pump_for(Duration::from_millis(200)).await;
    }
    s.pump_for(Duration::from_millis(500)).await;
    assert!(sent > 300 * 1024);
    assert!(server.is_running(), "the server survived");

    if s.closed {
        // The garbage may have chosen "quit": then the session ended cleanly.
        assert_eq!(s.exit_status, Some(0));
        assert!(!s.screen().alternate_screen());
    } else {
        // Still alive: it answers a resize with a redraw.
        let before = s.packets_received;
        s.resize(90, 35).await?;
        let deadline = tokio::time::Instant::now() + WAIT;
        while s.packets_received == before {
            anyhow::ensure!(s.pump_until(deadline).await, "no redraw after the fuzzing");
        }
    }

    // Someone else still plays.
    let other = Connection::open(server.addr, "other", Login::Key).await?;
    let mut t = other.play(100, 40).await?;
    t.start_40_lines().await?;
    t.send(keys::HARD_DROP).await?;
    t.wait_until("a block on the bottom row", WAIT, |screen| {
        board::find(screen).is_some_and(|b| b.bottom_has_block())
    })
    .await?;
    Ok(())
}
