//! The binary's own tasks beside the server: the metrics endpoint (`--metrics-listen`) and the
//! runtime's task-count log. Tracked, and ended (and awaited) by [`SideTasks::finish`] once
//! the server has shut down: nothing runs detached.

use std::time::Duration;

use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The tasks `minotty serve` runs beside [`minotty_server::run`].
#[derive(Debug, Default)]
pub struct SideTasks {
    tracker: TaskTracker,
    stop: CancellationToken,
}

impl SideTasks {
    pub fn new() -> SideTasks {
        SideTasks::default()
    }

    /// Serves `/metrics` and `/health` on `listener` until [`SideTasks::finish`]: after the
    /// server, so that `/health` says 503 while it drains.
    pub fn serve_metrics(&self, listener: TcpListener) {
        self.tracker.spawn(minotty_web::operator::serve(
            listener,
            &minotty_server::metrics::HEALTH,
            self.stop.clone().cancelled_owned(),
        ));
    }

    /// Logs the runtime's live task count (`minotty::runtime`, debug) at once and then every
    /// `every`, until [`SideTasks::finish`].
    pub fn log_runtime(&self, every: Duration) {
        let stop = self.stop.clone();
        self.tracker.spawn(async move {
            let metrics = tokio::runtime::Handle::current().metrics();
            let mut tick = tokio::time::interval(every);
            loop {
                tokio::select! {
                    biased;
                    () = stop.cancelled() => return,
                    _ = tick.tick() => {}
                }
                let tasks = metrics.num_alive_tasks();
                tracing::debug!(target: "minotty::runtime", tasks, "runtime");
            }
        });
    }

    /// Stops every task and waits until each has ended (the metrics listener closed with it).
    pub async fn finish(self) {
        self.stop.cancel();
        self.tracker.close();
        self.tracker.wait().await;
    }
}

#[cfg(test)]
mod tests;
