//! What versus needs from other instances (`--nats`): [`RemoteRooms`], which the cluster
//! (`crate::cluster`) implements and the hub is given at construction. Versus never names the
//! cluster; the cluster reaches this instance's rooms and queue only through what the hub
//! exposes (its registry, claims, queue and watchers), handed to it when it starts listening.
//! Without a cluster the hub has no `RemoteRooms` and every room and queue place is local.

use std::fmt::Debug;
use std::net::IpAddr;
use std::sync::Arc;

use minotty_domain::RoomCode;

use super::{Hub, Member, MemberId};

/// What this instance's players are told when a drain (SIGTERM with `--nats`) takes them out
/// of a queue or a room, or refuses them something new.
pub const RECONNECT: &str = "This server is restarting: reconnect (you will land on another \
                             server) to play on.";

/// What a session waiting in the queue of another instance (the queue's leader) asks there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueAction {
    /// Out of the queue.
    Cancel,
    /// Takes the bot match it was offered.
    AcceptBot,
    /// Keeps waiting for a person.
    DeclineBot,
}

/// A session of this instance asking for a room of another instance (or to spectate it).
#[derive(Clone, Debug)]
pub struct RemoteJoin {
    pub member: Member,
    pub code: RoomCode,
    pub spectate: bool,
    /// The player lets others watch their games.
    pub watchable: bool,
}

/// Rooms and the ranked queue on other instances, as the hub and the sessions use them.
pub trait RemoteRooms: Send + Sync + Debug {
    /// The first character of this instance's room codes (`None`: any), unlike every other
    /// live instance's; it may change while instances come and go.
    fn code_prefix(&self) -> Option<u8>;

    /// Whether this instance drains: nothing new starts here.
    fn is_draining(&self) -> bool;

    /// Whether `id` is a member of another instance seated here (its game is reported by that
    /// instance).
    fn is_remote_member(&self, id: MemberId) -> bool;

    /// Whether this instance leads the ranked queue (otherwise its players queue at the
    /// leader, through [`RemoteRooms::queue_join`]).
    fn leads_queue(&self) -> bool;

    /// A session of this instance joins a room of another instance (or spectates it). The
    /// answer comes to the member; `failed` is called when no instance has the room.
    fn join(&self, join: RemoteJoin, failed: Box<dyn FnOnce() + Send>);

    /// `member`, from `address`, waits in the queue of the leader elsewhere.
    fn queue_join(&self, member: Member, address: Option<IpAddr>, watchable: bool);

    /// Sends `action` for the session `id` to the leader's queue, if it waits there; `false`
    /// when it does not (this instance's queue handles it).
    fn to_queue(&self, id: MemberId, action: QueueAction) -> bool;

    /// The hub shuts down: every task of the remote side ends.
    fn stop(&self);
}

impl Hub {
    /// The other instances, with `--nats` (`None`: a single instance).
    pub fn remote(&self) -> Option<&Arc<dyn RemoteRooms>> {
        self.remote.as_ref()
    }

    /// The same hub reaching the other instances through `remote` (before it is shared).
    pub fn with_remote(self, remote: Option<Arc<dyn RemoteRooms>>) -> Hub {
        Hub { remote, ..self }
    }

    /// Reaches the other instances through `remote` (before the hub is shared).
    pub fn set_remote(&mut self, remote: Option<Arc<dyn RemoteRooms>>) {
        self.remote = remote;
    }

    /// Whether this instance drains (SIGTERM with `--nats`): nothing new starts here, neither
    /// for its own players nor in its rooms (`cluster/drain.rs`).
    pub fn is_draining(&self) -> bool {
        self.remote.as_ref().is_some_and(|r| r.is_draining())
    }

    /// Whether `id` is a member of another instance, seated here.
    pub fn is_remote_member(&self, id: MemberId) -> bool {
        self.remote.as_ref().is_some_and(|r| r.is_remote_member(id))
    }
}
