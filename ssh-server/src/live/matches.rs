//! Versus matches on the live directory. A room lists its match while it is played (and only
//! when every player lets others watch: the room decides, see `versus/room.rs`). What the list
//! and the TV's frames say of it is its kind, its players and their boards, never its room's
//! code: a code lets anyone into a room's lobby, so it stays here, for
//! [`LiveDirectory::room_of`], which a session's "spectate this" asks by the entry's id.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use minotty_domain::RoomCode;
use minotty_engine::versus::MatchKind;
use minotty_engine::{ModeKind, RulesetId};
use minotty_protocol::{LiveKind, LiveMatchFrame, LiveStats, OpponentView};
use tokio::sync::watch;

use super::{Entry, FrameTx, LiveDirectory, LiveUpdate, lock};

impl LiveDirectory {
    /// Lists a versus match (room `code`, which is never sent) until the listing is dropped;
    /// a `private` one (a player does not let others watch) is only counted.
    pub fn publish_match(
        &self,
        code: &RoomCode,
        kind: MatchKind,
        players: Vec<String>,
        private: bool,
    ) -> MatchListing {
        let (tx, rx) = watch::channel(None);
        let watchers = Arc::new(AtomicUsize::new(0));
        let frames = (rx, Arc::clone(&watchers));
        let id = self.insert(|seq| Entry {
            players,
            kind: LiveKind::Match { kind },
            mode: match kind {
                MatchKind::Race => ModeKind::Sprint,
                MatchKind::Battle => ModeKind::Custom,
            },
            ruleset: RulesetId::Standard,
            stats: LiveStats::default(),
            frames,
            seq,
            room: Some(code.clone()),
            private,
        });
        MatchListing {
            dir: self.clone(),
            id,
            kind,
            tx,
            watchers,
            _running: crate::metrics::match_running(),
        }
    }

    /// The room code of the match listed as `id` (`None`: no such match is listed now, or it
    /// is private).
    pub fn room_of(&self, id: u64) -> Option<RoomCode> {
        lock(&self.inner.entries)
            .get(&id)
            .filter(|e| !e.private)
            .and_then(|e| e.room.clone())
    }
}

/// A versus match on the list; unlisted when dropped (the match ended or the room closed).
#[derive(Debug)]
pub struct MatchListing {
    dir: LiveDirectory,
    id: u64,
    kind: MatchKind,
    tx: FrameTx,
    watchers: Arc<AtomicUsize>,
    _running: crate::metrics::Tracked,
}

impl MatchListing {
    /// Whether anyone watches (the room builds a frame only then).
    pub fn watched(&self) -> bool {
        self.watchers.load(Ordering::Relaxed) > 0
    }

    /// The match as its spectators see it now.
    pub fn publish(&self, boards: Vec<OpponentView>) {
        let frame = LiveUpdate::Match(LiveMatchFrame {
            id: self.id,
            kind: self.kind,
            boards,
        });
        self.tx.send_replace(Some(Arc::new(frame)));
    }
}

impl Drop for MatchListing {
    fn drop(&mut self) {
        self.dir.remove(self.id);
    }
}
