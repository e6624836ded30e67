//! The `minotty` binary: flags (and the config file), logging, the metrics endpoint, then the
//! library does the rest.

use std::io::IsTerminal;

use anyhow::Context;
use minotty_server::config::{Command, ConfigError, LogFormat, ServeArgs};
use minotty_server::{HostKey, Limits, ServerConfig};
use minotty_store::Store;
use minotty_store::spool::{Spool, SpoolLimits};
use tracing_subscriber::EnvFilter;

fn main() -> anyhow::Result<()> {
    let loaded = match minotty_server::config::parse_with_config(std::env::args_os()) {
        Ok(loaded) => loaded,
        Err(ConfigError::Cli(e)) => e.exit(),
        Err(ConfigError::File(e)) => {
            eprintln!("minotty: {e}");
            std::process::exit(2);
        }
    };
    let cli = loaded.cli;
    let serve_args = match cli.command {
        Some(Command::Play(args)) => return minotty_local::run(args),
        Some(Command::Arena(args)) if !args.tbp.is_empty() => {
            let report = minotty_server::arena::tbp::run(&args).context("the arena")?;
            print!("{}", report.render());
            return Ok(());
        }
        Some(Command::Arena(args)) => {
            print!("{}", minotty_server::arena::run(&args).render());
            return Ok(());
        }
        Some(Command::HostKey(args)) => {
            let (key, generated) = HostKey::load_or_generate(&args.host_key)?;
            let what = if generated { "created" } else { "exists" };
            println!(
                "{} {what}, fingerprint {}",
                args.host_key.display(),
                key.fingerprint()
            );
            return Ok(());
        }
        Some(Command::Serve(args)) => *args,
        None => cli.serve,
    };
    if serve_args.print_config {
        print!("{}", loaded.effective);
        return Ok(());
    }
    serve(serve_args)
}

/// Logs to stderr, filtered by `RUST_LOG` (default `info,russh=warn,sqlx=warn`): text for
/// people, or JSON lines (with the span fields: `conn` id and peer, `session` player) for log
/// collectors.
fn init_logging(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,russh=warn,sqlx=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.with_ansi(std::io::stderr().is_terminal()).init(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .init(),
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    init_logging(args.log_format);
    // Refused before anything starts: a cluster without its key (or with credentials that do
    // not go together).
    let cluster = args.cluster.config()?;

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        // The runtime's live task count every 10 s, for soak runs (`tests/soak.sh` turns it on
        // with `RUST_LOG=...,minotty::runtime=debug`).
        tokio::spawn(async {
            let metrics = tokio::runtime::Handle::current().metrics();
            let mut tick = tokio::time::interval(std::time::Duration::from_secs(10));
            loop {
                tick.tick().await;
                let tasks = metrics.num_alive_tasks();
                tracing::debug!(target: "minotty::runtime", tasks, "runtime");
            }
        });
        let (host_key, generated) = HostKey::load_or_generate(&args.host_key)?;
        tracing::info!(
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
        tracing::info!(url = %db, backend = ?store.backend(), "database ready");
        let spool_dir = args.spool_dir();
        let observer = minotty_server::metrics::store_observer();
        let spool = match Spool::open_observed(&spool_dir, SpoolLimits::default(), observer) {
            Ok(spool) => {
                tracing::info!(dir = %spool_dir.display(), waiting = spool.len(), "spool");
                Some(spool)
            }
            Err(e) => {
                tracing::error!(
                    error = %e,
                    "no spool: games and matches the database does not take are only logged"
                );
                None
            }
        };
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("listening on {}", args.listen))?;
        if let Some(addr) = args.metrics_listen {
            let metrics = tokio::net::TcpListener::bind(addr)
                .await
                .with_context(|| format!("listening for metrics on {addr}"))?;
            if !addr.ip().is_loopback() {
                tracing::warn!(%addr, "metrics and health served beyond loopback: firewall them");
            }
            tracing::info!(%addr, "metrics on /metrics, health on /health");
            // Ends with the runtime, after the server: /health says 503 while it drains.
            tokio::spawn(minotty_server::metrics::http::serve(
                metrics,
                &minotty_server::metrics::HEALTH,
                std::future::pending(),
            ));
        }
        let tbp = args.tbp.bots();
        for name in tbp.names() {
            tracing::info!(bot = name, "TBP bot configured");
        }
        let config = ServerConfig {
            host_key,
            limits: Limits::from(&args.limits),
            store: Some(store),
            tbp,
            cluster,
            spool,
        };
        minotty_server::run(listener, config, shutdown_signal()).await
    })
}

/// Completes on Ctrl+C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl+C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!("Ctrl+C received"),
        () = terminate => tracing::info!("SIGTERM received"),
    }
}
