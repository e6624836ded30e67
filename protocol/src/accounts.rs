//! Who the player is and their account: the identity a front end starts the App with, the
//! account's keys.

#[cfg(doc)]
use crate::{Request, Response};

/// Who the player is, as the front end knows at connection time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Identity {
    /// No server at all (`minotty play`): online features say they are offline.
    #[default]
    Offline,
    /// Connected without a key: plays everything but the leaderboards, nothing is stored.
    Guest,
    /// A key the server has not seen: the welcome screen asks for a player name (or links the
    /// key to an existing account with its password). `suggested` is the SSH user name.
    NewKey { suggested: String },
    /// A registered player.
    Registered { name: String, has_password: bool },
    /// A key whose account could not be looked up at login (the server's database did not
    /// answer): the player waits for it ([`Request::RetryAccount`]) or plays as a guest for
    /// now; nothing is stored under this identity. `suggested` is the SSH user name (the
    /// welcome screen's, should the key turn out to be new).
    Unreachable { suggested: String },
    /// `minotty play` with a save file: no server, but the front end keeps the player's
    /// settings, a scoreboard of finished games and their replays, and answers the requests
    /// for them (leaderboard pages of the player's own games, the profile, replays). Accounts
    /// and versus still need a server.
    Local { name: String },
}

impl Identity {
    /// Whether finished games and settings are kept (by a server or a local save file).
    pub fn keeps_records(&self) -> bool {
        matches!(self, Identity::Registered { .. } | Identity::Local { .. })
    }

    /// Whether there is no server to talk to (accounts and versus say so).
    pub fn without_server(&self) -> bool {
        matches!(self, Identity::Offline | Identity::Local { .. })
    }
}

/// One key of the account.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyView {
    /// `SHA256:...`
    pub fingerprint: String,
    /// `ssh-ed25519`, `ssh-rsa`, ...; empty when not known (keys stored before it was kept).
    pub algorithm: String,
    /// Unix ms.
    pub added_at: i64,
    pub last_used_at: Option<i64>,
    /// The key of this connection (cannot be removed).
    pub in_use: bool,
}
