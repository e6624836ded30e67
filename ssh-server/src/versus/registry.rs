//! The room registry: this instance's rooms by code, how a room is opened (a private room,
//! a ranked pair's, a battle against a bot), and wrong room codes per source address.

use std::sync::Arc;

use minotty_domain::RoomCode;
use minotty_engine::rating::Rating;
use minotty_protocol::RoomSettings;
use tokio::sync::mpsc;
use tokio::time::Instant;

use super::{Hub, Member, RankedClaim, RoomLink, RoomMsg, code, lock, room};

impl Hub {
    /// The room with this code.
    pub fn room(&self, code: &RoomCode) -> Option<RoomLink> {
        lock(&self.rooms).get(code).map(|tx| RoomLink {
            code: code.clone(),
            tx: tx.clone(),
            tasks: self.tasks.clone(),
        })
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        lock(&self.rooms).len()
    }

    /// Creates a room with `players` (the first hosts a private room) and starts its task;
    /// a ranked room holds the players' `claims` until its match ends. `None` when no free
    /// code was found.
    pub fn create_room(
        self: &Arc<Self>,
        options: RoomSettings,
        ranked: bool,
        players: Vec<(Member, Option<Rating>)>,
        claims: Vec<RankedClaim>,
    ) -> Option<RoomLink> {
        room::spawn(Arc::clone(self), options, ranked, players, claims, None)
    }

    /// Starts an unranked 1v1 battle of `member` against a bot of `level` at once (the
    /// quick match's offer). `Err` says why not (no bot free, no room code).
    pub fn create_bot_match(
        self: &Arc<Self>,
        member: Member,
        level: minotty_bots::versus::Level,
    ) -> Result<RoomLink, String> {
        let address = member.address.map(minotty_domain::ClientAddr::key);
        let guard = self.bots.claim(address).map_err(|full| match full {
            crate::shares::Full::Pool => {
                "Every bot of the server is busy right now: still looking for a person.".to_owned()
            }
            crate::shares::Full::Address => "Your address has as many bots playing as one \
                                             address may: still looking for a person."
                .to_owned(),
        })?;
        let options = RoomSettings::new(
            minotty_engine::versus::MatchKind::Battle,
            2,
            minotty_protocol::RoomLimit::None,
        );
        room::spawn(
            Arc::clone(self),
            options,
            false,
            vec![(member, None)],
            Vec::new(),
            Some((level, guard)),
        )
        .ok_or_else(|| "The server has no free room: try again.".to_owned())
    }

    /// Reserves a fresh code for `tx`.
    pub(super) fn register(&self, tx: &mpsc::Sender<RoomMsg>) -> Option<RoomCode> {
        let mut rooms = lock(&self.rooms);
        let first = self.remote.as_ref().and_then(|r| r.code_prefix());
        for _ in 0..64 {
            let code = code::random_with(first);
            if !rooms.contains_key(&code) && code.as_str() != super::climb::CLIMB_CODE {
                rooms.insert(code.clone(), tx.clone());
                return Some(code);
            }
        }
        None
    }

    /// Reserves `code` for `tx`, if it is free.
    pub(super) fn register_as(&self, code: &RoomCode, tx: &mpsc::Sender<RoomMsg>) -> bool {
        let mut rooms = lock(&self.rooms);
        if rooms.contains_key(code) {
            return false;
        }
        rooms.insert(code.clone(), tx.clone());
        true
    }

    /// Frees `code`, if it still belongs to the room behind `tx` (a code is reused only once
    /// free, so a late call never removes a newer room).
    pub(super) fn unregister(&self, code: &RoomCode, tx: &mpsc::Sender<RoomMsg>) {
        let mut rooms = lock(&self.rooms);
        if rooms.get(code).is_some_and(|t| t.same_channel(tx)) {
            rooms.remove(code);
        }
    }

    /// When the address `ip` may try another room code, if not now.
    pub fn join_blocked_until(
        &self,
        ip: minotty_domain::ClientAddr,
        now: Instant,
    ) -> Option<Instant> {
        lock(&self.join_failures).blocked_until(ip, now)
    }

    /// Counts a wrong room code from `ip`.
    pub fn join_failed(&self, ip: minotty_domain::ClientAddr, now: Instant) {
        lock(&self.join_failures).fail(ip, now);
    }
}
