//! When the server stops: the operator's Ctrl+C or SIGTERM.

/// Completes on Ctrl+C or SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(target: crate::LOG_TARGET, error = %e, "cannot listen for Ctrl+C");
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
                tracing::error!(
                    target: crate::LOG_TARGET,
                    error = %e,
                    "cannot listen for SIGTERM"
                );
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => tracing::info!(target: crate::LOG_TARGET, "Ctrl+C received"),
        () = terminate => tracing::info!(target: crate::LOG_TARGET, "SIGTERM received"),
    }
}
