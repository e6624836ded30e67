//! What every scenario shares: the players' barriers (all in the game, all done), the gate
//! that bounds how many connect at once, the failures, the totals, and the measurement window
//! between the two barriers.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use minotty_tests::procfs::{cpu_ticks, cpu_ticks_of, rss_kib};
use tokio::sync::{Barrier, Mutex, Semaphore};

use crate::args::Args;
use crate::figures::{Totals, bot_thread_ticks, machine_ticks};
use crate::player::PlayerStats;

/// The players of a run. Every player waits at `ready` once in its game (or counted in
/// `failed`), plays the window, adds its figures to `totals` and waits at `done`; the run waits
/// at both too ([`Crowd::measure`]).
#[derive(Clone, Debug)]
pub struct Crowd {
    pub failed: Arc<AtomicU64>,
    pub ready: Arc<Barrier>,
    pub done: Arc<Barrier>,
    pub totals: Arc<Mutex<Totals>>,
    /// Players connecting at the same time while ramping up.
    pub gate: Arc<Semaphore>,
}

/// A reading at the start of the window and one at its end.
pub type Span<T> = (Option<T>, Option<T>);

/// What was read around the measurement window.
#[derive(Debug)]
pub struct Window {
    /// From the first connection until every player was in.
    pub ramp: Duration,
    /// The window's length in seconds.
    pub elapsed: f64,
    /// The server's RSS (KiB) with every player in.
    pub rss_ready: Option<u64>,
    /// CPU ticks of the server, of its bot threads (versus only), of this tool.
    pub server: Span<u64>,
    pub bots: Span<u64>,
    pub tool: Span<u64>,
    /// (busy, total) ticks of the whole machine.
    pub machine: Span<(u64, u64)>,
}

impl Crowd {
    pub fn new(args: &Args) -> Crowd {
        Crowd {
            failed: Arc::new(AtomicU64::new(0)),
            ready: Arc::new(Barrier::new(args.sessions + 1)),
            done: Arc::new(Barrier::new(args.sessions + 1)),
            totals: Arc::new(Mutex::new(Totals::default())),
            gate: Arc::new(Semaphore::new(args.connect_parallel.max(1))),
        }
    }

    /// Adds a player's figures to the totals.
    pub async fn add(&self, stats: PlayerStats) {
        self.totals.lock().await.add(stats);
    }

    /// Waits until every player is in (`place`: "game" or "matches"), then reads the figures,
    /// waits until every player is done and reads them again. Versus runs count the second
    /// instance's CPU with the server's and read the bot threads; solo runs read the server
    /// (`--server-pid`) alone.
    pub async fn measure(&self, args: &Args, ramp_start: Instant, place: &str) -> Window {
        let versus = args.versus.is_some();
        let server = || {
            if versus {
                args.server_ticks()
            } else {
                args.server_pid.and_then(cpu_ticks)
            }
        };
        let bots = || args.server_pid.filter(|_| versus).map(bot_thread_ticks);
        self.ready.wait().await;
        let ramp = ramp_start.elapsed();
        let rss_ready = args.server_pid.and_then(rss_kib);
        let server_start = server();
        let bots_start = bots();
        let tool_start = cpu_ticks_of("/proc/self/stat");
        let machine_start = machine_ticks();
        let window = Instant::now();
        let failed = self.failed.load(Ordering::Relaxed);
        eprintln!(
            "{} players in {place} after {:.1} s ({failed} failed); measuring for {} s",
            args.sessions as u64 - failed,
            ramp.as_secs_f64(),
            args.seconds
        );
        self.done.wait().await;
        let elapsed = window.elapsed().as_secs_f64();
        Window {
            ramp,
            elapsed,
            rss_ready,
            server: (server_start, server()),
            bots: (bots_start, bots()),
            tool: (tool_start, cpu_ticks_of("/proc/self/stat")),
            machine: (machine_start, machine_ticks()),
        }
    }
}
