//! Store benchmark: a database of 1,000,000 games across 50,000 players and the six ranked
//! modes, then leaderboard queries (top page and own rank, per mode and period) and game
//! inserts through the `GameWriter` while 100 simulated players read the boards.
//!
//! Run: `cargo bench -p minotty-store --bench store` (env: `STORE_BENCH_GAMES`,
//! `STORE_BENCH_PLAYERS`, `STORE_BENCH_WRITES` scale it down for a quick look;
//! `STORE_BENCH_DB=path` keeps the filled database to measure again without refilling).
//!
//! The bulk fill goes through `Store::insert_games` with stats drawn at random per mode and
//! real replays of the bot (not re-simulated: the fill is about volume). The timed writes go
//! through the writer, which re-simulates every one of them: real bot games, real stats.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use minotty_bots::{autoplay, autoplay_combo};
use minotty_domain::{
    KeyFingerprint, Period, PlayerId, PlayerName, Verdict, rank_key, ranked_modes,
};
use minotty_engine::{Game, GameConfig, ModeKind, Stats};
use minotty_store::{FinishedGame, GameWriter, NewKey, Page, Store, WriterConfig};

/// 2024-02-29T13:14:15.678Z.
const NOW: i64 = 1_709_212_455_678;
const DAY: i64 = 86_400_000;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// SplitMix64: a small seeded generator, so runs are repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(run());
}

/// The bot's pace: a piece every 350 ms on top of its taps, about a good human's speed (and so
/// replays of the size people's games have: three minutes of ultra is about 500 pieces).
const PIECE_MS: u64 = 350;

/// Real finished games of one mode played by the bot, as templates.
fn bot_games(kind: ModeKind, seeds: std::ops::Range<u32>) -> Vec<FinishedGame> {
    seeds
        .map(|seed| {
            let mut game = Game::new(
                GameConfig {
                    mode: kind.mode(),
                    ..GameConfig::default()
                },
                seed,
            );
            if kind == ModeKind::Combo {
                autoplay_combo(&mut game, 2_000, PIECE_MS, 2);
            } else {
                autoplay(&mut game, 2_000, PIECE_MS);
            }
            FinishedGame {
                player: PlayerId(0),
                replay: game.replay(),
                stats: *game.stats(),
                outcome: game.outcome(),
                started_at: 0,
                ended_at: 0,
            }
        })
        .collect()
}

/// Random stats in a plausible range for the mode.
fn random_stats(kind: ModeKind, rng: &mut Rng) -> Stats {
    let mut s = Stats::default();
    match kind {
        ModeKind::Sprint => s.time = 25_000 + rng.below(120_000),
        ModeKind::Marathon => s.score = rng.below(1_500_000),
        ModeKind::Ultra => s.score = rng.below(400_000),
        ModeKind::Master => {
            s.lines = rng.below(101) as u32;
            s.time = 60_000 + rng.below(600_000);
        }
        ModeKind::Cheese => s.pieces = 40 + rng.below(100) as u32,
        _ => s.max_combo = rng.below(40) as u32,
    }
    s
}

fn percentiles(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    let at = |q: f64| v[((v.len() as f64 * q) as usize).min(v.len() - 1)].as_secs_f64() * 1e6;
    (at(0.50), at(0.99))
}

async fn run() {
    let games_total = env("STORE_BENCH_GAMES", 1_000_000);
    let players_total = env("STORE_BENCH_PLAYERS", 50_000);
    let writes = env("STORE_BENCH_WRITES", 20_000);
    // STORE_BENCH_DB=path keeps the database (filled on the first run, reused after).
    let dir = tempfile::tempdir().expect("tempdir");
    let path = std::env::var("STORE_BENCH_DB")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| dir.path().join("bench.db"));
    let fresh = !path.exists();
    let store = Store::open(&format!("sqlite://{}", path.display()))
        .await
        .expect("opens");
    let players: Vec<PlayerId> = (1..=players_total as i64).map(PlayerId).collect();
    let templates = templates();
    if fresh {
        fill(&store, players_total, games_total, &templates).await;
    } else {
        println!("reusing {}", path.display());
    }
    idle_queries(&store, &players).await;
    // As fast as the writer goes: its capacity.
    under_load(&store, &players, &templates, writes, None).await;
    // A steady rate (default 500 games/s, a hundred times what 100 players finish): the
    // reads' latency while the writer works.
    let rate = env("STORE_BENCH_RATE", 500);
    under_load(&store, &players, &templates, rate * 10, Some(rate as u32)).await;
    store.close().await;
    let size = std::fs::metadata(&path).map_or(0, |m| m.len());
    println!("\ndatabase file: {:.2} GB", size as f64 / 1e9);
}

