//! The running server without a front end: the store's game writer, the services (accounts,
//! versus with its hub and rooms, parked games), the cluster over NATS, the probes behind
//! `/health` and the spool's replays. [`start`] builds it; a front end serves players with it
//! (`ssh::server::serve`, the SSH accept loop, the only one today); [`Core::stop`] ends it once
//! every front end has stopped accepting: the sessions end, the rooms hand over their matches,
//! the writer stores what is queued, the cluster relays the last words.
//!
//! A front end needs of the core only [`Core::shared`] (what each of its sessions is given) and
//! [`Core::shutdown_after`] (the signal it stops accepting on, with the cluster's drain).

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio::time::timeout;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::cluster::Cluster;
use crate::config::Limits;
use crate::host_key::HostKey;
use crate::services::account::SharedAccounts;
use crate::versus::Hub;
use minotty_store::{GameWriter, WriterConfig};

pub(crate) mod shared;
use shared::Shared;

/// How long shutdown waits for the game writer (and, separately, the match recorder) to store
/// the games and matches still queued.
const WRITER_PATIENCE: Duration = Duration::from_secs(30);
/// How long the exit waits for the cluster's proxies to relay the rooms' last words.
const CLUSTER_PATIENCE: Duration = Duration::from_secs(2);

/// What the server runs with.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    pub host_key: HostKey,
    pub limits: Limits,
    /// The store; `None` runs without a database: everyone plays as a guest and the commands
    /// and screens that need it say so.
    pub store: Option<minotty_store::Store>,
    /// The Tetris Bot Protocol bots players can face (none: `TbpBots::default()`).
    pub tbp: minotty_tbp::frontend::TbpBots,
    /// Rooms and the queue across instances over NATS (`--nats`); `None`: a single instance.
    pub cluster: Option<crate::cluster::ClusterConfig>,
    /// Where games and matches the database does not take are kept until it does
    /// (`--spool-dir`); `None`: they are logged whole instead.
    pub spool: Option<minotty_store::spool::Spool>,
    /// Where players open the web pages (`--web-url`, or the pages' port): the links the
    /// terminal shows. `None`: no pages, no links.
    pub web: Option<crate::address::WebAddress>,
}

/// The running core (see the module's text).
#[derive(Debug)]
pub struct Core {
    pub(crate) shared: Arc<Shared>,
    pub(crate) config: ServerConfig,
    fallback: minotty_store::spool::Fallback,
    writer_task: Option<JoinHandle<()>>,
    /// With `--nats`: the cluster, the hub it serves and the drain's cap.
    cluster: Option<(Arc<Cluster>, Arc<Hub>, Duration)>,
}

/// Starts the core of a server with `config`: everything but a front end.
pub async fn start(config: ServerConfig) -> anyhow::Result<Core> {
    // Finished games are written by the writer's tasks; they end when every session (and the
    // core) has dropped its sender, after writing (or spooling) what is queued.
    let fallback = minotty_store::spool::Fallback::to(config.spool.clone());
    let (writer, writer_task) = match &config.store {
        Some(store) => {
            if let Err(e) = store
                .record_start(env!("CARGO_PKG_VERSION"), minotty_store::unix_now())
                .await
            {
                tracing::warn!(error = %e, "recording the server start");
            }
            // The writer's queue and transactions show in `/metrics`.
            let observed = store.clone().observed_by(crate::metrics::store_observer());
            let (writer, task) =
                GameWriter::spawn_with(observed, WriterConfig::default(), fallback.clone());
            (Some(writer), Some(task))
        }
        None => (None, None),
    };
    // With `--nats`: connected first, so that the versus hub is built reaching the other
    // instances (it listens once the hub exists, below).
    let cluster = match &config.cluster {
        Some(c) => Some(crate::cluster::connect(c).await?),
        None => None,
    };
    let remote = cluster
        .clone()
        .map(|c| c as Arc<dyn crate::versus::RemoteRooms>);
    // The sessions, and the account tasks they start, are waited for at shutdown.
    let tracker = TaskTracker::new();
    let shared = Arc::new(Shared {
        limits: config.limits.clone(),
        services: crate::services::SharedServices {
            account: SharedAccounts::new(config.store.clone(), writer).with_tasks(tracker.clone()),
            versus: crate::services::versus::SharedVersus::with_tbp(
                config.store.clone(),
                config.limits.versus_seed,
                config.limits.bots,
                config.tbp.clone(),
            )
            .with_reconnect(config.limits.reconnect)
            .with_remote(remote),
        },
        shutdown: CancellationToken::new(),
        tracker,
        parked: Arc::new(crate::reconnect::ParkedGames::new(
            config.limits.reconnect,
            config.limits.max_parked,
        )),
        web: config.web.clone(),
    });
    shared
        .tracker
        .spawn(Arc::clone(&shared.parked).run_expiry(shared.shutdown.clone()));
    // `/health` says degraded while the database or NATS cannot be reached.
    if let Some(store) = &config.store {
        let probe = crate::probes::watch_database(store.clone(), shared.shutdown.clone());
        shared.tracker.spawn(probe);
    }
    if let Some(spool) = &config.spool {
        shared.services.versus.hub().set_spool(spool.clone());
        if let Some(store) = &config.store {
            let replays = minotty_store::spool::run_replays(
                spool.clone(),
                store.clone(),
                shared.shutdown.clone(),
            );
            shared.tracker.spawn(replays);
        }
    }
    // With `--nats`: join the other instances; on the shutdown signal, a front end drains first
    // (new rooms refused, running matches finish, at most `--drain-secs`).
    let cluster = match (cluster, &config.cluster) {
        (Some(cluster), Some(c)) => {
            let hub = Arc::clone(shared.services.versus.hub());
            cluster.serve(&hub).await?;
            Some((cluster, hub, c.drain))
        }
        _ => None,
    };
    if let Some((cluster, ..)) = &cluster {
        let (client, id) = (cluster.nats_client(), cluster.id().to_owned());
        let probe = crate::probes::watch_nats(client, id, shared.shutdown.clone());
        shared.tracker.spawn(probe);
    }
    Ok(Core {
        shared,
        config,
        fallback,
        writer_task,
        cluster,
    })
}

