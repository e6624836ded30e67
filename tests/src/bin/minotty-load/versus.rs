//! The versus scenarios: pairs in rooms (or the ranked queue, or a player beside a server
//! bot), the attacker's planned tetris and the target's meter watch, then the schedule.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use minotty_engine::{Button, Mode};
use minotty_tests::autoplay::{K_ENTER, KittyKey, kitty_tap};
use minotty_tests::procfs::rss_kib;
use minotty_tests::{Connection, Login, PtySession, versus};
use tokio::sync::oneshot;

use crate::args::{Args, VersusMode};
use crate::crowd::Crowd;
use crate::figures::{cpu_percent, ms, percentile, print_machine};
use crate::player::{Keys, PlayerStats, play_schedule};

/// A player's part in a versus pair.
enum Role {
    /// Plays the planned tetris first, then says when its last hard drop went out.
    Attacker(Vec<Vec<Button>>, oneshot::Sender<Instant>),
    /// Watches its garbage meter until the attacker's tetris shows up there.
    Target(oneshot::Receiver<Instant>),
    Plain,
}

/// Versus mode: pairs join rooms (or the queue), then every player plays the schedule.
pub async fn run(args: Arc<Args>) -> anyhow::Result<()> {
    let plan = match (args.versus, args.versus_seed) {
        (Some(VersusMode::Rooms), Some(seed)) => Some(
            versus::tetris_plan(Mode::custom(0, true, None), seed).with_context(|| {
                let good = (1..500)
                    .find(|&s| versus::tetris_plan(Mode::custom(0, true, None), s).is_some());
                format!("seed {seed} allows no quick tetris; try {good:?}")
            })?,
        ),
        _ => None,
    };
    let crowd = Crowd::new(&args);
    let rss_before = args.server_pid.and_then(rss_kib);
    let ramp_start = Instant::now();
    let mut tasks = Vec::new();
    // People per room: a pair, or one beside a bot.
    let group = if args.versus == Some(VersusMode::Bots) {
        1
    } else {
        2
    };
    for pair in 0..args.sessions / group {
        let (args, crowd, plan) = (Arc::clone(&args), crowd.clone(), plan.clone());
        tasks.push(tokio::spawn(async move {
            let joined = {
                let _slot = crowd.gate.acquire().await;
                join_pair(&args, pair).await
            };
            let players = match joined {
                Ok(p) => p,
                Err(e) => {
                    if crowd.failed.fetch_add(group as u64, Ordering::Relaxed) < 10 {
                        eprintln!("pair {pair}: {e:#}");
                    }
                    for _ in 0..group {
                        crowd.ready.wait().await;
                    }
                    for _ in 0..group {
                        crowd.done.wait().await;
                    }
                    return;
                }
            };
            let (tx, rx) = oneshot::channel();
            let roles = match plan {
                Some(plan) => [Role::Attacker(plan, tx), Role::Target(rx)],
                None => [Role::Plain, Role::Plain],
            };
            let mut both = Vec::new();
            for ((conn, mut s), role) in players.into_iter().zip(roles) {
                let (args, crowd) = (Arc::clone(&args), crowd.clone());
                both.push(tokio::spawn(async move {
                    PtySession::read_while(Some(&mut s), crowd.ready.wait()).await;
                    let window = Duration::from_secs(args.seconds);
                    let stats = play_versus(&args, &mut s, window, role).await;
                    crowd.add(stats).await;
                    crowd.done.wait().await;
                    let _ = s.quit().await;
                    conn.close().await;
                }));
            }
            for t in both {
                let _ = t.await;
            }
        }));
    }
    let w = crowd.measure(&args, ramp_start, "matches").await;
    for task in tasks {
        let _ = task.await;
    }
    let mut t = crowd.totals.lock().await;
    t.latencies_us.sort_unstable();
    t.garbage_us.sort_unstable();
    let elapsed = w.elapsed;
    let cpu = |(a, b)| cpu_percent(a, b, elapsed);
    println!("players in matches:     {} of {}", t.players, args.sessions);
    t.print_dropped();
    println!("1v1 matches:            {}", t.players / group as u64);
    println!("ramp-up (connect+room): {:.1} s", w.ramp.as_secs_f64());
    println!("window:                 {elapsed:.1} s");
    match cpu(w.server) {
        Some(p) => println!("server CPU:             {p:.0}% (100% = one core)"),
        None => println!("server CPU:             n/a"),
    }
    if let Some(p) = cpu(w.tool) {
        println!("load tool CPU:          {p:.0}%");
    }
    print_machine(w.machine.0, w.machine.1);
    if let Some(p) = cpu(w.bots)
        && args.versus == Some(VersusMode::Bots)
    {
        println!("bot threads CPU:        {p:.0}% (their decisions, part of the above)");
    }
    if let (Some(a), Some(b)) = (rss_before, w.rss_ready) {
        println!(
            "server RSS:             {} MiB idle, {} MiB with players",
            a / 1024,
            b / 1024
        );
    }
    t.print_bytes(elapsed);
    t.print_latency();
    println!(
        "clear-to-meter latency: p50 {} ms, p99 {} ms, max {} ms ({} tetrises)",
        ms(percentile(&t.garbage_us, 0.50)),
        ms(percentile(&t.garbage_us, 0.99)),
        ms(t.garbage_us.last().copied()),
        t.garbage_us.len()
    );
    if t.players == 0 {
        bail!("no player got into a match");
    }
    Ok(())
}

