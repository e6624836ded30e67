//! A connection slot of an address coming free: the per-address limit's tests wait for the
//! server to take a connection from the same address again.

use std::net::SocketAddr;
use std::time::Duration;

use crate::{Connection, Login};

/// Opens a connection as `user` (`login`) to `addr` once the server takes one again: tries
/// every 100 ms for at most `within`; the last refusal then, with `what` as its context.
pub async fn open_once_a_slot_frees(
    addr: SocketAddr,
    user: &str,
    login: Login,
    within: Duration,
    what: &'static str,
) -> anyhow::Result<Connection> {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match Connection::open(addr, user, login.clone()).await {
            Ok(conn) => return Ok(conn),
            Err(e) if tokio::time::Instant::now() < deadline => {
                tracing::debug!(error = %e, "retrying");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => return Err(e.context(what)),
        }
    }
}

/// As [`open_once_a_slot_frees`] ("the slot was not freed"), then plays in a 100 x 40
/// terminal past the welcome screen: the address's new connection is served.
pub async fn plays_once_a_slot_frees(
    addr: SocketAddr,
    user: &str,
    login: Login,
    within: Duration,
) -> anyhow::Result<()> {
    let conn = open_once_a_slot_frees(addr, user, login, within, "the slot was not freed").await?;
    let mut s = conn.play(100, 40).await?;
    s.skip_welcome().await
}
