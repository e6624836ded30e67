//! Locking a piece: T-spin detection, line clears, scoring, attack and garbage, limits.

use super::{Active, Game, Phase, fits_under};
use crate::board::{BUFFER_HEIGHT, Board, HEIGHT};
use crate::event::{Clear, EndReason, EventKind};
use crate::mode::Stat;
use crate::piece::{Piece, Placed, Rotation};
use crate::ruleset::{ClearPause, Ruleset, Scoring, SpinRule};
use crate::scoring::{self, Spin};

impl Game {
    pub(super) fn lock_piece(&mut self) {
        let Some(active) = self.active.take() else {
            return;
        };
        let placed = active.placed;
        let spin = self.detect_spin(&active);
        self.board.lock(&placed);
        self.hold_used = false;
        self.stats.pieces += 1;
        self.stats.by_piece[placed.piece as usize] += 1;
        self.emit(EventKind::Lock { at: placed, spin });

        let rows = self.board.full_rows();
        let lines = rows.count_ones();
        if lines > 0 || spin != Spin::None {
            self.score_clear(rows, lines, spin);
        }
        if lines == 0 {
            self.combo = -1;
            let breaks = match self.rules.scoring {
                Scoring::Guideline {
                    no_clear_breaks_b2b,
                } => no_clear_breaks_b2b,
                Scoring::Tetrs | Scoring::Nes => false,
            };
            if breaks {
                // A surge charged by the chain this lock breaks goes as an attack of its own.
                let surge = self.config.mode.garbage.surge_of(self.b2b_chain);
                self.b2b = false;
                self.b2b_chain = 0;
                if surge > 0 {
                    let attack = self.multiplied(surge);
                    self.stats.attack += attack;
                    self.send_attack(attack);
                }
            }
        }
        if self.is_over() {
            return;
        }
        if lines > 0 {
            let garbage_rows = (0..HEIGHT)
                .filter(|&y| rows & (1 << y) != 0 && self.board.row_has_garbage(y))
                .count() as u32;
            self.stats.lines += lines;
            self.stats.garbage_cleared += garbage_rows;
            self.cleared_at = Some(self.now);
            self.update_level();
            if self.rules.clear_pause == ClearPause::LivePiece {
                self.clear_with_live_piece(rows);
                return;
            }
            let delay = self.rules.line_clear_delay + self.rules.appearance_delay;
            self.phase = Phase::Clearing {
                until: self.rules.after(self.now, delay),
                rows,
            };
            self.check_limits();
            return;
        }
        if self.config.mode.end_on_no_clear {
            self.end(EndReason::ComboBroken, false);
            return;
        }
        if placed.cells().iter().all(|&(_, y)| y < BUFFER_HEIGHT as i8) {
            self.end(EndReason::LockOut, false);
            return;
        }
        self.rise_garbage();
        // Over, or a life spent under the garbage (its delay runs: `respawn.rs`).
        if self.is_over() || matches!(self.phase, Phase::Clearing { .. }) {
            return;
        }
        self.check_limits();
        if self.is_over() {
            return;
        }
        self.appear_next();
    }

    /// The next piece: after the appearance delay (ARE), or at once without one.
    pub(super) fn appear_next(&mut self) {
        if self.rules.appearance_delay > 0 {
            self.phase = Phase::Clearing {
                until: self.rules.after(self.now, self.rules.appearance_delay),
                rows: 0,
            };
        } else {
            self.spawn_next();
        }
    }

    /// The ruleset's spin rule for the piece locking now (see [`spin_at`]), under the
    /// mode's spin bonuses (`versus::SpinBonus`); under the NES game's scoring none (the NES
    /// knows no spins).
    fn detect_spin(&self, active: &Active) -> Spin {
        if self.rules.scoring == Scoring::Nes {
            return Spin::None;
        }
        let spin = spin_at(&self.board, &self.rules, active.placed, active.rotated);
        let settings = &self.config.mode.garbage;
        if settings.values().spins == crate::garbage_settings::SpinBonus::TSpins {
            return spin;
        }
        let p = active.placed;
        let immobile = settings.other_pieces_spin()
            && [(0, -1), (-1, 0), (1, 0)]
                .iter()
                .all(|&(dx, dy)| !self.fits(&p.shifted(dx, dy)));
        settings.spin(
            spin,
            p.piece == Piece::T,
            active.rotated.is_some(),
            immobile,
        )
    }

