//! minotty-load: N concurrent players against a running minotty server on this machine.
//!
//! Each player connects with its own key, asks for a PTY, walks the menus into a 40 Lines game
//! by reading the screen, then plays on a schedule (a tap every `--tap-ms`, a hard drop every
//! `--drop-every` taps, Retry when a game ends). After everyone is in, the measurement window
//! runs for `--seconds`; then everyone quits. Reported: server CPU (from /proc/PID/stat when
//! `--server-pid` is given), RSS per session, bytes/s per player and the input-to-frame latency
//! (time from sending a key to the next data packet), and the players the server dropped
//! (sessions that closed before the window ended). Bounded: at most 5000 players and 3600 s
//! (the soak in `tests/soak.sh`), loopback addresses only.
//!
//! `--versus rooms` pairs the players in 1v1 battle rooms instead (the first of each pair
//! creates a room as a guest, the second joins it by code, the first starts), and `--versus
//! quick` sends registered players through the ranked quick-match queue (the server needs
//! `--ranked-same-address`: every player here is on loopback). Both then play the
//! same schedule; a decided match is followed by a rematch. With `--versus-seed` (the seed the
//! server deals, `minotty --versus-seed`) each room's host first plays a tetris planned for
//! that seed and the tool reports the clear-to-garbage-meter latency: from sending the hard
//! drop that clears the tetris to the first frame on the opponent's screen with the meter lit.
//! `--preset League` has each host apply that room preset in the lobby first (the room's
//! settings screen), so the rooms play series (League: first to 7) instead of single games.
//!
//! `--versus bots` gives every player a room of their own with a server bot of `--bot-level`
//! (the host adds it with `b` and starts); the players play the same schedule, rematching.
//! The tool then also reports the CPU of the server's bot threads (`minotty-bot-*`: every
//! bot decision runs there) apart from the whole server's.
//!
//! `--addr-b` (a second instance of a cluster, `minotty serve --nats`) puts the second player
//! of each pair there: every match then crosses instances, and with `--versus rooms
//! --versus-seed` the clear-to-meter latency is the cross-instance one (the tetris on `--addr`,
//! the meter on `--addr-b`). `tests/bench-cluster.sh` runs it.
//!
//! `--web-sessions M --web ADDR` adds M players who play over the web pages' WebSocket, as the
//! browser's terminal does, beside the SSH players: the figures come per transport
//! (`mixed.rs`).
//!
//! - `args.rs`: the command line;
//! - `solo.rs`, `mixed.rs` and `versus.rs`: the scenarios, each driving its players and
//!   printing its figures;
//! - `crowd.rs`: what the scenarios share: the players' barriers, the connect gate, the totals
//!   and the measurement window;
//! - `player.rs`: one player's PTY session and the key schedule it plays;
//! - `figures.rs`: the totals, percentiles and CPU readings from /proc.

mod args;
mod crowd;
mod figures;
mod mixed;
mod player;
mod solo;
mod versus;

use std::sync::Arc;

use anyhow::ensure;
use clap::Parser;

use args::{Args, VersusMode};

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    ensure!(
        args.addr.ip().is_loopback() && args.addr_b.is_none_or(|b| b.ip().is_loopback()),
        "loopback addresses only"
    );
    ensure!((1..=5000).contains(&args.sessions), "1 to 5000 sessions");
    ensure!((1..=3600).contains(&args.seconds), "1 to 3600 seconds");
    if args.web_sessions > 0 {
        ensure!(
            args.web.is_some_and(|w| w.ip().is_loopback()),
            "--web-sessions needs --web ADDR (loopback)"
        );
        ensure!(args.web_sessions <= 5000, "at most 5000 web sessions");
        ensure!(args.versus.is_none(), "web players play solo");
        return mixed::run(Arc::new(args)).await;
    }
    if args.versus.is_some() {
        ensure!(
            args.sessions % 2 == 0 || args.versus == Some(VersusMode::Bots),
            "versus needs an even number of sessions"
        );
        return versus::run(Arc::new(args)).await;
    }
    solo::run(Arc::new(args)).await
}
