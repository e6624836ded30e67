//! A server on a runtime of its own, in threads of its own, so that a test can count what the
//! server alone holds (its runtime's live tasks) while clients in the same process attack it.
//! Tests count work; they never compare CPU or wall time to a threshold.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, anyhow};
use minotty_server::Limits;
use tokio::sync::oneshot;

use crate::TestServer;

/// The name of every thread of the isolated server's runtime (at most 15 bytes: Linux cuts
/// thread names there).
pub const SERVER_THREAD: &str = "minotty-iso-srv";

/// A server whose runtime runs only its own tasks.
#[derive(Debug)]
pub struct IsolatedServer {
    pub addr: SocketAddr,
    runtime: tokio::runtime::Handle,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<anyhow::Result<()>>>,
    _dir: tempfile::TempDir,
}

impl IsolatedServer {
    /// Starts a server with `limits` on a two-thread runtime of its own.
    pub async fn start(limits: Limits) -> anyhow::Result<IsolatedServer> {
        let dir = tempfile::tempdir().context("creating a temporary directory")?;
        let path = dir.path().to_owned();
        let (ready_tx, ready_rx) =
            oneshot::channel::<anyhow::Result<(SocketAddr, tokio::runtime::Handle)>>();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(SERVER_THREAD.into())
            .spawn(move || -> anyhow::Result<()> {
                let rt = tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .thread_name(SERVER_THREAD)
                    .enable_all()
                    .build()?;
                rt.block_on(async move {
                    let (addr, stop_server, task) = match TestServer::launch_with(
                        &path,
                        limits,
                        minotty_tbp::frontend::TbpBots::default(),
                    )
                    .await
                    {
                        Ok(started) => started,
                        Err(e) => {
                            let _ = ready_tx.send(Err(anyhow!("{e:#}")));
                            return Ok(());
                        }
                    };
                    let _ = ready_tx.send(Ok((addr, tokio::runtime::Handle::current())));
                    let _ = stopped.await;
                    let _ = stop_server.send(());
                    tokio::time::timeout(Duration::from_secs(30), task)
                        .await
                        .context("server did not stop in time")???;
                    Ok(())
                })
            })?;
        let (addr, runtime) = ready_rx.await.context("server thread ended")??;
        Ok(IsolatedServer {
            addr,
            runtime,
            stop: Some(stop),
            thread: Some(thread),
            _dir: dir,
        })
    }

    /// Tasks alive in the server's runtime (the server's own and russh's session tasks).
    pub fn tasks_alive(&self) -> usize {
        self.runtime.metrics().num_alive_tasks()
    }

    /// Stops the server and waits for its thread.
    pub fn stop(mut self) -> anyhow::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take() {
            Some(thread) => thread
                .join()
                .map_err(|_| anyhow!("server thread panicked"))?,
            None => Ok(()),
        }
    }
}