impl Core {
    /// What every session of a front end shares (the services, the limits, the shutdown
    /// token and the task tracker sessions are spawned on).
    pub(crate) fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The directory of games and matches being played now (the Live screen's, the web's).
    pub fn live(&self) -> crate::live::LiveDirectory {
        self.shared.services.versus.hub().live.clone()
    }

    /// The store, when the server has one (pages read leaderboards and profiles from it).
    pub fn store(&self) -> Option<&minotty_store::Store> {
        self.config.store.as_ref()
    }

    /// Completes once `signal` has, and then, with `--nats`, once this instance drained (new
    /// rooms refused, running matches finished, at most `--drain-secs`): when a front end stops
    /// accepting.
    pub fn shutdown_after<F: Future<Output = ()>>(
        &self,
        signal: F,
    ) -> impl Future<Output = ()> + use<F> {
        let cluster = self.cluster.clone();
        async move {
            signal.await;
            if let Some((cluster, hub, cap)) = cluster {
                cluster.drain(&hub, cap).await;
            }
        }
    }

    /// Ends the core once the front ends stopped accepting: every session is told to end (a
    /// match still running is abandoned, not lost by whoever's session ends first) and waited
    /// for (bounded), then the rooms, the match recorder, the cluster and the game writer
    /// finish in that order.
    pub async fn stop(self) {
        // Before the sessions end (and leave their rooms): a match still running is abandoned,
        // not lost by whoever's session happens to end first.
        let Core {
            shared,
            config,
            fallback,
            writer_task,
            cluster,
        } = self;
        shared.services.versus.hub().begin_shutdown();
        shared.shutdown.cancel();
        // No more retries: what the database does not take at once goes to the spool.
        fallback.stop.cancel();
        shared.tracker.close();
        let patience = config.limits.shutdown_grace + Duration::from_secs(3);
        if timeout(patience, shared.tracker.wait()).await.is_err() {
            tracing::warn!("some connections did not close in time");
        }
        // Every session has ended (or was given up on): the rooms hand over their decided matches
        // and the match recorder writes what is queued (bounded; what it cannot write is logged).
        let unwritten = shared.services.versus.hub().shutdown(WRITER_PATIENCE).await;
        if unwritten > 0 {
            tracing::warn!(unwritten, "versus matches were not stored before shutdown");
        }
        // What the rooms said as they closed reaches the other instances' players.
        if let Some((cluster, ..)) = cluster {
            cluster.finish(CLUSTER_PATIENCE).await;
        }
        // The last senders go with `shared`, and the writer stores what is still queued before it
        // stops.
        drop(shared);
        if let Some(task) = writer_task
            && timeout(WRITER_PATIENCE, task).await.is_err()
        {
            tracing::error!("the game writer did not finish in time; queued games may be lost");
        }
        if let Some(store) = &config.store {
            store.close().await;
        }
        match &config.spool {
            Some(spool) if !spool.is_empty() => tracing::warn!(
                records = spool.len(),
                spool = %spool.dir().display(),
                "stopped; games and matches wait in the spool, to be stored at the next start"
            ),
            _ => tracing::info!("stopped"),
        }
    }
}
