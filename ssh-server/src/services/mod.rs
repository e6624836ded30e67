//! The services a session's App talks to (see `minotty_protocol`): accounts, leaderboards,
//! profile and replays (`account.rs`, over the store) and versus rooms and matchmaking
//! (`versus.rs`). The session task drains the App's requests into [`Services::handle`] and
//! feeds every [`Response`] that arrives on the receiver back with `App::deliver`.
//!
//! Nothing here blocks the session: database work and room messages run in their own tasks
//! and answer through the response channel.

pub mod account;
pub mod versus;

use minotty_domain::{AccountRef, ClientAddr, DisplayName, KeyFingerprint, PlayerId};
use minotty_ui::{Request, Response};
use tokio::sync::{mpsc, watch};

use crate::versus::RESPONSE_QUEUE;

/// What is shared by all sessions: the store, the game writer, the rooms.
#[derive(Debug, Default)]
pub struct SharedServices {
    pub account: account::SharedAccounts,
    pub versus: versus::SharedVersus,
}

/// Who a session is, as the handler found out at login.
#[derive(Clone, Debug)]
pub struct Who {
    /// The name other players see while the session has no account: the SSH user name made
    /// safe to draw and marked as a guest's (`~ada`, see [`Login::public_name`]), so that a
    /// guest never shows with a registered player's name.
    pub ssh_user: String,
    /// The key the client logged in with, or a guest.
    pub identity: Identity,
    pub peer: ClientAddr,
    /// The registered account of this session, kept current by the account client (a new
    /// key registers or links during the session); `None` for guests and unregistered keys.
    pub account: watch::Receiver<Option<AccountRef>>,
}

/// Who a session's player is, as the front end that admitted them can tell: what parked games,
/// reconnects, kept lobby seats and the account screens key on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity {
    /// An SSH public key: `SHA256:...` and its algorithm (`ssh-ed25519`, ...), stored with it
    /// when it registers or links.
    Key {
        fingerprint: KeyFingerprint,
        algorithm: String,
    },
    /// A browser linked to a registered account (a one-time code from `ssh HOST web`, then
    /// its cookie): the account it plays as.
    Web { account: PlayerId },
    /// A guest (keyboard-interactive SSH, a browser not linked): nothing to recognise them by
    /// when they come back.
    Guest,
}

impl Identity {
    /// The key `fingerprint` of `algorithm`, or a guest without one.
    pub fn of_key(fingerprint: Option<KeyFingerprint>, algorithm: &str) -> Identity {
        match fingerprint {
            Some(fingerprint) => Identity::Key {
                fingerprint,
                algorithm: algorithm.to_owned(),
            },
            None => Identity::Guest,
        }
    }

    /// The key's fingerprint (`None`: a guest).
    pub fn fingerprint(&self) -> Option<&KeyFingerprint> {
        match self {
            Identity::Key { fingerprint, .. } => Some(fingerprint),
            Identity::Web { .. } | Identity::Guest => None,
        }
    }

    /// What of it a live session holds that can be taken away: the key (removed from its
    /// account), the linked browser (unlinked); nothing for a guest.
    pub fn holder(&self) -> Option<account::Holder> {
        match self {
            Identity::Key { fingerprint, .. } => Some(account::Holder::Key(fingerprint.clone())),
            Identity::Web { account } => Some(account::Holder::Browsers(*account)),
            Identity::Guest => None,
        }
    }

    /// Whether a returning player can be recognised by it (a key or a linked browser: their
    /// parked games and kept seats wait for them).
    pub fn is_known(&self) -> bool {
        !matches!(self, Identity::Guest)
    }
}

/// What the handler knows at login, before the session starts.
#[derive(Clone, Debug)]
pub struct Login {
    /// The SSH user name, sanitised for display (a [`DisplayName`]).
    pub ssh_user: String,
    /// The key the client logged in with (its algorithm as the client offered it), or a guest.
    pub identity: Identity,
    pub peer: ClientAddr,
    /// The account the key belongs to, looked up at login.
    pub account: Option<AccountRef>,
}

impl Login {
    /// The name others see for this session while it has no account (guests, and keys not
    /// registered yet): the SSH user name through the name allowlist, marked as a guest's.
    pub fn public_name(&self) -> String {
        DisplayName::parse_or_guest(&self.ssh_user).for_guest()
    }
}

/// One session's services.
#[derive(Debug)]
pub struct Services {
    tx: mpsc::Sender<Response>,
    pub account: account::AccountClient,
    pub versus: versus::VersusClient,
    /// The Live screen's lists and watching (the directory is the hub's).
    pub live: crate::live::LiveClient,
}

impl Services {
    pub fn new(shared: &SharedServices, login: Login) -> (Services, mpsc::Receiver<Response>) {
        let (tx, rx) = mpsc::channel(RESPONSE_QUEUE);
        let (account_tx, account_rx) = watch::channel(login.account.clone());
        let who = Who {
            ssh_user: login.public_name(),
            identity: login.identity,
            peer: login.peer,
            account: account_rx,
        };
        let services = Services {
            account: account::AccountClient::new(
                &shared.account,
                who.clone(),
                login.ssh_user,
                account_tx,
                tx.clone(),
            ),
            versus: versus::VersusClient::new(&shared.versus, who, tx.clone()),
            live: crate::live::LiveClient::new(shared.versus.hub().live.clone(), tx.clone()),
            tx,
        };
        (services, rx)
    }

    /// Carries out one request of the App; the answer comes later on the receiver.
    pub fn handle(&mut self, request: Request) {
        match request {
            Request::Register { .. }
            | Request::LinkKey { .. }
            | Request::SetPassword { .. }
            | Request::SaveSettings(_)
            | Request::ListKeys
            | Request::RemoveKey { .. }
            | Request::UnlinkBrowsers
            | Request::Leaderboard { .. }
            | Request::Profile
            | Request::Replay { .. }
            | Request::Ghost(_)
            | Request::MatchReplay { .. }
            | Request::SaveSnapshot { .. }
            | Request::ListSnapshots
            | Request::DeleteSnapshot { .. }
            | Request::PuzzleProgress
            | Request::Bests
            | Request::PuzzleCleared { .. }
            | Request::RetryAccount => self.account.handle(request),
            Request::QuickMatch
            | Request::CancelQuickMatch
            | Request::CreateRoom(_)
            | Request::JoinRoom { .. }
            | Request::SpectateLive { .. }
            | Request::LeaveRoom
            | Request::Room(_)
            | Request::OpenRooms
            | Request::AcceptBotMatch
            | Request::DeclineBotMatch
            | Request::JoinClimb => self.versus.handle(request),
            Request::LiveList | Request::WatchLive { .. } | Request::StopWatching => {
                self.live.handle(request)
            }
            // The session task runs the terminal doctor itself (it owns the terminal); one
            // that reaches here has no one to ask.
            Request::RunDoctor => {
                let _ = self.tx.try_send(Response::Offline);
            }
        }
    }

    /// A sender for responses that do not answer a request (e.g. a room's news).
    pub fn responder(&self) -> mpsc::Sender<Response> {
        self.tx.clone()
    }
}
