//! Where a session's bytes go: the SSH channel in the server, an in-memory recorder in the
//! shell's tests. The only IO a session does besides reading its events.

use std::future::Future;
use std::pin::Pin;

use russh::ChannelId;
use russh::server::Handle;

/// A future a [`Client`] returns (owned, so that a write can stay in flight across turns).
pub(crate) type ClientFuture<T> = Pin<Box<dyn Future<Output = T> + Send>>;

/// The client's end of a session.
pub(crate) trait Client: Send + Sync + std::fmt::Debug {
    /// Writes `bytes`; `Err` when the channel is gone.
    fn data(&self, bytes: Vec<u8>) -> ClientFuture<Result<(), ()>>;
    /// Ends the channel: an exit status, EOF and close (each best effort).
    fn close(&self, exit_status: u32) -> ClientFuture<()>;
}

/// An SSH channel of a connection.
#[derive(Clone, Debug)]
pub(crate) struct SshChannel {
    pub handle: Handle,
    pub channel: ChannelId,
}

impl Client for SshChannel {
    fn data(&self, bytes: Vec<u8>) -> ClientFuture<Result<(), ()>> {
        let (handle, channel) = (self.handle.clone(), self.channel);
        Box::pin(async move { handle.data(channel, bytes).await.map_err(|_| ()) })
    }

    fn close(&self, exit_status: u32) -> ClientFuture<()> {
        let (handle, channel) = (self.handle.clone(), self.channel);
        Box::pin(async move {
            let _ = handle.exit_status_request(channel, exit_status).await;
            let _ = handle.eof(channel).await;
            let _ = handle.close(channel).await;
        })
    }
}
