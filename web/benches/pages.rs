//! Server time of the pages over the store benchmark's database (1,000,000 games, 50,000
//! players: `STORE_BENCH_DB=path cargo bench -p minotty-store --bench store` fills it once).
//! Each page is asked `WEB_BENCH_REQUESTS` times (default 300) through the router, as the
//! listener hands requests to it, and its p50 and p99 are printed:
//!
//! ```sh
//! STORE_BENCH_DB=/path/bench.db cargo bench -p minotty-web --bench pages
//! ```

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use minotty_domain::PlayerId;
use minotty_store::Store;
use minotty_web::{Web, router};
use tower::ServiceExt;

fn percentiles(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    let at = |q: f64| v[((v.len() as f64 * q) as usize).min(v.len() - 1)].as_secs_f64() * 1e3;
    (at(0.50), at(0.99))
}

/// The time of one request for `uri`, its body read whole.
async fn time(web: &Arc<Web>, uri: &str) -> Duration {
    let request = Request::builder()
        .uri(uri)
        .header(header::HOST, "localhost")
        .body(Body::empty())
        .expect("a request");
    let start = Instant::now();
    let response = router(Arc::clone(web))
        .oneshot(request)
        .await
        .expect("an answer");
    let status = response.status();
    let body = axum::body::to_bytes(response.into_body(), 8 << 20)
        .await
        .expect("a body");
    let took = start.elapsed();
    assert_eq!(
        status,
        StatusCode::OK,
        "{uri}: {}",
        String::from_utf8_lossy(&body)
    );
    took
}

async fn run() {
    let Ok(path) = std::env::var("STORE_BENCH_DB") else {
        eprintln!(
            "STORE_BENCH_DB is not set: fill a database with \
             `STORE_BENCH_DB=path cargo bench -p minotty-store --bench store` first"
        );
        return;
    };
    let requests: usize = std::env::var("WEB_BENCH_REQUESTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let store = Store::open(&format!("sqlite://{path}"))
        .await
        .expect("opens the benchmark's database");
    let web = Arc::new(Web::new(Some(store.clone()), 2222));
    // A few players and games of the database, chosen the same way each run.
    let mut pages: Vec<(&str, Vec<String>)> = vec![
        ("leaderboard, first page", vec!["/leaderboard/40l".into()]),
        (
            "leaderboard, page 1,000 (ranks 24,976-25,000)",
            vec!["/leaderboard/40l?page=1000".into()],
        ),
        (
            "leaderboard, this month",
            vec!["/leaderboard/marathon?period=month".into()],
        ),
    ];
    let mut players = Vec::new();
    let mut games = Vec::new();
    for i in 0..20 {
        let id = PlayerId(1 + i * 2_477);
        if let Ok(Some(a)) = store.account(id).await {
            players.push(a.name.to_string());
            if let Ok(recent) = store.recent_games(id, 1).await {
                games.extend(recent.iter().map(|g| g.id.0));
            }
        }
    }
    assert!(!players.is_empty(), "the database has players");
    pages.push((
        "find a player (the page holding them)",
        players
            .iter()
            .map(|p| format!("/leaderboard/40l?find={p}"))
            .collect(),
    ));
    pages.push((
        "a profile (bests, ranks, recent games)",
        players.iter().map(|p| format!("/player/{p}")).collect(),
    ));
    pages.push((
        "a game's page",
        games.iter().map(|g| format!("/game/{g}")).collect(),
    ));
    pages.push((
        "a game's replay bytes",
        games.iter().map(|g| format!("/game/{g}/replay")).collect(),
    ));
    println!("{requests} requests a page, one at a time, after 20 to warm up");
    println!("| page | p50 | p99 |");
    println!("|---|---|---|");
    for (name, uris) in &pages {
        for uri in uris.iter().cycle().take(20) {
            time(&web, uri).await;
        }
        let mut took = Vec::with_capacity(requests);
        for uri in uris.iter().cycle().take(requests) {
            took.push(time(&web, uri).await);
        }
        let (p50, p99) = percentiles(took);
        println!("| {name} | {p50:.2} ms | {p99:.2} ms |");
    }
}

fn main() {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(run());
}