    /// `raw` lines of attack through the mode's garbage multiplier at the current time, the
    /// fraction left carried to the next attack.
    fn multiplied(&mut self, raw: u32) -> u32 {
        let (lines, carry) = self
            .config
            .mode
            .garbage
            .multiply(raw, self.attack_carry, self.now);
        self.attack_carry = carry;
        lines
    }

    fn score_clear(&mut self, rows: u64, lines: u32, spin: Spin) {
        let perfect =
            lines > 0 && (0..HEIGHT).all(|y| rows & (1 << y) != 0 || self.board.row_mask(y) == 0);
        match self.rules.scoring {
            Scoring::Tetrs => return self.score_tetrs(rows, lines, spin, perfect),
            Scoring::Nes => return self.score_nes(rows, lines, perfect),
            Scoring::Guideline { .. } => {}
        }
        let qualifies = scoring::qualifies_for_b2b(lines, spin);
        let b2b = lines > 0 && qualifies && self.b2b;
        if lines > 0 {
            self.combo += 1;
        }
        // A lock that clears nothing (a zero-line T-spin) is no part of a chain.
        let combo = if lines > 0 {
            self.combo.max(0) as u32
        } else {
            0
        };
        let points = scoring::score(lines, spin, self.stats.level, b2b, combo);
        let settings = self.config.mode.garbage;
        // A clear that breaks the chain releases what it charged (surge).
        let surge = if lines > 0 && !b2b {
            settings.surge_of(self.b2b_chain)
        } else {
            0
        };
        let raw = settings.clear_attack(lines, spin, b2b, combo, perfect) + surge;
        let attack = self.multiplied(raw);
        self.stats.score += u64::from(points.total());
        if lines > 0 {
            if b2b {
                self.b2b_chain += 1;
                self.stats.max_b2b = self.stats.max_b2b.max(self.b2b_chain);
            } else {
                self.b2b_chain = 0;
            }
            self.b2b = qualifies;
        }
        self.record_clear(
            Clear {
                rows,
                lines: lines as u8,
                spin,
                combo: combo.min(u32::from(u16::MAX)) as u16,
                b2b,
                perfect,
                score: points.total(),
                attack: attack.min(255) as u8,
            },
            combo,
            attack,
        );
    }

    /// The bookkeeping every ruleset's scoring shares: the clear's stats (max combo and the
    /// kind of clear only when lines cleared), the event, then the attack. `combo` and
    /// `attack` are the uncapped values of the event's fields.
    fn record_clear(&mut self, clear: Clear, combo: u32, attack: u32) {
        if clear.lines > 0 {
            self.stats.max_combo = self.stats.max_combo.max(combo);
            match clear.lines {
                1 => self.stats.singles += 1,
                2 => self.stats.doubles += 1,
                3 => self.stats.triples += 1,
                _ => self.stats.tetrises += 1,
            }
        }
        if clear.spin != Spin::None {
            self.stats.tspins += 1;
        }
        if clear.perfect {
            self.stats.perfect_clears += 1;
        }
        self.stats.attack += attack;
        self.emit(EventKind::LineClear(clear));
        self.send_attack(attack);
    }

    /// An attack of `attack` lines meets the garbage queued for this player as the mode's
    /// blocking says (`versus::Blocking`): what it cancels, then what is sent.
    fn send_attack(&mut self, attack: u32) {
        use crate::garbage_settings::Blocking;
        if attack > 0 {
            let (cancelled, sent) = match self.config.mode.garbage.values().blocking {
                Blocking::Cancel => self.garbage.cancel(attack),
                Blocking::None => (0, attack),
                Blocking::Passthrough => (self.garbage.cancel(attack).0, attack),
            };
            if cancelled > 0 {
                self.emit(EventKind::GarbageCancelled {
                    lines: cancelled.min(255) as u8,
                });
            }
            if sent > 0 {
                self.stats.sent += sent;
                self.emit(EventKind::AttackSent {
                    lines: sent.min(255) as u8,
                });
            }
        }
    }

