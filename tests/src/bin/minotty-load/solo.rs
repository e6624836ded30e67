//! The solo scenario: every player in a 40 Lines game of their own, playing the schedule.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::bail;
use minotty_tests::PtySession;
use minotty_tests::procfs::rss_kib;

use crate::args::Args;
use crate::crowd::Crowd;
use crate::figures::{cpu_percent, print_machine};
use crate::player::{join, play};

/// Runs the players, then prints the figures.
pub async fn run(args: Arc<Args>) -> anyhow::Result<()> {
    let rss_before = args.server_pid.and_then(rss_kib);
    let crowd = Crowd::new(&args);
    let ramp_start = Instant::now();

    let mut tasks = Vec::with_capacity(args.sessions);
    for i in 0..args.sessions {
        let (args, crowd) = (Arc::clone(&args), crowd.clone());
        tasks.push(tokio::spawn(async move {
            let joined = {
                let _slot = crowd.gate.acquire().await;
                join(&args, i).await
            };
            let mut joined = match joined {
                Ok(j) => Some(j),
                Err(e) => {
                    if crowd.failed.fetch_add(1, Ordering::Relaxed) < 5 {
                        eprintln!("player {i}: {e:#}");
                    }
                    None
                }
            };
            PtySession::read_while(joined.as_mut().map(|(_, s)| s), crowd.ready.wait()).await;
            if let Some((conn, mut session)) = joined {
                session.record = i == 0 && args.record.is_some();
                let stats = play(&args, &mut session, Duration::from_secs(args.seconds)).await;
                if let (Some(path), true) = (&args.record, session.record)
                    && let Err(e) = std::fs::write(path, &session.raw)
                {
                    eprintln!("--record {}: {e}", path.display());
                }
                crowd.add(stats).await;
                crowd.done.wait().await;
                let _ = session.quit().await;
                conn.close().await;
            } else {
                crowd.done.wait().await;
            }
        }));
    }

    let w = crowd.measure(&args, ramp_start, "game").await;
    for task in tasks {
        let _ = task.await;
    }

    let mut t = crowd.totals.lock().await;
    t.latencies_us.sort_unstable();
    let elapsed = w.elapsed;
    let cpu = |(a, b)| cpu_percent(a, b, elapsed).map_or("n/a".to_owned(), |p| format!("{p:.0}%"));
    let players = t.players.max(1) as f64;
    println!("players in game:        {} of {}", t.players, args.sessions);
    t.print_dropped();
    println!("ramp-up (connect+menu): {:.1} s", w.ramp.as_secs_f64());
    println!("window:                 {elapsed:.1} s");
    println!(
        "server CPU:             {} (100% = one core)",
        cpu(w.server)
    );
    println!("load tool CPU:          {}", cpu(w.tool));
    print_machine(w.machine.0, w.machine.1);
    match (rss_before, w.rss_ready) {
        (Some(a), Some(b)) => println!(
            "server RSS:             {} MiB idle, {} MiB with players, {:.0} KiB per session",
            a / 1024,
            b / 1024,
            b.saturating_sub(a) as f64 / players
        ),
        _ => println!("server RSS:             n/a"),
    }
    t.print_bytes(elapsed);
    println!(
        "frames/s per player:    {:.1}",
        t.packets as f64 / players / elapsed
    );
    t.print_latency();
    if t.players == 0 {
        bail!("no player got into a game");
    }
    Ok(())
}
