//! The gate every message of another instance passes before the cluster acts on it: its seal
//! ([`super::auth`]), then what its sender may say (its own id only, subject parts that are
//! [`valid_part`]s, an instance that is alive). What fails is dropped and counted
//! ([`super::checks`]), never acted on.

use super::checks::{self, DropReason, valid_part};
use super::wire::{self, JoinReq, ToMember};
use super::{Cluster, lock};

impl Cluster {
    /// Whether `id` is a proxy here: a member of another instance, whose game that instance
    /// reports (a ranked result resting on it is verified before it is rated).
    pub fn is_proxy(&self, id: crate::versus::MemberId) -> bool {
        lock(&self.proxies).contains_key(&id)
    }

    /// `body` sealed for `subject` by this instance.
    pub(super) fn seal(&self, subject: &str, body: &[u8]) -> Vec<u8> {
        self.auth.seal(subject, body, minotty_store::unix_now())
    }

    /// The sender and payload of `msg` when its seal holds; `None` (counted) otherwise.
    pub(super) fn open(&self, msg: &async_nats::Message) -> Option<(String, Vec<u8>)> {
        if msg.payload.len() > 1 << 20 {
            checks::dropped(DropReason::Malformed, &msg.subject);
            return None;
        }
        let now = tokio::time::Instant::now();
        match self
            .auth
            .open(&msg.subject, &msg.payload, minotty_store::unix_now(), now)
        {
            Ok(o) => Some((o.sender.to_owned(), o.body.to_vec())),
            Err(why) => {
                checks::dropped(why, &msg.subject);
                None
            }
        }
    }

    /// A join (by code, or to the queue) that `sender` sent for one of its own sessions.
    pub(super) fn join_from(&self, sender: &str, subject: &str, body: &[u8]) -> Option<JoinReq> {
        let Some(req) = wire::decode::<JoinReq>(subject, body) else {
            checks::dropped(DropReason::Malformed, subject);
            return None;
        };
        if !valid_part(&req.inst) {
            checks::dropped(DropReason::BadSubjectPart, subject);
            return None;
        }
        if req.inst != sender {
            checks::dropped(DropReason::Malformed, subject);
            return None;
        }
        // A member of an instance not known alive would be swept at once.
        if !lock(&self.peers).contains_key(sender) {
            checks::dropped(DropReason::UnknownPeer, subject);
            return None;
        }
        Some(req)
    }

    /// What `sender` tells a session of this instance; a `Linked` only to a room of its own.
    pub(super) fn to_member_from(
        &self,
        sender: &str,
        subject: &str,
        body: &[u8],
    ) -> Option<ToMember> {
        // A room code that is not one (as this server writes them) does not decode: the
        // message is malformed.
        let Some(m) = wire::decode::<ToMember>(subject, body) else {
            checks::dropped(DropReason::Malformed, subject);
            return None;
        };
        if let ToMember::Linked { inst, .. } = &m {
            if !valid_part(inst) {
                checks::dropped(DropReason::BadSubjectPart, subject);
                return None;
            }
            if inst != sender {
                checks::dropped(DropReason::Malformed, subject);
                return None;
            }
        }
        Some(m)
    }
}
