//! The command line: what to run, against which server, and what to measure.

use std::net::SocketAddr;

use clap::Parser;
use minotty_tests::procfs::cpu_ticks;

/// How players meet in versus mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum VersusMode {
    /// Pairs in private rooms (guests).
    Rooms,
    /// Registered players through the ranked queue.
    Quick,
    /// Each player alone in a room with a server bot.
    Bots,
}

#[derive(Debug, Parser)]
#[command(name = "minotty-load", about = "Load test for a local minotty server")]
pub struct Args {
    /// Server address (loopback only).
    #[arg(long, default_value = "127.0.0.1:2222")]
    pub addr: SocketAddr,
    /// Concurrent players (at most 5000).
    #[arg(long, default_value_t = 100)]
    pub sessions: usize,
    /// Length of the measurement window in seconds (at most 3600).
    #[arg(long, default_value_t = 30)]
    pub seconds: u64,
    /// The server's process id, for CPU and memory figures.
    #[arg(long)]
    pub server_pid: Option<u32>,
    /// Milliseconds between a player's key taps.
    #[arg(long, default_value_t = 200)]
    pub tap_ms: u64,
    /// A hard drop every this many taps.
    #[arg(long, default_value_t = 10)]
    pub drop_every: u32,
    /// Taps left, rotate, right and soft drop in turn and never hard drops (the key pattern of
    /// issue 14's independent client, with `--tap-ms 250`) instead of the default schedule,
    /// without waiting for the screen: bytes and frames only, no latency.
    #[arg(long)]
    pub moves: bool,
    /// Writes what the first player received during the window to this file (for profiling
    /// frames, e.g. with `tests/frame-profile.py`).
    #[arg(long)]
    pub record: Option<std::path::PathBuf>,
    /// Players connecting at the same time while ramping up.
    #[arg(long, default_value_t = 16)]
    pub connect_parallel: usize,
    #[arg(long, default_value_t = 100)]
    pub cols: u16,
    #[arg(long, default_value_t = 40)]
    pub rows: u16,
    /// Versus: players in pairs (an even number of sessions).
    #[arg(long, value_enum)]
    pub versus: Option<VersusMode>,
    /// The seed the server deals every versus match (its hidden `--versus-seed`): rooms then
    /// measure the clear-to-garbage-meter latency.
    #[arg(long)]
    pub versus_seed: Option<u32>,
    /// The level of the bots of `--versus bots` (1-7).
    #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u8).range(1..=7))]
    pub bot_level: u8,
    /// A second instance of a cluster (`minotty serve --nats`): the second player of each
    /// versus pair connects there, so every match crosses instances (rooms: the host's room is
    /// on `--addr`, the guest joins it by code from here, and the clear-to-meter latency is
    /// measured across NATS).
    #[arg(long)]
    pub addr_b: Option<SocketAddr>,
    /// `--versus rooms`: the preset each host applies in the lobby before the match (a name on
    /// the room's settings screen, e.g. "League": first to 7, so a decided game is followed by
    /// the series' next one).
    #[arg(long)]
    pub preset: Option<String>,
    /// The web pages' address (`minotty serve --http-listen`), where `--web-sessions` players
    /// play over the browser terminal's WebSocket (`/play/ws`, loopback only).
    #[arg(long)]
    pub web: Option<SocketAddr>,
    /// Players over the web pages' WebSocket, as guests, beside the `--sessions` SSH players
    /// (solo only): see `mixed.rs` for the two windows this measures.
    #[arg(long, default_value_t = 0)]
    pub web_sessions: usize,
    /// The second instance's process id: its CPU is added to the server's.
    #[arg(long)]
    pub server_pid_b: Option<u32>,
}

impl Args {
    /// The server's CPU ticks so far (both instances' with `--server-pid-b`).
    pub fn server_ticks(&self) -> Option<u64> {
        let a = self.server_pid.and_then(cpu_ticks)?;
        match self.server_pid_b {
            Some(pid) => cpu_ticks(pid).map(|b| a + b),
            None => Some(a),
        }
    }

    /// Where player `i` of a versus pair connects.
    pub fn addr_of(&self, i: usize) -> SocketAddr {
        match (i, self.addr_b) {
            (1, Some(b)) => b,
            _ => self.addr,
        }
    }
}
