//! A `minotty serve` process of a test's own, started with the server binary (see
//! [`crate::cluster::server_binary`]) when a test needs the real process (a database behind a
//! [`crate::faults::Link`], SIGTERM, a restart on the same files) rather than the in-process
//! [`crate::TestServer`].

use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, bail};

use crate::cluster::server_binary;

/// `minotty serve` listening on `addr`, on the database `db`, its host key at `host_key` (the
/// spool beside it), logging at `info` to `log` (stdout and stderr), stdin closed. More
/// arguments may be added before it is spawned.
pub fn serve_command(
    addr: SocketAddr,
    db: &str,
    host_key: &Path,
    log: &Path,
) -> anyhow::Result<Command> {
    let out = std::fs::File::create(log)?;
    let mut cmd = Command::new(server_binary()?);
    cmd.arg("serve")
        .args(["--listen", &addr.to_string(), "--db", db])
        // The web pages are served only where a test asks for them.
        .env("MINOTTY_HTTP_LISTEN", "off")
        .arg("--host-key")
        .arg(host_key)
        .env("RUST_LOG", "info")
        .stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out);
    Ok(cmd)
}

/// Spawns `cmd` (see [`serve_command`]) and waits, at most `within`, until it accepts
/// connections on `addr`; fails with its log (`log`) if it exits first or is not accepting by
/// then (and kills it).
pub async fn spawn_accepting(
    mut cmd: Command,
    addr: SocketAddr,
    log: &Path,
    within: Duration,
) -> anyhow::Result<Child> {
    let read = || std::fs::read_to_string(log).unwrap_or_default();
    let mut child = cmd.spawn().context("starting minotty serve")?;
    let deadline = tokio::time::Instant::now() + within;
    while tokio::net::TcpStream::connect(addr).await.is_err() {
        if let Some(status) = child.try_wait()? {
            bail!("minotty serve exited ({status}):\n{}", read());
        }
        if tokio::time::Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            bail!("minotty serve does not accept connections:\n{}", read());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(child)
}
