//! What a versus game tells its room: its events digested into reports (attacks, board,
//! numbers, the end), as a player's App and a server bot seat both send them.

use minotty_engine::board::{BUFFER_HEIGHT, VISIBLE_HEIGHT, WIDTH};
use minotty_engine::{Cell, EndReason, Event, EventKind, Game};

use minotty_engine::Replay;

/// One thing that happened in the player's own versus game, reported to the room.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Report {
    /// Lines of attack left after cancelling against the player's own incoming garbage.
    Attack { lines: u8 },
    /// The board changed (after a lock, a clear or rising garbage).
    Board(BoardSnapshot),
    /// The player's running numbers.
    Progress(Progress),
    /// The player's game ended: topped out, or (race) reached the goal. (Sessions before
    /// `Forfeited` existed also sent this for a forfeit.)
    Finished { won: bool, progress: Progress },
    /// The player gave up from the in-game prompt: a loss shown as "left", not a top-out.
    /// Sent instead of `Finished`, followed by the `Replay`.
    Forfeited { progress: Progress },
    /// The player's whole game, for the match record: sent once when the game ends (after
    /// `Finished`, or on `MatchOver` when the player was still playing).
    Replay(Box<Replay>),
}

/// An opponent's running numbers (also used in results).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Progress {
    pub lines: u32,
    pub pieces: u32,
    pub attack_sent: u32,
    pub garbage_received: u32,
    /// Game time in ms.
    pub time_ms: u64,
    /// Lines of garbage waiting to rise.
    pub pending_garbage: u32,
    /// The held piece (engine `Piece` order + 1, as in [`BoardSnapshot`]; 0: none). Older
    /// instances do not send it.
    #[cfg_attr(feature = "serde", serde(default))]
    pub hold: u8,
    /// The next pieces, soonest first (the same coding; 0: none).
    #[cfg_attr(feature = "serde", serde(default))]
    pub next: [u8; NEXT_SHOWN],
    /// Extra lives left (a room's stock; left out at 0, and older instances do not send it).
    #[cfg_attr(feature = "serde", serde(default, skip_serializing_if = "is_zero"))]
    pub lives: u8,
}

#[cfg(feature = "serde")]
fn is_zero(v: &u8) -> bool {
    *v == 0
}

/// The next pieces a player's [`Progress`] tells (what spectators see of the queue).
pub const NEXT_SHOWN: usize = 5;

/// The 20 visible rows of a board, top first; each cell 0 (empty), 1-7 (I, O, T, S, Z, J, L
/// in the engine's `Piece` order) or 8 (garbage). The falling piece is included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSnapshot {
    pub rows: Vec<[u8; 10]>,
}

/// The serde form of a [`BoardSnapshot`] (servers relay boards between instances): one digit
/// per cell, rows top first, 200 characters for a board instead of a list of lists. Reading
/// accepts at most [`BoardSnapshot::MAX_ROWS`] whole rows of digits 0-8, nothing else.
#[cfg(feature = "serde")]
mod board_serde {
    use super::BoardSnapshot;

    impl serde::Serialize for BoardSnapshot {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            let text: String = self
                .rows
                .iter()
                .flatten()
                .map(|&c| char::from(b'0' + c.min(8)))
                .collect();
            s.serialize_str(&text)
        }
    }

    impl<'de> serde::Deserialize<'de> for BoardSnapshot {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            use serde::de::Error;
            let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
            let bytes = text.as_bytes();
            if bytes.len() % 10 != 0 || bytes.len() > 10 * BoardSnapshot::MAX_ROWS {
                return Err(D::Error::custom(
                    "a board is whole rows of 10 cells, at most 40",
                ));
            }
            if !bytes.iter().all(|b| (b'0'..=b'8').contains(b)) {
                return Err(D::Error::custom("a board cell is a digit 0-8"));
            }
            let rows = bytes
                .chunks_exact(10)
                .map(|row| {
                    let mut cells = [0u8; 10];
                    for (c, b) in cells.iter_mut().zip(row) {
                        *c = b - b'0';
                    }
                    cells
                })
                .collect();
            Ok(BoardSnapshot { rows })
        }
    }
}

