//! A player walking the menus over SSH to where a test begins.

use crate::{Connection, Login, PtySession, TestServer, WAIT, keys};

/// ada, with a new key, on `server` in a `cols` x `rows` terminal, past the welcome screen:
/// the main menu shows.
pub async fn ada_at_the_menu(
    server: &TestServer,
    cols: u16,
    rows: u16,
) -> anyhow::Result<(Connection, PtySession)> {
    let conn = Connection::open(server.addr, "ada", Login::Key).await?;
    let mut s = conn.play(cols, rows).await?;
    s.skip_welcome().await?;
    Ok((conn, s))
}

/// ada, with a new key, on `server` in a 100 x 40 terminal, past the welcome screen and on
/// Play: the list of modes shows ("40 Lines" first).
pub async fn ada_at_the_modes(server: &TestServer) -> anyhow::Result<(Connection, PtySession)> {
    let (conn, mut s) = ada_at_the_menu(server, 100, 40).await?;
    s.send(keys::ENTER).await?;
    s.wait_for_text("40 Lines", WAIT).await?;
    Ok((conn, s))
}