/// Bot games of every ranked mode, with their replay sizes and judging cost.
fn templates() -> Vec<(ModeKind, Vec<FinishedGame>)> {
    let t = Instant::now();
    let templates: Vec<(ModeKind, Vec<FinishedGame>)> = ranked_modes()
        .into_iter()
        .map(|k| (k, bot_games(k, 1..9)))
        .collect();
    println!("bot games: 48 in {:.1} s", t.elapsed().as_secs_f64());
    println!("| mode | replay bytes (mean) | judge, re-simulation included (mean) |");
    println!("|---|---|---|");
    for (kind, games) in &templates {
        let bytes: usize = games.iter().map(|g| g.replay.to_bytes().len()).sum();
        let t = Instant::now();
        for g in games {
            let verdict = g.judge();
            assert!(matches!(
                verdict,
                Verdict::Ranked { .. } | Verdict::Unranked(_)
            ));
        }
        let each = t.elapsed().as_secs_f64() * 1e6 / games.len() as f64;
        println!("| {} | {} | {each:.0} µs |", kind.id(), bytes / games.len());
    }
    templates
}

/// Registers the players, then stores the games: spread over the last year, every player and
/// mode alike, random stats in each mode's range, replays of the bot.
async fn fill(
    store: &Store,
    players_total: usize,
    games_total: usize,
    templates: &[(ModeKind, Vec<FinishedGame>)],
) {
    let mut rng = Rng(42);
    let t = Instant::now();
    for i in 0..players_total {
        let name = PlayerName::parse(&format!("player{i}")).expect("name");
        let fingerprint = format!("SHA256:{:0>43}", i);
        let key = NewKey {
            fingerprint: KeyFingerprint::parse(&fingerprint).expect("fingerprint"),
            algorithm: "ssh-ed25519".into(),
        };
        let account = store.register(&name, &key, NOW - 400 * DAY).await;
        assert_eq!(account.expect("registers").id, PlayerId(i as i64 + 1));
    }
    println!(
        "registered {players_total} players in {:.1} s",
        t.elapsed().as_secs_f64()
    );

    let t = Instant::now();
    let mut batch = Vec::with_capacity(1_000);
    for i in 0..games_total {
        let (kind, pool) = &templates[i % templates.len()];
        let template = &pool[rng.below(pool.len() as u64) as usize];
        let player = PlayerId(1 + rng.below(players_total as u64) as i64);
        let stats = random_stats(*kind, &mut rng);
        let ended_at = NOW - rng.below(365 * DAY as u64) as i64;
        let key = rank_key(*kind, &stats).expect("ranked mode");
        let game = FinishedGame {
            player,
            replay: template.replay.clone(),
            stats,
            outcome: template.outcome,
            started_at: ended_at - 60_000,
            ended_at,
        };
        batch.push((game, Verdict::Ranked { key }));
        if batch.len() == 1_000 || i + 1 == games_total {
            store.insert_games(&batch).await.expect("fills");
            batch.clear();
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "filled {games_total} games in {secs:.1} s ({:.0} games/s in 1,000-game transactions)",
        games_total as f64 / secs
    );
}

/// Top pages and random players' ranks on every board, nothing else running.
async fn idle_queries(store: &Store, players: &[PlayerId]) {
    let mut rng = Rng(1);
    println!("\nidle database, 500 queries each (µs):");
    println!(
        "| mode | period | board size | top 20 p50 | top 20 p99 | own rank p50 | own rank p99 |"
    );
    println!("|---|---|---|---|---|---|---|");
    for kind in ranked_modes() {
        for period in Period::ALL {
            let size = store.board_size(kind, period, NOW).await.expect("query");
            if size == 0 {
                // A ranked mode the fill does not draw (Descent): nothing to time.
                continue;
            }
            let mut top = Vec::new();
            let mut own = Vec::new();
            for _ in 0..500 {
                let t = Instant::now();
                let page = store.leaderboard(kind, period, NOW, Page::top(20)).await;
                top.push(t.elapsed());
                assert!(!page.expect("query").is_empty());
                let p = players[rng.below(players.len() as u64) as usize];
                let t = Instant::now();
                store.rank_of(kind, period, NOW, p).await.expect("query");
                own.push(t.elapsed());
            }
            let (t50, t99) = percentiles(top);
            let (o50, o99) = percentiles(own);
            println!(
                "| {} | {} | {size} | {t50:.0} | {t99:.0} | {o50:.0} | {o99:.0} |",
                kind.id(),
                period.title()
            );
        }
    }
}

/// Writes real games through the writer (judged and re-simulated) while 100 simulated players
/// each read a top page and their own rank every `STORE_BENCH_READ_MS` (1,000 ms).
async fn under_load(
    store: &Store,
    players: &[PlayerId],
    templates: &[(ModeKind, Vec<FinishedGame>)],
    writes: usize,
    rate: Option<u32>,
) {
    let read_ms = env("STORE_BENCH_READ_MS", 1000) as u64;
    let stop = Arc::new(AtomicBool::new(false));
    let mut readers = Vec::new();
    for r in 0..100u64 {
        let store = store.clone();
        let stop = stop.clone();
        let me = players[(r as usize * 499) % players.len()];
        readers.push(tokio::spawn(async move {
            let mut rng = Rng(r);
            let mut top = Vec::new();
            let mut own = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                let kind = ranked_modes()[rng.below(6) as usize];
                let period = Period::ALL[rng.below(3) as usize];
                let t = Instant::now();
                store
                    .leaderboard(kind, period, NOW, Page::top(20))
                    .await
                    .expect("query");
                top.push(t.elapsed());
                let t = Instant::now();
                store.rank_of(kind, period, NOW, me).await.expect("query");
                own.push(t.elapsed());
                tokio::time::sleep(Duration::from_millis(read_ms)).await;
            }
            (top, own)
        }));
    }
    tokio::time::sleep(Duration::from_millis(500)).await;

    let (writer, done) = GameWriter::spawn(store.clone(), WriterConfig::default());
    let mut rng = Rng(7);
    let t = Instant::now();
    let mut replies = Vec::with_capacity(writes);
    let mut tick = tokio::time::interval(Duration::from_millis(10));
    for i in 0..writes {
        // At a steady rate, a hundredth of a second's games every 10 ms.
        if let Some(rate) = rate
            && i % (rate as usize / 100).max(1) == 0
        {
            tick.tick().await;
        }
        let (_, pool) = &templates[i % templates.len()];
        let mut game = pool[rng.below(pool.len() as u64) as usize].clone();
        game.player = players[rng.below(players.len() as u64) as usize];
        game.ended_at = NOW;
        game.started_at = NOW - 60_000;
        replies.push(writer.submit(game));
    }
    let mut ranked = 0;
    for r in replies {
        let stored = r.await.expect("reply").expect("stored");
        ranked += usize::from(matches!(stored.verdict, Verdict::Ranked { .. }));
    }
    let secs = t.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let mut top = Vec::new();
    let mut own = Vec::new();
    for r in readers {
        let (t, o) = r.await.expect("reader");
        top.extend(t);
        own.extend(o);
    }
    drop(writer);
    done.await.expect("writer ends");
    let pace = rate.map_or("as fast as they go".to_owned(), |r| format!("{r} a second"));
    println!(
        "\nwriter, games submitted {pace}: {writes} real games ({ranked} ranked after \
         re-simulation) stored in {secs:.2} s = {:.0} games/s, while 100 players read",
        writes as f64 / secs
    );
    let reads = top.len();
    let (t50, t99) = percentiles(top);
    let (o50, o99) = percentiles(own);
    println!(
        "reads during the writes ({reads} each): top 20 p50 {t50:.0} µs p99 {t99:.0} µs; \
         own rank p50 {o50:.0} µs p99 {o99:.0} µs"
    );
}