impl BoardSnapshot {
    /// The most rows a board has (the engine's whole board, hidden rows included).
    pub const MAX_ROWS: usize = 40;
}

/// What a versus game's events since the last report mean for its room, as a player's App and
/// a server bot seat both report them.
#[derive(Debug, Default)]
pub struct EventDigest {
    /// One `Report::Attack` per attack sent, in order.
    pub attacks: Vec<Report>,
    /// The board changed for good (a lock, a clear, garbage rising): send it now.
    pub board: bool,
    /// The running numbers changed.
    pub progress: bool,
    /// The piece moved, spawned or was held: the board may be sent when the pace allows.
    pub moved: bool,
    /// The game ended: `(won, forfeited)`.
    pub finished: Option<(bool, bool)>,
}

impl EventDigest {
    pub fn of<'a>(events: impl IntoIterator<Item = &'a Event>) -> EventDigest {
        let mut d = EventDigest::default();
        for e in events {
            match e.kind {
                EventKind::AttackSent { lines } if lines > 0 => {
                    d.attacks.push(Report::Attack { lines });
                    d.progress = true;
                }
                EventKind::Lock { .. }
                | EventKind::LineClear(_)
                | EventKind::GarbageRisen { .. }
                | EventKind::Respawn { .. } => {
                    d.board = true;
                    d.progress = true;
                }
                EventKind::GarbageQueued { .. } | EventKind::GarbageCancelled { .. } => {
                    d.progress = true;
                }
                EventKind::Move { .. }
                | EventKind::Rotate { .. }
                | EventKind::Fall { .. }
                | EventKind::Spawn { .. } => d.moved = true,
                // The held piece and the queue changed: spectators see them in the numbers.
                EventKind::Hold { .. } => {
                    d.moved = true;
                    d.progress = true;
                }
                EventKind::GameOver { won, reason } => {
                    d.finished = Some((won, reason == EndReason::Forfeit));
                }
                _ => {}
            }
        }
        d
    }
}

/// The reports that close a game in a room: how it ended, then its replay.
pub fn end_reports(game: &Game, won: bool, forfeit: bool) -> [Report; 2] {
    let progress = progress_of(game);
    [
        if forfeit {
            Report::Forfeited { progress }
        } else {
            Report::Finished { won, progress }
        },
        Report::Replay(Box::new(game.replay())),
    ]
}

/// The 20 visible rows of a game's board with its falling piece.
pub fn snapshot(game: &Game) -> BoardSnapshot {
    let board = game.board();
    let mut rows = vec![[0u8; WIDTH]; VISIBLE_HEIGHT];
    for (vy, row) in rows.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = match board.cell(x, BUFFER_HEIGHT + vy) {
                Cell::Empty => 0,
                Cell::Block(p) => p as u8 + 1,
                Cell::Garbage => 8,
            };
        }
    }
    if let Some(a) = game.active() {
        for (x, y) in a.placed.cells() {
            let vy = isize::from(y) - BUFFER_HEIGHT as isize;
            if (0..VISIBLE_HEIGHT as isize).contains(&vy) && (0..WIDTH as i8).contains(&x) {
                rows[vy as usize][x as usize] = a.placed.piece as u8 + 1;
            }
        }
    }
    BoardSnapshot { rows }
}

/// The player's running numbers.
pub fn progress_of(game: &Game) -> Progress {
    let stats = game.stats();
    let (ready, waiting) = game.garbage().pending();
    let mut next = [0u8; NEXT_SHOWN];
    for (slot, p) in next.iter_mut().zip(game.preview()) {
        *slot = p as u8 + 1;
    }
    Progress {
        lines: stats.lines,
        pieces: stats.pieces,
        attack_sent: stats.sent,
        garbage_received: stats.garbage_received,
        time_ms: game.now(),
        pending_garbage: ready + waiting,
        hold: game.hold_piece().map_or(0, |p| p as u8 + 1),
        next,
        lives: game.lives_left(),
    }
}
