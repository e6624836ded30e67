//! Short-lived visual effects of a game, timed in game time: the action text of a clear, the
//! line-clear flash, the lock flash, a hard drop's trail, the level-up note and the "GO!" after
//! the countdown.

use minotty_engine::{Clear, Event, EventKind, Piece, Placed, Spin, Time};

use crate::text::{StackStr, sfmt};

/// How long the action text of a clear stays.
pub const ACTION_MS: Time = 2000;
/// How long a locked piece flashes (the rules seed's landing flash).
pub const LOCK_FLASH_MS: Time = 120;
/// Half-period of the flashing of rows being cleared.
pub const CLEAR_FLASH_MS: Time = 60;
/// How long a hard drop's trail shows: as long as the lock flash, so that it is drawn with
/// the drop's own frame and goes with the flash's end, costing no frame of its own. (A trail
/// fading in three steps cost two frames a drop: at 1,000 players, 10 % more server CPU, 28 %
/// more bytes and an input-to-frame p99 of 31 ms instead of 2.3 ms; see `BENCHMARKS.md`.)
pub const DROP_TRAIL_MS: Time = LOCK_FLASH_MS;
/// The trail's steps of fading (each `DROP_TRAIL_MS / TRAIL_STAGES` long): one.
pub const TRAIL_STAGES: Time = 1;
/// How long "LEVEL n" shows after a level-up.
pub const LEVEL_UP_MS: Time = 1500;
/// How long "STAGE n" (or "ATTEMPT n/5") shows when a puzzle stage is set up.
pub const STAGE_MS: Time = 2500;
/// How long "GO!" shows after the countdown.
pub const GO_MS: Time = 600;

/// The effects currently known, each with the game time it started.
#[derive(Clone, Debug, Default)]
pub struct Effects {
    /// The last clear, the piece whose lock made it, and when.
    action: Option<(Clear, Piece, Time)>,
    clear_start: Time,
    lock: Option<(Placed, Time)>,
    /// The last lock cleared rows that were gone at once (the next piece came at the same
    /// time: `tui-tetris` from ruleset version 5, or no line clear delay): its cells are no
    /// longer where it locked, so it does not flash.
    lock_gone: bool,
    /// The last hard drop: where the piece started, how far it fell, when.
    drop: Option<(Placed, u8, Time)>,
    /// The player turned the drop trail off: hard drops are not noted (so they ask for no
    /// frames either).
    no_trail: bool,
    /// The player turned the flashes off (reduced motion): no lock flash, cleared rows do not
    /// blink, and neither asks for frames.
    no_flashes: bool,
    level_up: Option<(u32, Time)>,
    /// Puzzle mode: the stage and attempt just set up.
    stage: Option<(u8, u8, Time)>,
    /// When the last [`RECENT_LOCKS`] pieces locked, newest at `locks % RECENT_LOCKS`'s slot
    /// before; `locks` counts every lock seen.
    recent: [Time; RECENT_LOCKS],
    locks: usize,
}

/// Lock times kept for the pieces per second over the last 5 and 10 pieces (one more than
/// 10: the rate over n pieces runs from the lock before them).
const RECENT_LOCKS: usize = 11;

/// A hard drop's trail at one time: the cells the piece fell through, fading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Trail {
    pub piece: Piece,
    from: Placed,
    rows: u8,
    /// The fading step reached, `0..TRAIL_STAGES`.
    age: usize,
}

impl Trail {
    /// How faded board cell `(x, y)` of the trail is (0: the one step there is), or `None` when
    /// the trail does not cover it. The trail is the cells below the piece's starting cells
    /// down to its landing, without its upper third.
    pub fn stage(&self, x: usize, y: usize) -> Option<usize> {
        let cells = self.from.cells();
        let column = || {
            cells
                .iter()
                .filter(|c| c.0 as isize == x as isize)
                .map(|c| c.1 as isize)
        };
        let top = column().min()?;
        let lowest = column().max()?;
        let rows = isize::from(self.rows);
        let y = y as isize;
        // Rows the piece's cells in this column passed through (their landing excluded).
        if y < top || y >= lowest + rows {
            return None;
        }
        if (y - top) * 3 < rows {
            return None;
        }
        (self.age < TRAIL_STAGES as usize).then_some(self.age)
    }
}

