//! Stock: a top-out with an extra life left ([`crate::Mode::lives`], a versus room's stock)
//! is a fresh board instead of the end, by the rule of [`crate::versus::series::top_out`]
//! (`stock.rs`).
//! What carries over: the lines, attack, score and every other number, the hold and the piece
//! sequence (the same generator goes on); what does not: the stack, the garbage waiting, the
//! combo and back-to-back chains. The next piece comes [`RESPAWN_DELAY`] later, as after a
//! line clear (what is pressed meanwhile counts as in any delay). One replay spans every life.

use super::{Game, Ground, Phase};
use crate::board::Board;
use crate::event::{EndReason, EventKind};
use crate::garbage::GarbageQueue;
use crate::stock::{TopOut, top_out_with};

/// Game time between a respawn and the next piece, in ms.
pub const RESPAWN_DELAY: u32 = 1000;

impl Game {
    /// At an end for `reason`: whether a life was spent instead (the game goes on).
    pub(super) fn respawned(&mut self, reason: EndReason) -> bool {
        if !matches!(
            reason,
            EndReason::TopOut | EndReason::BlockOut | EndReason::LockOut
        ) || self.config.mode.lives == 0
        {
            return false;
        }
        // A replay's lives are at most a room's stock (5): its codec refuses more.
        let TopOut::Respawn { left } = top_out_with(self.config.mode.lives, self.lives_used) else {
            return false;
        };
        self.lives_used = self.lives_used.saturating_add(1);
        self.board = Board::new();
        self.garbage = GarbageQueue::default();
        self.active = None;
        self.shift = None;
        self.soft_next = None;
        self.early = super::early::Early::default();
        self.ground = Ground::default();
        self.timers_from = 0;
        self.sliding = false;
        self.combo = -1;
        self.b2b = false;
        self.b2b_chain = 0;
        self.hold_used = false;
        self.phase = Phase::Clearing {
            until: self.rules.after(self.now, RESPAWN_DELAY),
            rows: 0,
        };
        self.due = None;
        self.emit(EventKind::Respawn { left });
        true
    }
}
