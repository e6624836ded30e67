//! Start boards, spawning, and the end of a line clear.

use super::{Active, Game, MAX_PREVIEW, Phase, SPAWN_X, SPAWN_Y};
use crate::board::{Cell, HEIGHT, WIDTH};
use crate::event::{EndReason, EventKind};
use crate::input::Button;
use crate::mode::StartBoard;
use crate::piece::{Piece, Placed, Rotation, Turn};
use crate::snapshot::Refill;

impl Game {
    /// Replaces the board: for tests, puzzles and custom starts.
    ///
    /// Called before the first [`Game::update`], the first piece spawns on this board (a mode
    /// with its own start board builds it on top). Called later, the active piece keeps its
    /// place (it should fit the new board) and its lock timer follows the new board, as if it
    /// had just moved there by gravity. Scores, chains, the queue and the hold are untouched.
    /// A board set this way is not part of the game's inputs, so [`Game::replay`] does not
    /// reproduce it.
    pub fn set_board(&mut self, board: crate::board::Board) {
        self.board = board;
        self.due = None;
        if self.active.is_some() {
            self.after_move(super::lockdown::Cause::Settle);
        }
    }

    /// Sets up the start board and spawns the first piece (time 0).
    pub(super) fn start(&mut self) {
        match &self.config.mode.start_board {
            // Survival's rows rise on its clock (`survival.rs`), not at the start.
            StartBoard::Empty | StartBoard::Survival => {}
            StartBoard::Snapshot(snapshot) => {
                let snapshot = snapshot.clone();
                self.restore(&snapshot);
                return;
            }
            // One piece for the whole game: no queue, no preview.
            StartBoard::Descent => return self.start_descent(),
            StartBoard::Ascent => return self.start_ascent(),
            &StartBoard::Cheese { total, .. } => {
                self.cheese_left = total;
                self.refill_cheese();
            }
            &StartBoard::Puzzle { stage } => {
                let stage = stage.clamp(1, crate::puzzle::STAGE_COUNT);
                self.load_stage(stage, 1);
                self.spawn_next();
                return;
            }
            &StartBoard::Well { width, residual } => {
                self.build_walls(width);
                self.refill_queue();
                let left = well_left(width);
                // Residual cells fill the well's bottom rows from the left: with 3 of them,
                // two on the floor and one above the leftmost. Combo mode's own well (4 wide,
                // 3 cells) starts from version 4 with cells its first two pieces can keep.
                let spots = [(0, 0), (1, 0), (0, 1), (2, 0), (1, 1), (3, 0)];
                let kept = match (self.queue.front(), self.queue.get(1)) {
                    (Some(&a), Some(&b))
                        if (width, residual) == (4, 3) && !self.rules.legacy.combo_start_fixed =>
                    {
                        Some(super::combo_start::combo_start_cells(a, b))
                    }
                    _ => None,
                };
                let cells = kept.as_ref().map_or(&spots[..], |c| &c[..]);
                for &(dx, dy) in cells.iter().take(usize::from(residual)) {
                    if dx < width {
                        self.board
                            .set(usize::from(left + dx), HEIGHT - 1 - dy, Cell::Garbage);
                    }
                }
            }
        }
        self.refill_queue();
        if !self.is_over() {
            self.spawn_next();
        }
    }

    /// Deals new cheese rows so that up to `visible` of them are on the board.
    fn refill_cheese(&mut self) {
        let Refill::Cheese { visible } = self.refill_rule() else {
            return;
        };
        let on_board = (0..HEIGHT)
            .filter(|&y| self.board.row_has_garbage(y))
            .count() as u32;
        let add = visible.saturating_sub(on_board).min(self.cheese_left);
        if add == 0 {
            return;
        }
        self.cheese_left -= add;
        let holes: Vec<u32> = (0..add).map(|_| self.rng.below(WIDTH as u32)).collect();
        let full = (1u16 << WIDTH) - 1;
        if self
            .board
            .push_rows(add as usize, |i| full & !(1 << holes[i]))
        {
            self.end(EndReason::TopOut, false);
        }
    }

    /// Fills every row outside the centred well with wall cells.
    fn build_walls(&mut self, width: u8) {
        let left = usize::from(well_left(width));
        let right = left + usize::from(width);
        for y in 0..HEIGHT {
            for x in (0..left).chain(right..WIDTH) {
                self.board.set(x, y, Cell::Garbage);
            }
        }
    }

    /// Removes the cleared rows, refills what the mode refills, and spawns the next piece.
    pub(super) fn finish_clear(&mut self, rows: u64) {
        self.remove_rows(rows);
        if !self.is_over() {
            self.spawn_next();
        }
    }

    /// Removes the cleared rows and refills what the mode refills.
    pub(super) fn remove_rows(&mut self, rows: u64) {
        self.board.clear_rows(rows);
        match self.refill_rule() {
            Refill::Cheese { .. } => self.refill_cheese(),
            Refill::Well { width } => self.build_walls(width),
            Refill::Nothing => {}
        }
    }

    /// What the board gets after a clear: the mode's start board's rule, or for a game
    /// resumed from a snapshot, the rule of the game the snapshot was taken in.
    pub(super) fn refill_rule(&self) -> Refill {
        match &self.config.mode.start_board {
            StartBoard::Empty => Refill::Nothing,
            &StartBoard::Cheese { visible, .. } => Refill::Cheese { visible },
            &StartBoard::Well { width, .. } => Refill::Well { width },
            StartBoard::Snapshot(s) => s.refill,
            StartBoard::Puzzle { .. }
            | StartBoard::Descent
            | StartBoard::Survival
            | StartBoard::Ascent => Refill::Nothing,
        }
    }