    /// The tetrs seed's formula: `10 * (lines + combo - 1)^2 * max(1, b2b) * (spin ? 4 : 1) *
    /// (perfect ? 100 : 1)`, where `combo` counts consecutive clearing pieces (1 for the first)
    /// and `b2b` consecutive special clears (a spin, a perfect clear or four lines). Only
    /// clears score; the attack follows the standard table.
    fn score_tetrs(&mut self, rows: u64, lines: u32, spin: Spin, perfect: bool) {
        if lines == 0 {
            if spin != Spin::None {
                self.stats.tspins += 1;
            }
            return;
        }
        self.combo += 1;
        let combo = self.combo.max(0) as u32;
        let special = lines >= 4 || spin != Spin::None || perfect;
        // tetrs counts a chain's first special clear as 1: its back-to-back count is one less.
        let surge = if special {
            0
        } else {
            let settings = self.config.mode.garbage;
            settings.surge_of(self.b2b_chain.saturating_sub(1))
        };
        self.b2b_chain = if special { self.b2b_chain + 1 } else { 0 };
        self.b2b = special;
        self.stats.max_b2b = self.stats.max_b2b.max(self.b2b_chain.saturating_sub(1));
        let points = scoring::tetrs_score(lines, combo + 1, self.b2b_chain, spin, perfect);
        self.stats.score += points;
        let b2b = special && self.b2b_chain > 1;
        let raw = self
            .config
            .mode
            .garbage
            .clear_attack(lines, spin, b2b, combo, perfect)
            + surge;
        let attack = self.multiplied(raw);
        self.record_clear(
            Clear {
                rows,
                lines: lines as u8,
                spin,
                combo: combo.min(u32::from(u16::MAX)) as u16,
                b2b,
                perfect,
                score: points.min(u64::from(u32::MAX)) as u32,
                attack: attack.min(255) as u8,
            },
            combo,
            attack,
        );
    }

    /// The NES game's scoring (Classic): the line table times `level + 1` at the level before
    /// the clear, nothing else (no lock is a spin: `detect_spin`). Combos are counted for the
    /// stats and the attack (the standard table without back-to-back), never scored.
    fn score_nes(&mut self, rows: u64, lines: u32, perfect: bool) {
        if lines == 0 {
            return;
        }
        self.combo += 1;
        let combo = self.combo.max(0) as u32;
        let points = crate::nes::clear_score(lines, self.stats.level);
        self.stats.score += points;
        let raw = (self.config.mode.garbage).clear_attack(lines, Spin::None, false, combo, perfect);
        let attack = self.multiplied(raw);
        self.record_clear(
            Clear {
                rows,
                lines: lines as u8,
                spin: Spin::None,
                combo: combo.min(u32::from(u16::MAX)) as u16,
                b2b: false,
                perfect,
                score: points.min(u64::from(u32::MAX)) as u32,
                attack: attack.min(255) as u8,
            },
            combo,
            attack,
        );
    }

    fn update_level(&mut self) {
        if !self.config.mode.level_increase {
            return;
        }
        let start = self.config.mode.start_level.max(self.rules.min_level);
        let level = match self.config.mode.gravity {
            crate::mode::Gravity::Nes { .. } => crate::nes::level(start, self.stats.lines),
            crate::mode::Gravity::Levels | crate::mode::Gravity::Instant => {
                start + self.stats.lines / self.rules.lines_per_level
            }
        };
        if level > self.stats.level {
            self.set_level(level);
            self.emit(EventKind::LevelUp { level });
        }
    }