/// What of the effects is visible at one time; compared to decide whether to redraw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FxStamp {
    action: bool,
    lock: bool,
    level_up: bool,
    trail: Option<usize>,
    stage: bool,
    go: bool,
    flash_frame: Option<Time>,
}

impl FxStamp {
    /// The stamp without what is drawn on the board's cells (the lock flash, the drop trail,
    /// the clear's flash): what, when it changes, changes more than the board.
    pub fn off_board(self) -> FxStamp {
        FxStamp {
            lock: false,
            trail: None,
            flash_frame: None,
            ..self
        }
    }
}

impl Effects {
    /// Turns the hard drop trail on or off (a trail showing ends at once).
    pub fn set_trail(&mut self, on: bool) {
        self.no_trail = !on;
        if !on {
            self.drop = None;
        }
    }

    /// Whether the player turned the drop trail off.
    pub fn no_trail(&self) -> bool {
        self.no_trail
    }

    /// Turns the lock flash and the cleared rows' blinking on or off.
    pub fn set_flashes(&mut self, on: bool) {
        self.no_flashes = !on;
    }

    /// Notes what the engine reported.
    pub fn absorb(&mut self, events: &[Event]) {
        for e in events {
            match e.kind {
                EventKind::LineClear(c) => {
                    self.clear_start = e.time;
                    // The lock that made the clear comes just before it.
                    let piece = self.lock.map_or(Piece::T, |(p, _)| p.piece);
                    self.action = Some((c, piece, e.time));
                }
                EventKind::Lock { at, .. } => {
                    self.lock = Some((at, e.time));
                    self.lock_gone = false;
                    self.recent[self.locks % RECENT_LOCKS] = e.time;
                    self.locks += 1;
                }
                EventKind::Spawn { .. } => {
                    let cleared_now = self.action.is_some_and(|(_, _, at)| at == e.time);
                    if cleared_now && self.lock.is_some_and(|(_, at)| at == e.time) {
                        self.lock_gone = true;
                    }
                }
                EventKind::HardDrop { from, rows } if rows > 0 && !self.no_trail => {
                    self.drop = Some((from, rows, e.time));
                }
                EventKind::LevelUp { level } => self.level_up = Some((level, e.time)),
                EventKind::PuzzleStage { stage, attempt } => {
                    self.stage = Some((stage, attempt, e.time));
                }
                _ => {}
            }
        }
    }

    /// The last clear and the piece that made it, while its action text shows.
    pub fn action(&self, t: Time) -> Option<(&Clear, Piece)> {
        self.action
            .as_ref()
            .filter(|(_, _, at)| t < at + ACTION_MS)
            .map(|(c, p, _)| (c, *p))
    }

    /// The piece that just locked, while it flashes.
    pub fn lock_flash(&self, t: Time) -> Option<Placed> {
        self.lock
            .filter(|&(_, at)| t < at + LOCK_FLASH_MS && !self.lock_gone && !self.no_flashes)
            .map(|(p, _)| p)
    }

    /// When the last piece locked (pieces per second are counted up to it, so the figure
    /// changes once a piece, not on every frame while one falls).
    pub fn last_lock_time(&self) -> Option<Time> {
        self.lock.map(|(_, at)| at)
    }

    /// The last `n` pieces (at most 10) and the time they took, from the lock before the first
    /// of them (or the game's start) to the last: `None` before `n` pieces locked.
    pub fn recent_pieces(&self, n: usize) -> Option<(u32, u64)> {
        if n == 0 || n >= RECENT_LOCKS || self.locks < n {
            return None;
        }
        let at = |back: usize| self.recent[(self.locks - 1 - back) % RECENT_LOCKS];
        let from = if self.locks > n { at(n) } else { 0 };
        Some((n as u32, at(0).saturating_sub(from)))
    }

