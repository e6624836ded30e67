//! End-to-end test helpers: a minotty server on `127.0.0.1:0` with its own temporary database
//! and host key, and a russh client that plays through a PTY whose output is read with the
//! `vt100` terminal emulator, the way a player's terminal would show it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, bail};
use minotty_server::{HostKey, Limits, ServerConfig};
use minotty_store::Store;
use minotty_tbp::frontend::TbpBots;
use russh::client::{self, Handle, Msg};
use russh::keys::{Algorithm, PrivateKey, PrivateKeyWithHashAlg};
use russh::{Channel, ChannelMsg, Disconnect};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub mod across;
pub mod autoplay;
pub mod board;
pub mod browser;
pub mod cluster;
pub mod faults;
pub mod fuzz;
pub mod isolated;
pub mod keys;
pub mod menu;
pub mod peer;
pub mod postgres;
pub mod procfs;
mod pty;
pub mod relay;
pub mod rows;
pub mod series;
pub mod serve;
pub mod slots;
pub mod teams;
pub mod tmux;
pub mod versus;

pub use pty::{PtySession, WELCOME};

/// A client's private key, shared by the connections that use it.
pub type Key = Arc<PrivateKey>;

/// How long helpers wait for something to appear by default.
pub const WAIT: Duration = Duration::from_secs(10);

/// A server running inside the test process.
#[derive(Debug)]
pub struct TestServer {
    pub addr: SocketAddr,
    limits: Limits,
    tbp: TbpBots,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<anyhow::Result<()>>>,
    dir: tempfile::TempDir,
}

impl TestServer {
    /// Starts a server with default limits.
    pub async fn start() -> anyhow::Result<TestServer> {
        TestServer::start_with(Limits::default()).await
    }

    /// Starts a server with `limits`, a fresh host key file and a fresh SQLite database.
    pub async fn start_with(limits: Limits) -> anyhow::Result<TestServer> {
        TestServer::start_with_tbp(limits, TbpBots::default()).await
    }

    /// The same, with the Tetris Bot Protocol bots `tbp` configured.
    pub async fn start_with_tbp(limits: Limits, tbp: TbpBots) -> anyhow::Result<TestServer> {
        let dir = tempfile::tempdir().context("creating a temporary directory")?;
        let (addr, stop, task) =
            TestServer::launch_with(dir.path(), limits.clone(), tbp.clone()).await?;
        Ok(TestServer {
            addr,
            limits,
            tbp,
            stop: Some(stop),
            task: Some(task),
            dir,
        })
    }

    /// Starts a server on the host key and database in `dir` (created when missing), with the
    /// TBP bots `tbp`.
    pub(crate) async fn launch_with(
        dir: &std::path::Path,
        limits: Limits,
        tbp: TbpBots,
    ) -> anyhow::Result<(
        SocketAddr,
        oneshot::Sender<()>,
        JoinHandle<anyhow::Result<()>>,
    )> {
        let (host_key, _) = HostKey::load_or_generate(&dir.join("host_key"))?;
        let store = Store::open(&format!("sqlite://{}", dir.join("minotty.db").display())).await?;
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = oneshot::channel::<()>();
        let config = ServerConfig {
            host_key,
            limits,
            store: Some(store),
            tbp,
            cluster: None,
            spool: None,
            web: None,
        };
        let task = tokio::spawn(minotty_server::run(listener, config, async {
            let _ = stopped.await;
        }));
        Ok((addr, stop, task))
    }

    /// Stops the server and starts a new one on the same host key and database (the address
    /// changes: the new server listens on a new port).
    pub async fn restart(&mut self) -> anyhow::Result<()> {
        self.stop(Duration::from_secs(30)).await?;
        let (addr, stop, task) =
            TestServer::launch_with(self.dir.path(), self.limits.clone(), self.tbp.clone()).await?;
        self.addr = addr;
        self.stop = Some(stop);
        self.task = Some(task);
        Ok(())
    }

    /// The server's database, opened beside it (e.g. to check what was stored).
    pub async fn store(&self) -> anyhow::Result<Store> {
        Ok(Store::open(&format!(
            "sqlite://{}",
            self.dir.path().join("minotty.db").display()
        ))
        .await?)
    }

    /// Whether the server task is still running.
    pub fn is_running(&self) -> bool {
        self.task.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Asks the server to shut down and waits for it (at most `within`).
    pub async fn stop(&mut self, within: Duration) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            tokio::time::timeout(within, task)
                .await
                .context("server did not stop in time")???;
        }
        Ok(())
    }
}

/// The test client's russh handler: trusts any host key (the server's is fresh each test).
#[derive(Debug, Default)]
pub struct ClientHandler;

impl client::Handler for ClientHandler {
    type Error = russh::Error;

    async fn check_server_key(
        &mut self,
        _key: &russh::keys::PublicKeyOrCertificate,
    ) -> Result<bool, Self::Error> {
        Ok(true)
    }
}

/// How a test client logs in.
#[derive(Clone, Debug)]
pub enum Login {
    /// A fresh random ed25519 key.
    Key,
    /// This key (the same player on several connections).
    With(Key),
    /// keyboard-interactive, as a client without keys does.
    Guest,
}

/// A new random ed25519 key, for [`Login::With`].
pub fn new_key() -> Key {
    Arc::new(PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519).expect("a random key"))
}

