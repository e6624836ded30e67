//! [`AccountRef`]: a registered player as a session knows them (the services look it up at
//! login and keep it current; rooms, the queue and the cluster carry it with the member).

use crate::PlayerId;

/// A registered player: the account's id and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRef {
    pub id: PlayerId,
    pub name: String,
}
