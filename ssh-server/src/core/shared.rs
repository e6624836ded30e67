//! What every session of a front end shares with the core (`core.rs`) and the accept loop
//! that made it: settings, the services, the shutdown signal and the server's task tracker.
//! Its own module so that a connection's handler and the accept loop do not depend on each
//! other (the loop makes handlers; a handler only reads this).

use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::config::Limits;

/// State shared by all connections: settings and the shutdown signal, never a player's state.
#[derive(Debug)]
pub(crate) struct Shared {
    pub limits: Limits,
    pub services: crate::services::SharedServices,
    pub shutdown: CancellationToken,
    pub tracker: TaskTracker,
    /// Solo games of players whose connection dropped (`reconnect.rs`).
    pub parked: Arc<crate::reconnect::ParkedGames>,
    /// Where players open the web pages, for the links screens show (`address::web_base`).
    pub web: Option<crate::address::WebAddress>,
}
