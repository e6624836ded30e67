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

/// Hard drops pile pieces in the middle of the solo game on screen until it is lost (`gap`
/// between drops: slower than the synthetic release timeout, each drop is a new press), then
/// Enter on the final board (it waits for Enter): the results show, with their "Retry", and
/// take Enter (they ignore it for their first 400 ms, `RESULTS_GUARD_MS`). Returns the drops
/// made.
pub async fn top_out_to_results(
    s: &mut PtySession,
    max_drops: u32,
    gap: std::time::Duration,
) -> anyhow::Result<u32> {
    for drops in 0..max_drops {
        let screen = s.contents();
        if screen.contains("Retry") || screen.contains("Enter: results") {
            if !screen.contains("Retry") {
                s.send(keys::ENTER).await?;
                s.wait_for_text("Retry", WAIT).await?;
            }
            s.pump_for(std::time::Duration::from_millis(450)).await;
            return Ok(drops);
        }
        s.send(keys::HARD_DROP).await?;
        s.pump_for(gap).await;
    }
    anyhow::bail!("no game over after {max_drops} drops:\n{}", s.contents())
}