/// An authenticated SSH connection.
pub struct Connection {
    pub handle: Handle<ClientHandler>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection").finish_non_exhaustive()
    }
}

pub fn client_config() -> Arc<client::Config> {
    Arc::new(client::Config {
        nodelay: true,
        inactivity_timeout: None,
        ..client::Config::default()
    })
}

impl Connection {
    /// Connects to `addr` and logs in as `user`.
    pub async fn open(addr: SocketAddr, user: &str, login: Login) -> anyhow::Result<Connection> {
        Connection::open_with(client_config(), addr, user, login).await
    }

    pub async fn open_with(
        config: Arc<client::Config>,
        addr: SocketAddr,
        user: &str,
        login: Login,
    ) -> anyhow::Result<Connection> {
        let mut handle = client::connect(config, addr, ClientHandler)
            .await
            .context("connecting")?;
        let ok = match login {
            Login::Key | Login::With(_) => {
                let key = match login {
                    Login::With(key) => key,
                    _ => Arc::new(PrivateKey::random(&mut rand::rng(), Algorithm::Ed25519)?),
                };
                let key = PrivateKeyWithHashAlg::new(key, None);
                handle.authenticate_publickey(user, key).await?.success()
            }
            Login::Guest => matches!(
                handle
                    .authenticate_keyboard_interactive_start(user, None)
                    .await?,
                client::KeyboardInteractiveAuthResponse::Success
            ),
        };
        if !ok {
            bail!("login as {user:?} refused");
        }
        Ok(Connection { handle })
    }

    /// Opens a session with a PTY of `cols` x `rows` and starts the shell (the game).
    pub async fn play(&self, cols: u16, rows: u16) -> anyhow::Result<PtySession> {
        let channel = self.handle.channel_open_session().await?;
        channel
            .request_pty(false, "xterm-256color", cols.into(), rows.into(), 0, 0, &[])
            .await?;
        channel.request_shell(false).await?;
        Ok(PtySession::new(channel, cols, rows))
    }

    /// Like [`Connection::play`], after sending environment variables (`SendEnv`); says which
    /// of them the server kept (answered with success).
    pub async fn play_with_env(
        &self,
        cols: u16,
        rows: u16,
        env: &[(&str, &str)],
    ) -> anyhow::Result<(PtySession, Vec<bool>)> {
        let mut channel = self.handle.channel_open_session().await?;
        let mut kept = Vec::new();
        for (name, value) in env {
            channel.set_env(true, *name, *value).await?;
            let answer = loop {
                match tokio::time::timeout(WAIT, channel.wait()).await? {
                    Some(ChannelMsg::Success) => break true,
                    Some(ChannelMsg::Failure) => break false,
                    Some(_) => {}
                    None => bail!("the channel closed"),
                }
            };
            kept.push(answer);
        }
        channel
            .request_pty(false, "xterm-256color", cols.into(), rows.into(), 0, 0, &[])
            .await?;
        channel.request_shell(false).await?;
        Ok((PtySession::new(channel, cols, rows), kept))
    }

    /// Runs the exec command `command` with a PTY and plays it like a game (`doctor`, `join`).
    pub async fn run_with_pty(
        &self,
        cols: u16,
        rows: u16,
        command: &str,
    ) -> anyhow::Result<PtySession> {
        let channel = self.handle.channel_open_session().await?;
        channel
            .request_pty(false, "xterm-256color", cols.into(), rows.into(), 0, 0, &[])
            .await?;
        channel.exec(false, command).await?;
        Ok(PtySession::new(channel, cols, rows))
    }

    /// Runs an exec request (with or without a PTY) to its end.
    pub async fn exec(&self, command: &str, pty: bool) -> anyhow::Result<Output> {
        let channel = self.handle.channel_open_session().await?;
        if pty {
            channel
                .request_pty(false, "xterm", 80, 24, 0, 0, &[])
                .await?;
        }
        channel.exec(true, command).await?;
        collect(channel).await
    }

    /// Starts a shell without a PTY and collects what it says.
    pub async fn shell_without_pty(&self) -> anyhow::Result<Output> {
        let channel = self.handle.channel_open_session().await?;
        channel.request_shell(true).await?;
        collect(channel).await
    }

    pub async fn close(self) {
        let _ = self
            .handle
            .disconnect(Disconnect::ByApplication, "bye", "")
            .await;
    }
}

/// What a command printed and its exit status.
#[derive(Debug, Default)]
pub struct Output {
    pub stdout: String,
    pub stderr: String,
    pub status: Option<u32>,
    /// Whether the server refused the request (channel failure).
    pub refused: bool,
}

async fn collect(mut channel: Channel<Msg>) -> anyhow::Result<Output> {
    let mut out = Output::default();
    let deadline = tokio::time::Instant::now() + WAIT;
    loop {
        let msg = tokio::time::timeout_at(deadline, channel.wait())
            .await
            .context("command did not end in time")?;
        match msg {
            Some(ChannelMsg::Data { data }) => out.stdout.push_str(&String::from_utf8_lossy(&data)),
            Some(ChannelMsg::ExtendedData { data, .. }) => {
                out.stderr.push_str(&String::from_utf8_lossy(&data));
            }
            Some(ChannelMsg::ExitStatus { exit_status }) => out.status = Some(exit_status),
            Some(ChannelMsg::Failure) => out.refused = true,
            Some(ChannelMsg::Close) | None => return Ok(out),
            Some(_) => {}
        }
    }
}
