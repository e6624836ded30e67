//! `minotty serve`: logging, the runtime, the host key, the database and its spool, the
//! listeners, then the core with its front ends (SSH, the web pages) until Ctrl+C or SIGTERM.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use minotty_server::cluster::ClusterConfig;
use minotty_server::config::{HttpListen, ServeArgs};
use minotty_server::{HostKey, Limits, ServerConfig};
use minotty_store::Store;
use minotty_store::spool::{Spool, SpoolLimits};
use tokio_util::sync::CancellationToken;

use crate::side_tasks::SideTasks;

/// How often the runtime's live task count is logged (`minotty::runtime`, debug).
const RUNTIME_LOG_EVERY: Duration = Duration::from_secs(10);

/// Serves until Ctrl+C or SIGTERM and the server has shut down; the binary's own tasks (the
/// metrics endpoint, the runtime log) end after it, also when starting fails.
pub fn serve(args: ServeArgs) -> anyhow::Result<()> {
    crate::logging::init_logging(args.log_format);
    // Refused before anything starts: a cluster without its key (or with credentials that do
    // not go together).
    let cluster = args.cluster.config()?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let side = SideTasks::new();
        // The runtime's live task count every 10 s, for soak runs (`tests/soak.sh` turns it on
        // with `RUST_LOG=...,minotty::runtime=debug`).
        side.log_runtime(RUNTIME_LOG_EVERY);
        let served = run(args, cluster, &side).await;
        side.finish().await;
        served
    })
}

/// From the host key to the server's end.
async fn run(
    args: ServeArgs,
    cluster: Option<ClusterConfig>,
    side: &SideTasks,
) -> anyhow::Result<()> {
    let (host_key, generated) = HostKey::load_or_generate(&args.host_key)?;
    tracing::info!(
        target: crate::LOG_TARGET,
        path = %args.host_key.display(),
        fingerprint = %host_key.fingerprint(),
        generated,
        "host key"
    );
    println!("minotty host key fingerprint: {}", host_key.fingerprint());
    let db = minotty_store::redacted_url(&args.db);
    let store = Store::open(&args.db)
        .await
        .with_context(|| format!("opening the database {db}"))?;
    tracing::info!(
        target: crate::LOG_TARGET,
        url = %db,
        backend = ?store.backend(),
        "database ready"
    );
    let spool_dir = args.spool_dir();
    let observer = minotty_server::metrics::store_observer();
    let spool = match Spool::open_observed(&spool_dir, SpoolLimits::default(), observer) {
        Ok(spool) => {
            tracing::info!(
                target: crate::LOG_TARGET,
                dir = %spool_dir.display(),
                waiting = spool.len(),
                "spool"
            );
            Some(spool)
        }
        Err(e) => {
            tracing::error!(
                target: crate::LOG_TARGET,
                error = %e,
                "no spool: games and matches the database does not take are only logged; \
                 /health says degraded: no spool"
            );
            None
        }
    };
    minotty_server::metrics::note_spool(spool.is_some());
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("listening on {}", args.listen))?;
    let web = bind_web(args.http_listen).await;
    let http_limits = (
        args.http_max_connections,
        args.http_max_per_ip,
        args.http_requests_per_sec,
    );
    if let Some(addr) = args.metrics_listen {
        let metrics = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("listening for metrics on {addr}"))?;
        if !addr.ip().is_loopback() {
            tracing::warn!(
                target: crate::LOG_TARGET,
                %addr,
                "metrics and health served beyond loopback: firewall them"
            );
        }
        tracing::info!(
            target: crate::LOG_TARGET,
            %addr,
            "metrics on /metrics, health on /health"
        );
        // Ends after the server: /health says 503 while it drains.
        side.serve_metrics(metrics);
    }
    let tbp = args.tbp.bots();
    for name in tbp.names() {
        tracing::info!(target: crate::LOG_TARGET, bot = name, "TBP bot configured");
    }
    let public_url = match &args.web_url {
        Some(minotty_server::address::WebAddress::Url(url)) => Some(url.clone()),
        _ => None,
    };
    let config = ServerConfig {
        host_key,
        limits: Limits::from(&args.limits),
        store: Some(store),
        tbp,
        cluster,
        spool,
        web: match (args.web_url, web.as_ref().and_then(|l| l.local_addr().ok())) {
            (Some(url), _) => Some(url),
            (None, listen) => listen.map(minotty_server::address::WebAddress::Listen),
        },
    };
    let ssh_port = listener
        .local_addr()
        .map_or(args.listen.port(), |a| a.port());
    let core = minotty_server::start(config).await?;
    // SSH stops accepting on the signal (after the drain, with `--nats`); the pages with it.
    let stop = CancellationToken::new();
    let ssh = minotty_server::serve(listener, &core, {
        let (signal, stop) = (
            core.shutdown_after(crate::signal::shutdown_signal()),
            stop.clone(),
        );
        async move {
            signal.await;
            stop.cancel();
        }
    });
    let pages = async {
        if let Some(web) = web {
            let mut site = minotty_web::Web::new(core.store().cloned(), ssh_port).with_limits(
                http_limits.0,
                http_limits.1,
                http_limits.2,
            );
            if let Some(url) = &public_url {
                site = site.with_public_url(url);
            }
            let site = site.with_live(core.live()).with_play(core.opener());
            let site = Arc::new(site);
            minotty_web::serve(web, site, stop.cancelled()).await;
        }
    };
    tokio::join!(ssh, pages);
    core.stop().await;
    Ok(())
}

/// The listener of the web pages (`--http-listen`), or `None` when they are off or the
/// address cannot be had: then the game is served over SSH alone, and the operator told.
async fn bind_web(listen: HttpListen) -> Option<tokio::net::TcpListener> {
    let addr = listen.0?;
    match tokio::net::TcpListener::bind(addr).await {
        Ok(web) => {
            tracing::info!(target: crate::LOG_TARGET, %addr, "web pages");
            println!("minotty web pages: http://{addr}/");
            Some(web)
        }
        Err(e) => {
            tracing::warn!(
                target: crate::LOG_TARGET,
                %addr,
                error = %e,
                "the web pages are not served: the address cannot be had (--http-listen ADDR \
                 or off); SSH serves as usual"
            );
            eprintln!(
                "minotty: web pages not served: {addr}: {e} (choose another with \
                 --http-listen ADDR, or --http-listen off)"
            );
            None
        }
    }
}