    /// The last hard drop's trail, while it shows.
    pub fn drop_trail(&self, t: Time) -> Option<Trail> {
        let (from, rows, at) = self.drop?;
        let age = t.checked_sub(at)?;
        (age < DROP_TRAIL_MS).then(|| Trail {
            piece: from.piece,
            from,
            rows,
            age: (age * TRAIL_STAGES / DROP_TRAIL_MS) as usize,
        })
    }

    /// The new level, while its note shows.
    pub fn level_up(&self, t: Time) -> Option<u32> {
        self.level_up
            .filter(|&(_, at)| t < at + LEVEL_UP_MS)
            .map(|(l, _)| l)
    }

    /// Puzzle mode: the stage and attempt just set up, while their note shows.
    pub fn stage(&self, t: Time) -> Option<(u8, u8)> {
        self.stage
            .filter(|&(_, _, at)| t < at + STAGE_MS)
            .map(|(s, a, _)| (s, a))
    }

    /// Whether rows being cleared are lit at `t` (they alternate lit and dark).
    pub fn clear_lit(&self, t: Time) -> bool {
        !self.no_flashes && (t.saturating_sub(self.clear_start) / CLEAR_FLASH_MS).is_multiple_of(2)
    }

    pub fn go(t: Time) -> bool {
        t < GO_MS
    }

    pub fn stamp(&self, t: Time, clearing: bool) -> FxStamp {
        FxStamp {
            action: self.action(t).is_some(),
            lock: self.lock_flash(t).is_some(),
            level_up: self.level_up(t).is_some(),
            trail: self.drop_trail(t).map(|tr| tr.age),
            stage: self.stage(t).is_some(),
            go: Effects::go(t),
            flash_frame: (clearing && !self.no_flashes)
                .then(|| t.saturating_sub(self.clear_start) / CLEAR_FLASH_MS),
        }
    }

    /// The next game time after `t` at which something of the effects changes.
    pub fn next_change(&self, t: Time, clearing: bool) -> Option<Time> {
        let ends = [
            self.action.map(|(_, _, at)| at + ACTION_MS),
            self.lock
                .filter(|_| !self.lock_gone && !self.no_flashes)
                .map(|(_, at)| at + LOCK_FLASH_MS),
            self.level_up.map(|(_, at)| at + LEVEL_UP_MS),
            // The trail's next fading step (or its end).
            self.drop.and_then(|(_, _, at)| {
                let tr = self.drop_trail(t)?;
                Some(at + (tr.age as Time + 1) * DROP_TRAIL_MS / TRAIL_STAGES)
            }),
            self.stage.map(|(_, _, at)| at + STAGE_MS),
            Some(GO_MS),
            (clearing && !self.no_flashes).then(|| {
                let since = t.saturating_sub(self.clear_start);
                self.clear_start + (since / CLEAR_FLASH_MS + 1) * CLEAR_FLASH_MS
            }),
        ];
        ends.into_iter().flatten().filter(|&e| e > t).min()
    }
}

