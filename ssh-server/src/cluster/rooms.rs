//! The cluster as the hub sees it: [`RemoteRooms`], what versus needs from other instances.

use std::net::IpAddr;
use std::sync::atomic::Ordering;

use super::Cluster;
use super::wire::ToProxy;
use crate::versus::{Member, MemberId, QueueAction, RemoteJoin, RemoteRooms};

impl RemoteRooms for Cluster {
    fn code_prefix(&self) -> Option<u8> {
        match self.prefix.load(Ordering::Relaxed) {
            0 => None,
            b => Some(b),
        }
    }

    fn is_draining(&self) -> bool {
        Cluster::is_draining(self)
    }

    fn is_remote_member(&self, id: MemberId) -> bool {
        self.is_proxy(id)
    }

    fn leads_queue(&self) -> bool {
        self.is_leader()
    }

    fn join(&self, join: RemoteJoin, failed: Box<dyn FnOnce() + Send>) {
        if let Some(me) = self.this.upgrade() {
            me.join_remote(join, failed);
        }
    }

    fn queue_join(&self, member: Member, address: Option<IpAddr>, watchable: bool) {
        if let Some(me) = self.this.upgrade() {
            Cluster::queue_join(&me, member, address, watchable);
        }
    }

    fn to_queue(&self, id: MemberId, action: QueueAction) -> bool {
        let msg = match action {
            QueueAction::Cancel => ToProxy::QueueCancel,
            QueueAction::AcceptBot => ToProxy::AcceptBot,
            QueueAction::DeclineBot => ToProxy::DeclineBot,
        };
        self.this
            .upgrade()
            .is_some_and(|me| Cluster::to_queue(&me, id, msg))
    }

    fn stop(&self) {
        self.stop.cancel();
        self.tasks.close();
    }
}
