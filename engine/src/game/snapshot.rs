//! Taking a [`Snapshot`] of a game and resuming a game from one.

use super::{Game, Ground, Phase};
use crate::event::{EndReason, EventKind};
use crate::snapshot::{MAX_QUEUE, Snapshot, SnapshotPhase};

impl Game {
    /// The whole state of the game now, or `None` when nothing is in play (before the first
    /// update, or once the game is over), in Descent (its endless lattice and gems are not
    /// part of a snapshot) and in Survival (nor is its rising clock: [`Mode::can_snapshot`]).
    /// During a line clear the snapshot holds the clear, and a game resumed from it spawns the
    /// next piece when the clear ends.
    ///
    /// [`Mode::can_snapshot`]: crate::Mode::can_snapshot
    pub fn snapshot(&self) -> Option<Snapshot> {
        if self.descent.is_some() || !self.config.mode.can_snapshot() {
            return None;
        }
        let phase = match self.phase {
            Phase::Falling => {
                let active = self.active?;
                SnapshotPhase::Falling {
                    active,
                    last_fall: self.fall_origin(),
                    on_ground: self.ground.on_ground,
                    touchdown: self.ground.touchdown,
                    liftoff: self.ground.liftoff,
                    ground_left: self.ground.left,
                }
            }
            Phase::Clearing { until, rows } => SnapshotPhase::Clearing { until, rows },
            Phase::Ready | Phase::Over { .. } => return None,
        };
        Some(Snapshot {
            ruleset: self.config.ruleset,
            tuning: self.config.tuning,
            mode: self.config.mode.kind,
            time: self.now,
            board: self.board.clone(),
            phase,
            hold: self.hold,
            hold_used: self.hold_used,
            queue: self.queue.iter().copied().take(MAX_QUEUE).collect(),
            source: self.bag.clone(),
            rng: self.rng,
            refill: self.refill_rule(),
            cheese_left: self.cheese_left,
            combo: self.combo,
            b2b: self.b2b,
            b2b_chain: self.b2b_chain,
            stats: Stats {
                time: self.now,
                ..self.stats
            },
        })
    }

    /// Puts the game where `s` was: called instead of setting up a start board. The clock
    /// jumps to the snapshot's time and every timer is where it was; buttons start released.
    /// A piece that does not fit this game's rules (a ruleset without hidden rows) blocks out.
    pub(super) fn restore(&mut self, s: &Snapshot) {
        self.now = s.time;
        self.board = s.board.clone();
        self.queue = s.queue.iter().copied().collect();
        self.bag = s.source.clone();
        self.refill_queue();
        self.hold = s.hold;
        self.hold_used = s.hold_used;
        self.rng = s.rng;
        self.cheese_left = s.cheese_left;
        self.combo = s.combo;
        self.b2b = s.b2b;
        self.b2b_chain = s.b2b_chain;
        self.stats = s.stats;
        self.set_level(s.stats.level);
        self.due = None;
        match s.phase {
            SnapshotPhase::Clearing { until, rows } => self.phase = Phase::Clearing { until, rows },
            SnapshotPhase::Falling {
                active,
                last_fall,
                on_ground,
                touchdown,
                liftoff,
                ground_left,
            } => {
                if !self.fits(&active.placed) {
                    self.end(EndReason::BlockOut, false);
                    return;
                }
                self.phase = Phase::Falling;
                self.active = Some(active);
                self.restore_fall(last_fall, s.time);
                self.ground = Ground {
                    on_ground,
                    touchdown,
                    liftoff,
                    left: ground_left,
                };
                self.emit(EventKind::Spawn {
                    piece: active.placed.piece,
                    rotation: active.placed.rotation,
                });
            }
        }
    }
}

use crate::event::Stats;
