//! The dependency probes: tracked background tasks that find out whether the server reaches
//! its database (a cheap query every [`DATABASE_EVERY`], given [`DATABASE_TIMEOUT`]) and NATS
//! (the client's connection state every [`NATS_EVERY`]) and note it for `/health` and
//! `/metrics` (`crate::metrics::deps`). Both end with the server's shutdown signal.

use std::time::Duration;

use tokio::time::{MissedTickBehavior, interval, timeout};
use tokio_util::sync::CancellationToken;

use crate::metrics::{Dependency, note_dependency, use_dependency};
use crate::store::Store;

/// How often the database is probed.
pub const DATABASE_EVERY: Duration = Duration::from_secs(3);
/// How long a probe of the database may take before it counts as unreachable.
pub const DATABASE_TIMEOUT: Duration = Duration::from_secs(2);
/// How often the NATS client's connection state is read.
pub const NATS_EVERY: Duration = Duration::from_secs(1);

/// Probes `store` until `shutdown`.
pub async fn watch_database(store: Store, shutdown: CancellationToken) {
    use_dependency(Dependency::Database);
    let mut tick = interval(DATABASE_EVERY);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = tick.tick() => {}
        }
        let up = tokio::select! {
            () = shutdown.cancelled() => return,
            answer = timeout(DATABASE_TIMEOUT, store.ping()) => match answer {
                Ok(Ok(())) => true,
                Ok(Err(e)) => {
                    tracing::debug!(error = %e, "database probe failed");
                    false
                }
                Err(_) => false,
            },
        };
        note_dependency(Dependency::Database, up);
    }
}

/// Reads the state of the NATS `client` until `shutdown`.
pub async fn watch_nats(client: async_nats::Client, shutdown: CancellationToken) {
    use_dependency(Dependency::Nats);
    let mut tick = interval(NATS_EVERY);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = tick.tick() => {}
        }
        let up = client.connection_state() == async_nats::connection::State::Connected;
        note_dependency(Dependency::Nats, up);
    }
}
