//! The `minotty` binary: flags, logging, then the library does the rest.

use std::io::IsTerminal;

use anyhow::Context;
use clap::Parser;
use minotty_server::config::{Cli, Command, ServeArgs};
use minotty_server::{HostKey, Limits, ServerConfig, Store};
use tracing_subscriber::EnvFilter;

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Play(args)) => minotty_server::play::run(args),
        Some(Command::Serve(args)) => serve(*args),
        Some(Command::Arena(args)) => {
            print!("{}", minotty_server::arena::run(&args).render());
            Ok(())
        }
        None => serve(cli.serve),
    }
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,russh=warn,sqlx=warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();

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
        let store = Store::open(&args.db)
            .await
            .with_context(|| format!("opening the database {}", args.db))?;
        tracing::info!(url = %args.db, "database ready");
        let listener = tokio::net::TcpListener::bind(args.listen)
            .await
            .with_context(|| format!("listening on {}", args.listen))?;
        let tbp = args.tbp.bots();
        for name in tbp.names() {
            tracing::info!(bot = name, "TBP bot configured");
        }
        let config = ServerConfig {
            host_key,
            limits: Limits::from(&args.limits),
            store: Some(store),
            tbp,
            cluster: args.cluster.config(),
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
