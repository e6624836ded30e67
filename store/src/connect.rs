//! How the store reaches its database, beyond what sqlx does.
//!
//! - PostgreSQL: a refused connection fails a write at once. sqlx's pool takes "connection
//!   refused" for a server still starting and retries it until the acquire timeout (30 s), so
//!   with the database's port closed (PostgreSQL stopped, or restarting) every attempt of the
//!   game writer and the match recorder waited 30 s. [`PgListener::refused`] probes the
//!   server's address while a write waits for a connection and answers only when it refuses;
//!   an address that does not answer at all still waits for sqlx (nothing tells a slow
//!   server from a lost one sooner). The probe opens a TCP connection and closes it without a
//!   byte, which PostgreSQL does not log.
//! - SQLite: the database file is created mode 0600 ([`create_private`]).

use std::path::PathBuf;
use std::str::FromStr as _;

use super::{REFUSED_PROBE_AFTER, REFUSED_PROBE_EVERY};

/// Where a PostgreSQL server listens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PgListener {
    Tcp { host: String, port: u16 },
    Unix(PathBuf),
}

impl PgListener {
    /// The address a `postgres://` URL connects to (`None` when it does not parse: sqlx
    /// reports that itself).
    pub(crate) fn of_url(url: &str) -> Option<PgListener> {
        let options = sqlx::postgres::PgConnectOptions::from_str(url).ok()?;
        let port = options.get_port();
        let host = options.get_host();
        Some(match options.get_socket() {
            Some(dir) => PgListener::Unix(dir.join(format!(".s.PGSQL.{port}"))),
            None if host.starts_with('/') => {
                PgListener::Unix(PathBuf::from(host).join(format!(".s.PGSQL.{port}")))
            }
            None => PgListener::Tcp {
                host: host.to_owned(),
                port,
            },
        })
    }

    /// Whether a connection to the server is refused now: `Some` with the error when it is;
    /// `None` when it connects, does not answer (yet), or its name does not resolve.
    pub(crate) async fn probe(&self) -> Option<std::io::Error> {
        let connect = async {
            match self {
                PgListener::Tcp { host, port } => {
                    tokio::net::TcpStream::connect((host.as_str(), *port))
                        .await
                        .map(drop)
                }
                #[cfg(unix)]
                PgListener::Unix(path) => tokio::net::UnixStream::connect(path).await.map(drop),
                #[cfg(not(unix))]
                PgListener::Unix(_) => Ok(()),
            }
        };
        let tried = tokio::time::timeout(REFUSED_PROBE_EVERY, connect)
            .await
            .ok()?;
        match tried {
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::NotFound
                ) =>
            {
                Some(e)
            }
            _ => None,
        }
    }

    /// Resolves once the server refuses a connection: probed after [`REFUSED_PROBE_AFTER`],
    /// then every [`REFUSED_PROBE_EVERY`]; never while it accepts (race it with the wait for a
    /// connection).
    pub(crate) async fn refused(&self) -> std::io::Error {
        tokio::time::sleep(REFUSED_PROBE_AFTER).await;
        loop {
            if let Some(refused) = self.probe().await {
                return refused;
            }
            tokio::time::sleep(REFUSED_PROBE_EVERY).await;
        }
    }
}

/// Creates the file of the SQLite database at `url`, mode 0600, when it does not exist (SQLite
/// creates its `-wal` and `-shm` files with the database file's mode). An in-memory database
/// has no file.
pub(crate) fn create_private(url: &str) -> std::io::Result<()> {
    if url.contains(":memory:") || url.contains("mode=memory") {
        return Ok(());
    }
    let Ok(options) = sqlx::sqlite::SqliteConnectOptions::from_str(url) else {
        return Ok(());
    };
    let path = options.get_filename();
    if path.as_os_str().is_empty() || path.exists() {
        return Ok(());
    }
    let mut open = std::fs::OpenOptions::new();
    open.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut open, 0o600);
    match open.open(path) {
        Ok(_) => Ok(()),
        // Created meanwhile by another process: SQLite opens it as it is.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests;
