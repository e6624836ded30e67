//! A session for a front end that is not SSH (the browser's terminal, `minotty-web`): the same
//! [`super::start`] as an SSH channel, the same App, input budget and frame encoder, with the
//! client's end as two bounded channels. The front end writes the player's bytes, window
//! changes and its end into a [`Remote`], and reads what the session writes back.

use std::net::SocketAddr;
use std::sync::Arc;

use minotty_domain::{AccountRef, ClientAddr, DisplayName};
use tokio::sync::{mpsc, watch};

use super::client::{Client, ClientFuture};
use super::{DoctorParams, SessionEvent, SessionKind, Start};
use crate::core::shared::Shared;
use crate::services::Identity;
use crate::terminal::TermEnv;

/// What the session's writes queue for the front end, at most (each write waits for room, as
/// an SSH channel's window makes it wait).
pub const OUTPUT_QUEUE: usize = 16;

/// What the session writes.
#[derive(Debug, PartialEq, Eq)]
pub enum Output {
    Bytes(Vec<u8>),
    /// The session ended with this exit status; nothing follows.
    Closed(u32),
}

/// Opens sessions for the front end (cheap to clone: the core's shared state).
#[derive(Clone, Debug)]
pub struct Opener {
    shared: Arc<Shared>,
}

/// Who opens a remote session and on what.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The name asked for (made safe here; a guest's name without one).
    pub name: String,
    pub peer: SocketAddr,
    /// The terminal's size, columns and rows (the session clamps it as an SSH window's).
    pub size: (u32, u32),
    /// The terminal's `TERM` (the doctor reports it).
    pub term: String,
    /// The terminal draws 24-bit colour.
    pub truecolor: bool,
}

/// An open remote session: its input, its window's size, its output.
#[derive(Debug)]
pub struct Remote {
    pub input: mpsc::Sender<SessionEvent>,
    pub size: watch::Sender<(u32, u32)>,
    pub output: mpsc::Receiver<Output>,
}

/// The session's end of the output queue.
#[derive(Debug)]
struct Channel(mpsc::Sender<Output>);

impl Client for Channel {
    fn data(&self, bytes: Vec<u8>) -> ClientFuture<Result<(), ()>> {
        let tx = self.0.clone();
        Box::pin(async move { tx.send(Output::Bytes(bytes)).await.map_err(|_| ()) })
    }

    fn close(&self, exit_status: u32) -> ClientFuture<()> {
        let tx = self.0.clone();
        Box::pin(async move {
            let _ = tx.send(Output::Closed(exit_status)).await;
        })
    }
}

impl crate::Core {
    /// What opens sessions for a front end beside SSH.
    pub fn opener(&self) -> Opener {
        Opener {
            shared: Arc::clone(&self.shared),
        }
    }
}

impl Opener {
    /// A guest's session of `opening`, on the core's task tracker like every session.
    pub fn open_guest(&self, opening: Opening) -> Remote {
        self.open(opening, None)
    }

    /// The session of `opening` for `account` (a browser linked to it, `Identity::Web`), or
    /// for a guest without one.
    pub fn open(&self, opening: Opening, account: Option<AccountRef>) -> Remote {
        let (out, output) = mpsc::channel(OUTPUT_QUEUE);
        let (size, window) = watch::channel(opening.size);
        let env = TermEnv {
            colorterm: opening.truecolor.then(|| "truecolor".to_owned()),
            ..TermEnv::default()
        };
        let start = Start {
            player: DisplayName::parse_or_guest(match &account {
                Some(a) => a.name.as_str(),
                None => opening.name.as_str(),
            }),
            identity: account
                .as_ref()
                .map_or(Identity::Guest, |a| Identity::Web { account: a.id }),
            peer: ClientAddr::new(opening.peer.ip()),
            account,
            kind: SessionKind::Play,
            doctor: DoctorParams {
                term: Some(opening.term),
                ssh_client: None,
                open: false,
            },
            local: None,
            initial: None,
        };
        let input = super::start(&self.shared, start, Arc::new(Channel(out)), window, env, ());
        Remote {
            input,
            size,
            output,
        }
    }
}