/// Connects a pair and gets both into a running match.
async fn join_pair(args: &Args, pair: usize) -> anyhow::Result<Vec<(Connection, PtySession)>> {
    let open = |i: usize, login: Login| async move {
        let conn = Connection::open(args.addr_of(i), &format!("vs{pair}x{i}"), login)
            .await
            .context("login")?;
        let s = versus::player_sized(&conn, args.cols, args.rows)
            .await
            .context("shell")?;
        anyhow::Ok((conn, s))
    };
    let mut players = Vec::new();
    match args.versus {
        Some(VersusMode::Quick) => {
            for i in 0..2 {
                let (conn, mut s) = open(i, Login::Key).await?;
                versus::register(&mut s).await.context("registering")?;
                versus::versus_item(&mut s, 0).await.context("queue")?;
                players.push((conn, s));
            }
        }
        Some(VersusMode::Bots) => {
            let (c0, mut host) = open(0, Login::Guest).await?;
            versus::create_room(&mut host, false, 2)
                .await
                .context("creating a room")?;
            // A new host's next bot is level 3: step to the level asked for, then add it.
            let key = if args.bot_level > 3 { '+' } else { '-' };
            for _ in 0..args.bot_level.abs_diff(3) {
                host.send(&kitty_tap(KittyKey::Char(key))).await?;
            }
            host.send(&kitty_tap(KittyKey::Char('b'))).await?;
            host.wait_for_text(
                &format!("Bot level {}", args.bot_level),
                Duration::from_secs(10),
            )
            .await
            .context("the bot takes its seat")?;
            host.send(&kitty_tap(K_ENTER)).await?;
            players.push((c0, host));
        }
        _ => {
            let (c0, mut host) = open(0, Login::Guest).await?;
            let code = versus::create_room(&mut host, false, 2)
                .await
                .context("creating a room")?;
            if let Some(name) = &args.preset {
                minotty_tests::series::set_preset(&mut host, name)
                    .await
                    .context("the preset")?;
            }
            let (c1, mut guest) = open(1, Login::Guest).await?;
            versus::join_room(&mut guest, &code, false)
                .await
                .context("joining")?;
            host.wait_for_text(&format!("vs{pair}x1"), Duration::from_secs(10))
                .await?;
            // Enter twice: the first names who is not ready, the second starts anyway.
            host.send(&kitty_tap(K_ENTER)).await?;
            host.send(&kitty_tap(K_ENTER)).await?;
            players.push((c0, host));
            players.push((c1, guest));
        }
    }
    for (_, s) in &mut players {
        versus::wait_for_play(s).await.context("match start")?;
    }
    Ok(players)
}

/// One versus player's window: the role's tetris or meter watch, then the solo schedule
/// (taps, hard drops), with a rematch whenever a match is decided.
async fn play_versus(args: &Args, s: &mut PtySession, window: Duration, role: Role) -> PlayerStats {
    let mut stats = PlayerStats::default();
    let start = Instant::now();
    match role {
        Role::Attacker(plan, tx) => {
            let last = plan.len().saturating_sub(1);
            if versus::play(s, &plan[..last]).await.is_ok() {
                let sent = Instant::now();
                let _ = s.send(&versus::taps(&plan[last])).await;
                let _ = tx.send(sent);
            }
        }
        Role::Target(mut rx) => {
            let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
            let mut sent: Option<Instant> = None;
            while tokio::time::Instant::now() < deadline {
                s.pump_for(Duration::from_millis(2)).await;
                if sent.is_none() {
                    sent = rx.try_recv().ok();
                }
                if let Some(at) = sent
                    && versus::meter(s.screen()) > 0
                {
                    stats.garbage_us.push(at.elapsed().as_micros() as u64);
                    break;
                }
            }
        }
        Role::Plain => {}
    }
    let rest = window.saturating_sub(start.elapsed());
    let solo = play_schedule(args, s, rest, b"MATCH RESULTS", Keys::kitty()).await;
    stats.latencies_us = solo.latencies_us;
    stats.missed = solo.missed;
    stats.bytes = solo.bytes;
    stats.packets = solo.packets;
    stats.dropped = solo.dropped;
    stats
}
