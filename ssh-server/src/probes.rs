//! The dependency probes: tracked background tasks that find out whether the server reaches
//! its database (a cheap query every [`DATABASE_EVERY`], given [`DATABASE_TIMEOUT`]) and NATS
//! (the client's connection state every [`NATS_EVERY`], and a round trip through the NATS
//! server given [`NATS_TIMEOUT`]) and note it for `/health` and `/metrics`
//! (`crate::metrics::deps`). Both end with the server's shutdown signal.
//!
//! The round trip is a request on a subject no one answers ([`NATS_PROBE`]`.<instance>`): the
//! NATS server itself answers "no responders" at once. It finds a partition (a link that
//! passes nothing but stays open), which the client's own state shows only once its pings
//! have gone unanswered for minutes.

use std::time::Duration;

use async_nats::{RequestError, RequestErrorKind};
use tokio::time::{MissedTickBehavior, interval, timeout};
use tokio_util::sync::CancellationToken;

use crate::metrics::{Dependency, note_dependency, use_dependency};
use minotty_store::Store;

/// How often the database is probed.
pub const DATABASE_EVERY: Duration = Duration::from_secs(3);
/// How long a probe of the database may take before it counts as unreachable.
pub const DATABASE_TIMEOUT: Duration = Duration::from_secs(2);
/// How often the NATS client's connection state is read and a round trip made.
pub const NATS_EVERY: Duration = Duration::from_secs(1);
/// How long the round trip may take before NATS counts as unreachable.
pub const NATS_TIMEOUT: Duration = Duration::from_secs(2);
/// The subject prefix of the round trip (no one subscribes to it).
pub const NATS_PROBE: &str = "minotty.probe";

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

/// Reads the state of the NATS `client`, and makes a round trip on `{NATS_PROBE}.{instance}`,
/// until `shutdown`.
pub async fn watch_nats(client: async_nats::Client, instance: String, shutdown: CancellationToken) {
    use_dependency(Dependency::Nats);
    let subject = format!("{NATS_PROBE}.{instance}");
    let mut tick = interval(NATS_EVERY);
    tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = shutdown.cancelled() => return,
            _ = tick.tick() => {}
        }
        let connected = client.connection_state() == async_nats::connection::State::Connected;
        let up = connected
            && tokio::select! {
                () = shutdown.cancelled() => return,
                answer = timeout(NATS_TIMEOUT, client.request(subject.clone(), Vec::new().into())) => {
                    nats_answered(answer)
                }
            };
        note_dependency(Dependency::Nats, up);
    }
}

/// Whether the round trip's outcome shows that the NATS server answered: "no responders" is
/// its answer (as is a reply, should anyone ever subscribe); a timeout (ours or the client's)
/// or a client error is not.
fn nats_answered(
    answer: Result<Result<async_nats::Message, RequestError>, tokio::time::error::Elapsed>,
) -> bool {
    match answer {
        Ok(Ok(_)) => true,
        Ok(Err(e)) => e.kind() == RequestErrorKind::NoResponders,
        Err(_) => false,
    }
}