    /// Puzzle mode: sets up stage `stage` (1-based) for attempt `attempt`: its board, its
    /// pieces as the whole queue, no hold, no chain.
    fn load_stage(&mut self, stage: u8, attempt: u8) {
        let s = crate::puzzle::stage(stage);
        self.board = s.board();
        self.queue.clear();
        self.queue.extend(s.pieces());
        self.hold = None;
        self.hold_used = false;
        self.combo = -1;
        self.stats.level = u32::from(stage);
        self.puzzle = Some(crate::puzzle::PuzzleState {
            stage,
            attempt,
            name: s.name,
        });
        self.emit(EventKind::PuzzleStage { stage, attempt });
    }

    /// Puzzle mode, when the stage's pieces are all placed: the next stage after a perfect
    /// clear (a win after the last), else another attempt (a loss after the last).
    fn end_of_stage(&mut self, run: crate::puzzle::PuzzleState) {
        if self.board.is_empty() {
            self.emit(EventKind::StageCleared { stage: run.stage });
            if run.stage >= crate::puzzle::STAGE_COUNT {
                self.end(EndReason::Limit(crate::mode::Stat::Level), true);
            } else {
                self.load_stage(run.stage + 1, 1);
            }
        } else if run.attempt >= crate::puzzle::MAX_ATTEMPTS {
            self.end(EndReason::Limit(crate::mode::Stat::Level), false);
        } else {
            self.load_stage(run.stage, run.attempt + 1);
        }
    }

    pub(super) fn refill_queue(&mut self) {
        // Puzzle mode's queue is the stage's pieces and nothing else.
        if self.config.mode.is_puzzle() {
            return;
        }
        while self.queue.len() <= MAX_PREVIEW {
            let piece = self.bag.next_piece();
            self.queue.push_back(piece);
        }
    }

    pub(super) fn take_next(&mut self) -> Piece {
        let piece = self
            .queue
            .pop_front()
            .unwrap_or_else(|| self.bag.next_piece());
        self.refill_queue();
        piece
    }

    pub(super) fn spawn_next(&mut self) {
        if let Some(run) = self.puzzle
            && self.queue.is_empty()
        {
            self.end_of_stage(run);
            if self.is_over() {
                return;
            }
        }
        let piece = self.take_next();
        self.spawn(piece, true);
    }

    /// Spawns `piece`. With `initial`, a held hold button holds it at once (initial hold) and a
    /// held rotation button spawns it rotated when that fits (initial rotation).
    /// A spawn that ends a delay (version 3 on) also carries out what was pressed during it
    /// (`early.rs`): a rotation and a hold as initial ones, then taps and drops. Every spawn
    /// cuts DAS (the handling's DAS cut).
    pub(super) fn spawn(&mut self, mut piece: Piece, initial: bool) {
        let early = std::mem::take(&mut self.early);
        if initial && (self.buttons[Button::Hold as usize] || early.hold) && self.can_hold() {
            self.hold_used = true;
            let out = self.hold.replace(piece);
            self.emit(EventKind::Hold { held: piece, out });
            piece = match out {
                Some(p) => p,
                None => self.take_next(),
            };
        }
        let mut placed = Placed {
            piece,
            rotation: Rotation::North,
            x: SPAWN_X,
            y: SPAWN_Y,
        };
        // A rotation pressed in the delay decides the initial turn; without one, a rotation
        // button held from before it does.
        let turn = early.turn().unwrap_or_else(|| self.held_turn());
        if initial
            && let Some(turn) = turn
            && (piece != Piece::O || self.rules.o_rotates)
        {
            let turned = Placed {
                rotation: placed.rotation.turned(turn.quarter_turns()),
                ..placed
            };
            if self.fits(&turned) {
                placed = turned;
            }
        }
        self.enter(placed, early);
    }

    /// Puts `placed` in play (a spawn, or Ascent's start at the foot of its lattice), or ends
    /// the game when it does not fit; then what was pressed in the delay before it (`early`).
    pub(super) fn enter(&mut self, placed: Placed, early: super::early::Early) {
        let piece = placed.piece;
        if !self.fits(&placed) {
            self.end(EndReason::BlockOut, false);
            return;
        }
        self.phase = Phase::Falling;
        let timer = match self.rules.lock {
            crate::ruleset::LockDown::Timer { ground_cap } => Some(ground_cap),
            crate::ruleset::LockDown::Extended { .. } | crate::ruleset::LockDown::Gravity => None,
        };
        self.active = Some(Active {
            placed,
            // Timer lock down tracks the piece's lowest cell, extended its box.
            lowest: placed.y + timer.map_or(0, |_| super::lockdown::bottom_row(placed)),
            lock_at: None,
            resets: 0,
            rotated: None,
            dropped: false,
        });
        if let Some(cap) = timer {
            self.ground = super::Ground {
                left: cap,
                ..super::Ground::default()
            };
        }
        self.restart_fall();
        self.emit(EventKind::Spawn {
            piece,
            rotation: placed.rotation,
        });
        self.cut_das();
        self.after_move(super::lockdown::Cause::Settle);
        if early != super::early::Early::default() {
            self.apply_early(early);
        }
    }

    /// The rotation a held button asks for at spawn, if any.
    fn held_turn(&self) -> Option<Turn> {
        if self.buttons[Button::Rotate180 as usize] && self.rules.turns_180 {
            Some(Turn::Half)
        } else if self.buttons[Button::RotateCw as usize] {
            Some(Turn::Cw)
        } else if self.buttons[Button::RotateCcw as usize] {
            Some(Turn::Ccw)
        } else {
            None
        }
    }
}

/// The leftmost column of a centred well.
fn well_left(width: u8) -> u8 {
    (WIDTH as u8).saturating_sub(width.min(WIDTH as u8)) / 2
}