    /// Ready garbage rises, at most the cap's lines (the mode's cap at this time), unless the
    /// mode's opener is still on.
    fn rise_garbage(&mut self) {
        let settings = self.config.mode.garbage;
        if !settings.rises_at(self.now) {
            return;
        }
        // Every chunk holds at least a line, so there are at most the cap's chunks.
        const _: () = assert!(crate::garbage_settings::CAP_CEILING as usize <= 32);
        let mut chunks = [(0u8, 0u8); 32];
        let mut n = 0;
        self.garbage
            .take_ready(settings.cap_at(self.now), |lines, hole| {
                if n < chunks.len() {
                    chunks[n] = (lines, hole);
                    n += 1;
                }
            });
        let v = *settings.values();
        for &(lines, hole) in &chunks[..n] {
            if v.messiness == 0 && v.hole_size == 1 {
                if self.rise_rows(lines, hole, 1) {
                    return;
                }
                continue;
            }
            // Messy garbage: runs of rows sharing a hole, each row after the first moving it
            // with the messiness's chance.
            let places = crate::board::WIDTH as u32 + 1 - u32::from(v.hole_size);
            let (mut hole, mut run) = (u32::from(hole).min(places - 1), 1u8);
            for _ in 1..lines {
                let moves =
                    v.messiness > 0 && places > 1 && self.rng.below(100) < u32::from(v.messiness);
                if !moves {
                    run += 1;
                    continue;
                }
                if self.rise_rows(run, hole as u8, v.hole_size) {
                    return;
                }
                let other = self.rng.below(places - 1);
                hole = if other >= hole { other + 1 } else { other };
                run = 1;
            }
            if self.rise_rows(run, hole as u8, v.hole_size) {
                return;
            }
        }
    }

    /// `lines` rows of garbage with a hole `size` wide at `hole` rise; `true` when that topped
    /// the game out.
    fn rise_rows(&mut self, lines: u8, hole: u8, size: u8) -> bool {
        let overflow = if size == 1 {
            self.board
                .push_garbage(usize::from(lines), usize::from(hole))
        } else {
            self.board
                .push_garbage_hole(usize::from(lines), usize::from(hole), usize::from(size))
        };
        self.emit(EventKind::GarbageRisen { lines, hole });
        if overflow {
            self.end(EndReason::TopOut, false);
        }
        overflow
    }

    /// Ends the game when a limit other than time is reached.
    pub(super) fn check_limits(&mut self) {
        let hit = self.config.mode.limits.iter().find(|l| {
            let value = match l.stat {
                Stat::Time => return false,
                Stat::Lines => u64::from(self.stats.lines),
                Stat::Pieces => u64::from(self.stats.pieces),
                Stat::Score => self.stats.score,
                Stat::Level => u64::from(self.stats.level),
                Stat::GarbageCleared => u64::from(self.stats.garbage_cleared),
            };
            value >= l.value
        });
        if let Some(limit) = hit.copied() {
            self.end(EndReason::Limit(limit.stat), limit.win);
        }
    }
}

/// The ruleset's spin rule for a piece locking at `placed` on `board`, whose last successful
/// action was a rotation when `rotated` is `Some((kick index, was last kick))`: the rules
/// seed's 3-corner rule for a T (in `standard` a rotation that used the last kick of its table
/// always makes a full T-spin), or tetrs' "any piece that cannot move up". Move generation
/// asks it too, so a bot's idea of a spin is the game's.
///
/// Public for bots and front ends (`minotty-bots`' move generation), with
/// [`fits_under`](crate::game::fits_under).
pub fn spin_at(
    board: &Board,
    rules: &Ruleset,
    placed: Placed,
    rotated: Option<(u8, bool)>,
) -> Spin {
    let last_kick_full = match rules.spin {
        SpinRule::Immobile => {
            return if fits_under(board, rules, &placed.shifted(0, -1)) {
                Spin::None
            } else {
                Spin::Full
            };
        }
        SpinRule::TCorners { last_kick_full } => last_kick_full,
    };
    let Some((_, last_kick)) = rotated else {
        return Spin::None;
    };
    if placed.piece != Piece::T {
        return Spin::None;
    }
    // Walls and floor count, and without hidden rows everything above the field.
    let solid =
        |x: i8, y: i8| board.is_solid(x, y) || (!rules.hidden_rows && y < BUFFER_HEIGHT as i8);
    let (cx, cy) = (placed.x + 1, placed.y + 1);
    let (nw, ne, sw, se) = (
        solid(cx - 1, cy - 1),
        solid(cx + 1, cy - 1),
        solid(cx - 1, cy + 1),
        solid(cx + 1, cy + 1),
    );
    let corners = [nw, ne, sw, se].iter().filter(|&&c| c).count();
    if corners < 3 {
        return Spin::None;
    }
    let front = match placed.rotation {
        Rotation::North => nw && ne,
        Rotation::East => ne && se,
        Rotation::South => sw && se,
        Rotation::West => nw && sw,
    };
    if front || (last_kick && last_kick_full) {
        Spin::Full
    } else {
        Spin::Mini
    }
}
