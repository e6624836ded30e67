//! A ghost race in a solo game (40 lines, ultra): the ghost's recording, played back by the
//! engine's [`Ghost`] on the player's game time, and the split against it.
//!
//! The player's game is dealt the ghost's seed under its ruleset and mode
//! ([`super::GameSetup::ghost_race`]), and its replay starts with [`Input::Ghost`]: a game whose pieces
//! were known in advance never ranks (`minotty_domain::eligible`), and is stored as history.
//! The ghost advances after every update of the player's game, at most
//! [`minotty_engine::GHOST_STEP_INPUTS`] recorded inputs per update (a ghost held back by it
//! asks for the next tick at once); its board is kept as a snapshot, refreshed when it changes,
//! so drawing it allocates nothing.

use minotty_engine::{Event, EventKind, Ghost, GhostSplit, ModeKind, Replay, Time};
use minotty_protocol::{BoardSnapshot, snapshot};

use super::GameSession;
use crate::text::{StackStr, sfmt};

/// A ghost to race, as the server (or the save file) sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GhostSource {
    pub replay: Box<Replay>,
    /// Whose game it is, as sent (drawn through the text policy).
    pub player: String,
    /// The stored game it is (0: none known).
    pub game: i64,
}

/// Why a ghost cannot be raced, for the player.
pub fn refusal(replay: &Replay) -> Option<String> {
    if !matches!(replay.mode.kind, ModeKind::Sprint | ModeKind::Ultra) {
        return Some("ghosts race only in 40 lines and ultra".into());
    }
    if !replay.tuning.is_default() {
        return Some("that game was tuned: no ghost race".into());
    }
    Ghost::new(replay.clone())
        .err()
        .map(|e| format!("that replay cannot be played back: {e}"))
}

/// The ghost of a running race.
#[derive(Debug)]
pub struct GhostRun {
    ghost: Ghost,
    /// The ghost's board as it shows now.
    board: BoardSnapshot,
    /// The player's lines and the game time the last of them came.
    lines: u32,
    reached: Time,
    /// The last advance stopped at the bound on inputs: the next tick is due at once.
    behind: bool,
    /// Recorded inputs fed to the ghost so far, and the most one update fed.
    fed: u64,
    most: usize,
}

impl GhostRun {
    pub(super) fn new(source: &GhostSource) -> Option<GhostRun> {
        let ghost = Ghost::new((*source.replay).clone()).ok()?;
        let board = snapshot(ghost.game());
        Some(GhostRun {
            ghost,
            board,
            lines: 0,
            reached: 0,
            behind: false,
            fed: 0,
            most: 0,
        })
    }

    /// The player's game cleared its latest lines at `cleared` (if in this update), and stands
    /// at `now` with `lines` cleared: the ghost follows. Returns whether it looks different.
    pub(super) fn follow(&mut self, cleared: Option<Time>, lines: u32, now: Time) -> bool {
        if let Some(at) = cleared {
            self.reached = at;
        }
        self.lines = lines;
        let step = self.ghost.advance_to(now);
        self.behind = !step.caught_up;
        self.fed += step.inputs as u64;
        self.most = self.most.max(step.inputs);
        if step.changed {
            self.board = snapshot(self.ghost.game());
        }
        step.changed || cleared.is_some()
    }

    /// When the ghost next needs the player's game to update (game time).
    pub(super) fn next_change(&self, now: Time) -> Option<Time> {
        if self.behind {
            return Some(now);
        }
        self.ghost.next_change()
    }

    pub fn ghost(&self) -> &Ghost {
        &self.ghost
    }

    pub fn board(&self) -> &BoardSnapshot {
        &self.board
    }

    /// The split now (the player's game time `now`).
    pub fn split(&self, now: Time) -> GhostSplit {
        self.ghost.split(now, self.lines, self.reached)
    }

    /// Recorded inputs fed so far, and the most one update fed (counted, for the bound).
    pub fn fed(&self) -> (u64, usize) {
        (self.fed, self.most)
    }
}

impl GameSession {
    /// The ghost of a ghost race.
    pub fn ghost_run(&self) -> Option<&GhostRun> {
        self.race.as_deref()
    }

    /// Whether this game races a ghost.
    pub fn is_ghost_race(&self) -> bool {
        self.setup.ghost.is_some()
    }
}

/// When the last clear of lines among `events` came.
pub(super) fn last_clear(events: &[Event]) -> Option<Time> {
    events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::LineClear(c) if c.lines > 0))
        .map(|e| e.time)
        .next_back()
}

/// The lines split: "+3 lines", "-1 line", "even".
pub fn lines_text(split: &GhostSplit) -> StackStr<24> {
    match split.lines {
        0 => sfmt!(24; "even"),
        1 => sfmt!(24; "+1 line"),
        -1 => sfmt!(24; "-1 line"),
        n if n > 0 => sfmt!(24; "+{} lines", n),
        n => sfmt!(24; "{} lines", n),
    }
}

/// The time split at the player's latest line count, within `width` columns: "-1.2 s at 20
/// lines" (ahead), "+0.8 s at 10 lines" (behind), shortened to "-1.2 s at 20" when narrow;
/// empty before the first line or past the ghost's last.
pub fn time_text(split: &GhostSplit, width: usize) -> StackStr<32> {
    let Some((lines, delta)) = split.time else {
        return StackStr::new();
    };
    let sign = if delta < 0 { '-' } else { '+' };
    let ms = delta.unsigned_abs().min(9_999_999);
    let (s, tenth) = (ms / 1000, ms % 1000 / 100);
    let long = sfmt!(32; "{}{}.{} s at {} lines", sign, s, tenth, lines);
    if long.as_str().len() <= width {
        return long;
    }
    sfmt!(32; "{}{}.{} s at {}", sign, s, tenth, lines)
}
