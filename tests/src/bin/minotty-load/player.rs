//! One player's PTY session: into a 40 Lines game, then the key schedule it plays through the
//! window, with the figures it collects.

use std::time::{Duration, Instant};

use anyhow::Context;
use minotty_tests::autoplay::{KittyKey, kitty_tap};
use minotty_tests::{Connection, Login, PtySession, keys};

use crate::args::Args;

/// The ghost piece's glyph ("░", U+2591) as UTF-8.
const GHOST: &[u8] = "░".as_bytes();

/// Figures one player collects during the measurement window.
#[derive(Debug, Default)]
pub struct PlayerStats {
    pub latencies_us: Vec<u64>,
    pub garbage_us: Vec<u64>,
    pub missed: u64,
    pub bytes: u64,
    pub packets: u64,
    /// The session closed before the window ended.
    pub dropped: bool,
}

/// Connects and walks into a 40 Lines game.
pub async fn join(args: &Args, i: usize) -> anyhow::Result<(Connection, PtySession)> {
    let conn = Connection::open(args.addr, &format!("load{i}"), Login::Key)
        .await
        .context("login")?;
    let mut session = conn.play(args.cols, args.rows).await.context("shell")?;
    session.start_40_lines().await.context("into a game")?;
    Ok((conn, session))
}

/// Opens a browser's game over the web pages' WebSocket (a guest) and walks into 40 Lines.
pub async fn join_web(args: &Args) -> anyhow::Result<PtySession> {
    let web = args.web.context("no --web address")?;
    let mut session = PtySession::open_web(web, args.cols, args.rows)
        .await
        .context("the WebSocket")?;
    session.start_40_lines().await.context("into a game")?;
    Ok(session)
}

/// Plays until `window` has passed: taps left and right in turn, hard drops, retries.
pub async fn play(args: &Args, s: &mut PtySession, window: Duration) -> PlayerStats {
    // The final board ("Enter: results") waits for Enter; R retries from it at once. One word
    // of it: the frame writes only the cells that changed, so a space may not be sent.
    play_schedule(args, s, window, b"results", Keys::legacy()).await
}

/// The bytes of the schedule's keys: legacy sequences, or kitty press and release pairs for a
/// session that negotiated the kitty keyboard protocol (versus players).
pub struct Keys {
    left: Vec<u8>,
    right: Vec<u8>,
    rotate: Vec<u8>,
    soft: Vec<u8>,
    drop: Vec<u8>,
    again: Vec<u8>,
}

impl Keys {
    pub fn legacy() -> Keys {
        Keys {
            left: keys::LEFT.to_vec(),
            right: keys::RIGHT.to_vec(),
            rotate: b"x".to_vec(),
            soft: keys::DOWN.to_vec(),
            drop: keys::HARD_DROP.to_vec(),
            again: b"r".to_vec(),
        }
    }

    pub fn kitty() -> Keys {
        Keys {
            left: kitty_tap(KittyKey::Arrow('D')),
            right: kitty_tap(KittyKey::Arrow('C')),
            rotate: kitty_tap(KittyKey::Char('x')),
            soft: kitty_tap(KittyKey::Arrow('B')),
            drop: kitty_tap(KittyKey::Char(' ')),
            again: kitty_tap(KittyKey::Char('r')),
        }
    }
}

/// The schedule of [`play`]; `needle` marks the end of a game (a solo game's final board, the
/// versus results), where `r` plays again (retry, or a versus rematch).
pub async fn play_schedule(
    args: &Args,
    s: &mut PtySession,
    window: Duration,
    needle: &[u8],
    keys: Keys,
) -> PlayerStats {
    let mut stats = PlayerStats::default();
    let start = Instant::now();
    let bytes_before = s.bytes_received;
    let packets_before = s.packets_received;
    let tap = Duration::from_millis(args.tap_ms.max(10));
    // Spread the players' schedules.
    let offset = Duration::from_millis(rand::random_range(0..tap.as_millis() as u64));
    let mut next = tokio::time::Instant::now() + offset;
    let mut n: u32 = 0;
    // Past the menus the screen is not emulated (it costs the load tool CPU the server needs);
    // the end of a game is recognised by `needle`.
    s.emulate = false;
    s.flag_needle = Some(needle.to_vec());
    while start.elapsed() < window && !s.closed {
        if s.pump_until(next).await {
            continue;
        }
        n += 1;
        if args.moves {
            // A steady 4 keys a second: nothing waits for the screen (a move into a wall shows
            // nothing), so no latency is measured in this pattern.
            let key = match n % 4 {
                1 => &keys.left,
                2 => &keys.rotate,
                3 => &keys.right,
                _ => &keys.soft,
            };
            if s.send(key).await.is_err() {
                break;
            }
        } else if n.is_multiple_of(args.drop_every.max(1)) {
            if s.send(&keys.drop).await.is_err() {
                break;
            }
        } else {
            // A horizontal move redraws the ghost piece: its glyph marks the answering frame.
            let key = if n.is_multiple_of(2) {
                &keys.left
            } else {
                &keys.right
            };
            match s
                .send_and_wait_for(key, GHOST, Duration::from_secs(1))
                .await
            {
                Ok(Some(d)) => stats.latencies_us.push(d.as_micros() as u64),
                Ok(None) => stats.missed += 1,
                Err(_) => break,
            }
        }
        if s.flag_seen {
            // The game ended: R retries (or asks for a rematch).
            s.flag_seen = false;
            let _ = s.send(&keys.again).await;
        }
        next += tap;
        let now = tokio::time::Instant::now();
        if next < now {
            next = now;
        }
    }
    stats.bytes = s.bytes_received - bytes_before;
    stats.packets = s.packets_received - packets_before;
    stats.dropped = s.closed && start.elapsed() < window;
    stats
}