/// The name of a clear made by `piece`, as shown to the player ("T-SPIN DOUBLE", "TETRIS",
/// and under tetrs, where every piece spins, "L-SPIN DOUBLE").
pub fn clear_name(c: &Clear, piece: Piece) -> StackStr<24> {
    let lines = match c.lines {
        0 => "",
        1 => " SINGLE",
        2 => " DOUBLE",
        3 => " TRIPLE",
        _ => " QUAD",
    };
    let letter = piece.letter();
    match (c.spin, c.lines) {
        (Spin::Full, _) => sfmt!(24; "{}-SPIN{}", letter, lines),
        (Spin::Mini, _) => sfmt!(24; "{}-SPIN MINI{}", letter, lines),
        (Spin::None, 4) => sfmt!(24; "TETRIS"),
        (Spin::None, _) => sfmt!(24; "{}", lines.trim_start()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clear(lines: u8, spin: Spin) -> Clear {
        Clear {
            rows: 0,
            lines,
            spin,
            combo: 0,
            b2b: false,
            perfect: false,
            score: 0,
            attack: 0,
        }
    }

    #[test]
    fn names() {
        let name = |c: Clear, p: Piece| clear_name(&c, p).as_str().to_owned();
        assert_eq!(name(clear(2, Spin::Full), Piece::T), "T-SPIN DOUBLE");
        assert_eq!(name(clear(4, Spin::None), Piece::I), "TETRIS");
        assert_eq!(name(clear(1, Spin::Mini), Piece::T), "T-SPIN MINI SINGLE");
        assert_eq!(name(clear(0, Spin::Full), Piece::T), "T-SPIN");
        assert_eq!(name(clear(3, Spin::None), Piece::J), "TRIPLE");
        // tetrs: every piece spins.
        assert_eq!(name(clear(2, Spin::Full), Piece::L), "L-SPIN DOUBLE");
        assert_eq!(name(clear(4, Spin::Full), Piece::I), "I-SPIN QUAD");
    }

    #[test]
    fn timings() {
        let mut fx = Effects::default();
        fx.absorb(&[Event {
            time: 1000,
            kind: EventKind::LineClear(clear(4, Spin::None)),
        }]);
        assert!(fx.action(2999).is_some());
        assert!(fx.action(3000).is_none());
        assert!(fx.clear_lit(1000) && !fx.clear_lit(1060) && fx.clear_lit(1120));
        assert_eq!(fx.next_change(1000, true), Some(1060));
        assert_eq!(fx.next_change(1000, false), Some(3000));
        assert_eq!(fx.next_change(0, false), Some(GO_MS));
        assert_ne!(fx.stamp(1000, true), fx.stamp(1060, true));
        assert_eq!(fx.stamp(1000, true), fx.stamp(1059, true));
    }

    #[test]
    fn a_lock_whose_rows_went_at_once_does_not_flash() {
        use minotty_engine::Rotation;
        let at = Placed {
            piece: Piece::I,
            rotation: Rotation::North,
            x: 3,
            y: 38,
        };
        let lock = |time| Event {
            time,
            kind: EventKind::Lock {
                at,
                spin: Spin::None,
            },
        };
        let line = |time| Event {
            time,
            kind: EventKind::LineClear(clear(1, Spin::None)),
        };
        let spawn = |time| Event {
            time,
            kind: EventKind::Spawn {
                piece: Piece::T,
                rotation: Rotation::North,
            },
        };
        // The clear's rows stay for a delay: the lock flashes over them.
        let mut fx = Effects::default();
        fx.absorb(&[lock(1000), line(1000)]);
        assert_eq!(fx.lock_flash(1000), Some(at));
        fx.absorb(&[spawn(1180)]);
        assert_eq!(fx.next_change(1100, false), Some(1000 + LOCK_FLASH_MS));
        // The rows went and the next piece came at the lock (tui-tetris 5, or no delay):
        // the rows above moved down where the piece was, so nothing flashes there.
        let mut fx = Effects::default();
        fx.absorb(&[lock(1000), line(1000), spawn(1000)]);
        assert_eq!(fx.lock_flash(1000), None);
        assert_eq!(fx.last_lock_time(), Some(1000));
        // A lock without a clear flashes whenever the next piece comes.
        let mut fx = Effects::default();
        fx.absorb(&[lock(2000), spawn(2000)]);
        assert_eq!(fx.lock_flash(2000), Some(at));
    }

    /// Flashes off (reduced motion): no lock flash, cleared rows never lit, and no frames
    /// asked for either; the clear's action text still shows.
    #[test]
    fn flashes_off_ask_for_nothing() {
        use minotty_engine::Rotation;
        let at = Placed {
            piece: Piece::I,
            rotation: Rotation::North,
            x: 3,
            y: 38,
        };
        let events = [
            Event {
                time: 1000,
                kind: EventKind::Lock {
                    at,
                    spin: Spin::None,
                },
            },
            Event {
                time: 1000,
                kind: EventKind::LineClear(clear(1, Spin::None)),
            },
        ];
        let mut on = Effects::default();
        on.absorb(&events);
        assert!(on.lock_flash(1000).is_some() && on.clear_lit(1000));
        let mut off = Effects::default();
        off.set_flashes(false);
        off.absorb(&events);
        assert_eq!(off.lock_flash(1000), None);
        assert!((1000..1400).all(|t| !off.clear_lit(t)));
        assert_eq!(
            off.stamp(1000, true),
            off.stamp(1150, true),
            "no flash frames"
        );
        assert!(off.action(1000).is_some(), "the clear's name still shows");
        assert_eq!(off.next_change(1000, true), Some(1000 + ACTION_MS));
    }

    /// The last n pieces' time runs from the lock before the first of them (the game's start
    /// while there is none), over a ring of 11 lock times that wraps.
    #[test]
    fn the_recent_pieces_run_from_the_lock_before_them() {
        use minotty_engine::Rotation;
        let at = Placed {
            piece: Piece::O,
            rotation: Rotation::North,
            x: 4,
            y: 38,
        };
        let mut fx = Effects::default();
        assert_eq!(fx.recent_pieces(5), None);
        let mut times = Vec::new();
        for i in 1..=30u64 {
            let t = i * 1000 + i * i;
            times.push(t);
            fx.absorb(&[Event {
                time: t,
                kind: EventKind::Lock {
                    at,
                    spin: Spin::None,
                },
            }]);
            let n = times.len();
            for k in [5usize, 10] {
                let want = (n >= k).then(|| {
                    let from = if n > k { times[n - 1 - k] } else { 0 };
                    (k as u32, t - from)
                });
                assert_eq!(fx.recent_pieces(k), want, "{k} after {n}");
            }
        }
        assert_eq!(fx.recent_pieces(0), None);
        assert_eq!(
            fx.recent_pieces(11),
            None,
            "the ring holds 10 pieces' worth"
        );
    }

    #[test]
    fn a_hard_drop_trail_covers_the_fall_fades_and_ends() {
        use minotty_engine::Rotation;
        // A T (flat side down, pointing up) dropped 10 rows from (3, 20): its cells were at
        // (4, 20) and (3..=5, 21), and landed at (4, 30) and (3..=5, 31).
        let from = Placed {
            piece: Piece::T,
            rotation: Rotation::North,
            x: 3,
            y: 20,
        };
        let cells = from.cells();
        assert!(
            cells.contains(&(4, 20)) && cells.contains(&(3, 21)),
            "{cells:?}"
        );
        let mut fx = Effects::default();
        fx.absorb(&[Event {
            time: 1000,
            kind: EventKind::HardDrop { from, rows: 10 },
        }]);
        let tr = fx.drop_trail(1000).expect("shows at once");
        assert_eq!(tr.piece, Piece::T);
        // Column 4 from row 20 down to 30 (its landing at 31 excluded: the piece is there);
        // columns 3 and 5 from 21 to 30; not the upper third (rows 20-23).
        assert_eq!(tr.stage(4, 19), None);
        assert_eq!(tr.stage(4, 20), None);
        assert_eq!(tr.stage(4, 23), None);
        assert_eq!(tr.stage(4, 24), Some(0));
        assert_eq!(tr.stage(4, 30), Some(0));
        assert_eq!(tr.stage(3, 20), None);
        assert_eq!(tr.stage(3, 25), Some(0));
        assert_eq!(tr.stage(3, 31), None);
        assert_eq!(tr.stage(6, 25), None);
        // One step: the only change is its end, with the lock flash's (no frame of its own).
        assert_eq!(fx.next_change(1000, false), Some(1000 + LOCK_FLASH_MS));
        assert_eq!(fx.stamp(1000, false), fx.stamp(1119, false));
        assert!(fx.drop_trail(1119).is_some());
        assert_ne!(fx.stamp(1119, false), fx.stamp(1120, false));
        assert!(fx.drop_trail(1120).is_none());
        assert_eq!(fx.stamp(1120, false), fx.stamp(1500, false));
        // After it ends, only the action-free effects remain: no more trail wakeups.
        assert_eq!(fx.next_change(1120, false), None);
        // Turned off: drops are not noted.
        let mut off = Effects::default();
        off.set_trail(false);
        off.absorb(&[Event {
            time: 1000,
            kind: EventKind::HardDrop { from, rows: 10 },
        }]);
        assert!(off.drop_trail(1000).is_none());
    }
}
